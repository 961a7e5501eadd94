"""``Graph``: a thin wrapper over ``falkordb.Graph`` with typed errors and batching.

- FalkorDB errors become the typed errors of ``mnemosyne.errors`` (built by ``store/db_errors.py``,
  the redis exception chained): ``QueryFailed`` (message names the query: its file name or first
  line), ``QueryTimeout``, ``QueryTooLarge``; connection failures become ``DatabaseUnavailable``.
- A server whose last background save failed (``MISCONF``) refuses every ``GRAPH.QUERY``: a read
  sent that way is run again as ``GRAPH.RO_QUERY``, which it still serves; a write raises
  ``CannotSave`` (one line: what to do) and asks the server to try saving again.
- Reading a graph that does not exist yet gives empty results (FalkorDB would say "Invalid graph
  operation on empty key").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import redis
from falkordb import Graph as _FalkorGraph

from mnemosyne.errors import CannotSave, DatabaseError, ReadOnlyViolation
from mnemosyne.store import db_errors, named_queries
from mnemosyne.store.db_errors import CONNECTION_ERRORS, EMPTY_KEY, RO_REJECTED, cannot_save_message, is_cannot_save

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database

_SAVE_RETRY_S = 5.0  # at most one BGSAVE asked for per this many seconds (a refused write asks)
_save_asked_at = 0.0
_UNWIND_ROWS = re.compile(r"^\s*UNWIND\s+\$rows\s+AS\s+r\b", re.I)


def ask_for_save(client: Any) -> None:
    """Ask for a background save (at most once per ``_SAVE_RETRY_S``): once the disk is fixed it
    succeeds and writes resume at once, instead of at the server's next save point (minutes)."""
    global _save_asked_at
    import time

    now = time.monotonic()
    if now - _save_asked_at < _SAVE_RETRY_S:
        return
    _save_asked_at = now
    try:
        client.execute_command("BGSAVE")
    except (redis.RedisError, OSError):  # one already runs, or it failed at once: said by the caller
        pass


class EmptyResult:
    """Stands in for a ``falkordb.QueryResult`` when the graph does not exist yet."""

    header: list = []
    result_set: list = []
    nodes_created = relationships_created = properties_set = nodes_deleted = relationships_deleted = 0
    labels_added = labels_removed = properties_removed = indices_created = indices_deleted = 0
    cached_execution = False
    run_time_ms = 0.0


def query_label(cypher: str, label: str | None = None) -> str:
    """How a query is named in error messages: its file name, else its first non-comment line."""
    if label:
        return label
    for line in cypher.strip().splitlines():
        line = line.strip()
        if line and not line.startswith("//"):
            return line[:120]
    return "<empty query>"


