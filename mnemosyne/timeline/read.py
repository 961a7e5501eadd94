"""Small graph reads the ingestion side needs (callgraph from the graph, commit lookup).

The query layer (mnemosyne.query) answers users' questions; these helpers exist so that
``mnemosyne callgraph`` reads exactly the versions the ingester wrote, with the same confidence
cut as :func:`mnemosyne.callgraph.to_pycg`, so a graph answer equals a from-source answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from mnemosyne import vocabulary as V
from mnemosyne.temporal import holds_at

if TYPE_CHECKING:
    from mnemosyne.store.handles import GraphHandle

_HOLDS = holds_at("e", "$s")
CALLABLE_KINDS = ("module", "function", "method", "lambda")


class CallSites(NamedTuple):
    """Where a CALLS version's calls are, relative to its caller (see ``calls_at``)."""

    rel_lines: list[int]
    lines_hash: str | None
    caller_line: int | None
    caller_hash: str | None
    caller_file: str | None


def _rows(graph: GraphHandle, cypher: str, params: dict) -> list[list]:
    fn = getattr(graph, "ro_query", None) or graph.query
    res = fn(cypher, params)
    return res.result_set if hasattr(res, "result_set") else list(res)


def commit_seq(graph: GraphHandle, commit_hash: str) -> int | None:
    """Timeline position of a believed commit in the graph, else None."""
    rows = _rows(graph, f"MATCH (c:{V.COMMIT} {{hash: $h}}) RETURN c.seq", {"h": commit_hash})
    return int(rows[0][0]) if rows and rows[0][0] is not None else None


def ingested_head(graph: GraphHandle) -> tuple[int | None, str | None]:
    rows = _rows(graph, f"MATCH (m:{V.META} {{key: 'ingest'}}) RETURN m.last_seq, m.last_commit", {})
    if not rows or rows[0][0] is None:
        return None, None
    return int(rows[0][0]), rows[0][1]


def calls_at(graph: GraphHandle, seq: int) -> list[tuple[str, str, str, float, CallSites]]:
    """Every CALLS version holding at ``seq``: (caller, callee, resolution, confidence, sites).
    ``sites``: the call-site offsets from the caller's first line, the caller body they were
    measured on, and the caller node's latest first line, body hash and file (positions are not
    versioned: the query layer turns them into lines at a commit, query/positions.py)."""
    rows = _rows(
        graph,
        f"MATCH (a:{V.FUNCTION})-[e:{V.CALLS}]->(b:{V.FUNCTION}) WHERE {_HOLDS} "
        "RETURN a.fully_qualified_name, b.fully_qualified_name, e.resolution, e.confidence, e.rel_lines, "
        "e.lines_hash, a.line_start, a.body_hash, a.file",
        {"s": seq},
    )
    return [
        (a, b, r or "", float(c if c is not None else 1.0), CallSites(list(rel or []), lh, ls, bh, f))
        for a, b, r, c, rel, lh, ls, bh, f in rows
    ]


def callables_at(graph: GraphHandle, seq: int) -> list[str]:
    """FQNs of the modules, functions, methods and lambdas defined at ``seq``."""
    rows = _rows(
        graph,
        f"MATCH ()-[e:{V.DEFINES}]->(f:{V.FUNCTION}) WHERE {_HOLDS} AND e.kind IN $kinds "
        "RETURN DISTINCT f.fully_qualified_name",
        {"s": seq, "kinds": list(CALLABLE_KINDS)},
    )
    return [r[0] for r in rows]


def files_at(graph: GraphHandle, seq: int, fqns: list[str]) -> dict[str, str]:
    """FQN -> the file defining it at ``seq``, for those of ``fqns`` defined then."""
    rows = _rows(
        graph,
        f"MATCH ()-[e:{V.DEFINES}]->(f) WHERE {_HOLDS} AND f.fully_qualified_name IN $names "
        "RETURN f.fully_qualified_name, e.file",
        {"s": seq, "names": fqns},
    )
    return {r[0]: r[1] for r in rows if r[1]}


def pycg_at(graph: GraphHandle, seq: int, min_confidence: float = 0.9) -> dict[str, list[str]]:
    out: dict[str, set[str]] = {f: set() for f in callables_at(graph, seq)}
    for caller, callee, _res, conf, _sites in calls_at(graph, seq):
        if conf >= min_confidence:
            out.setdefault(caller, set()).add(callee)
    return {k: sorted(v) for k, v in sorted(out.items())}
