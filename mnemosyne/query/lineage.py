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
from typing import Any

from mnemosyne.limits import MAX_LINEAGE_HOPS

Raw = tuple[str, int, dict]  # (event kind, seq, details)
Runner = Callable[..., list[list[Any]]]  # run a history query by role: versions, links, reformats, calls


@dataclass(slots=True)
class Segment:
    fqn: str
    versions: list[list[Any]]  # symbol_history rows with from_seq < hi, oldest first
    hi: int | None = None  # the seq of the link out of it (the next segment's start), None: the asked symbol
    link_in: list[Any] | None = None  # identity_links row that made it (old, new, kind, similarity, seq, commit)


def _sorted_versions(rows: list[list[Any]]) -> list[list[Any]]:
    return sorted(rows, key=lambda r: (r[0], r[1] is None, r[1] or 0))


def chain(fqn: str, versions: list[list[Any]], q: Runner) -> list[Segment]:
    """The segments of ``fqn``'s history, oldest first (the asked symbol last)."""
    segs = [Segment(fqn, versions)]
    seen = {fqn}
    while len(segs) <= MAX_LINEAGE_HOPS:
        cur = segs[0]
        if not cur.versions:
            break
        start = cur.versions[0][0]
        into = [r for r in q("links", fqns=[cur.fqn]) if r[1] == cur.fqn and r[4] == start and r[0] not in seen]
        if not into:
            break
        link = max(into, key=lambda r: (r[3] or 0.0, r[0]))
        old = [v for v in _sorted_versions(q("versions", fqn=link[0])) if v[0] < start]
        if not old:
            break
        cur.link_in = link
        seen.add(link[0])
        segs.insert(0, Segment(link[0], old, hi=start))
    return segs


def definition_events(versions: list[list[Any]], reformats: set[int]) -> list[Raw]:
    """Events of one symbol's DEFINES versions (symbol_history rows, oldest first)."""
    raw: list[Raw] = []
    prev = None
    for v in versions:
        from_seq, _to, file, signature, docstring, _ls, _le, body_hash, _parent, kind = v[:10]
        if prev is None:
            raw.append(("appeared", from_seq, {"file": file, "signature": signature, "kind": kind}))
        elif prev[1] is None or prev[1] >= from_seq:  # contiguous (or overlapping): a change in place
            if prev[2] != file:
                raw.append(("moved", from_seq, {"from_file": prev[2], "to_file": file}))
            raw.extend(_changes(prev, v, from_seq in reformats, same_file=prev[2] == file))
        else:
            raw.append(("removed", prev[1], {"file": prev[2]}))
            raw.append(("re-added", from_seq, {"file": file, "signature": signature}))
        prev = v
    if prev is not None and prev[1] is not None:
        raw.append(("removed", prev[1], {"file": prev[2]}))
    return raw


def _changes(prev: list[Any], v: list[Any], reformatted: bool, same_file: bool = True,
             code_same: bool = False) -> list[Raw]:
    """Signature / body / docstring changes from version ``prev`` to ``v`` (at ``v``'s start).
    ``reformatted``: the commit recorded the code as unchanged (same normalized tokens, the
    signature's included): a signature or body text change is ``formatting_only``."""
    seq = v[0]
    out: list[Raw] = []
    sig = (prev[3] or "") != (v[3] or "")
    body = (prev[7] or "") != (v[7] or "") and same_file
    doc = (prev[4] or "") != (v[4] or "")
    if reformatted and (sig or body):
        if not doc:
            out.append(("formatting_only", seq, {}))
    else:
        if sig:
            out.append(("signature_changed", seq, {"old": prev[3], "new": v[3]}))
        if body and not code_same:
            out.append(("body_changed", seq, {}))
    if doc:
        out.append(("docstring_changed", seq, {"old": prev[4], "new": v[4]}))
    return out


def _link_event(old: Segment, new: Segment, reformats: set[int]) -> list[Raw]:
    """The step from ``old`` to ``new``: renamed/moved, and what else changed with it."""
    assert new.link_in is not None
    o, n, kind, sim, seq, _commit = new.link_in[:6]
    before, after = old.versions[-1], new.versions[0]
    ev = "moved" if kind == "move" else "renamed"
    out: list[Raw] = [(ev, seq, {"from_fqn": o, "to_fqn": n, "from_file": before[2], "to_file": after[2],
                                 "from_parent": before[8], "to_parent": after[8], "change": kind,
                                 "similarity": sim})]  # fmt: skip
    # a signature that spells the name (TypeScript: ``area(): number``) did not change by the rename
    old_name, new_name = _short(o), _short(n)
    before = [*before[:3], renamed_sig(before[3], old_name, new_name), *before[4:]]
    out.extend(_changes(before, after, seq in reformats, code_same=(sim or 0) >= 1.0))
    return out


