"""The read API: every historical question the CLI and the MCP server ask.

Each function takes ``db`` (a ``Database``), a workspace (name, ``WorkspaceInfo``, or None for
the current directory's workspace) and, where it makes sense, ``at`` (a commit-ish) or
``as_of`` (a time). Timeline commits are answered from the graph with the named queries in
``cypher/``; other commits are answered by parsing their tree (``from_source=True``).
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast

from mnemosyne.errors import ConfigError, SymbolNotFound
from mnemosyne.query.core import (
    believed_params,
    file_lines,
    git,
    history_build_line,
    ingested_head,
    records,
    resolve_at,
    snapshot,
    workspace_info,
)
from mnemosyne.query.lineage import (
    Segment,
    calls_events,
    lineage_events,
    name_at,
    renamed_between,
    renamed_sig,
    sorted_versions,
)
from mnemosyne.query.models import (
    AtCommit,
    CallChange,
    CallEdge,
    CallsResult,
    CallTreeNode,
    CallTreeResult,
    Candidates,
    CodeMetrics,
    DependencyChange,
    DependencyEvent,
    DependencyHistoryResult,
    DependencyState,
    DiffResult,
    Direction,
    Event,
    EventKind,
    FileRef,
    FilesResult,
    HistoryResult,
    ImpactItem,
    ImpactLevel,
    ImpactResult,
    ImportChange,
    LagCommit,
    LagResult,
    RenameChange,
    SymbolChange,
    SymbolRef,
    SymbolRename,
    SymbolResult,
    WorkspaceStatus,
)
from mnemosyne.query.positions import site_lines, symbol_span
from mnemosyne.store.rows import Record
from mnemosyne.timeline.read import CallSites

if TYPE_CHECKING:
    from mnemosyne.facts import Snapshot
    from mnemosyne.store.connection import Database
    from mnemosyne.store.graph import Graph
    from mnemosyne.store.handles import WorkspaceRef
    from mnemosyne.store.registry import WorkspaceInfo

MAX_TREE_NODES = 500
MAX_NAMES_FOR_FUZZY = 200_000


class UnknownSymbol(SymbolNotFound):
    """A symbol is not defined at the commit asked for; ``suggestions`` lists close matches."""

    def __init__(self, message: str, suggestions: list[str] | None = None) -> None:
        super().__init__(message)
        self.suggestions = suggestions or []


class AmbiguousSymbol(UnknownSymbol):
    """A short or suffix name matches several symbols; ``suggestions`` lists them."""


def _ambiguous(info: WorkspaceInfo, name: str, fqns: list[str], where: str) -> AmbiguousSymbol:
    shown = ", ".join(fqns[:10]) + (f" and {len(fqns) - 10} more" if len(fqns) > 10 else "")
    return AmbiguousSymbol(f"{name!r} matches {len(fqns)} symbols {where} in workspace {info.name!r}: {shown}; "
                           "give one fully qualified name", fqns)  # fmt: skip


# --- small helpers -----------------------------------------------------------------------------


def _ctx(
    db: Database, ws: WorkspaceRef | None, at: str | AtCommit | None, as_of: int | str | None, as_of_ingest: int | str | None = None
) -> tuple[WorkspaceInfo, Graph, AtCommit]:
    info = workspace_info(db, ws)
    atc = resolve_at(db, info, at=at, as_of=as_of, as_of_ingest=as_of_ingest)
    return info, db.graph(info.name), atc


# the transaction-time twin of each "at a commit" query (as_of_ingest): same columns, extra $t, $late
_BELIEVED = {
    "calls_at_commit": "calls_at_commit_believed",
    "callers_at_commit": "callers_at_commit_believed",
    "symbol_at_commit": "symbol_at_commit_believed",
    "symbols_by_name": "symbols_by_name_believed",
    "callgraph_at_commit": "callgraph_at_commit_believed",
    "defined_at_commit": "defined_at_commit_believed",
}


class _At:
    """Runs the "at a commit" named queries for one ``AtCommit``: the usual ones, or their
    ``*_believed`` twins when the question is asked as of an ingestion time."""

    def __init__(self, g: Graph, atc: AtCommit) -> None:
        self.g = g
        self.extra = believed_params(g, atc) if atc.as_of_ingest is not None and not atc.from_source else None

    def __call__(self, name: str, /, **params: Any) -> list[Record]:
        if self.extra is None:
            return records(self.g, name, **params)
        return records(self.g, _BELIEVED[name], **params, **self.extra)


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


class _Source:
    """Indexes over a parsed snapshot (answers for commits not on the timeline)."""

    def __init__(self, snap: Snapshot) -> None:
        self.snap = snap
        self.symbols: dict[str, Any] = {}
        self.out: dict[str, list[Any]] = defaultdict(list)
        self.inc: dict[str, list[Any]] = defaultdict(list)
        self.file_of_caller: dict[str, str] = {}
        self.imports: list[tuple[str, str, str]] = []
        for f in snap.files.values():
            for s in f.symbols:
                self.symbols[s.fqn] = s
            for c in f.calls:
                self.out[c.caller].append(c)
                self.inc[c.callee].append(c)
                self.file_of_caller[c.caller] = f.path
            for imp in f.imports:
                self.imports.append((f.path, imp.target, imp.target_kind))

    def edge(self, c: Any) -> CallEdge:
        return CallEdge(caller=c.caller, callee=c.callee, resolution=c.resolution, confidence=c.confidence,
                        lines=list(c.lines), external=bool(c.external))  # fmt: skip

    def is_external(self, fqn: str) -> bool:
        return any(c.external for c in self.inc.get(fqn, ()))


def _src(info: WorkspaceInfo, atc: AtCommit, db: Database) -> _Source:
    return _Source(snapshot(info, atc.hash, db.settings.max_file_bytes, db.settings.parse_workers,
                     db.settings.resolve_workers))


def _not_defined(db: Database, info: WorkspaceInfo, g: Graph, fqn: str, atc: AtCommit) -> UnknownSymbol:
    """The error for a symbol not defined at ``atc``: its lifetime if it ever existed, else close matches."""
    where = f"commit {atc.short}" + (f" (seq {atc.seq})" if atc.seq is not None else " (from source)")
    versions = records(g, "symbol_history", fqn=fqn)
    if versions:
        spans = _spans(sorted((r.from_seq, r.to_seq) for r in versions))
        text = ", ".join(f"seq {a}..{'HEAD' if b is None else b - 1}" for a, b in spans)
        return UnknownSymbol(
            f"{fqn} is not defined at {where} in workspace {info.name!r}; it was defined at {text} "
            f"(see `mnemosyne history {fqn}`)",
            [fqn],
        )
    cands = find_symbols(db, info, fqn, at=atc.hash if atc.from_source else None, _atc=atc).candidates
    names = [c.fqn for c in cands]
    hint = f"; did you mean {', '.join(names[:5])}?" if names else "; try `mnemosyne search NAME`"
    return UnknownSymbol(f"unknown symbol {fqn!r} at {where} in workspace {info.name!r}{hint}", names)


def _suffix_hits(q: _At | None, src: _Source | None, name: str, atc: AtCommit, alive_only: bool = True) -> list[SymbolRef]:
    """Symbols whose FQN ends with ``.name`` (``checkout``, ``Cart.total``), sorted: from the parsed
    tree (``src``) or the graph (``q``; defined at ``atc`` unless ``alive_only`` is False)."""
    suffix = "." + name
    if src is not None:
        return [SymbolRef(fqn=f, kind=src.symbols[f].kind, file=src.symbols[f].file, alive=True)
                for f in sorted(src.symbols) if f.endswith(suffix)]  # fmt: skip
    assert q is not None
    rows = q("symbols_by_name", name=name.rsplit(".", 1)[-1], seq=atc.seq)
    return [SymbolRef(fqn=r.fqn, kind=r.kind, file=r.file, alive=bool(r.alive))
            for r in sorted(rows, key=lambda r: r.fqn) if (r.alive or not alive_only) and r.fqn.endswith(suffix)]  # fmt: skip


def _resolve_name(db: Database, info: WorkspaceInfo, g: Graph, name: str, atc: AtCommit, q: _At | None = None,
                  src: _Source | None = None) -> str:  # fmt: skip
    """The FQN ``name`` means at ``atc``: itself when defined there (or an external callee), else
    the one symbol defined there whose FQN ends with ``.name`` (the same lookup as ``get_symbol``).
    ``AmbiguousSymbol`` for several, ``UnknownSymbol`` for none."""
    if src is not None:
        if name in src.symbols or name in src.out or name in src.inc:
            return name
    else:
        q = q or _At(g, atc)
        if q("symbol_at_commit", fqn=name, seq=atc.seq):
            return name
        node = records(g, "symbol_node", fqn=name)
        if node and node[0].external:  # an external (library/builtin) callee: it has callers, never a definition
            return name
    hits = _suffix_hits(q, src, name, atc)
    if len(hits) == 1:
        return hits[0].fqn
    if hits:
        raise _ambiguous(info, name, [h.fqn for h in hits], f"at {atc.short}")
    raise _not_defined(db, info, g, name, atc)


def _spans(versions: Iterable[tuple[int, int | None]]) -> list[tuple[int, int | None]]:
    """Merge contiguous/overlapping [from, to) intervals (None = open)."""
    out: list[list[Any]] = []
    for a, b in versions:
        if out and (out[-1][1] is None or out[-1][1] >= a):
            if out[-1][1] is not None and (b is None or b > out[-1][1]):
                out[-1][1] = b
            continue
        out.append([a, b])
    return [(a, b) for a, b in out]


# --- calls and callers -------------------------------------------------------------------------


def _calls(
    db: Database, ws: WorkspaceRef | None, fqn: str, at: str | AtCommit | None, as_of: int | str | None,
    direction: Direction, as_of_ingest: int | str | None = None,
) -> CallsResult:
    info, g, atc = _ctx(db, ws, at, as_of, as_of_ingest)
    if atc.from_source:
        src = _src(info, atc, db)
        found = src.out.get(fqn, []) if direction == "callees" else src.inc.get(fqn, [])
        if not found and fqn not in src.symbols and not src.is_external(fqn):
            fqn = _resolve_name(db, info, g, fqn, atc, src=src)
            found = src.out.get(fqn, []) if direction == "callees" else src.inc.get(fqn, [])
        edges = sorted((src.edge(c) for c in found), key=lambda e: (e.callee, e.caller))
        return CallsResult(workspace=info.name, fqn=fqn, direction=direction, at=atc, edges=edges, from_source=True)
    q = _At(g, atc)
    query = "calls_at_commit" if direction == "callees" else "callers_at_commit"
    rows = q(query, fqn=fqn, seq=atc.seq)
    asked = None
    if not rows:
        then = _name_then(g, atc, fqn, q)
        if then is not None:
            asked, fqn = fqn, then
            rows = q(query, fqn=fqn, seq=atc.seq)
        else:
            resolved = _resolve_name(db, info, g, fqn, atc, q)
            if resolved != fqn:
                fqn = resolved
                rows = q(query, fqn=fqn, seq=atc.seq)
    edges = [_call_edge(info, atc, fqn, direction, row) for row in rows]
    return CallsResult(workspace=info.name, fqn=fqn, direction=direction, at=atc, edges=edges, asked_fqn=asked)


def _name_then(g: Graph, atc: AtCommit, fqn: str, q: _At) -> str | None:
    """The name ``fqn`` had at timeline commit ``atc`` when it was renamed or moved since (the
    recorded links followed back), or None (not renamed since, or defined under ``fqn`` there)."""
    if atc.seq is None or q("symbol_at_commit", fqn=fqn, seq=atc.seq):
        return None
    believed = {"t": q.extra["t"]} if q.extra else {}
    then = name_at(fqn, int(atc.seq), lambda f: records(g, "identity_links_believed" if believed else "identity_links",
                                                         fqns=[f], **believed))  # fmt: skip
    if then is None or not q("symbol_at_commit", fqn=then, seq=atc.seq):
        return None
    return then


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
    info, g, atc = _ctx(db, ws, at, as_of, as_of_ingest)
    src = _src(info, atc, db) if atc.from_source else None
    q = _At(g, atc) if src is None else None

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
        then = _name_then(g, atc, fqn, q) if q is not None else None
        resolved = then or _resolve_name(db, info, g, fqn, atc, q, src)
        if resolved != fqn:
            asked = fqn if then else None
            fqn = resolved
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
                          truncated=truncated, from_source=atc.from_source, asked_fqn=asked)  # fmt: skip


# --- symbols -----------------------------------------------------------------------------------


def _metrics(label: str, kind: str | None, complexity: Any, loc: Any, params: Any, nesting: Any) -> CodeMetrics | None:
    """A function's or method's metrics (None for classes, modules, lambdas and graphs built before
    metrics were stored)."""
    if label != "Function" or kind not in ("function", "method") or complexity is None:
        return None
    return CodeMetrics(complexity=int(complexity), loc=int(loc or 0), params=int(params or 0), nesting=int(nesting or 0))


def _symbol_from_row(info: WorkspaceInfo, atc: AtCommit, row: Record, with_source: bool) -> SymbolResult:
    fqn, label, kind, file, ls, le = row.fqn, row.label, row.kind, row.file, row.line_start, row.line_end
    if not atc.at_head:  # the node's range is the head's: derive the range at this commit
        ls, le = symbol_span(info.path, atc.hash, file, fqn) or (None, None)
    source = file_lines(info.path, atc.hash, file, ls, le) if with_source else None
    return SymbolResult(
        workspace=info.name, fqn=fqn, name=row.name, kind=kind, label=label, file=file, line_start=ls, line_end=le,
        signature=row.signature, docstring=row.docstring, body_hash=row.body_hash, parent=row.parent,
        callers_count=int(row.callers or 0), callees_count=int(row.callees or 0), since_seq=row.since_seq,
        source=source, at=atc, metrics=_metrics(label, kind, row.complexity, row.loc, row.params, row.nesting),
    )  # fmt: skip


def _symbol_from_source(info: WorkspaceInfo, atc: AtCommit, src: _Source, fqn: str, with_source: bool) -> SymbolResult:
    s = src.symbols[fqn]
    source = file_lines(info.path, atc.hash, s.file, s.line_start, s.line_end) if with_source else None
    return SymbolResult(
        workspace=info.name, fqn=s.fqn, name=s.name, kind=s.kind, label="Class" if s.kind == "class" else "Function",
        file=s.file, line_start=s.line_start, line_end=s.line_end, signature=s.signature, docstring=s.docstring,
        body_hash=s.body_hash, parent=s.parent, callers_count=len(src.inc.get(fqn, [])),
        callees_count=len(src.out.get(fqn, [])), source=source, at=atc, from_source=True,
        metrics=_metrics("Function", s.kind, s.complexity, s.loc, s.params, s.nesting),
    )  # fmt: skip


def get_symbol(
    db: Database,
    ws: WorkspaceRef | None,
    name_or_fqn: str,
    at: str | AtCommit | None = None,
    as_of: int | str | None = None,
    with_source: bool = True,
    as_of_ingest: int | str | None = None,
) -> SymbolResult | Candidates:
    """A symbol at a commit (signature, docstring, file, lines, kind, caller/callee counts, source).

    ``name_or_fqn`` may be a fully qualified name or a short/suffix name (``checkout``,
    ``Cart.total``): one match gives the symbol, several give ``Candidates``, none raises
    ``UnknownSymbol`` (a ``SymbolNotFound``) with close matches. ``as_of_ingest``: as believed at
    that wall-clock time (transaction time).
    """
    info, g, atc = _ctx(db, ws, at, as_of, as_of_ingest)
    if atc.from_source:
        src = _src(info, atc, db)
        if name_or_fqn in src.symbols:
            return _symbol_from_source(info, atc, src, name_or_fqn, with_source)
        refs = _suffix_hits(None, src, name_or_fqn, atc)
        if len(refs) == 1:
            return _symbol_from_source(info, atc, src, refs[0].fqn, with_source)
        if refs:
            return Candidates(workspace=info.name, query=name_or_fqn, at=atc, candidates=refs)
        raise _not_defined(db, info, g, name_or_fqn, atc)
    q = _At(g, atc)
    rows = q("symbol_at_commit", fqn=name_or_fqn, seq=atc.seq)
    if rows:
        return _symbol_from_row(info, atc, rows[0], with_source)
    refs = _suffix_hits(q, None, name_or_fqn, atc)
    if len(refs) == 1:
        rows = q("symbol_at_commit", fqn=refs[0].fqn, seq=atc.seq)
        if rows:
            return _symbol_from_row(info, atc, rows[0], with_source)
    if refs:
        return Candidates(workspace=info.name, query=name_or_fqn, at=atc, candidates=refs)
    raise _not_defined(db, info, g, name_or_fqn, atc)


def find_symbols(
    db: Database, ws: WorkspaceRef | None, name: str, at: str | AtCommit | None = None, limit: int = 10, *, _atc: AtCommit | None = None
) -> Candidates:
    """Close matches for a (possibly unknown or misspelt) name: same short name first (those
    defined at the commit before others), then fuzzy matches on full and short names."""
    info = workspace_info(db, ws)
    g = db.graph(info.name)
    atc = _atc or resolve_at(db, info, at=at)
    short = name.rsplit(".", 1)[-1]
    found: dict[str, SymbolRef] = {}
    if atc.from_source:
        src = _src(info, atc, db)
        pool = {f: (s.kind, s.file) for f, s in src.symbols.items()}
        for f, (kind, file) in pool.items():
            if f.rsplit(".", 1)[-1] == short:
                found.setdefault(f, SymbolRef(fqn=f, kind=kind, file=file, alive=True))
        names = list(pool)
    else:
        rows = _At(g, atc)("symbols_by_name", name=short, seq=atc.seq)
        rows.sort(key=lambda r: (not r.alive, not r.fqn.endswith("." + name), r.fqn))
        for r in rows:
            found.setdefault(r.fqn, SymbolRef(fqn=r.fqn, kind=r.kind, file=r.file, alive=bool(r.alive)))
        names = [r.fqn for r in records(g, "symbol_names", limit=MAX_NAMES_FOR_FUZZY)]
        pool = {}
    if len(found) < limit and names:
        for f in difflib.get_close_matches(name, names, n=limit, cutoff=0.6):
            found.setdefault(f, SymbolRef(fqn=f, kind=pool.get(f, (None, None))[0], file=pool.get(f, (None, None))[1]))
        by_short: dict[str, list[str]] = defaultdict(list)
        for f in names:
            by_short[f.rsplit(".", 1)[-1]].append(f)
        for s in difflib.get_close_matches(short, list(by_short), n=limit, cutoff=0.75):
            for f in sorted(by_short[s]):
                found.setdefault(f, SymbolRef(fqn=f, kind=pool.get(f, (None, None))[0], file=pool.get(f, (None, None))[1]))
    return Candidates(workspace=info.name, query=name, at=atc, candidates=list(found.values())[:limit])


# --- history -----------------------------------------------------------------------------------

_EVENT_ORDER = {k: i for i, k in enumerate(
    ["removed", "appeared", "re-added", "renamed", "moved", "signature_changed", "body_changed", "formatting_only",
     "docstring_changed", "calls_gained", "calls_lost", "callers_gained", "callers_lost"])}  # fmt: skip


def _commit_map(g: Graph, seqs: Iterable[int], believed: dict[str, Any] | None = None) -> dict[int, Record]:
    """seq -> the commit there (columns seq, hash, timestamp, author, message)."""
    wanted = sorted({int(s) for s in seqs if s is not None})
    if not wanted:
        return {}
    if believed:
        return {int(r.seq): r for r in records(g, "commits_by_seqs_believed", seqs=wanted, t=believed["t"])}
    return {int(r.seq): r for r in records(g, "commits_by_seqs", seqs=wanted)}


# the named queries of a history: (definitions, renames/moves, calls, formatting-only), now / as believed at $t
_HISTORY = ("symbol_history", "identity_links", "calls_history", "reformats", "identity_links_at")
_HISTORY_BELIEVED = ("symbol_history_believed", "identity_links_believed", "calls_history_believed",
                     "reformats_believed", "identity_links_at_believed")


def _history_name(db: Database, info: WorkspaceInfo, g: Graph, name: str, atc: AtCommit) -> str:
    """The FQN a short or suffix ``name`` means for a history: the one symbol, defined at any commit,
    whose FQN ends with ``.name`` (the one defined at ``atc`` when several are)."""
    hits = _suffix_hits(_At(g, atc), None, name, atc, alive_only=False)
    alive = [h for h in hits if h.alive]
    if len(hits) == 1 or len(alive) == 1:
        return (alive or hits)[0].fqn
    if hits:
        raise _ambiguous(info, name, [h.fqn for h in hits], "in the history")
    raise _not_defined(db, info, g, name, atc)


def symbol_history(db: Database, ws: WorkspaceRef | None, fqn: str, as_of_ingest: int | str | None = None) -> HistoryResult:
    """A symbol's life on the timeline: appeared, removed, re-added, signature_changed, moved,
    body/docstring changed, calls gained/lost and callers gained/lost, each with its commit.
    ``as_of_ingest`` (epoch seconds or ISO): the history as Mnemosyne believed it at that
    wall-clock time (versions recorded by then and not superseded then, on the timeline then)."""
    info = workspace_info(db, ws)
    g = db.graph(info.name)
    believed: dict[str, Any] = {}
    if as_of_ingest is not None:
        atc = resolve_at(db, info, as_of_ingest=as_of_ingest)
        believed = believed_params(g, atc)
        head_seq = atc.seq
    else:
        head_seq, _ = ingested_head(g, info)
    q = _HISTORY_BELIEVED if believed else _HISTORY
    versions = sorted_versions(records(g, q[0], fqn=fqn, **believed))
    external = False
    if not versions:
        node = records(g, "symbol_node", fqn=fqn)
        if not (node and node[0].external):
            atc = resolve_at(db, info, as_of_ingest=as_of_ingest)
            fqn = _history_name(db, info, g, fqn, atc)
            versions = sorted_versions(records(g, q[0], fqn=fqn, **believed))
    if not versions:
        external = True  # a library/builtin callee: no definition, only callers gained and lost
    # the definitions followed back through the recorded renames and moves (query/lineage.py)
    names = {"versions": q[0], "links": q[1], "reformats": q[3]}

    def hq(role: str, /, **params: Any) -> list[Record]:
        return records(g, names[role], **params, **believed)

    raw, segs = lineage_events(fqn, versions, hq) if versions else ([], [Segment(fqn, [])])
    kind = versions[-1].kind if versions else "external"
    chain_fqns = [sg.fqn for sg in segs]
    bounds = [(sg.link_in.seq if sg.link_in else None, sg.hi) for sg in segs]
    calls_rows = {f: records(g, q[2], fqn=f, **believed) for f in chain_fqns}
    # a call lost and gained again at a commit that renamed the other end is no change
    seqs = sorted({int(x) for rows in calls_rows.values() for r in rows for x in (r.from_seq, r.to_seq)
                   if x is not None})  # fmt: skip
    renames_at: dict[int, dict[str, str]] = {}
    for r in records(g, q[4], seqs=seqs, **believed) if seqs else []:
        renames_at.setdefault(int(r.seq), {})[r.old] = r.new
    raw.extend(calls_events(chain_fqns, bounds, calls_rows.__getitem__, renames_at, _spans))
    per: dict[tuple[str, str], list[tuple[int, int | None]]] = defaultdict(list)
    for r in calls_rows.get(fqn, []):
        per[(r.direction, r.other)].append((r.from_seq, r.to_seq))

    commits = _commit_map(g, (s for _, s, _ in raw), believed)
    raw.sort(key=lambda e: (e[1], _EVENT_ORDER[e[0]]))
    events = []
    for k, s, details in raw:
        c = commits.get(int(s))
        events.append(Event(kind=cast("EventKind", k), seq=s, commit=c.hash if c else None, timestamp=c.timestamp if c else None,
                            author=c.author if c else None, message=_first(c.message) if c else None,
                            details=details))  # fmt: skip
    if external:
        exists = any(k == "callers_gained" for k, _, _ in raw) and not _spans_closed(per)
    else:
        exists = versions[-1].to_seq is None
    return HistoryResult(workspace=info.name, fqn=fqn, kind=kind, exists_at_head=exists, events=events,
                         head_seq=head_seq, as_of_ingest=believed.get("t"))  # fmt: skip


def _spans_closed(per: dict[tuple[str, str], list[tuple[int, int | None]]]) -> bool:
    """True when every CALLS interval has ended (an external callee nobody calls any more)."""
    return all(t is not None for ivs in per.values() for _, t in ivs)


def _first(msg: str | None) -> str | None:
    return msg.strip().splitlines()[0] if msg and msg.strip() else msg


# --- diff --------------------------------------------------------------------------------------


# the named queries of a diff: (calls, symbols, imports, dependencies), now / as believed at $t
_DIFF = ("diff_calls", "diff_symbols", "diff_imports", "diff_dependencies", "identity_links_between")
_DIFF_BELIEVED = ("diff_calls_believed", "diff_symbols_believed", "diff_imports_believed", "diff_dependencies_believed",
                  "identity_links_between_believed")


def diff_commits(
    db: Database, ws: WorkspaceRef | None, rev_a: str, rev_b: str, path_prefix: str | None = None, as_of_ingest: int | str | None = None
) -> DiffResult:
    """What changed between two commits: calls, imports, symbols and dependencies added/removed
    (symbols also changed: signature, file, body). ``path_prefix`` limits it to files under it.
    ``as_of_ingest`` (epoch seconds or ISO): as Mnemosyne believed it at that wall-clock time, on
    the timeline of then."""
    info = workspace_info(db, ws)
    g = db.graph(info.name)
    a = resolve_at(db, info, at=rev_a, as_of_ingest=as_of_ingest)
    b = resolve_at(db, info, at=rev_b, as_of_ingest=as_of_ingest)
    prefix = (path_prefix or "").lstrip("./") if path_prefix not in (None, "", ".") else ""
    res = DiffResult(workspace=info.name, a=a, b=b, path_prefix=path_prefix or None)
    if a.on_timeline and b.on_timeline:
        assert a.seq is not None and b.seq is not None  # a timeline commit has a position
        p = {"a": a.seq, "b": b.seq, "lo": min(a.seq, b.seq), "hi": max(a.seq, b.seq), "prefix": prefix}
        q = _DIFF
        if as_of_ingest is not None:
            p.update(believed_params(g, a))
            q = _DIFF_BELIEVED
        # the same shapes as _source_sets: calls (caller, callee, resolution, confidence, external),
        # symbols fqn -> (kind, file, signature, body_hash), imports and dependencies as tuples
        call_rows = records(g, q[0], **p)
        ca = {(r.caller, r.callee): _call_change_row(r) for r in call_rows if r.in_a}
        cb = {(r.caller, r.callee): _call_change_row(r) for r in call_rows if r.in_b}
        sym_rows = records(g, q[1], **p)
        sa = {r.fqn: (r.kind, r.file, r.signature, r.body_hash) for r in sym_rows if r.in_a}
        sb = {r.fqn: (r.kind, r.file, r.signature, r.body_hash) for r in sym_rows if r.in_b}
        imp_rows = records(g, q[2], **p)
        ia = {(r.file, r.target, r.target_kind) for r in imp_rows if r.in_a}
        ib = {(r.file, r.target, r.target_kind) for r in imp_rows if r.in_b}
        dep_rows = records(g, q[3], **p)
        da = {_dep_row(r) for r in dep_rows if r.in_a}
        db_ = {_dep_row(r) for r in dep_rows if r.in_b}
        links = records(g, q[4], lo=p["lo"], hi=p["hi"], **({"t": p["t"]} if "t" in p else {}))
        renamed = renamed_between(sa.keys() - sb.keys(), sb.keys() - sa.keys(), links, forward=a.seq <= b.seq)
    else:
        res.from_source = True
        ca, sa, ia, da = _source_sets(info, a, db, prefix)
        cb, sb, ib, db_ = _source_sets(info, b, db, prefix)
        renamed = []  # renames are recorded for timeline commits only
    res.calls_added = [CallChange(caller=k[0], callee=k[1], resolution=cb[k][2], external=bool(cb[k][4]))
                       for k in sorted(cb.keys() - ca.keys())]  # fmt: skip
    res.calls_removed = [CallChange(caller=k[0], callee=k[1], resolution=ca[k][2], external=bool(ca[k][4]))
                         for k in sorted(ca.keys() - cb.keys())]  # fmt: skip
    olds, news = {o for o, _, _ in renamed}, {n for _, n, _ in renamed}
    res.symbols_added = [SymbolChange(fqn=f, kind=sb[f][0], file=sb[f][1], signature=sb[f][2])
                         for f in sorted(sb.keys() - sa.keys() - news)]  # fmt: skip
    res.symbols_removed = [SymbolChange(fqn=f, kind=sa[f][0], file=sa[f][1], signature=sa[f][2])
                           for f in sorted(sa.keys() - sb.keys() - olds)]  # fmt: skip
    res.symbols_renamed = [_renamed(o, n, sim, sa[o], sb[n]) for o, n, sim in renamed]
    for f in sorted(sa.keys() & sb.keys()):
        (_, fa, siga, ha), (kind, fb, sigb, hb) = sa[f], sb[f]
        changes = [n for n, x, y in (("signature", siga, sigb), ("file", fa, fb), ("body", ha, hb))
                   if (x or "") != (y or "")]  # fmt: skip
        if changes:
            res.symbols_changed.append(SymbolChange(fqn=f, kind=kind, file=fb, signature=sigb, old_file=fa,
                                                    old_signature=siga, changes=changes))  # fmt: skip
    res.imports_added = [ImportChange(file=k[0], target=k[1], target_kind=k[2]) for k in sorted(ib - ia)]
    res.imports_removed = [ImportChange(file=k[0], target=k[1], target_kind=k[2]) for k in sorted(ia - ib)]
    res.dependencies_added = [_dep_change(k) for k in sorted(db_ - da, key=_dep_key)]
    res.dependencies_removed = [_dep_change(k) for k in sorted(da - db_, key=_dep_key)]
    return res


def _call_change_row(r: Record) -> tuple[str, str, str, float, bool]:
    return (r.caller, r.callee, r.resolution, r.confidence, r.external)


def _dep_row(r: Record) -> tuple[Any, ...]:
    return (r.relation, r.package, r.ecosystem, r.name, r.spec, r.scope, r.version)


def _renamed(old: str, new: str, sim: float | None, va: tuple, vb: tuple) -> SymbolRename:
    """A rename/move between the two commits of a diff (``va``/``vb``: kind, file, signature, body)."""
    (_, fa, siga, ha), (kind, fb, sigb, hb) = va, vb
    o_name, n_name = old.rsplit(".", 1)[-1], new.rsplit(".", 1)[-1]
    moved = fa != fb or old.rsplit(".", 1)[0] != new.rsplit(".", 1)[0]
    change: RenameChange = "move" if o_name == n_name else "rename_move" if moved else "rename"
    changes = [n for n, x, y in (("signature", renamed_sig(siga, o_name, n_name), sigb), ("body", ha, hb))
               if (x or "") != (y or "") and not (n == "body" and sim is not None and sim >= 1.0)]  # fmt: skip
    return SymbolRename(old_fqn=old, fqn=new, kind=kind, change=change, old_file=fa, file=fb, old_signature=siga,
                        signature=sigb, similarity=sim, changes=changes)  # fmt: skip


def _dep_key(k: tuple) -> tuple:
    return tuple("" if x is None else str(x) for x in k)


def _dep_change(k: tuple) -> DependencyChange:
    relation, package, ecosystem, name, spec, scope, version = k
    return DependencyChange(relation=relation, package=package or "", ecosystem=ecosystem, name=name, spec=spec,
                            scope=scope, version=version)  # fmt: skip


def _source_sets(info: WorkspaceInfo, atc: AtCommit, db: Database, prefix: str) -> tuple[dict, dict, set, set]:
    """The diff sets of one commit, computed from its parsed tree (same shapes as the graph's)."""
    snap = snapshot(info, atc.hash, db.settings.max_file_bytes, db.settings.parse_workers,
                     db.settings.resolve_workers)
    calls_: dict = {}
    syms: dict = {}
    imps: set = set()
    for f in snap.files.values():
        if not f.path.startswith(prefix):
            continue
        for c in f.calls:
            calls_[(c.caller, c.callee)] = (c.caller, c.callee, c.resolution, c.confidence, c.external)
        for s in f.symbols:
            syms[s.fqn] = (s.kind, s.file, s.signature, s.body_hash)
        for imp in f.imports:
            imps.add((f.path, imp.target, imp.target_kind))
    deps: set = set()
    for d in snap.packages.dependencies:
        if d.package.startswith(prefix):
            deps.add(("depends", d.package, d.ecosystem, d.name, d.spec, d.scope, None))
    for lk in snap.packages.locks:
        if lk.package.startswith(prefix):
            deps.add(("locks", lk.package, lk.ecosystem, lk.name, None, None, lk.version))
    return calls_, syms, imps, deps


# --- dependencies ------------------------------------------------------------------------------


def normalize_package(name: str) -> str:
    """PEP 503 name normalisation (``Foo_Bar.baz`` -> ``foo-bar-baz``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def dependency_history(db: Database, ws: WorkspaceRef | None, package: str | None = None) -> DependencyHistoryResult:
    """When third-party packages were declared (and with which spec) and which versions were
    locked, changed and removed, oldest first; ``package`` narrows it to one package."""
    info = workspace_info(db, ws)
    g = db.graph(info.name)
    ingested_head(g, info)
    rows = records(g, "dependency_history", package=package or "")
    if package and not rows:
        norm = normalize_package(package)
        if norm != package:
            rows = records(g, "dependency_history", package=norm)
    groups: dict[tuple, list[Record]] = defaultdict(list)
    for r in rows:
        # one line of history per declaring manifest/lockfile (``source``): the same package may be
        # declared in pyproject.toml and requirements.txt at once, with different specs
        groups[(r.relation, r.package or "", r.ecosystem, r.name, r.source or "")].append(r)
    raw: list[dict] = []
    current: list[DependencyState] = []
    for (relation, pkg, eco, name, _source), versions in groups.items():
        versions.sort(key=lambda r: (r.from_seq, r.to_seq is None, r.to_seq or 0))
        prev = None
        for r in versions:
            f = r.from_seq
            base = {"relation": relation, "name": name, "ecosystem": eco, "package": pkg, "source": r.source,
                    "spec": r.spec, "scope": r.scope, "version": r.version}  # fmt: skip
            if prev is not None and (prev.to_seq is None or prev.to_seq >= f):
                if relation == "locks" and prev.version != r.version:
                    raw.append({**base, "kind": "version_changed", "seq": f, "old_version": prev.version})
                elif relation == "depends" and (prev.spec != r.spec or prev.scope != r.scope):
                    raw.append({**base, "kind": "spec_changed", "seq": f, "old_spec": prev.spec})
            else:
                if prev is not None:
                    raw.append({**_dep_base(prev, relation, pkg, eco, name), "kind": "removed", "seq": prev.to_seq})
                raw.append({**base, "kind": "added", "seq": f})
            prev = r
        if prev is not None:
            if prev.to_seq is not None:
                raw.append({**_dep_base(prev, relation, pkg, eco, name), "kind": "removed", "seq": prev.to_seq})
            else:
                current.append(DependencyState(name=name, ecosystem=eco, package=pkg, spec=prev.spec, scope=prev.scope,
                                               version=prev.version, source=prev.source))  # fmt: skip
    commits = _commit_map(g, (e["seq"] for e in raw))
    events = []
    order = {"removed": 0, "added": 1, "spec_changed": 2, "version_changed": 3}
    for e in sorted(raw, key=lambda e: (e["seq"], e["name"], e["relation"], order[e["kind"]], e["package"])):
        c = commits.get(int(e["seq"]))
        events.append(DependencyEvent(**e, commit=c.hash if c else None, timestamp=c.timestamp if c else None,
                                      author=c.author if c else None, message=_first(c.message) if c else None))  # fmt: skip
    current.sort(key=lambda s: (s.name, s.package, s.source or "", s.version or ""))
    return DependencyHistoryResult(workspace=info.name, package=package, events=events, current=current)


def _dep_base(r: Record, relation: str, pkg: str, eco: str, name: str) -> dict:
    return {"relation": relation, "name": name, "ecosystem": eco, "package": pkg, "source": r.source,
            "spec": r.spec, "scope": r.scope, "version": r.version}  # fmt: skip


# --- ingestion lag -----------------------------------------------------------------------------


def ingestion_lag(db: Database, ws: WorkspaceRef | None, minutes: float = 0, include_backfill: bool = False) -> LagResult:
    """Timeline commits ingested more than ``minutes`` after they were committed. History that was
    already there when the workspace was first ingested (committed before the first commit was
    ingested) is back-fill, not lag: left out (and counted in ``backfilled``) unless
    ``include_backfill``."""
    if minutes < 0:
        raise ConfigError("minutes must be >= 0")
    info = workspace_info(db, ws)
    g = db.graph(info.name)
    ingested_head(g, info)
    rows = records(g, "ingestion_lag", minutes=minutes)
    commits = [LagCommit(hash=r.hash, seq=r.seq, timestamp=r.timestamp, ingested_at=int(r.ingested_at),
                         lag_s=int(r.lag_s), author=r.author, message=_first(r.message)) for r in rows]  # fmt: skip
    backfilled = 0
    if not include_backfill and commits:
        first = records(g, "ingestion_lag", minutes=-1e12)  # every ingested commit: when watching began
        started = min(int(r.ingested_at) for r in first) if first else 0
        kept = [c for c in commits if c.timestamp >= started]
        backfilled = len(commits) - len(kept)
        commits = kept
    lags = [c.lag_s for c in commits]
    return LagResult(workspace=info.name, minutes=minutes, commits=commits, count=len(commits),
                     max_lag_s=max(lags) if lags else None, backfilled=backfilled,
                     mean_lag_s=round(sum(lags) / len(lags), 1) if lags else None)  # fmt: skip


# --- call graph and impact ---------------------------------------------------------------------


def callgraph_at(
    db: Database, ws: WorkspaceRef | None, at: str | AtCommit | None = None, as_of: int | str | None = None, as_of_ingest: int | str | None = None
) -> dict[str, list[str]]:
    """pycg format: every module/function/method/lambda defined at the commit -> sorted callees
    (``as_of_ingest``: as believed at that wall-clock time)."""
    info, g, atc = _ctx(db, ws, at, as_of, as_of_ingest)
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
        q = _At(g, atc)
        for r in q("defined_at_commit", seq=atc.seq, prefix=""):
            out.setdefault(r.fqn, set())
        for r in q("callgraph_at_commit", seq=atc.seq):
            out.setdefault(r.caller, set()).add(r.callee)
    return {k: sorted(out[k]) for k in sorted(out)}


def _reach(items: dict[tuple[str, str], ImpactItem], kind: Literal["symbol", "file"],
           edges: Iterable[tuple[str, str, str | None]], seen: set[str], nxt: list[str]) -> None:  # fmt: skip
    """One impact step: each ``(who, via, file)`` edge makes ``who`` (a caller or an importer) an
    item reached through ``via``; ``who`` not seen before joins the next frontier."""
    for who, via, file in edges:
        if who in seen and (kind, who) not in items:
            continue
        item = items.setdefault((kind, who), ImpactItem(kind=kind, name=who, file=file))
        if via not in item.via:
            item.via.append(via)
        if who not in seen:
            nxt.append(who)
            seen.add(who)


def impact(
    db: Database,
    ws: WorkspaceRef | None,
    fqns: list[str] | None = None,
    files: list[str] | None = None,
    depth: int = 3,
    at: str | AtCommit | None = None,
    as_of: int | str | None = None,
) -> ImpactResult:
    """What is affected by changing ``fqns`` (or the symbols defined in ``files``): everything
    that calls them transitively, and the files that import ``files`` transitively, grouped by
    distance (1 = direct), up to ``depth`` (1..10)."""
    if not fqns and not files:
        raise ConfigError("impact needs symbols (fqns) or files")
    if not 1 <= int(depth) <= 10:
        raise ConfigError(f"depth must be between 1 and 10, not {depth}")
    info, g, atc = _ctx(db, ws, at, as_of)
    files = [f.lstrip("./") if f.startswith("./") else f for f in (files or [])]
    missing: list[str] = []
    targets: list[str] = []
    src = _src(info, atc, db) if atc.from_source else None
    names_then: dict[str, str] = {}
    q = _At(g, atc) if src is None else None
    for fqn in fqns or []:
        then = _name_then(g, atc, fqn, q) if q is not None else None
        if then is not None:  # today's name, renamed or moved since that commit
            names_then[fqn] = then
            targets.append(then)
            continue
        try:  # a short or suffix name as get_symbol takes it; several matches raise AmbiguousSymbol
            targets.append(_resolve_name(db, info, g, fqn, atc, src=src))
        except AmbiguousSymbol:
            raise
        except UnknownSymbol:
            missing.append(fqn)
    present_files: list[str] = []
    if files:
        if src is not None:
            for f in files:
                syms = [s.fqn for s in src.snap.files[f].symbols] if f in src.snap.files else []
                if syms:
                    present_files.append(f)
                    targets.extend(syms)
                else:
                    missing.append(f)
        else:
            existing = {r.path for f in files for r in records(g, "files_at_commit", seq=atc.seq, prefix=f)}
            present_files = [f for f in files if f in existing]
            missing.extend(f for f in files if f not in existing)
            if present_files:
                rows = records(g, "symbols_in_files", paths=present_files, seq=atc.seq)
                targets.extend(sorted({r.fqn for r in rows}))
    targets = list(dict.fromkeys(targets))

    def callers_of(names: list[str]) -> list[tuple[str, str, str | None]]:
        if src is not None:
            return [(c.caller, c.callee, src.file_of_caller.get(c.caller)) for n in names for c in src.inc.get(n, [])]
        return [(r.caller, r.callee, r.file) for r in records(g, "impact", fqns=names, seq=atc.seq)]

    def importers_of(paths: list[str]) -> list[tuple[str, str]]:
        if src is not None:
            wanted = set(paths)
            return [(f, t) for f, t, kind in src.imports if kind == "file" and t in wanted]
        return [(r.importer, r.imported) for r in records(g, "importers_at_commit", paths=paths, seq=atc.seq)]

    seen_syms = set(targets)
    seen_files = set(present_files)
    sym_frontier = list(targets)
    file_frontier = list(present_files)
    levels: list[ImpactLevel] = []
    for d in range(1, int(depth) + 1):
        items: dict[tuple[str, str], ImpactItem] = {}
        nxt_syms: list[str] = []
        nxt_files: list[str] = []
        if sym_frontier:
            _reach(items, "symbol", callers_of(sym_frontier), seen_syms, nxt_syms)
        if file_frontier:
            _reach(items, "file", ((imp, target, imp) for imp, target in importers_of(file_frontier)), seen_files,
                   nxt_files)  # fmt: skip
        if not items:
            break
        for item in items.values():
            item.via.sort()
        levels.append(ImpactLevel(distance=d, items=sorted(items.values(), key=lambda i: (i.kind, i.name))))
        sym_frontier, file_frontier = nxt_syms, nxt_files
    return ImpactResult(workspace=info.name, at=atc, targets=targets, files=present_files, depth=int(depth),
                        levels=levels, missing=missing, from_source=atc.from_source,
                        names_then=names_then)  # fmt: skip


def list_files(
    db: Database, ws: WorkspaceRef | None, at: str | AtCommit | None = None, as_of: int | str | None = None, path_prefix: str | None = None
) -> FilesResult:
    """Source files present at a commit (optionally under ``path_prefix``), with language and module."""
    info, g, atc = _ctx(db, ws, at, as_of)
    prefix = path_prefix or ""
    if atc.from_source:
        snap = snapshot(info, atc.hash, db.settings.max_file_bytes, db.settings.parse_workers,
                     db.settings.resolve_workers)
        files = [FileRef(path=f.path, language=f.language, module=f.module)
                 for f in sorted(snap.files.values(), key=lambda f: f.path) if f.path.startswith(prefix)]  # fmt: skip
    else:
        files = [FileRef(path=r.path, language=r.language, module=r.module)
                 for r in records(g, "files_at_commit", seq=atc.seq, prefix=prefix)]  # fmt: skip
    return FilesResult(workspace=info.name, at=atc, path_prefix=path_prefix, files=files,
                       from_source=atc.from_source)  # fmt: skip


# --- workspaces --------------------------------------------------------------------------------


def list_workspaces_status(db: Database) -> list[WorkspaceStatus]:
    """Per registered workspace: path, tracked branch, ingested commit, the branch's head now,
    how many commits it is behind, and the working tree's changed files."""
    out = []
    for w in db.registry.list():
        st = WorkspaceStatus(name=w.name, path=w.path, branch=w.branch, state=w.state,
                             ingested_commit=w.last_ingested_commit, ingested_seq=w.last_ingested_seq)  # fmt: skip
        if not Path(w.path).is_dir():
            st.path_exists = False
            st.error = f"path {w.path} does not exist"
            out.append(st)
            continue
        try:
            st.history = history_build_line(db.graph(w.name))
            head = git(w.path, "rev-parse", "--verify", "-q", f"{w.branch or 'HEAD'}^{{commit}}", check=False).strip()
            st.branch_head = head or None
            if head and w.last_ingested_commit:
                if head == w.last_ingested_commit:
                    st.commits_behind = 0
                else:
                    n = git(w.path, "rev-list", "--count", "--first-parent", f"{w.last_ingested_commit}..{head}",
                            check=False).strip()  # fmt: skip
                    st.commits_behind = int(n) if n.isdigit() else None
            elif head:
                n = git(w.path, "rev-list", "--count", "--first-parent", head, check=False).strip()
                st.commits_behind = int(n) if n.isdigit() else None
            porcelain = git(w.path, "status", "--porcelain", check=False)
            st.changed_files = sorted({line[3:] for line in porcelain.splitlines() if len(line) > 3})
        except Exception as err:  # noqa: BLE001 - one broken repo must not hide the others
            st.error = str(err)
        out.append(st)
    return out
