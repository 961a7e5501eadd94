"""Embedded server lifecycle: start, reuse, stop, and recovery after SIGKILL with data intact."""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mnemosyne.config import Settings
from mnemosyne.procs import pid_alive as _pid_alive
from mnemosyne.store.aof import incremental_bytes
from mnemosyne.store.connection import connect
from mnemosyne.store.embedded import EmbeddedFalkorDB

from .helpers import make_git_repo, run_cli


def own_settings(home: Path) -> Settings:
    """Settings for a private server: explicit socket, whatever the environment says."""
    return Settings(home=home, falkordb_socket=home / "falkordb.sock", falkordb_url=None)


@pytest.fixture
def own_home() -> Iterator[Path]:
    """A separate home (and server) so the session server is not disturbed."""
    home = Path(tempfile.mkdtemp(prefix="mnk-", dir="/tmp"))
    try:
        yield home
    finally:
        EmbeddedFalkorDB(own_settings(home)).stop()
        shutil.rmtree(home, ignore_errors=True)


def test_start_reuse_stop(own_home: Path) -> None:
    settings = own_settings(own_home)
    server = EmbeddedFalkorDB(settings)
    assert not server.is_running()
    assert server.status()["running"] is False
    pid = server.start()
    assert server.is_running()
    assert (own_home / "import").is_dir() and not any((own_home / "import").iterdir())
    assert (own_home / "falkordb.pid").read_text().strip() == str(pid)
    # A second object (as another CLI process would make) finds and reuses the same server.
    assert EmbeddedFalkorDB(settings).start() == pid
    status = server.status()
    assert status["running"] and status["pid"] == pid and status["graphs"] == []
    assert server.stop() is True
    assert not server.is_running() and not _pid_alive(pid)
    assert not (own_home / "falkordb.pid").exists()
    assert server.stop() is False


@pytest.mark.slow
def test_sigkill_then_start_recovers_with_data(own_home: Path) -> None:
    settings = own_settings(own_home)
    server = EmbeddedFalkorDB(settings)
    db = connect(settings)
    g = db.graph("survivor")
    g.ensure_schema()
    g.write_batches("UNWIND $rows AS r CREATE (:File {path: r.p})", [{"p": f"f{i}.py"} for i in range(50)])
    db.close()
    time.sleep(1.5)  # appendfsync everysec: let the AOF reach the disk
    pid = server._read_pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while _pid_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not server.is_running()
    assert settings.socket_path.exists()  # stale socket and pid file left behind
    new_pid = server.start()
    assert new_pid != pid
    db = connect(settings, start=False)
    assert db.graph("survivor").ro_query("MATCH (f:File) RETURN count(f)") == [[50]]
    db.close()


@pytest.mark.slow
def test_cli_recovers_after_sigkill(own_home: Path, tmp_path: Path) -> None:
    """Killing the server and running any command again recovers without manual steps."""
    env = {"MNEMOSYNE_HOME": str(own_home), "MNEMOSYNE_FALKORDB_SOCKET": str(own_home / "falkordb.sock"),
           "MNEMOSYNE_FALKORDB_URL": ""}
    repo = make_git_repo(tmp_path / "repo")
    assert run_cli("workspace", "add", str(repo), "--name", "k", env=env).returncode == 0
    time.sleep(1.5)
    pid = EmbeddedFalkorDB(own_settings(own_home)).status()["pid"]
    os.kill(pid, signal.SIGKILL)
    time.sleep(0.2)
    proc = run_cli("status", env=env)
    assert proc.returncode == 0, proc.stderr
    assert "k " in proc.stdout and "registered" in proc.stdout
    assert EmbeddedFalkorDB(own_settings(own_home)).status()["pid"] != pid


def test_adopts_server_whose_pid_file_vanished(own_home: Path) -> None:
    server = EmbeddedFalkorDB(own_settings(own_home))
    pid = server.start()
    (own_home / "falkordb.pid").unlink()
    assert not server.is_running()
    assert server.start() == pid  # adopted through the socket, no second server
    assert server.is_running()


@pytest.mark.slow
def test_concurrent_starts_share_one_server(own_home: Path) -> None:
    """Several commands starting the database at once end up with one server."""
    import subprocess
    import sys

    env = {**os.environ, "MNEMOSYNE_HOME": str(own_home), "MNEMOSYNE_FALKORDB_URL": "",
           "MNEMOSYNE_FALKORDB_SOCKET": str(own_home / "falkordb.sock")}  # fmt: skip
    code = "from mnemosyne.config import get_settings; from mnemosyne.store.embedded import EmbeddedFalkorDB; " \
           "print(EmbeddedFalkorDB(get_settings()).start())"  # fmt: skip
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True)
             for _ in range(3)]  # fmt: skip
    pids = {p.communicate(timeout=60)[0].strip() for p in procs}
    assert len(pids) == 1 and all(p.returncode == 0 for p in procs)
    assert EmbeddedFalkorDB(own_settings(own_home)).status()["pid"] == int(pids.pop())