def _short(fqn: str) -> str:
    return fqn.rsplit(".", 1)[-1]


def renamed_sig(sig: str | None, old: str, new: str) -> str | None:
    if not sig or old == new:
        return sig
    return re.sub(rf"(?<![\w$]){re.escape(old)}(?![\w$])", new, sig, count=1)


def lineage_events(fqn: str, versions: list[list[Any]], q: Runner) -> tuple[list[Raw], list[Segment]]:
    """Definition events of ``fqn`` followed back through its renames and moves (and one step
    forward: a removal that is a rename says where it went). Returns (events, the chain)."""
    segs = chain(fqn, versions, q)
    fqns = [s.fqn for s in segs]
    reformats: dict[str, set[int]] = defaultdict(set)
    for f, s in q("reformats", fqns=fqns):
        reformats[f].add(int(s))
    raw: list[Raw] = []
    for i, seg in enumerate(segs):
        evs = definition_events(seg.versions, reformats[seg.fqn])
        if seg.hi is not None:  # its end is the rename into the next segment
            evs = [e for e in evs if not (e[0] == "removed" and e[1] == seg.hi)]
        if seg.link_in is not None:
            start = seg.versions[0][0]
            evs = [e for e in evs if not (e[0] == "appeared" and e[1] == start)]
            evs = _link_event(segs[i - 1], seg, reformats[seg.fqn]) + evs
        raw.extend(evs)
    last = segs[-1]
    if last.versions and last.versions[-1][1] is not None:  # removed: renamed or moved away?
        end = last.versions[-1][1]
        out = [r for r in q("links", fqns=[last.fqn]) if r[0] == last.fqn and r[4] == end]
        if out:
            o, n, kind, sim, seq, _c = max(out, key=lambda r: (r[3] or 0.0, r[1]))[:6]
            after = _sorted_versions([v for v in q("versions", fqn=n) if v[0] == end])
            raw = [e for e in raw if not (e[0] == "removed" and e[1] == end)]
            raw.append(("moved" if kind == "move" else "renamed", end, {
                "from_fqn": o, "to_fqn": n, "from_file": last.versions[-1][2],
                "to_file": after[0][2] if after else None, "change": kind, "similarity": sim}))  # fmt: skip
    return raw, segs


def calls_events(segs_fqns: list[str], bounds: list[tuple[int | None, int | None]], rows_of: Callable[[str], list],
                 renames_at: dict[int, dict[str, str]], spans: Callable) -> list[Raw]:
    """Calls/callers gained and lost over the chain: each symbol's within its segment
    ``[lo, hi)``; at a rename, what the old name lost and the new one gained is no change, nor is
    a call to a callee renamed in the same commit (``renames_at``: seq -> old FQN -> new FQN)."""
    grouped: dict[tuple[str, int], set[str]] = defaultdict(set)
    for fqn, (lo, hi) in zip(segs_fqns, bounds):
        per: dict[tuple[str, str], list[tuple[int, int | None]]] = defaultdict(list)
        for direction, other, _res, _conf, f, t in rows_of(fqn):
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


def renamed_between(removed: set[str], added: set[str], links: list[list[Any]], forward: bool = True
                    ) -> list[tuple[str, str, float | None]]:
    """(old FQN, new FQN, lowest similarity on the way) for each symbol removed between two commits
    that the recorded links (``identity_links_between`` rows, oldest first) carry, through any
    number of renames, to a symbol added between them. ``forward``: from the older commit to the
    newer (else the links are walked backwards: a diff asked newest first)."""
    nxt: dict[str, tuple[str, float | None]] = {}
    for o, n, _kind, sim, _seq in (links if forward else reversed(links)):
        a, b = (o, n) if forward else (n, o)
        if a not in nxt:
            nxt[a] = (b, sim)
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


def name_at(fqn: str, seq: int, links_of: Callable[[str], list[list[Any]]]) -> str | None:
    """The name the symbol called ``fqn`` now had at timeline position ``seq``: the recorded
    renames and moves into it after ``seq`` followed back (the earliest one after ``seq`` at each
    step). None when it was not renamed or moved since."""
    cur, hops = fqn, 0
    while hops <= MAX_LINEAGE_HOPS:
        into = [r for r in links_of(cur) if r[1] == cur and r[4] > seq]
        if not into:
            break
        cur = min(into, key=lambda r: (r[4], -(r[3] or 0.0), r[0]))[0]
        hops += 1
    return None if cur == fqn else cur
