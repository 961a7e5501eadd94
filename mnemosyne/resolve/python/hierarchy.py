"""Class-hierarchy answers shared by every file's resolution (``Hierarchy``): a class's MRO and its
subclasses are computed once per index state, by a resolver of their own (``resolver.SharedResolver``, fresh
memo tables, every read recorded), instead of once per resolved file (Django's test classes' MROs
were computed again in every file asking for ``Model``'s or ``SimpleTestCase``'s subclasses); so is
what the objects of a scope's object stores hold (``stores.py``), read by every file reading such an
attribute on an instance, and what another file's module attribute holds (``names.module_attr``), asked
by files and inside the other shared computations, which then do not evaluate module-level names from
nothing. (Another file's function's returns and parameter flow as shared answers cost more than they
saved: benchmarks/README.md, session 19.)

An answer keeps what its computation consulted (recorded reads, module names, name-search
answers); a resolution using it takes those as its own, so the incremental contract holds as if
the file had computed it (docs/resolve-python.md, incremental contract): its recorded reads are
kept once (``incremental.SharedReads``, made with the first record that uses it), referenced by the
record of every file that used it, not copied into each. The index drops every answer when it
changes (``PythonIndex.update``); the records keep what theirs read.

An answer must not depend on which file asked first. Its computation starts from nothing (no
memo, no key being computed) and is bounded by the asker's remaining depth (``max_depth -
depth``): it either stays within that budget, then it gives the same answer within any larger one
(the depth is only compared with the bound), or it meets it (truncated), then it fails within any
smaller one. One that stays within it is computed alike within any budget down to the deepest level
its depth checks let it reach, or that an answer it used needs from where it used it (the resolver's
``peak``): it is kept with that depth as its budget, so that an asker with less depth left than the
first one had takes it instead of computing it again (Django: 8,979 of 19,345 MROs). A computation
that meets the bound, a shared computation under way (a cycle through two classes' hierarchies) or
the settling budget, fails: the asker computes the answer itself,
with its own memo tables, as a file's resolution always did."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Set as AbstractSet

    from mnemosyne.parse.python import ParsedFile
    from mnemosyne.resolve.incremental import SharedReads
    from mnemosyne.resolve.python.access import Access
    from mnemosyne.resolve.python.index import PythonIndex

# the kinds of shared answers (a key is (kind, path, class index))
SHARED_MRO = "mro"  # ``Classes.mro``: (classes in C3 order, external bases, their walk)
SHARED_SUBCLASSES = "subclasses"  # ``Classes.subclasses``: the sorted internal subclasses
# ``Stores.object_stores``: the instances the objects of a scope's object stores (``ParsedFile.obj_stores``)
# evaluate to, by object expression (key: (kind, path, scope))
SHARED_STORE_OBJECTS = "store_objects"
# ``Names.module_attr`` of another file's module: (values, found, memoised?) (key: (kind, the module's
# path, its memo key)). Every file asks again for the module-level names of what it imports (Django:
# 46,296 computations of 11,098 attributes)
SHARED_MODULE_ATTR = "module_attr"
SHARED_PATH = ""  # a shared resolver's own path: no file's, so that every read is recorded


class Failed(Exception):
    """A shared computation met its depth budget, another one under way, or the settling budget."""


class _Answer:
    """A shared answer and what its computation consulted: its own reads and the shared answers
    it used (``uses``, whose records count too); ``budget``: the depth budget from which on it is
    computed alike (its computation's ``peak``: it holds within any larger one)."""

    __slots__ = ("budget", "deps", "ix_reads", "os_reads", "reads", "record", "sub_reads", "uses", "value")

    def __init__(self, value: Any, r: Access, budget: int) -> None:
        self.value = value
        self.reads = r.reads
        self.deps = r.deps
        self.ix_reads = r.ix_reads
        self.sub_reads = r.sub_reads
        self.os_reads = r.os_reads
        self.uses = r.shared
        self.budget = budget
        # its reads as the files' records keep them (``PythonIndex._install``), made once
        self.record: SharedReads[ParsedFile, AbstractSet[tuple]] | None = None


class Hierarchy:
    """The shared class-hierarchy answers of one index state."""

    __slots__ = ("active", "answers", "failed", "make")

    def __init__(self, make: Callable[[PythonIndex, str, int], Access]) -> None:
        # no reference to the index (which holds this): a cycle would keep a whole tree's parse
        # results alive until a full collection, which then traverses them all (Django 5.1.4:
        # 4.3 million objects, ~1.9 G instructions at the end of a serial extraction)
        self.make = make  # (index, a file's path, depth budget) -> a shared resolver (``resolver.SharedResolver``)
        self.answers: dict[tuple[str, str, Any], _Answer] = {}
        self.failed: dict[tuple[str, str, Any], int] = {}  # key -> the largest budget it failed within
        self.active: set[tuple[str, str, Any]] = set()  # shared computations under way

    def clear(self) -> None:
        self.answers.clear()
        self.failed.clear()

    def answer(self, r: Any, kind: str, path: str, cidx: Any, compute: Callable[[Any, str, Any], Any]) -> Any:
        """The shared answer ``kind`` for class ``cidx`` of ``path``, noted as used by resolver
        ``r`` (``merge_used`` takes its records); None when it fails (``r`` computes it itself). ``compute`` makes it
        on a fresh shared resolver of ``r``'s index (``make``). Inside a shared computation a failure fails that one too."""
        key = (kind, path, cidx)
        budget = r.max_depth - r.depth
        a = self.answers.get(key)
        if a is None or a.budget > budget:
            a = self._compute(r.ix, key, budget, compute)
            if a is None:
                if r.path == SHARED_PATH:
                    raise Failed
                return None
        r.shared.add(a)
        need = r.depth + a.budget  # (``r`` is computed alike under a bound this deep or deeper)
        if need > r.peak:
            r.peak = need
        return a.value

    def known(self, r: Any, kind: str, path: str, cidx: Any) -> Any:
        """``answer`` when it is computed already (within the depth ``r`` has left), else None."""
        a = self.answers.get((kind, path, cidx))
        if a is None or a.budget > r.max_depth - r.depth:
            return None
        r.shared.add(a)
        need = r.depth + a.budget
        if need > r.peak:
            r.peak = need
        return a.value

    def _compute(
        self, ix: PythonIndex, key: tuple[str, str, Any], budget: int, compute: Callable[[Any, str, Any], Any]
    ) -> _Answer | None:
        if self.failed.get(key, -1) >= budget or key in self.active:
            return None
        s = self.make(ix, key[1], budget)
        self.active.add(key)
        try:
            value = compute(s, key[1], key[2])
        except Failed:
            value = None
        finally:
            self.active.discard(key)
        if value is None or s.truncated or s.settle_budget <= 0:
            self.failed[key] = max(self.failed.get(key, -1), budget)
            return None
        need = s.peak  # (computed alike within any budget from it on: its depth checks and the answers it used)
        a = self.answers.get(key)
        if a is not None:  # (computed within a larger budget before: the same answer)
            a.budget = min(a.budget, need)
            return a
        a = self.answers[key] = _Answer(value, s, need)
        return a


def merge_used(r: Access) -> None:
    """Resolver ``r`` consulted what the shared answers it used consulted, and what the ones they
    used did. Taken once, when its resolution ends: ``r.shared`` becomes every answer it used,
    directly or through another (their recorded reads stay theirs: the index's record of ``r``'s
    file references them, ``PythonIndex._install``), and ``r`` takes their module names and
    name-search answers."""
    todo = list(r.shared)
    seen = set(todo)
    deps = r.deps
    while todo:
        a = todo.pop()
        deps |= a.deps
        if a.ix_reads:
            r.ix_reads.update(a.ix_reads)
        if a.sub_reads:
            r.sub_reads.update(a.sub_reads)
        if a.os_reads:
            r.os_reads.update(a.os_reads)
        for u in a.uses:
            if u not in seen:
                seen.add(u)
                todo.append(u)
    r.shared = seen
    r.reads.pop(r.path, None)  # (a shared MRO's walk records reads of every file: ``Classes.mro``)