def test_concurrent_ensure_schema(db) -> None:  # noqa: ANN001
    from concurrent.futures import ThreadPoolExecutor

    g = db.graph("schema_race")
    try:
        with ThreadPoolExecutor(4) as pool:
            list(pool.map(lambda _: g.ensure_schema(), range(4)))
        assert g.ensure_schema() == []
    finally:
        g.delete()


def _aof_files(home: Path) -> dict[str, bytes]:
    """The AOF's parts by kind ('b' base, 'i' incremental, per the manifest): their bytes."""
    d = home / "db" / "appendonlydir"
    out: dict[str, bytes] = {}
    for line in next(d.glob("*.manifest")).read_text().splitlines():
        parts = line.split()
        name, kind = parts[parts.index("file") + 1], parts[parts.index("type") + 1]
        out[kind] = out.get(kind, b"") + (d / name).read_bytes()
    assert incremental_bytes(home / "db") == len(out.get("i", b""))
    return out


def _rewrite_done(db) -> None:  # noqa: ANN001
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        p = db.info("persistence")
        if not int(p["aof_rewrite_in_progress"]) and not int(p["aof_rewrite_scheduled"]):
            return
        time.sleep(0.05)
    raise AssertionError("AOF rewrite still running after 30 s")


@pytest.mark.slow
def test_new_indexes_go_into_the_aof_base(own_home: Path) -> None:
    """An index created in the AOF's incremental part is not used while it is replayed (every
    later lookup scans its label: minutes to restart), so ensure_schema rewrites the AOF."""
    settings = own_settings(own_home)
    db = connect(settings)
    g = db.graph("idx")
    assert g.ensure_schema()  # created indexes
    _rewrite_done(db)
    g.write_batches("UNWIND $rows AS r CREATE (:File {path: r.p})", [{"p": f"f{i}.py"} for i in range(20)])
    time.sleep(1.2)  # appendfsync everysec
    parts = _aof_files(own_home)
    assert b"CREATE (:File" in parts["i"]  # the writes are in the incremental part ...
    assert b"INDEX" not in parts["i"].upper()  # ... and no index creation is left there
    assert g.ensure_schema() == [] and db.rewrite_log() is True
    db.close()
    # a restart after SIGKILL: the indexes come from the base, the data from the replay
    server = EmbeddedFalkorDB(settings)
    pid = server._read_pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    while _pid_alive(pid):
        time.sleep(0.05)
    server.start()
    db = connect(settings, start=False)
    g = db.graph("idx")
    assert g.ro_query("MATCH (f:File {path: 'f7.py'}) RETURN count(f)") == [[1]]
    plan = "\n".join(str(x) for x in db.execute("GRAPH.EXPLAIN", g.name, "MATCH (f:File {path: 'f7.py'}) RETURN f"))
    assert "Index Scan" in plan, plan
    db.close()


def test_clean_stop_compacts_the_aof(own_home: Path) -> None:
    """After a clean stop the next start loads a snapshot: no incremental part to replay."""
    settings = own_settings(own_home)
    db = connect(settings)
    g = db.graph("big")
    g.ensure_schema()
    rows = [{"p": f"src/module_{i:05d}.py", "t": "x" * 200} for i in range(6000)]  # > 1 MB of log
    g.write_batches("UNWIND $rows AS r CREATE (:File {path: r.p, text: r.t})", rows)
    db.close()
    server = EmbeddedFalkorDB(settings)
    assert server.stop() is True
    assert _aof_files(own_home)["i"] == b""
    server.start()
    db = connect(settings, start=False)
    assert db.graph("big").ro_query("MATCH (f:File) RETURN count(f)") == [[6000]]
    db.close()


@pytest.mark.slow
def test_start_from_a_restored_snapshot(own_home: Path) -> None:
    """Restoring an RDB backup (``dump.rdb``, no ``appendonlydir/``): redis with the AOF on would
    start empty and overwrite the snapshot; start() loads it, then turns the AOF on."""
    settings = own_settings(own_home)
    db = connect(settings)
    db.graph("kept").write_batches("UNWIND $rows AS r CREATE (:File {path: r.p})", [{"p": f"f{i}"} for i in range(30)])
    db.close()
    server = EmbeddedFalkorDB(settings)
    server.stop()
    shutil.rmtree(own_home / "db" / "appendonlydir")
    assert (own_home / "db" / "dump.rdb").is_file()
    server.start()
    assert (own_home / "db" / "appendonlydir").is_dir()
    db = connect(settings, start=False)
    g = db.graph("kept")
    assert g.ro_query("MATCH (f:File) RETURN count(f)") == [[30]]
    g.write_batches("UNWIND $rows AS r CREATE (:File {path: r.p})", [{"p": "after"}])
    assert int(db.info("persistence")["aof_enabled"]) == 1
    db.close()
    time.sleep(1.2)  # appendfsync everysec
    pid = server._read_pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)  # the AOF, not a snapshot, must hold the write after the restore
    while _pid_alive(pid):
        time.sleep(0.05)
    server.start()
    db = connect(settings, start=False)
    assert db.graph("kept").ro_query("MATCH (f:File) RETURN count(f)") == [[31]]
    db.close()


