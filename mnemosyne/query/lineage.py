"""A symbol's history across renames and moves: the recorded identity links (``RENAMED_TO``, written
by ingestion, timeline/identity.py) followed back to the symbol's introduction.

The history of ``fqn`` is a chain of segments, newest last: the symbol itself and, for each rename
or move that made it, the symbol it was before (up to the link's commit), followed back until a
symbol has no link into its first version (its introduction) or ``MAX_LINEAGE_HOPS``. Each
segment's ``DEFINES`` versions give its events (``definition_events``); a link becomes one
``renamed`` (another name) or ``moved`` (same name, another file or class) event, which also says
what else changed at that step (signature, body, docstring). A body text change whose commit
recorded it as formatting-only (``REFORMATS``) is a ``formatting_only`` event, not ``body_changed``.
Calls gained at a rename that the old name lost at the same commit are not changes and are dropped.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from mnemosyne.limits import MAX_LINEAGE_HOPS
from mnemosyne.store.rows import Record

Raw = tuple[str, int, dict]  # (event kind, seq, details)
# run a history query by role, its rows by column name: versions (symbol_history), links
# (identity_links: old, new, kind, similarity, seq, commit), reformats (fqn, seq)
Runner = Callable[..., list[Record]]


@dataclass(slots=True)
class Segment:
    fqn: str
    versions: list[Record]  # symbol_history rows with from_seq < hi, oldest first
    hi: int | None = None  # the seq of the link out of it (the next segment's start), None: the asked symbol
    link_in: Record | None = None  # the identity_links row that made it


def sorted_versions(rows: list[Record]) -> list[Record]:
    """symbol_history rows, oldest first (an open version after a closed one of the same start)."""
    return sorted(rows, key=lambda r: (r.from_seq, r.to_seq is None, r.to_seq or 0))


def chain(fqn: str, versions: list[Record], q: Runner) -> list[Segment]:
    """The segments of ``fqn``'s history, oldest first (the asked symbol last)."""
    segs = [Segment(fqn, versions)]
    seen = {fqn}
    while len(segs) <= MAX_LINEAGE_HOPS:
        cur = segs[0]
        if not cur.versions:
            break
        start = cur.versions[0].from_seq
        into = [r for r in q("links", fqns=[cur.fqn]) if r.new == cur.fqn and r.seq == start and r.old not in seen]
        if not into:
            break
        link = max(into, key=lambda r: (r.similarity or 0.0, r.old))
        old = [v for v in sorted_versions(q("versions", fqn=link.old)) if v.from_seq < start]
        if not old:
            break
        cur.link_in = link
        seen.add(link.old)
        segs.insert(0, Segment(link.old, old, hi=start))
    return segs


def definition_events(versions: list[Record], reformats: set[int]) -> list[Raw]:
    """Events of one symbol's DEFINES versions (symbol_history rows, oldest first)."""
    raw: list[Raw] = []
    prev = None
    for v in versions:
        from_seq, file = v.from_seq, v.file
        if prev is None:
            raw.append(("appeared", from_seq, {"file": file, "signature": v.signature, "kind": v.kind}))
        elif prev.to_seq is None or prev.to_seq >= from_seq:  # contiguous (or overlapping): a change in place
            if prev.file != file:
                raw.append(("moved", from_seq, {"from_file": prev.file, "to_file": file}))
            raw.extend(_changes(prev, v, from_seq in reformats, same_file=prev.file == file))
        else:
            raw.append(("removed", prev.to_seq, {"file": prev.file}))
            raw.append(("re-added", from_seq, {"file": file, "signature": v.signature}))
        prev = v
    if prev is not None and prev.to_seq is not None:
        raw.append(("removed", prev.to_seq, {"file": prev.file}))
    return raw


