"""Database errors leave the store typed (mnemosyne.errors), with the redis exception chained, and
the daemon tells "the database is not there" from a bad query by those types. Real parts only: the
session's FalkorDB, a private embedded server that is broken on purpose and stopped, a port nothing
listens on."""

from __future__ import annotations

import shutil
import socket
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from mnemosyne.config import Settings
from mnemosyne.daemon.state import is_db_error
from mnemosyne.errors import (
    DatabaseError,
    DatabaseUnavailable,
    IndexNotReady,
    QueryFailed,
    QueryTimeout,
    ReadOnlyViolation,
    StoreError,
)
from mnemosyne.store.connection import Database, connect
from mnemosyne.store.embedded import EmbeddedFalkorDB
from mnemosyne.store.graph import Graph


def _closed_port() -> int:
    """A local TCP port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _own_settings(home: Path) -> Settings:
    return Settings(home=home, falkordb_socket=home / "falkordb.sock", falkordb_url=None)


@pytest.fixture
def own_server() -> Iterator[tuple[EmbeddedFalkorDB, Database]]:
    """A private embedded server (this test breaks it and stops it) and a connection to it."""
    home = Path(tempfile.mkdtemp(prefix="mte-", dir="/tmp"))
    server = EmbeddedFalkorDB(_own_settings(home))
    server.start()
    db = connect(_own_settings(home), start=False)
    try:
        yield server, db
    finally:
        db.close()
        server.stop()
        shutil.rmtree(home, ignore_errors=True)


def _raised(fn: Callable[..., object], *args: Any, **kwargs: Any) -> StoreError:
    with pytest.raises(StoreError) as info:
        fn(*args, **kwargs)
    return info.value


def test_nothing_listening_is_database_unavailable(tmp_path: Path) -> None:
    port = _closed_port()
    settings = Settings(home=tmp_path, falkordb_url=f"redis://127.0.0.1:{port}")
    err = _raised(connect, settings)
    assert type(err) is DatabaseUnavailable and err.retry_later
    assert f"127.0.0.1:{port}" in str(err) and "MNEMOSYNE_FALKORDB_URL" in str(err)  # where, and what to do
    assert isinstance(err.__cause__, redis.ConnectionError)  # the original, chained
    assert is_db_error(err)


def test_bad_cypher_is_query_failed_naming_the_query(graph: Graph) -> None:
    err = _raised(graph.query, "MATCH (n) RETURN nosuchfunction(n)", label="probe.cypher")
    assert type(err) is QueryFailed and isinstance(err, DatabaseError) and not err.retry_later
    assert graph.name in str(err) and "probe.cypher" in str(err)
    assert isinstance(err.__cause__, redis.ResponseError)
    assert not is_db_error(err)  # a bug in a query: no back-off, the job fails


def test_query_timeout_is_a_query_failure(graph: Graph) -> None:
    graph.write_batches("UNWIND $rows AS r CREATE (:X {i: r.i})", [{"i": i} for i in range(1500)])
    err = _raised(graph.ro_query, "MATCH (a:X), (b:X), (c:X) RETURN count(*)", timeout_ms=50)
    assert type(err) is QueryTimeout and isinstance(err, QueryFailed)
    assert "timed out after 50 ms" in str(err)
    assert isinstance(err.__cause__, redis.ResponseError)
    assert not is_db_error(err)


def test_a_vector_query_without_its_index_is_index_not_ready(graph: Graph) -> None:
    """What search's vector probe tells apart by type: the k-NN procedure refusing its arguments."""
    graph.query("CREATE (:Function {embedding: vecf32([1.0, 0.0])})")
    knn = "CALL db.idx.vector.queryNodes('Function', 'embedding', 1, vecf32([1.0, 0.0])) YIELD node RETURN count(node)"
    err = _raised(graph.ro_query, knn)
    assert type(err) is IndexNotReady and isinstance(err, QueryFailed) and not err.retry_later
    assert graph.name in str(err) and isinstance(err.__cause__, redis.ResponseError)
    other = _raised(graph.ro_query, "CALL db.labels(1) YIELD label RETURN label")  # another procedure's arguments
    assert type(other) is QueryFailed


def test_write_sent_read_only_is_read_only_violation(graph: Graph) -> None:
    with pytest.raises(ReadOnlyViolation) as info:
        graph.ro_query("CREATE (:X)")
    assert isinstance(info.value.__cause__, redis.ResponseError)
    assert graph.ro_query("MATCH (x:X) RETURN count(x)") == [[0]]  # nothing written


def test_unknown_command_is_database_error(db: Database) -> None:
    err = _raised(db.execute, "NOSUCHCOMMAND")
    assert type(err) is DatabaseError and "NOSUCHCOMMAND" in str(err)
    assert isinstance(err.__cause__, redis.ResponseError)
    assert not is_db_error(err)


def test_server_states_then_a_stopped_server(own_server: tuple[EmbeddedFalkorDB, Database]) -> None:
    server, db = own_server
    g = db.graph("typed_errors")
    g.query("CREATE (:A {v: 1})")

    db.execute("CONFIG", "SET", "maxmemory", "1")  # every write refused: out of memory
    try:
        err = _raised(g.query, "CREATE (:A {v: 2})")
        assert type(err) is DatabaseError and "out of memory" in str(err) and "maxmemory" in str(err)
        assert isinstance(err.__cause__, redis.exceptions.OutOfMemoryError)
        assert g.ro_query("MATCH (a:A) RETURN count(a)") == [[1]]  # reads still served
    finally:
        db.execute("CONFIG", "SET", "maxmemory", "0")

    db.execute("REPLICAOF", "127.0.0.1", str(_closed_port()))  # a read-only replica of nothing
    try:
        err = _raised(g.query, "CREATE (:A {v: 3})")
        assert type(err) is DatabaseError and "read-only replica" in str(err)
        assert isinstance(err.__cause__, redis.ReadOnlyError)
    finally:
        db.execute("REPLICAOF", "NO", "ONE")
    assert g.query("CREATE (:A {v: 4}) RETURN 1") == [[1]]  # a primary again

    server.stop()
    for call in (lambda: g.query("RETURN 1"), lambda: db.execute("GRAPH.LIST"), db.info):
        err = _raised(call)
        assert type(err) is DatabaseUnavailable and db.address in str(err) and "mnemosyne db" in str(err)
        assert isinstance(err.__cause__, (redis.ConnectionError, OSError))
        assert is_db_error(err)
    assert type(_raised(connect, db.settings, start=False)) is DatabaseUnavailable


def test_daemon_classification_follows_the_chain_of_causes(graph: Graph, tmp_path: Path) -> None:
    unavailable = _raised(connect, Settings(home=tmp_path, falkordb_url=f"redis://127.0.0.1:{_closed_port()}"))
    bad_query = _raised(graph.query, "RETURN 1 +")

    def wrapped(inner: BaseException) -> BaseException:
        try:
            try:
                raise inner
            except StoreError as err:
                raise RuntimeError("ingest step failed") from err
        except RuntimeError as outer:
            return outer

    assert is_db_error(wrapped(unavailable))
    assert not is_db_error(wrapped(bad_query))
    with socket.socket() as s:  # a bare socket error, from a connection the store did not open
        with pytest.raises(ConnectionRefusedError) as refused:
            s.connect(("127.0.0.1", _closed_port()))
    assert is_db_error(refused.value)
    # a file that vanished is not the database (a path in the message does not make it one)
    with pytest.raises(FileNotFoundError) as missing:
        (tmp_path / "gone.sock").read_text()
    assert not is_db_error(missing.value)
