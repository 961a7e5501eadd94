"""A symbol's life on the timeline (``symbol_history``): its definitions followed through the recorded
renames and moves (``query/lineage.py``), its calls and callers gained and lost, each event with its commit.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any, cast

from mnemosyne.query.core import believed_params, first_line, ingested_head, records, resolve_at, workspace_info
from mnemosyne.query.lineage import Segment, calls_events, lineage_events, sorted_versions
from mnemosyne.query.models import AtCommit, Event, EventKind, HistoryResult
from mnemosyne.query.names import ambiguous, not_defined, suffix_hits
from mnemosyne.query.reading import At, commit_map, merge_spans
from mnemosyne.store.rows import Record

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database
    from mnemosyne.store.graph import Graph
    from mnemosyne.store.handles import WorkspaceRef
    from mnemosyne.store.registry import WorkspaceInfo


_EVENT_ORDER = {k: i for i, k in enumerate(
    ["removed", "appeared", "re-added", "renamed", "moved", "signature_changed", "body_changed", "formatting_only",
     "docstring_changed", "calls_gained", "calls_lost", "callers_gained", "callers_lost"])}  # fmt: skip


# the named queries of a history: (definitions, renames/moves, calls, formatting-only), now / as believed at $t
_HISTORY = ("symbol_history", "identity_links", "calls_history", "reformats", "identity_links_at")
_HISTORY_BELIEVED = ("symbol_history_believed", "identity_links_believed", "calls_history_believed",
                     "reformats_believed", "identity_links_at_believed")


def _history_name(db: Database, info: WorkspaceInfo, g: Graph, name: str, atc: AtCommit) -> str:
    """The FQN a short or suffix ``name`` means for a history: the one symbol, defined at any commit,
    whose FQN ends with ``.name`` (the one defined at ``atc`` when several are)."""
    hits = suffix_hits(At(g, atc), None, name, atc, alive_only=False)
    alive = [h for h in hits if h.alive]
    if len(hits) == 1 or len(alive) == 1:
        return (alive or hits)[0].fqn
    if hits:
        raise ambiguous(info, name, [h.fqn for h in hits], "in the history")
    raise not_defined(db, info, g, name, atc)


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
    raw.extend(calls_events(chain_fqns, bounds, calls_rows.__getitem__, renames_at, merge_spans))
    per: dict[tuple[str, str], list[tuple[int, int | None]]] = defaultdict(list)
    for r in calls_rows.get(fqn, []):
        per[(r.direction, r.other)].append((r.from_seq, r.to_seq))

    commits = commit_map(g, (s for _, s, _ in raw), believed)
    raw.sort(key=lambda e: (e[1], _EVENT_ORDER[e[0]]))
    events = []
    for k, s, details in raw:
        c = commits.get(int(s))
        events.append(Event(kind=cast("EventKind", k), seq=s, commit=c.hash if c else None, timestamp=c.timestamp if c else None,
                            author=c.author if c else None, message=first_line(c.message) if c else None,
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