def _changes(prev: Record, v: Record, reformatted: bool, same_file: bool = True,
             code_same: bool = False) -> list[Raw]:
    """Signature / body / docstring changes from version ``prev`` to ``v`` (at ``v``'s start).
    ``reformatted``: the commit recorded the code as unchanged (same normalized tokens, the
    signature's included): a signature or body text change is ``formatting_only``."""
    seq = v.from_seq
    out: list[Raw] = []
    sig = (prev.signature or "") != (v.signature or "")
    body = (prev.body_hash or "") != (v.body_hash or "") and same_file
    doc = (prev.docstring or "") != (v.docstring or "")
    if reformatted and (sig or body):
        if not doc:
            out.append(("formatting_only", seq, {}))
    else:
        if sig:
            out.append(("signature_changed", seq, {"old": prev.signature, "new": v.signature}))
        if body and not code_same:
            out.append(("body_changed", seq, {}))
    if doc:
        out.append(("docstring_changed", seq, {"old": prev.docstring, "new": v.docstring}))
    return out


def _link_event(old: Segment, new: Segment, reformats: set[int]) -> list[Raw]:
    """The step from ``old`` to ``new``: renamed/moved, and what else changed with it."""
    assert new.link_in is not None
    link = new.link_in
    o, n, kind, sim, seq = link.old, link.new, link.kind, link.similarity, link.seq
    before, after = old.versions[-1], new.versions[0]
    ev = "moved" if kind == "move" else "renamed"
    out: list[Raw] = [(ev, seq, {"from_fqn": o, "to_fqn": n, "from_file": before.file, "to_file": after.file,
                                 "from_parent": before.parent, "to_parent": after.parent, "change": kind,
                                 "similarity": sim})]  # fmt: skip
    # a signature that spells the name (TypeScript: ``area(): number``) did not change by the rename
    old_name, new_name = _short(o), _short(n)
    before = Record({**before, "signature": renamed_sig(before.signature, old_name, new_name)})
    out.extend(_changes(before, after, seq in reformats, code_same=(sim or 0) >= 1.0))
    return out


def _short(fqn: str) -> str:
    return fqn.rsplit(".", 1)[-1]


def renamed_sig(sig: str | None, old: str, new: str) -> str | None:
    if not sig or old == new:
        return sig
    return re.sub(rf"(?<![\w$]){re.escape(old)}(?![\w$])", new, sig, count=1)


def lineage_events(fqn: str, versions: list[Record], q: Runner) -> tuple[list[Raw], list[Segment]]:
    """Definition events of ``fqn`` followed back through its renames and moves (and one step
    forward: a removal that is a rename says where it went). Returns (events, the chain)."""
    segs = chain(fqn, versions, q)
    fqns = [s.fqn for s in segs]
    reformats: dict[str, set[int]] = defaultdict(set)
    for r in q("reformats", fqns=fqns):
        reformats[r.fqn].add(int(r.seq))
    raw: list[Raw] = []
    for i, seg in enumerate(segs):
        evs = definition_events(seg.versions, reformats[seg.fqn])
        if seg.hi is not None:  # its end is the rename into the next segment
            evs = [e for e in evs if not (e[0] == "removed" and e[1] == seg.hi)]
        if seg.link_in is not None:
            start = seg.versions[0].from_seq
            evs = [e for e in evs if not (e[0] == "appeared" and e[1] == start)]
            evs = _link_event(segs[i - 1], seg, reformats[seg.fqn]) + evs
        raw.extend(evs)
    last = segs[-1]
    if last.versions and last.versions[-1].to_seq is not None:  # removed: renamed or moved away?
        end = last.versions[-1].to_seq
        out = [r for r in q("links", fqns=[last.fqn]) if r.old == last.fqn and r.seq == end]
        if out:
            link = max(out, key=lambda r: (r.similarity or 0.0, r.new))
            after = sorted_versions([v for v in q("versions", fqn=link.new) if v.from_seq == end])
            raw = [e for e in raw if not (e[0] == "removed" and e[1] == end)]
            raw.append(("moved" if link.kind == "move" else "renamed", end, {
                "from_fqn": link.old, "to_fqn": link.new, "from_file": last.versions[-1].file,
                "to_file": after[0].file if after else None, "change": link.kind,
                "similarity": link.similarity}))  # fmt: skip
    return raw, segs


