"""Read-only Cypher for users and agents (``mnemosyne cypher``, the MCP cypher tool).

Three guards: a lexical check (write clauses and ``LOAD CSV`` are refused before anything runs,
which also covers graphs that do not exist yet, where the server answers every query with "empty
key"), ``GRAPH.RO_QUERY`` on the server (the real barrier), and a short timeout plus a row cap so
an agent's query cannot starve ingestion (a long read blocks writes to that graph).

The row cap holds on the server whatever the query's text (``bounded_query``): a query whose final
``RETURN`` has no ``LIMIT`` gets ``LIMIT cap+1`` appended; one with its own ``LIMIT`` above the cap
(or a parameter), a ``UNION``, or a ``}`` after its final ``RETURN`` runs inside
``CALL { ... } RETURN * LIMIT cap+1``, so the server stops after cap+1 rows (its columns then come
in alphabetical order, which is how FalkorDB expands ``RETURN *``). A query without ``RETURN`` (a
bare ``CALL proc()``) is refused: nothing would bound its rows. The server's memory per query is
bounded too (``QUERY_MEM_CAPACITY``, set when the embedded server starts): a query that builds a
huge list is stopped (``QueryTooLarge``) instead of running past its timeout.
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
_OWN_LIMIT = re.compile(r"(?<![.:\w$])LIMIT\s+(\d+)\s*;*\s*$", re.I)  # a literal LIMIT ending the query
_END_OF_PROJECTION = re.compile(r"(ORDER\s+BY|SKIP|LIMIT)\b|;", re.I)
_ALIAS = re.compile(r"\s+AS\s+(`[^`]+`|\w+)\s*$", re.I)
_DISTINCT = re.compile(r"^\s*DISTINCT\b", re.I)
_EXPLAIN = re.compile(r"^\s*EXPLAIN\b", re.I)
_PROFILE = re.compile(r"^\s*PROFILE\b", re.I)
WRITE_MESSAGE = "read-only: CREATE/MERGE/SET/DELETE are not allowed"


class ReadOnlyResult(BaseModel):
    """Columns, JSON-friendly rows (at most the row cap), whether rows were cut, rows fetched.

    The server stops after ``cap+1`` rows whatever the query (``bounded_query``), so
    ``row_count`` is at most ``cap+1``; ``truncated`` is exact.
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


_RANGE_CALL = re.compile(r"(?<![.\w$])range\s*\(", re.I)
_INT_OR_PARAM = re.compile(r"^\s*(-?\d+|\$\w+)\s*$")


def check_ranges(cypher: str, params: Mapping[str, Any] | None = None) -> None:
    """``ReadOnlyViolation`` for a ``range()`` whose bounds (integer literals or parameters) span
    more than ``MAX_RANGE_ITEMS``: FalkorDB builds the whole list in one step, before its timeout
    or its memory cap is checked (``RETURN size(range(1, 200000000))`` held 3.2 GB for 10 s)."""
    from mnemosyne.limits import MAX_RANGE_ITEMS

    code = strip_strings_and_comments(cypher)
    for m in _RANGE_CALL.finditer(code):
        depth, args, cur, i = 1, [], "", m.end()
        while i < len(code) and depth:
            ch = code[i]
            depth += ch in "([{"
            depth -= ch in ")]}"
            if depth == 1 and ch == ",":
                args.append(cur)
                cur = ""
            elif depth:
                cur += ch
            i += 1
        args.append(cur)
        values = []
        for a in args[:3]:
            mm = _INT_OR_PARAM.match(a)
            if not mm:
                break
            tok = mm.group(1)
            v = (params or {}).get(tok[1:]) if tok.startswith("$") else int(tok)
            if not isinstance(v, int) or isinstance(v, bool):
                break
            values.append(v)
        else:
            if len(values) >= 2:
                step = values[2] if len(values) > 2 and values[2] else 1
                items = (values[1] - values[0]) // step + 1
                if items > MAX_RANGE_ITEMS:
                    raise ReadOnlyViolation(f"range() of {items:,} items is too large for a read-only query "
                                            f"(at most {MAX_RANGE_ITEMS:,})")  # fmt: skip


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
    check_ranges(cypher, params)
    limited, order = bounded_query(cypher, cap + 1) if cap >= 0 else (cypher, None)
    result = graph.query_result(limited, params, timeout, readonly=True, label="read-only query")
    columns = [_column_name(h) for h in result.header]
    rows = result.result_set
    if order and order != columns and sorted(order) == sorted(columns) and len(set(order)) == len(order):
        at = [columns.index(c) for c in order]  # wrapped: back to the query's own column order
        columns, rows = order, [[row[k] for k in at] for row in rows]
    kept = rows[:cap] if cap >= 0 else rows
    return ReadOnlyResult(
        columns=columns,
        rows=[[to_jsonable(v) for v in row] for row in kept],
        truncated=len(rows) > len(kept),
        row_count=len(rows),
    )


