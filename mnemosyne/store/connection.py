"""Connecting to FalkorDB: an external server (``MNEMOSYNE_FALKORDB_URL``) or the embedded one.

    db = connect()                 # starts the embedded server if needed
    g = db.graph("demo")           # graph key "ws_demo"
    g.ensure_schema()
    g.write_batches("UNWIND $rows AS r MERGE (f:File {path: r.path})", rows)
    rows = g.ro_query("MATCH (f:File) RETURN f.path")
"""

from __future__ import annotations

import logging
import re
from functools import cached_property
from typing import TYPE_CHECKING, Any

import redis
from falkordb import FalkorDB

from mnemosyne.config import Settings, get_settings
from mnemosyne.errors import ConfigError, DatabaseUnavailable
from mnemosyne.store import db_errors
from mnemosyne.store.aof import rewrite_aof
from mnemosyne.store.db_errors import CONNECTION_ERRORS, cannot_save_message, is_cannot_save
from mnemosyne.store.embedded import EmbeddedFalkorDB
from mnemosyne.store.graph import Graph
from mnemosyne.store.keys import SIDE_SUFFIX, WORKSPACE_PREFIX, graph_key

if TYPE_CHECKING:
    from mnemosyne.store.registry import WorkspaceRegistry

log = logging.getLogger(__name__)

_CONNECT_TIMEOUT_S = 5.0
_URL_SCHEMES = ("redis://", "rediss://", "unix://", "falkor://", "falkors://")


class Database:
    """A connection to one FalkorDB server (sync client; thread-safe through redis-py's pool)."""

    def __init__(self, client: FalkorDB, address: str, settings: Settings, embedded: bool) -> None:
        self.client = client
        self.address = address
        self.settings = settings
        self.embedded = embedded
        self.cannot_save = False  # the server answered MISCONF when connected: reads only (store/graph.py)

    def __repr__(self) -> str:
        return f"Database({self.address})"

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def graph(self, workspace_name: str) -> Graph:
        """The graph of a workspace (key ``ws_<name>``); it need not exist yet."""
        return Graph(self, graph_key(workspace_name), workspace=workspace_name)

    def raw_graph(self, key: str) -> Graph:
        """A graph by its FalkorDB key, without the ``ws_`` prefix rule (registry, tools)."""
        return Graph(self, key)

    @cached_property
    def registry(self) -> WorkspaceRegistry:
        from mnemosyne.store.registry import WorkspaceRegistry

        return WorkspaceRegistry(self)

    def execute(self, *args: Any) -> Any:
        """A raw server command, with typed errors."""
        try:
            return self.client.connection.execute_command(*args)
        except CONNECTION_ERRORS as err:
            raise db_errors.unreachable(self.address, err, self.embedded) from err
        except redis.RedisError as err:
            raise db_errors.command_failed(self.address, err, str(args[0])) from err

    def ping(self) -> bool:
        return bool(self.execute("PING"))

    def list_graphs(self) -> list[str]:
        return sorted(_text(g) for g in self.execute("GRAPH.LIST"))

    def workspace_graphs(self) -> list[str]:
        """Workspace names that have a graph (a history being built on the side is not one)."""
        return [g[len(WORKSPACE_PREFIX):] for g in self.list_graphs()
                if g.startswith(WORKSPACE_PREFIX) and not g.endswith(SIDE_SUFFIX)]

    def info(self, section: str | None = None) -> dict[str, Any]:
        try:
            return self.client.connection.info(section) if section else self.client.connection.info()
        except CONNECTION_ERRORS as err:
            raise db_errors.unreachable(self.address, err, self.embedded) from err
        except redis.RedisError as err:
            raise db_errors.command_failed(self.address, err, "INFO") from err

    def rewrite_log(self, wait_s: float = 0.0) -> bool:
        """Compact the server's append-only file (store/aof.py: why); False if none was started."""
        return rewrite_aof(self.client.connection, wait_s)

    def close(self) -> None:
        self.client.close()


def connect(settings: Settings | None = None, start: bool = True) -> Database:
    """Connect to ``settings.falkordb_url``, else to the embedded server (started if ``start``).

    Raises ``DatabaseUnavailable`` (one line: the address tried and what to do) when unreachable.
    """
    settings = settings or get_settings()
    if settings.falkordb_url:
        return _connect_url(settings, settings.falkordb_url)
    return _connect_embedded(settings, start)


def _connect_url(settings: Settings, url: str) -> Database:
    if not url.startswith(_URL_SCHEMES):
        raise ConfigError(
            f"MNEMOSYNE_FALKORDB_URL={url!r} is not a redis://, rediss:// or unix:// URL"
        )
    try:
        client = FalkorDB.from_url(
            url, socket_connect_timeout=_CONNECT_TIMEOUT_S, socket_timeout=_socket_timeout(settings)
        )
    except ValueError as err:
        raise ConfigError(f"MNEMOSYNE_FALKORDB_URL={url!r} is invalid: {err}") from None
    except CONNECTION_ERRORS as err:
        # the client probes the server (sentinel/cluster detection) while connecting
        raise db_errors.unreachable(_redact(url), err, embedded=False) from err
    db = Database(client, _redact(url), settings, embedded=False)
    _check_reachable(db)
    return db


def _connect_embedded(settings: Settings, start: bool) -> Database:
    server = EmbeddedFalkorDB(settings)
    if not server.is_running():
        if not start:
            raise DatabaseUnavailable(
                f"the embedded FalkorDB is not running (socket {server.socket}); run `mnemosyne db start`"
            )
        server.start()
    client = FalkorDB(
        unix_socket_path=str(server.socket),
        socket_connect_timeout=_CONNECT_TIMEOUT_S,
        socket_timeout=_socket_timeout(settings),
    )
    db = Database(client, server.address, settings, embedded=True)
    _check_reachable(db)
    return db


def _check_reachable(db: Database) -> None:
    try:
        db.client.connection.ping()
    except CONNECTION_ERRORS as err:
        db.close()
        raise db_errors.unreachable(db.address, err, db.embedded) from err
    except redis.ResponseError as err:  # e.g. NOAUTH, or a plain redis without the module later
        if is_cannot_save(err):  # it runs and serves reads; writes say what to do (Graph.query_result)
            log.info("%s", cannot_save_message(db.address))
            db.cannot_save = True
            return
        db.close()
        raise DatabaseUnavailable(f"FalkorDB at {db.address} refused the connection ({err}); check the URL "
                                  "credentials") from err


def _socket_timeout(settings: Settings) -> float | None:
    # Longer than any server-side query timeout, so the server's "timed out" answer arrives first.
    longest = max(settings.query_timeout_max_ms, settings.query_timeout_ms)
    return longest / 1000 + 30 if longest > 0 else None


def _redact(url: str) -> str:
    """The URL without its password."""
    return re.sub(r"//([^:/@]*):[^@]*@", r"//\1:***@", url)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
