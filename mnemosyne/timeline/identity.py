"""Identity across time: renames and moves of functions, methods and classes in one commit, and
formatting-only changes. Pure: symbols and their source text in, facts out.

A refactoring detector's question, asked per commit: of the symbols that disappeared (their
``DEFINES`` closed and not reopened under the same name) and those that appeared, which pairs are
the same code under another name, in another file or in another class?

- **Candidates** are bounded: same kind family (class with class; function with method: a function
  that became a method, a getter that became a property), comparable size (token counts within
  ``SIZE_RATIO``), at most ``limits.IDENTITY_MAX_PAIRS`` comparisons per commit; same-named pairs
  (moves) are compared first, so they are never crowded out.
- **Similarity** of two bodies is the Jaccard index of their token 3-shingles, with the symbol's
  own name replaced by a placeholder (a renamed recursive function is still itself), on the
  normalized tokens of ``timeline.tokens`` (layout and comments do not count).
- **Assignment** is greedy by score (similarity, then a bonus for the same name, the same or a
  matched parent, the same file), classes before their members, each symbol used once. A same-named
  member of a matched class or function is carried with it whatever its similarity (a renamed or moved
  class keeps its methods, even one whose body moved out). Otherwise a same-named pair needs
  ``MOVE_MIN`` similarity, a renamed one ``RENAME_MIN``, a method leaving for an unrelated class more
  (``CROSS_DUNDER_MIN``, ``CROSS_RENAME_MIN``); a top-level symbol rewritten as it moved is still taken
  on its token multiset when its name is (nearly) the same (``_helper`` -> ``helper``) or close
  (``_rewritten``). A body under ``TINY_TOKENS`` tokens is too common to be evidence: it needs the same
  name and a matched parent, or an identical body and the same name.
- **Kinds**: ``rename`` (another name, same file and parent), ``move`` (same name, another file or
  parent: a helper module merged into its user, the methods of a renamed class), ``rename_move``.

A **formatting-only** change is a body text change (``body_hash``) whose normalized tokens are
equal: re-wrapped lines, comments inside the body, quote style, trailing commas.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from mnemosyne import vocabulary as V
from mnemosyne.facts import FileFacts
from mnemosyne.limits import IDENTITY_MAX_PAIRS
from mnemosyne.timeline.edges import clean
from mnemosyne.timeline.state import Delta
from mnemosyne.timeline.tokens import code_tokens, skeleton

MOVE_MIN = 0.5  # similarity a same-named pair needs (another file or class)
RENAME_MIN = 0.6  # similarity a renamed pair needs
CROSS_DUNDER_MIN = 0.8  # a dunder method moved to an unrelated class
CROSS_RENAME_MIN = 0.85  # a method renamed into an unrelated class
CARRIED_MIN = 0.0  # a same-named member of a matched class/function: carried by its parent's move or rename
REWRITE_BAG = 0.45  # token-multiset similarity of a (nearly) same-named top-level symbol rewritten as it moved
# a renamed top-level symbol rewritten as it moved (resolve_ctx -> _resolve_context)
REWRITE_MIN, RENAME_BAG, NAME_RATIO = 0.4, 0.75, 0.7
TINY_TOKENS = 12  # a body this small (tokens) is no evidence of identity by itself
SIZE_RATIO = 2.5  # token counts of a renamed pair within this factor
SHINGLE = 3
SELF = "<self>"  # the symbol's own name in its tokens

RENAME, MOVE, RENAME_MOVE = "rename", "move", "rename_move"
KINDS = (RENAME, MOVE, RENAME_MOVE)
_FAMILY = {"class": "class", "function": "func", "method": "func"}  # modules and lambdas: not matched


@dataclass(slots=True)
class Side:
    """One symbol on one side of a commit, with its source text (the lines it spans)."""

    fqn: str
    name: str
    kind: str
    file: str
    parent: str
    signature: str
    body_hash: str
    text: str
    _tokens: list[str] | None = field(default=None, repr=False)
    _shingles: frozenset[int] | None = field(default=None, repr=False)
    _bag: Counter[str] | None = field(default=None, repr=False)
    shell: str = field(default="", repr=False)  # a class: its text without its members' lines

    @property
    def tokens(self) -> list[str]:
        if self._tokens is None:
            self._tokens = code_tokens(self.file, self.text)
        return self._tokens

    def with_text(self, text: str) -> Side:
        return Side(self.fqn, self.name, self.kind, self.file, self.parent, self.signature, self.body_hash + "*", text)

    @property
    def bag(self) -> Counter[str]:
        if self._bag is None:
            self._bag = Counter(x for x in self.tokens if x != self.name)
        return self._bag

    @property
    def shingles(self) -> frozenset[int]:
        if self._shingles is None:
            t = [SELF if x == self.name else x for x in self.tokens]
            self._shingles = frozenset(hash(tuple(t[i : i + SHINGLE])) for i in range(max(1, len(t) - SHINGLE + 1)))
        return self._shingles


@dataclass(frozen=True, slots=True)
class Link:
    """``old`` is ``new`` under another name / in another place, from this commit on."""

    old: str
    new: str
    kind: str  # rename | move | rename_move
    similarity: float
    old_is_class: bool
    new_is_class: bool


def similarity(a: Side, b: Side) -> float:
    sa, sb = a.shingles, b.shingles
    if not sa and not sb:
        return 1.0
    inter = len(sa & sb)
    return inter / (len(sa) + len(sb) - inter)


def _threshold(o: Side, n: Side, carried: bool, same_name: bool, parent_ok: bool) -> float:
    """The similarity a pair needs. A method that leaves its class for another class that is not
    its class renamed needs more: a dunder (``__exit__`` of two unrelated classes) or another name."""
    if carried:
        return CARRIED_MIN
    cross = o.kind == "method" and n.kind == "method" and not parent_ok
    if same_name:
        return CROSS_DUNDER_MIN if cross and o.name.startswith("__") else MOVE_MIN
    return CROSS_RENAME_MIN if cross else RENAME_MIN


def bag_similarity(a: Side, b: Side) -> float:
    """Dice coefficient of the two token multisets (own names left out): order-blind, so it still
    sees a rewritten body (statements reordered, conditions restructured) as made of the same parts."""
    ca, cb = a.bag, b.bag
    total = sum(ca.values()) + sum(cb.values())
    return 2 * sum((ca & cb).values()) / total if total else 1.0


def _norm_name(name: str) -> str:
    return name.lstrip("_").lower()


def _near_name(a: str, b: str) -> bool:
    """The same name up to leading underscores and case (a private helper made public)."""
    return not a.startswith("__") and not b.startswith("__") and _norm_name(a) == _norm_name(b)


def _rewritten(o: Side, n: Side, sim: float, same_name: bool) -> bool:
    """A body rewritten as it moved (shingles too different) is still identified when the evidence
    is otherwise strong: a top-level symbol of the same (or nearly the same) name whose tokens are
    mostly the same (``REWRITE_BAG``), or a name close enough (``NAME_RATIO``) with a fair shingle
    similarity (``REWRITE_MIN``) and very similar tokens (``RENAME_BAG``). Methods are left out
    (``__init__`` and ``run`` are everywhere); a renamed class carries them instead."""
    if o.parent != o.file or n.parent != n.file:
        return False
    if same_name:
        return bag_similarity(o, n) >= REWRITE_BAG
    if sim < REWRITE_MIN:
        return False
    ratio = difflib.SequenceMatcher(None, _norm_name(o.name), _norm_name(n.name)).ratio()
    return ratio >= NAME_RATIO and bag_similarity(o, n) >= RENAME_BAG


def formatting_only(old: Side, new: Side, same_docstring: bool = False) -> bool:
    """A body text change that is not a change of the code (same normalized tokens). With
    ``same_docstring``, two texts whose skeletons differ are ruled out without tokenizing."""
    if old.body_hash == new.body_hash:
        return False
    if same_docstring and skeleton(old.file, old.text) != skeleton(new.file, new.text):
        return False
    return old.tokens == new.tokens


def _depth(s: Side) -> int:
    return s.fqn.count(".") + s.fqn.count("/")


def _kind(o: Side, n: Side) -> str:
    moved = o.file != n.file or o.parent != n.parent
    if o.name == n.name:
        return MOVE
    return RENAME_MOVE if moved else RENAME


def detect(old: Iterable[Side], new: Iterable[Side], max_pairs: int = IDENTITY_MAX_PAIRS) -> list[Link]:
    """Renames and moves between the symbols that disappeared (``old``) and appeared (``new``) in
    one commit. Deterministic: ties are broken by the FQNs."""
    olds = sorted((s for s in old if s.kind in _FAMILY), key=lambda s: s.fqn)
    news = sorted((s for s in new if s.kind in _FAMILY), key=lambda s: s.fqn)
    if not olds or not news:
        return []
    links: list[Link] = []
    matched: dict[str, str] = {}  # old fqn -> new fqn (parents, for the bonus and tiny bodies)
    taken: set[str] = set()
    budget = [max_pairs]
    # classes first (their members' parents must be matched when the members are), then by depth
    for depth in sorted({_depth(s) for s in olds} | {_depth(s) for s in news}):
        for fam in ("class", "func"):
            o_lvl = [s for s in olds if _depth(s) == depth and _FAMILY[s.kind] == fam and s.fqn not in matched]
            n_lvl = [s for s in news if _FAMILY[s.kind] == fam and s.fqn not in taken]
            if o_lvl and n_lvl:
                _assign(o_lvl, n_lvl, matched, taken, links, budget)
    return links


def _assign(olds: list[Side], news: list[Side], matched: dict[str, str], taken: set[str], links: list[Link],
            budget: list[int]) -> None:
    by_name: dict[str, list[Side]] = {}
    for n in news:
        by_name.setdefault(_norm_name(n.name), []).append(n)
    pairs: list[tuple[Side, Side]] = []
    seen: set[tuple[str, str]] = set()
    for o in olds:  # (nearly) same-named pairs first: moves are never crowded out by the budget
        for n in by_name.get(_norm_name(o.name), ()):
            pairs.append((o, n))
            seen.add((o.fqn, n.fqn))
    budget[0] -= len(pairs)
    by_size = sorted(news, key=lambda s: len(s.tokens))
    for o in olds:
        lo, hi = len(o.tokens) / SIZE_RATIO, len(o.tokens) * SIZE_RATIO
        for n in by_size:
            if budget[0] <= 0:
                break
            size = len(n.tokens)
            if size < lo:
                continue
            if size > hi:
                break
            if (o.fqn, n.fqn) not in seen:
                pairs.append((o, n))
                budget[0] -= 1
    scored: list[tuple[float, float, str, str, Side, Side]] = []
    for o, n in pairs:
        sim = similarity(o, n)
        same_name = o.name == n.name
        parent_ok = matched.get(o.parent, o.parent) == n.parent
        carried = same_name and parent_ok and o.parent != n.parent  # its class/function was renamed
        near = not same_name and _near_name(o.name, n.name)  # _helper -> helper, Helper -> helper
        if min(len(o.tokens), len(n.tokens)) < TINY_TOKENS:
            if not (carried or (sim == 1.0 and same_name)):
                continue
        elif not (sim >= _threshold(o, n, carried, same_name, parent_ok) or _rewritten(o, n, sim, same_name or near)):
            continue
        bonus = 1.0 * carried + 0.05 * (same_name or near) + 0.05 * parent_ok + 0.02 * (o.file == n.file)
        scored.append((-(sim + bonus), -sim, o.fqn, n.fqn, o, n))
    scored.sort(key=lambda x: x[:4])
    for _neg, neg_sim, _of, _nf, o, n in scored:
        if o.fqn in matched or n.fqn in taken:
            continue
        matched[o.fqn] = n.fqn
        taken.add(n.fqn)
        links.append(Link(o.fqn, n.fqn, _kind(o, n), round(-neg_sim, 4), o.kind == "class", n.kind == "class"))


# --- one commit: the DEFINES delta -> identity facts ---------------------------------------------

@dataclass(slots=True)
class CommitIdentity:
    links: list[Link] = field(default_factory=list)
    reformatted: list[tuple[str, bool]] = field(default_factory=list)  # (fqn, is_class)

    def __bool__(self) -> bool:
        return bool(self.links or self.reformatted)


def _sides(facts: Mapping[str, FileFacts | None], wanted: set[str], text_of: Callable[[str], str | None]
           ) -> dict[str, Side]:
    """The symbols named in ``wanted`` (stored FQNs) among ``facts``, with their text (a class:
    also its shell, the text without its members' lines)."""
    out: dict[str, Side] = {}
    for path, ff in facts.items():
        if ff is None:
            continue
        lines: list[str] | None = None
        members: dict[str, list[tuple[int, int]]] | None = None
        for s in ff.symbols:
            fqn = clean(s.fqn)
            if fqn not in wanted:
                continue
            if lines is None:
                text = text_of(path)
                if text is None:
                    break
                lines = text.splitlines(keepends=True)
            own = lines[max(0, s.line_start - 1) : s.line_end]
            side = Side(fqn, s.name, s.kind, clean(s.file), clean(s.parent), s.signature or "", s.body_hash or "",
                        "".join(own))
            if s.kind == "class":
                if members is None:
                    members = {}
                    for m in ff.symbols:
                        members.setdefault(clean(m.parent), []).append((m.line_start, m.line_end))
                cut: set[int] = set()
                for a, b in members.get(fqn, ()):
                    cut.update(range(a, b + 1))
                side.shell = "".join(ln for i, ln in enumerate(own, s.line_start) if i not in cut)
            out[fqn] = side
    return out


def _reformatted(edited: set[str], gone: set[str], came: set[str], old: dict[str, Side], new: dict[str, Side],
                 same_doc: Callable[[str], bool]) -> list[tuple[str, bool]]:
    """The edited symbols whose change is formatting-only. A class is, when its shell is and every
    member it changed is (members first; a member added or removed is a change of the class): its
    text holds all of its methods, tokenized once each rather than again as one class."""
    verdict: dict[str, bool] = {}
    changed_members: dict[str, list[str]] = {}
    for f in (*gone, *came, *edited):
        side = new.get(f) or old.get(f)
        if side is not None:
            changed_members.setdefault(side.parent, []).append(f)
    for f in sorted(edited, key=lambda x: (-_depth(new[x] if x in new else old[x]) if x in new or x in old else 0, x)):
        o, n = old.get(f), new.get(f)
        if o is None or n is None:
            continue
        if n.kind != "class":
            verdict[f] = formatting_only(o, n, same_doc(f))
            continue
        members = changed_members.get(f, [])
        verdict[f] = (all(verdict.get(m, False) for m in members)
                      and o.body_hash != n.body_hash
                      and (o.shell == n.shell or formatting_only(o.with_text(o.shell), n.with_text(n.shell),
                                                                 same_doc(f))))  # fmt: skip
    return [(f, new[f].kind == "class") for f in sorted(edited) if verdict.get(f)]


def commit_identity(delta: Delta, old_facts: Mapping[str, FileFacts | None], new_facts: Mapping[str, FileFacts],
                    old_text: Callable[[str], str | None], new_text: Callable[[str], str | None]) -> CommitIdentity:
    """Renames, moves and formatting-only changes of one commit, from its ``DEFINES`` delta.

    ``old_facts``: the changed files' facts before the commit (None: not a source file then);
    ``new_facts``: after it; ``old_text``/``new_text``: a file's source before/after the commit."""
    closed = {k.dst: k for k in delta.closed if k.etype == V.DEFINES and k.ident[4] in _FAMILY}
    opened = {k.dst: k for k, _ in delta.opened if k.etype == V.DEFINES and k.ident[4] in _FAMILY}
    if not closed or not opened:
        return CommitIdentity()
    gone = closed.keys() - opened.keys()
    came = opened.keys() - closed.keys()
    edited = {f for f in closed.keys() & opened.keys() if closed[f].ident[3] != opened[f].ident[3]}
    if not edited and not (gone and came):
        return CommitIdentity()
    old = _sides(old_facts, gone | edited, old_text)
    new = _sides(new_facts, came | edited, new_text)
    res = CommitIdentity()
    if gone and came:
        res.links = detect([old[f] for f in sorted(gone) if f in old], [new[f] for f in sorted(came) if f in new])
    res.reformatted = _reformatted(edited, gone, came, old, new,
                                   lambda f: closed[f].ident[2] == opened[f].ident[2])
    return res