class Graph:
    """One FalkorDB graph (a workspace graph ``ws_<name>``, or the registry)."""

    def __init__(self, db: Database, key: str, workspace: str | None = None) -> None:
        self.db = db
        self.name = key  # the FalkorDB key, e.g. "ws_demo"
        self.workspace = workspace  # the workspace name, e.g. "demo" (None for the registry)
        self._graph: _FalkorGraph = db.client.select_graph(key)

    def __repr__(self) -> str:
        return f"Graph({self.name!r} at {self.db.address})"

    @property
    def raw(self) -> _FalkorGraph:
        """The underlying ``falkordb.Graph`` (escape hatch: prefer the methods below)."""
        return self._graph

    # -- queries ------------------------------------------------------------------------------

    def query_result(
        self,
        cypher: str,
        params: dict[str, Any] | None = None,
        timeout_ms: int | None = None,
        *,
        readonly: bool = False,
        label: str | None = None,
    ) -> Any:
        """The raw falkordb result (``.header``, ``.result_set``, statistics)."""
        timeout = self._timeout(timeout_ms)
        try:
            if readonly:
                return self._graph.ro_query(cypher, params, timeout=timeout)
            return self._graph.query(cypher, params, timeout=timeout)
        except redis.ResponseError as err:
            msg = str(err)
            if EMPTY_KEY in msg:
                return EmptyResult()
            name = query_label(cypher, label)
            if RO_REJECTED in msg:
                raise ReadOnlyViolation(
                    f"read-only: CREATE/MERGE/SET/DELETE are not allowed (query {name!r})"
                ) from err
            if is_cannot_save(err):
                if not readonly:  # a read sent as GRAPH.QUERY: the server serves it read-only
                    try:
                        return self.query_result(cypher, params, timeout_ms, readonly=True, label=label)
                    except ReadOnlyViolation:
                        pass  # a write: refused until the server can save again
                ask_for_save(self.db.client.connection)
                raise CannotSave(cannot_save_message(self.db.address)) from err
            refused = db_errors.server_refused(self.db.address, err, f"query {name!r}")
            if refused is not None:
                raise refused from err
            raise db_errors.query_failed(self.name, name, err, timeout, self.db.settings.query_mem_capacity_mb) from err
        except CONNECTION_ERRORS as err:
            raise db_errors.lost(self.db.address, err) from err
        except redis.RedisError as err:  # an answer redis-py could not read, ...
            raise DatabaseError(f"FalkorDB error in graph {self.name}, query {query_label(cypher, label)!r}: "
                                f"{type(err).__name__}: {err}") from err

    def query(
        self,
        cypher: str,
        params: dict[str, Any] | None = None,
        timeout_ms: int | None = None,
        *,
        label: str | None = None,
    ) -> list[list[Any]]:
        """Run a (read or write) query; returns the result rows."""
        return self.query_result(cypher, params, timeout_ms, label=label).result_set

    def ro_query(
        self,
        cypher: str,
        params: dict[str, Any] | None = None,
        timeout_ms: int | None = None,
        *,
        label: str | None = None,
    ) -> list[list[Any]]:
        """Run a query with GRAPH.RO_QUERY (the server refuses writes); returns the rows."""
        return self.query_result(cypher, params, timeout_ms, readonly=True, label=label).result_set

    def run_named(
        self,
        query_name: str,
        params: dict[str, Any] | None = None,
        readonly: bool = True,
        timeout_ms: int | None = None,
    ) -> list[list[Any]]:
        """Run ``cypher/<query_name>.cypher`` with ``params``; returns the rows."""
        cypher = named_queries.load(query_name)
        result = self.query_result(cypher, params, timeout_ms, readonly=readonly, label=f"{query_name}.cypher")
        return result.result_set

    def write_batches(
        self,
        cypher: str,
        rows: list[dict[str, Any]],
        batch_size: int | None = None,
        *,
        params: dict[str, Any] | None = None,
        label: str | None = None,
    ) -> dict[str, int]:
        """Run ``cypher`` (starting ``UNWIND $rows AS r``) once per chunk of ``rows``.

        Each chunk is one atomic query; the sequence is not. ``params`` adds further parameters
        shared by all chunks. Returns summed statistics (nodes/relationships created, properties
        set, ...).
        """
        if not _UNWIND_ROWS.match(_strip_leading_comments(cypher)):
            raise ValueError("write_batches: the query must start with 'UNWIND $rows AS r'")
        size = batch_size or self.db.settings.write_batch_size
        if size < 1:
            raise ValueError("write_batches: batch_size must be >= 1")
        totals = {"batches": 0, "rows": 0, "nodes_created": 0, "relationships_created": 0,
                  "properties_set": 0, "nodes_deleted": 0, "relationships_deleted": 0}  # fmt: skip
        for chunk in _chunks(rows, size):
            res = self.query_result(cypher, {**(params or {}), "rows": chunk}, label=label)
            totals["batches"] += 1
            totals["rows"] += len(chunk)
            for key in ("nodes_created", "relationships_created", "properties_set", "nodes_deleted",
                        "relationships_deleted"):  # fmt: skip
                totals[key] += int(getattr(res, key, 0) or 0)
        return totals

    # -- schema and lifecycle -----------------------------------------------------------------

    def ensure_schema(self) -> list[str]:
        """Create the indexes of cypher/schema.cypher that are missing; returns what ran."""
        from mnemosyne.store.schema import ensure_schema, parse_index

        ran = ensure_schema(self)
        if any(parse_index(st) is not None for st in ran):
            # an index created in the log's incremental part makes its replay scan labels
            # (Database.rewrite_log): put the new indexes into the base snapshot now
            self.db.rewrite_log()
        return ran

    def indexes(self) -> list[dict[str, Any]]:
        """The graph's indexes (``CALL db.indexes()``) as dicts."""
        from mnemosyne.store.schema import describe_indexes

        return describe_indexes(self)

    def exists(self) -> bool:
        return self.name in self.db.list_graphs()

    def delete(self) -> bool:
        """Drop the whole graph; False if it did not exist."""
        if not self.exists():
            return False
        try:
            self._graph.delete()
        except CONNECTION_ERRORS as err:
            raise db_errors.lost(self.db.address, err) from err
        except redis.RedisError as err:
            refused = db_errors.server_refused(self.db.address, err, f"deleting graph {self.name}")
            raise (refused or DatabaseError(f"cannot delete graph {self.name}: {err}")) from err
        return True

    def memory_usage_mb(self) -> dict[str, Any]:
        """``GRAPH.MEMORY USAGE``: sizes in MB by component (empty for a missing graph)."""
        if not self.exists():
            return {}
        flat = self.db.execute("GRAPH.MEMORY", "USAGE", self.name)
        return {str(flat[i]): flat[i + 1] for i in range(0, len(flat) - 1, 2)}

    # -- helpers ------------------------------------------------------------------------------

    def _timeout(self, timeout_ms: int | None) -> int | None:
        if timeout_ms is None:
            return None
        timeout = int(timeout_ms)
        limit = self.db.settings.query_timeout_max_ms
        if self.db.embedded and limit > 0:  # the server refuses timeouts above TIMEOUT_MAX
            timeout = min(timeout, limit)
        return max(timeout, 1)


def _strip_leading_comments(cypher: str) -> str:
    lines = cypher.strip().splitlines()
    while lines and (not lines[0].strip() or lines[0].strip().startswith("//")):
        lines.pop(0)
    return "\n".join(lines)


def _chunks(rows: list[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    for i in range(0, len(rows), size):
        yield rows[i : i + size]
