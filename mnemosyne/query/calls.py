"""Calls and callers of a symbol at a commit, the call tree around it, and the whole call graph
at a commit (pycg format).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mnemosyne.errors import ConfigError
from mnemosyne.query.core import snapshot
from mnemosyne.query.models import AtCommit, CallEdge, CallsResult, CallTreeNode, CallTreeResult, Direction
from mnemosyne.query.names import also_named, name_then, resolve_name
from mnemosyne.query.positions import site_lines
from mnemosyne.query.reading import At, Source, context, source_at
from mnemosyne.store.rows import Record
from mnemosyne.timeline.read import CallSites

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database
    from mnemosyne.store.handles import WorkspaceRef
    from mnemosyne.store.registry import WorkspaceInfo

MAX_TREE_NODES = 500
# what instantiating a class calls, by language: the call edges of ``C()`` / ``new C()`` end there
CONSTRUCTORS = ("__init__", "__new__", "constructor")


def constructor(fqn: str, atc: AtCommit, q: At | None, src: Source | None) -> str | None:
    """The constructor whose calls answer for class ``fqn`` at ``atc`` (its own ``__init__``,
    ``__new__`` or ``constructor``), or None when ``fqn`` is no class there or declares none (an
    inherited constructor is called by every subclass too, so it would not tell this class's sites)."""
    if src is not None:
        sym = src.symbols.get(fqn)
        if sym is None or sym.kind != "class":
            return None
        return next((c for m in CONSTRUCTORS if (c := f"{fqn}.{m}") in src.symbols), None)
    assert q is not None
    rows = q("symbol_at_commit", fqn=fqn, seq=atc.seq)
    if not rows or rows[0].kind != "class":
        return None
    return next((c for m in CONSTRUCTORS if q("symbol_at_commit", fqn=(c := f"{fqn}.{m}"), seq=atc.seq)), None)


def _call_edge(info: WorkspaceInfo, atc: AtCommit, fqn: str, direction: str, row: Record,
               with_lines: bool = True) -> CallEdge:
    """A row of calls_at_commit / callers_at_commit as a ``CallEdge``; its call-site lines derived
    at the commit (query/positions.py): at the head from the caller's latest first line, elsewhere
    from the caller's file at that commit."""
    caller, callee = (fqn, row.callee) if direction == "callees" else (row.caller, fqn)
    sites = CallSites(list(row.rel_lines or []), row.lines_hash, row.caller_line, row.caller_hash, row.caller_file)
    lines = site_lines(info.path, atc.hash, atc.at_head, caller, callee, sites) if with_lines else []
    return CallEdge(caller=caller, callee=callee, resolution=row.resolution, confidence=row.confidence, lines=lines,
                    external=bool(row.external), since_seq=row.since_seq)  # fmt: skip


def _calls(
    db: Database, ws: WorkspaceRef | None, fqn: str, at: str | AtCommit | None, as_of: int | str | None,
    direction: Direction, as_of_ingest: int | str | None = None,
) -> CallsResult:
    info, g, atc = context(db, ws, at, as_of, as_of_ingest)
    if atc.from_source:
        src = source_at(info, atc, db)
        found = src.out.get(fqn, []) if direction == "callees" else src.inc.get(fqn, [])
        if not found and fqn not in src.symbols and not src.is_external(fqn):
            fqn = resolve_name(db, info, g, fqn, atc, src=src)
            found = src.out.get(fqn, []) if direction == "callees" else src.inc.get(fqn, [])
        cls = None
        if not found and (ctor := constructor(fqn, atc, None, src)) is not None:
            cls, fqn = fqn, ctor
            found = src.out.get(fqn, []) if direction == "callees" else src.inc.get(fqn, [])
        edges = sorted((src.edge(c) for c in found), key=lambda e: (e.callee, e.caller))
        return CallsResult(workspace=info.name, fqn=fqn, direction=direction, at=atc, edges=edges, from_source=True,
                           class_fqn=cls, also_named=_also_named(fqn, edges, atc, None, src))
    q = At(g, atc)
    query = "calls_at_commit" if direction == "callees" else "callers_at_commit"
    rows = q(query, fqn=fqn, seq=atc.seq)
    asked = None
    if not rows:
        then = name_then(g, atc, fqn, q)
        if then is not None:
            asked, fqn = fqn, then
            rows = q(query, fqn=fqn, seq=atc.seq)
        else:
            resolved = resolve_name(db, info, g, fqn, atc, q)
            if resolved != fqn:
                fqn = resolved
                rows = q(query, fqn=fqn, seq=atc.seq)
    cls = None
    if not rows and (ctor := constructor(fqn, atc, q, None)) is not None:
        cls, fqn = fqn, ctor
        rows = q(query, fqn=fqn, seq=atc.seq)
    edges = [_call_edge(info, atc, fqn, direction, row) for row in rows]
    return CallsResult(workspace=info.name, fqn=fqn, direction=direction, at=atc, edges=edges, asked_fqn=asked,
                       class_fqn=cls, also_named=_also_named(fqn, edges, atc, q, None) if asked is None else [])


def _also_named(fqn: str, edges: list, atc: AtCommit, q: At | None, src: Source | None) -> list[str]:
    """A top-level name with no edge (``callers slugify``: the package's module, whose function
    ``slugify.slugify.slugify`` was meant): the symbols named like it, to ask about instead."""
    return [] if edges else also_named(fqn, atc, q, src)


def calls(
    db: Database, ws: WorkspaceRef | None, fqn: str, at: str | AtCommit | None = None, as_of: int | str | None = None,
    as_of_ingest: int | str | None = None,
) -> CallsResult:
    """What ``fqn`` calls at a commit: callee, resolution, confidence, call-site lines, external.

    ``as_of_ingest`` (epoch seconds or ISO): what Mnemosyne believed at that wall-clock time
    (versions ingested by then and not superseded by then; a commit superseded since resolves to
    its old seq)."""
    return _calls(db, ws, fqn, at, as_of, "callees", as_of_ingest)


def callers(
    db: Database, ws: WorkspaceRef | None, fqn: str, at: str | AtCommit | None = None, as_of: int | str | None = None,
    as_of_ingest: int | str | None = None,
) -> CallsResult:
    """Who calls ``fqn`` at a commit (``as_of_ingest``: as believed at that wall-clock time)."""
    return _calls(db, ws, fqn, at, as_of, "callers", as_of_ingest)


def call_tree(
    db: Database,
    ws: WorkspaceRef | None,
    fqn: str,
    direction: Direction = "callees",
    depth: int = 1,
    at: str | AtCommit | None = None,
    as_of: int | str | None = None,
    as_of_ingest: int | str | None = None,
) -> CallTreeResult:
    """Callees (or callers) of ``fqn`` expanded ``depth`` levels (1..5); each symbol expanded once."""
    if direction not in ("callees", "callers"):
        raise ConfigError(f"direction must be 'callees' or 'callers', not {direction!r}")
    if not 1 <= int(depth) <= 5:
        raise ConfigError(f"depth must be between 1 and 5, not {depth}")
    info, g, atc = context(db, ws, at, as_of, as_of_ingest)
    src = source_at(info, atc, db) if atc.from_source else None
    q = At(g, atc) if src is None else None

    def step(name: str) -> list[CallEdge]:
        if src is not None:
            found = src.out.get(name, []) if direction == "callees" else src.inc.get(name, [])
            return sorted((src.edge(c) for c in found), key=lambda e: (e.callee, e.caller))
        query = "calls_at_commit" if direction == "callees" else "callers_at_commit"
        rows = q(query, fqn=name, seq=atc.seq)  # type: ignore[misc]
        return [_call_edge(info, atc, name, direction, row, with_lines=False) for row in rows]

    first = step(fqn)  # the root's edges; only when it has none is "is it defined at all?" asked
    asked = None
    if not first:
        then = name_then(g, atc, fqn, q) if q is not None else None
        resolved = then or resolve_name(db, info, g, fqn, atc, q, src)
        if resolved != fqn:
            asked = fqn if then else None
            fqn = resolved
            first = step(fqn)
    cls = None
    if not first and (ctor := constructor(fqn, atc, q, src)) is not None:
        cls, fqn = fqn, ctor
        first = step(fqn)
    root = CallTreeNode(fqn=fqn)
    seen = {fqn}
    frontier = [root]
    expanded = 0
    truncated = False
    for _level in range(int(depth)):
        nxt: list[CallTreeNode] = []
        for node in frontier:
            if node.external or node.repeated:
                continue
            if expanded >= MAX_TREE_NODES:
                truncated = True
                break
            expanded += 1
            for e in first if node is root else step(node.fqn):
                other = e.callee if direction == "callees" else e.caller
                child = CallTreeNode(fqn=other, resolution=e.resolution, confidence=e.confidence,
                                     external=e.external, repeated=other in seen)  # fmt: skip
                seen.add(other)
                node.children.append(child)
                nxt.append(child)
        frontier = nxt
    return CallTreeResult(workspace=info.name, root=root, direction=direction, depth=int(depth), at=atc,
                          truncated=truncated, from_source=atc.from_source, asked_fqn=asked, class_fqn=cls,
                          also_named=_also_named(fqn, first, atc, q, src) if asked is None else [])  # fmt: skip


def callgraph_at(
    db: Database, ws: WorkspaceRef | None, at: str | AtCommit | None = None, as_of: int | str | None = None, as_of_ingest: int | str | None = None
) -> dict[str, list[str]]:
    """pycg format: every module/function/method/lambda defined at the commit -> sorted callees
    (``as_of_ingest``: as believed at that wall-clock time)."""
    info, g, atc = context(db, ws, at, as_of, as_of_ingest)
    out: dict[str, set[str]] = {}
    if atc.from_source:
        snap = snapshot(info, atc.hash, db.settings.max_file_bytes, db.settings.parse_workers,
                     db.settings.resolve_workers)
        for f in snap.files.values():
            for s in f.symbols:
                if s.kind != "class":
                    out.setdefault(s.fqn, set())
            for c in f.calls:
                out.setdefault(c.caller, set()).add(c.callee)
    else:
        q = At(g, atc)
        for r in q("defined_at_commit", seq=atc.seq, prefix=""):
            out.setdefault(r.fqn, set())
        for r in q("callgraph_at_commit", seq=atc.seq):
            out.setdefault(r.caller, set()).add(r.callee)
    return {k: sorted(out[k]) for k in sorted(out)}


