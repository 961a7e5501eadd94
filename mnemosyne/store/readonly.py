"""Read-only Cypher for users and agents (``mnemosyne cypher``, the MCP cypher tool).

Three guards: a lexical check (write clauses and ``LOAD CSV`` are refused before anything runs,
which also covers graphs that do not exist yet, where the server answers every query with "empty
key"), ``GRAPH.RO_QUERY`` on the server (the real barrier), and a short timeout plus a row cap so
an agent's query cannot starve ingestion (a long read blocks writes to that graph).
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from collections.abc import Mapping
from typing import Any

from falkordb import Edge, Node, Path
from pydantic import BaseModel

from mnemosyne.config import get_settings
from mnemosyne.errors import ReadOnlyViolation
from mnemosyne.store.graph import Graph
from mnemosyne.store.named_queries import strip_strings_and_comments

_WRITE_CLAUSE = re.compile(r"(?<![.:\w$])(CREATE|MERGE|SET|DELETE|DETACH|REMOVE|DROP|FOREACH)(?!\w)(?!\s*:)", re.I)
_LOAD_CSV = re.compile(r"\bLOAD\s+CSV\b", re.I)
_WRITE_PROCEDURE = re.compile(r"\bdb\.idx\.\w+\.(create\w*|drop\w*)\b|\bdb\.(create|drop)\w*", re.I)
_UNION = re.compile(r"\bUNION\b", re.I)
_RETURN = re.compile(r"(?<![.:\w$])RETURN\b", re.I)
_LIMIT = re.compile(r"(?<![.:\w$])LIMIT\b", re.I)
WRITE_MESSAGE = "read-only: CREATE/MERGE/SET/DELETE are not allowed"


class ReadOnlyResult(BaseModel):
    """Columns, JSON-friendly rows (at most the row cap), whether rows were cut, rows fetched.

    A query without a ``LIMIT`` of its own (and without ``UNION``) is run with ``LIMIT cap+1``, so
    the server stops early; ``row_count`` is then at most ``cap+1``. ``truncated`` is exact.
    """

    columns: list[str]
    rows: list[list[Any]]
    truncated: bool
    row_count: int  # rows fetched from the server (> len(rows) exactly when truncated)


def check_readonly(cypher: str) -> None:
    """Raise ``ReadOnlyViolation`` for write clauses, index procedures or ``LOAD CSV``."""
    code = strip_strings_and_comments(cypher)
    if _LOAD_CSV.search(code):
        raise ReadOnlyViolation("read-only: LOAD CSV is not allowed (queries may not read files)")
    m = _WRITE_CLAUSE.search(code)
    if m:
        raise ReadOnlyViolation(f"{WRITE_MESSAGE} (found {m.group(1).upper()})")
    m = _WRITE_PROCEDURE.search(code)
    if m:
        raise ReadOnlyViolation(f"read-only: index procedures are not allowed (found {m.group(0)})")


def run_readonly(
    graph: Graph,
    cypher: str,
    params: dict[str, Any] | None = None,
    timeout_ms: int | None = None,
    max_rows: int | None = None,
) -> ReadOnlyResult:
    """Run user/agent Cypher read-only with a timeout and a row cap (settings defaults)."""
    settings = graph.db.settings if graph.db is not None else get_settings()
    timeout = timeout_ms if timeout_ms is not None else settings.readonly_timeout_ms
    cap = max_rows if max_rows is not None else settings.readonly_max_rows
    check_readonly(cypher)
    limited = with_row_limit(cypher, cap + 1) if cap >= 0 else cypher
    result = graph.query_result(limited, params, timeout, readonly=True, label="read-only query")
    columns = [_column_name(h) for h in result.header]
    rows = result.result_set
    kept = rows[:cap] if cap >= 0 else rows
    return ReadOnlyResult(
        columns=columns,
        rows=[[to_jsonable(v) for v in row] for row in kept],
        truncated=len(rows) > len(kept),
        row_count=len(rows),
    )


def with_row_limit(cypher: str, limit: int) -> str:
    """``cypher`` with ``LIMIT limit`` appended when its final RETURN has no LIMIT (and no UNION)."""
    code = strip_strings_and_comments(cypher)
    if _UNION.search(code):
        return cypher
    returns = list(_RETURN.finditer(code))
    if not returns:
        return cypher  # e.g. a bare CALL procedure(): leave it alone, the cap applies client-side
    tail = code[returns[-1].end():]
    if _LIMIT.search(tail) or "}" in tail:
        return cypher
    body = cypher.rstrip()
    while body.endswith(";"):
        body = body[:-1].rstrip()
    return f"{body}\nLIMIT {int(limit)}"


def _column_name(header: Any) -> str:
    if isinstance(header, (list, tuple)) and len(header) == 2:
        return str(header[1])
    return str(header)


def to_jsonable(value: Any) -> Any:
    """Nodes, edges and paths as dicts of labels/type and properties; dates as ISO strings."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Node):
        return {"labels": list(value.labels or []), "properties": to_jsonable(value.properties)}
    if isinstance(value, Edge):
        return {"type": value.relation, "properties": to_jsonable(value.properties)}
    if isinstance(value, Path):
        return {"nodes": [to_jsonable(n) for n in value.nodes()], "edges": [to_jsonable(e) for e in value.edges()]}
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time)):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)