def test_replies_are_parsed_by_hiredis() -> None:
    """redis-py's pure-Python reply parser took 34 of the 41 ms a 1,200-row query cost on the
    client (callers of ``isinstance`` in mypy's history; the server needs 4 ms): the
    ``redis[hiredis]`` dependency must stay installed and in use."""
    import redis.utils
    from redis.connection import DefaultParser

    assert redis.utils.HIREDIS_AVAILABLE
    assert "Hiredis" in DefaultParser.__name__


def _server_holding_files(settings: Settings, n: int) -> tuple[EmbeddedFalkorDB, int]:
    """The embedded server started, with ``n`` File nodes in graph ``kept`` on disk; its pid."""
    db = connect(settings)
    db.graph("kept").write_batches("UNWIND $rows AS r CREATE (:File {path: r.p})", [{"p": f"f{i}"} for i in range(n)])
    db.close()
    time.sleep(1.2)  # appendfsync everysec
    server = EmbeddedFalkorDB(settings)
    pid = server._read_pid()
    assert pid is not None
    return server, pid


@pytest.mark.slow
def test_a_hung_server_is_replaced(own_home: Path, monkeypatch) -> None:  # noqa: ANN001
    """A server that answers nothing and uses no CPU (FalkorDB deadlocked at start-up, seen
    rarely under load; here: SIGSTOP) is killed and started again, with its data."""
    import mnemosyne.store.embedded as embedded

    monkeypatch.setattr(embedded, "HUNG_S", 1.0)
    settings = own_settings(own_home)
    server, pid = _server_holding_files(settings, 7)
    os.kill(pid, signal.SIGSTOP)
    try:
        t = time.monotonic()
        new_pid = server.start(wait_s=30)
        assert new_pid != pid and time.monotonic() - t < 20
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    db = connect(settings, start=False)
    assert db.graph("kept").ro_query("MATCH (f:File) RETURN count(f)") == [[7]]
    db.close()


@pytest.mark.slow
def test_a_hung_server_is_killed_on_stop(own_home: Path, monkeypatch) -> None:  # noqa: ANN001
    """Stopping a deadlocked server (SIGTERM never handled, no CPU used) does not wait the whole
    timeout: it is killed once it has made no progress for HUNG_S."""
    import mnemosyne.store.embedded as embedded

    monkeypatch.setattr(embedded, "HUNG_S", 1.0)
    server = EmbeddedFalkorDB(own_settings(own_home))
    pid = server.start()
    os.kill(pid, signal.SIGSTOP)
    t = time.monotonic()
    assert server.stop(timeout_s=60) is True
    assert not _pid_alive(pid) and time.monotonic() - t < 20


@pytest.mark.slow
def test_hang_watch_kills_a_deadlocked_server_only(own_home: Path) -> None:
    """The daemon's watch (``HangWatch``): a server answering PING is left alone however long it
    is watched; one that answers nothing and uses no CPU (deadlocked in the middle of a query;
    here SIGSTOP) is killed after ``hung_s``, unless a start or stop holds the lock, and the next
    start brings it back with its data."""
    import fcntl

    from mnemosyne.store.embedded import HangWatch

    settings = own_settings(own_home)
    server, pid = _server_holding_files(settings, 5)
    watch = HangWatch(server, hung_s=0.5)
    for _ in range(4):
        assert watch.check() is False
        time.sleep(0.3)
    os.kill(pid, signal.SIGSTOP)
    try:
        with open(own_home / "falkordb.lock", "a") as fh:  # another process is starting or stopping it
            fcntl.flock(fh, fcntl.LOCK_EX)
            t = time.monotonic()
            while time.monotonic() - t < 4:
                assert watch.check() is False
                time.sleep(0.2)
            fcntl.flock(fh, fcntl.LOCK_UN)
        assert _pid_alive(pid)
        t = time.monotonic()
        killed = False
        while not killed and time.monotonic() - t < 10:
            killed = watch.check()
            time.sleep(0.2)
        assert killed and not _pid_alive(pid)
        assert not (own_home / "falkordb.pid").exists()
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert watch.check() is False  # nothing running: nothing to do
    assert server.start() != pid
    db = connect(settings, start=False)
    assert db.graph("kept").ro_query("MATCH (f:File) RETURN count(f)") == [[5]]
    db.close()
