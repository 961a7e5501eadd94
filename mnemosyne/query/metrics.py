"""Code metrics questions over the versioned graph: the most complex functions at a commit, the
functions whose complexity grew the most since a revision, and hot spots (complex and often
changed).

Complexity, lines of code, parameters and nesting depth are properties of a function's ``DEFINES``
version (``parse/metrics.py``), so they are answered at any timeline commit like every other
fact. Fan-in and fan-out are the ``CALLS`` that hold at that commit, counted at query time. The
change count of a function is the number of its ``DEFINES`` versions that began in the window
(each is a change of its body, signature, docstring or file; the first is its creation).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from mnemosyne import vocabulary as V
from mnemosyne.errors import ConfigError
from mnemosyne.query.core import resolve_at, workspace_info
from mnemosyne.query.models import AtCommit
from mnemosyne.store.rows import Record, query_records
from mnemosyne.temporal import began_in, believed, holds_at

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database
    from mnemosyne.store.handles import GraphHandle, WorkspaceRef
    from mnemosyne.store.registry import WorkspaceInfo

ORDERS = ("complexity", "loc", "params", "nesting", "fan_in", "fan_out")
_FN = "coalesce(d.kind, f.kind) IN ['function', 'method'] AND d.complexity IS NOT NULL"


class FunctionMetrics(BaseModel):
    fqn: str
    kind: str | None = None
    file: str | None = None
    complexity: int
    loc: int
    params: int
    nesting: int
    fan_in: int = Field(default=0, description="callers at that commit")
    fan_out: int = Field(default=0, description="callees at that commit")
    before: int | None = Field(default=None, description="growth: complexity at the earlier commit")
    growth: int | None = Field(default=None, description="growth: complexity now minus before")
    changes: int | None = Field(default=None, description="hot spots: definition changes in the window")
    score: float | None = Field(default=None, description="hot spots: complexity x changes")


class MetricsResult(BaseModel):
    workspace: str
    at: AtCommit
    view: Literal["top", "growth", "hotspots"]
    order: str = "complexity"
    since: AtCommit | None = None
    functions: list[FunctionMetrics]
    total: int = Field(description="functions and methods defined at that commit with metrics")


def _at(db: Database, info: WorkspaceInfo, rev: str | None) -> AtCommit:
    atc = resolve_at(db, info, at=rev)
    if not atc.on_timeline:
        raise ConfigError(f"metrics answer at timeline commits only; {atc.short} is not on the timeline of "
                          f"{info.branch!r}")  # fmt: skip
    return atc


def _defined(g: GraphHandle, seq: int | None) -> dict[str, Record]:
    """fqn -> the row (kind, file, complexity, loc, params, nesting) of each function defined at ``seq``."""
    rows = query_records(
        g, f"MATCH ()-[d:{V.DEFINES}]->(f:{V.FUNCTION}) WHERE {holds_at('d')} AND {_FN} "
        "RETURN f.fully_qualified_name AS fqn, coalesce(d.kind, f.kind) AS kind, d.file AS file, "
        "d.complexity AS complexity, d.loc AS loc, d.params AS params, d.nesting AS nesting",
        {"seq": seq}, label="metrics at commit",
    )  # fmt: skip
    return {r.fqn: r for r in rows}


def _fans(g: GraphHandle, seq: int | None, fqns: list[str]) -> dict[str, tuple[int, int]]:
    if not fqns:
        return {}
    rows = query_records(
        g, f"UNWIND $t AS k MATCH (f:{V.FUNCTION} {{fully_qualified_name: k}}) "
        f"RETURN k AS fqn, size([(f)<-[i:{V.CALLS}]-() WHERE {holds_at('i')} | 1]) AS fan_in, "
        f"size([(f)-[o:{V.CALLS}]->() WHERE {holds_at('o')} | 1]) AS fan_out",
        {"t": fqns, "seq": seq}, label="fan in/out",
    )  # fmt: skip
    return {r.fqn: (int(r.fan_in), int(r.fan_out)) for r in rows}


def _item(fqn: str, v: Record, **kw: Any) -> FunctionMetrics:
    return FunctionMetrics(fqn=fqn, kind=v.kind, file=v.file, complexity=int(v.complexity), loc=int(v.loc or 0),
                           params=int(v.params or 0), nesting=int(v.nesting or 0), **kw)  # fmt: skip


def _with_fans(g: GraphHandle, seq: int | None, items: list[FunctionMetrics]) -> list[FunctionMetrics]:
    fans = _fans(g, seq, [i.fqn for i in items])
    for i in items:
        i.fan_in, i.fan_out = fans.get(i.fqn, (0, 0))
    return items


def top_functions(db: Database, ws: WorkspaceRef | None, at: str | None = None, order: str = "complexity", limit: int = 20) -> MetricsResult:
    """The functions and methods with the highest ``order`` metric at ``at`` (default: the ingested head)."""
    if order not in ORDERS:
        raise ConfigError(f"unknown order {order!r}: use one of {', '.join(ORDERS)}")
    _check_limit(limit)
    info = workspace_info(db, ws)
    g = db.graph(info.name)
    atc = _at(db, info, at)
    defined = _defined(g, atc.seq)
    items = [_item(k, v) for k, v in defined.items()]
    if order in ("fan_in", "fan_out"):
        items = _with_fans(g, atc.seq, items)
    items.sort(key=lambda i: (-getattr(i, order), -i.complexity, i.fqn))
    top = items[:limit]
    if order not in ("fan_in", "fan_out"):
        _with_fans(g, atc.seq, top)
    return MetricsResult(workspace=info.name, at=atc, view="top", order=order, functions=top, total=len(items))


def complexity_growth(db: Database, ws: WorkspaceRef | None, since: str, at: str | None = None, limit: int = 20) -> MetricsResult:
    """Functions defined at both ``since`` and ``at`` whose complexity grew the most between them."""
    _check_limit(limit)
    info = workspace_info(db, ws)
    g = db.graph(info.name)
    atc, old = _at(db, info, at), _at(db, info, since)
    now, then = _defined(g, atc.seq), _defined(g, old.seq)
    items = [_item(k, v, before=int(then[k].complexity), growth=int(v.complexity) - int(then[k].complexity))
             for k, v in now.items() if k in then and int(v.complexity) > int(then[k].complexity)]  # fmt: skip
    items.sort(key=lambda i: (-(i.growth or 0), -i.complexity, i.fqn))
    top = _with_fans(g, atc.seq, items[:limit])
    return MetricsResult(workspace=info.name, at=atc, view="growth", since=old, functions=top, total=len(now))


def hot_spots(db: Database, ws: WorkspaceRef | None, since: str | None = None, at: str | None = None, limit: int = 20) -> MetricsResult:
    """Functions defined at ``at``, ranked by complexity x the number of times their definition
    changed after ``since`` (default: over the whole ingested history) up to ``at``."""
    _check_limit(limit)
    info = workspace_info(db, ws)
    g = db.graph(info.name)
    atc = _at(db, info, at)
    old = _at(db, info, since) if since else None
    lo = old.seq if old is not None else -1
    rows = query_records(
        g, f"MATCH ()-[d:{V.DEFINES}]->(f:{V.FUNCTION}) WHERE {began_in('d', '$lo', '$seq')} "
        f"AND {believed('d')} RETURN f.fully_qualified_name AS fqn, count(d) AS changes",
        {"lo": lo, "seq": atc.seq}, label="definition changes",
    )  # fmt: skip
    changes = {r.fqn: int(r.changes) for r in rows}
    defined = _defined(g, atc.seq)
    items = [_item(k, v, changes=changes[k], score=float(int(v.complexity) * changes[k]))
             for k, v in defined.items() if changes.get(k)]  # fmt: skip
    items.sort(key=lambda i: (-(i.score or 0), -i.complexity, i.fqn))
    top = _with_fans(g, atc.seq, items[:limit])
    return MetricsResult(workspace=info.name, at=atc, view="hotspots", since=old, functions=top, total=len(defined))


def _check_limit(limit: int) -> None:
    if not 1 <= int(limit) <= 1000:
        raise ConfigError(f"limit must be between 1 and 1000, not {limit}")