def bounded_query(cypher: str, limit: int) -> tuple[str, list[str] | None]:
    """``cypher`` rewritten so that the server returns at most ``limit`` rows, whatever its text
    (module docstring), and, when it had to be wrapped, the column names in the order the query
    gives them (``RETURN *`` sorts them). ``ReadOnlyViolation`` for a query that cannot be bounded."""
    code = strip_strings_and_comments(cypher)
    if _EXPLAIN.match(code):
        return cypher, None  # a plan: nothing runs
    returns = list(_RETURN.finditer(code))
    if not returns:
        raise ReadOnlyViolation("a read-only query must end with RETURN so that its rows can be capped "
                                "(e.g. CALL db.labels() YIELD label RETURN label)")  # fmt: skip
    last = returns[-1]
    tail = code[last.end():]
    top_level = code[: last.start()].count("{") == code[: last.start()].count("}")
    if not _UNION.search(code) and top_level:
        if not _LIMIT.search(tail):
            return with_row_limit(cypher, limit, force=True), None
        own = _OWN_LIMIT.search(tail)
        if own and int(own.group(1)) <= limit:
            return cypher, None  # its own LIMIT is within the cap: the server stops there
    if _PROFILE.match(code):
        raise ReadOnlyViolation("PROFILE of this query cannot be capped: drop PROFILE, or end it with LIMIT n "
                                f"(n <= {limit})")  # fmt: skip
    body = cypher.rstrip()
    while body.endswith(";"):
        body = body[:-1].rstrip()
    return f"CALL {{\n{body}\n}}\nRETURN * LIMIT {int(limit)}", projection_names(cypher)


def projection_names(cypher: str) -> list[str] | None:
    """The column names of the query's final ``RETURN`` (alias, else the expression's text), or
    None when it cannot tell (``RETURN *``)."""
    items: list[str] = []
    cur: list[str] = []
    depth, quote, i, n = 0, "", 0, len(cypher)
    start = None
    while i < n:  # find the final top-level RETURN outside strings and comments
        ch = cypher[i]
        if quote:
            if ch == "\\" and quote != "`":
                i += 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "'\"`":
            quote = ch
        elif cypher.startswith("//", i):
            j = cypher.find("\n", i)
            i = n if j < 0 else j
            continue
        elif cypher.startswith("/*", i):
            j = cypher.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and _RETURN.match(cypher, i) and (i == 0 or not (cypher[i - 1].isalnum() or cypher[i - 1] in "_.:$")):
            start = i + len("RETURN")
        i += 1
    if start is None:
        return None
    text = cypher[start:]
    depth, quote, i = 0, "", 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"`":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and ch == ",":
            items.append("".join(cur))
            cur = []
            i += 1
            continue
        elif depth == 0 and (text.startswith("//", i) or _END_OF_PROJECTION.match(text, i)) and (
                i == 0 or not text[i - 1].isalnum()):
            break
        cur.append(ch)
        i += 1
    items.append("".join(cur))
    names = []
    for item in items:
        item = item.strip().rstrip(";").strip()
        if not item or item == "*":
            return None
        m = _ALIAS.search(item)
        names.append(m.group(1).strip("`") if m else item)
    names[0] = _DISTINCT.sub("", names[0]).strip()
    return names


def with_row_limit(cypher: str, limit: int, force: bool = False) -> str:
    """``cypher`` with ``LIMIT limit`` appended when its final RETURN has no LIMIT (and no UNION,
    and no ``}`` after it); with ``force`` (the caller checked), appended regardless."""
    if not force:
        code = strip_strings_and_comments(cypher)
        if _UNION.search(code):
            return cypher
        returns = list(_RETURN.finditer(code))
        if not returns:
            return cypher  # e.g. a bare CALL procedure()
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