def calls_events(segs_fqns: list[str], bounds: list[tuple[int | None, int | None]],
                 rows_of: Callable[[str], list[Record]],
                 renames_at: dict[int, dict[str, str]], spans: Callable) -> list[Raw]:
    """Calls/callers gained and lost over the chain: each symbol's within its segment
    ``[lo, hi)``; at a rename, what the old name lost and the new one gained is no change, nor is
    a call to a callee renamed in the same commit (``renames_at``: seq -> old FQN -> new FQN)."""
    grouped: dict[tuple[str, int], set[str]] = defaultdict(set)
    for fqn, (lo, hi) in zip(segs_fqns, bounds):
        per: dict[tuple[str, str], list[tuple[int, int | None]]] = defaultdict(list)
        for r in rows_of(fqn):
            direction, other, f, t = r.direction, r.other, r.from_seq, r.to_seq
            if hi is not None and f >= hi:
                continue
            if lo is not None and t is not None and t <= lo:
                continue
            per[(direction, other)].append((f, t))
        for (direction, other), ivs in per.items():
            for a, b in spans(sorted(ivs, key=lambda x: (x[0], x[1] is None, x[1] or 0))):
                gained = "calls_gained" if direction == "callee" else "callers_gained"
                lost = "calls_lost" if direction == "callee" else "callers_lost"
                grouped[(gained, max(a, lo) if lo is not None else a)].add(other)
                if b is not None and (hi is None or b < hi):
                    grouped[(lost, b)].add(other)
                elif hi is not None:
                    grouped[(lost, hi)].add(other)
    for s, renamed in renames_at.items():
        for g, lo_ in (("calls_gained", "calls_lost"), ("callers_gained", "callers_lost")):
            lost_then = grouped.get((lo_, s), set())
            gained_then = grouped.get((g, s), set())
            same = {x for x in lost_then if renamed.get(x, x) in gained_then}
            if same:
                grouped[(lo_, s)] = lost_then - same
                grouped[(g, s)] = gained_then - {renamed.get(x, x) for x in same}
    out: list[Raw] = []
    for (k, s), others in grouped.items():
        if others:
            out.append((k, s, {"callees" if k.startswith("calls") else "callers": sorted(others)}))
    return out


def renamed_between(removed: set[str], added: set[str], links: list[Record], forward: bool = True
                    ) -> list[tuple[str, str, float | None]]:
    """(old FQN, new FQN, lowest similarity on the way) for each symbol removed between two commits
    that the recorded links (``identity_links_between`` rows, oldest first) carry, through any
    number of renames, to a symbol added between them. ``forward``: from the older commit to the
    newer (else the links are walked backwards: a diff asked newest first)."""
    nxt: dict[str, tuple[str, float | None]] = {}
    for r in links if forward else reversed(links):
        a, b = (r.old, r.new) if forward else (r.new, r.old)
        if a not in nxt:
            nxt[a] = (b, r.similarity)
    out = []
    for f in sorted(removed):
        cur, low, hops = f, None, 0
        while cur in nxt and hops <= MAX_LINEAGE_HOPS:
            cur, sim = nxt[cur]
            low = sim if low is None or (sim is not None and sim < low) else low
            hops += 1
            if cur in added:
                out.append((f, cur, low))
                break
    return out


def name_at(fqn: str, seq: int, links_of: Callable[[str], list[Record]]) -> str | None:
    """The name the symbol called ``fqn`` now had at timeline position ``seq``: the recorded
    renames and moves into it after ``seq`` followed back (the earliest one after ``seq`` at each
    step). None when it was not renamed or moved since."""
    cur, hops = fqn, 0
    while hops <= MAX_LINEAGE_HOPS:
        into = [r for r in links_of(cur) if r.new == cur and r.seq > seq]
        if not into:
            break
        cur = min(into, key=lambda r: (r.seq, -(r.similarity or 0.0), r.old)).old
        hops += 1
    return None if cur == fqn else cur
