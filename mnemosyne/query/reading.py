"""How a question at one commit is read: the workspace, its graph and the resolved commit
(``context``); the "at a commit" named queries or their ``*_believed`` twins (``At``); the indexes
over a parsed tree for commits not on the timeline (``Source``); and small shared helpers (commits
by seq, merged intervals).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from mnemosyne.query.core import believed_params, records, resolve_at, snapshot, workspace_info
from mnemosyne.query.models import AtCommit, CallEdge
from mnemosyne.store.rows import Record

if TYPE_CHECKING:
    from mnemosyne.facts import Snapshot
    from mnemosyne.store.connection import Database
    from mnemosyne.store.graph import Graph
    from mnemosyne.store.handles import WorkspaceRef
    from mnemosyne.store.registry import WorkspaceInfo


def context(
    db: Database, ws: WorkspaceRef | None, at: str | AtCommit | None, as_of: int | str | None, as_of_ingest: int | str | None = None
) -> tuple[WorkspaceInfo, Graph, AtCommit]:
    """The workspace asked about, its graph and the commit the question is asked at."""
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


class At:
    """Runs the "at a commit" named queries for one ``AtCommit``: the usual ones, or their
    ``*_believed`` twins when the question is asked as of an ingestion time."""

    def __init__(self, g: Graph, atc: AtCommit) -> None:
        self.g = g
        self.extra = believed_params(g, atc) if atc.as_of_ingest is not None and not atc.from_source else None

    def __call__(self, name: str, /, **params: Any) -> list[Record]:
        if self.extra is None:
            return records(self.g, name, **params)
        return records(self.g, _BELIEVED[name], **params, **self.extra)


class Source:
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


def source_at(info: WorkspaceInfo, atc: AtCommit, db: Database) -> Source:
    """The indexes over the tree of ``atc`` parsed now (a commit not on the timeline)."""
    return Source(snapshot(info, atc.hash, db.settings.max_file_bytes, db.settings.parse_workers,
                     db.settings.resolve_workers))


def merge_spans(versions: Iterable[tuple[int, int | None]]) -> list[tuple[int, int | None]]:
    """Merge contiguous/overlapping [from, to) intervals (None = open)."""
    out: list[list[Any]] = []
    for a, b in versions:
        if out and (out[-1][1] is None or out[-1][1] >= a):
            if out[-1][1] is not None and (b is None or b > out[-1][1]):
                out[-1][1] = b
            continue
        out.append([a, b])
    return [(a, b) for a, b in out]


def commit_map(g: Graph, seqs: Iterable[int], believed: dict[str, Any] | None = None) -> dict[int, Record]:
    """seq -> the commit there (columns seq, hash, timestamp, author, message)."""
    wanted = sorted({int(s) for s in seqs if s is not None})
    if not wanted:
        return {}
    if believed:
        return {int(r.seq): r for r in records(g, "commits_by_seqs_believed", seqs=wanted, t=believed["t"])}
    return {int(r.seq): r for r in records(g, "commits_by_seqs", seqs=wanted)}
