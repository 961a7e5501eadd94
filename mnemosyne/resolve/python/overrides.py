"""``self.m()``'s override search of the Python resolver (``Overrides``): class hierarchy analysis over
every subclass of the method's class, grouped by the part of their MROs above each subclass.

A subclass's MRO is most often itself followed by its base's MRO (single inheritance): what the
search needs of it (the first class binding ``m``, whether a class assigns ``self.m``, the reads
telling it) is then its own class body's answer over its base's, computed once for the base and
shared by all the base's subclasses (``member_summary``), instead of a walk of the whole MRO per
subclass (Django's test cases: ~8,000 subclasses under ``SimpleTestCase``, 133 ``self.m()`` sites).
The reads recorded are the same set as the walks' (docs/resolve-python.md, recorded reads)."""

from __future__ import annotations

from itertools import islice
from typing import Any

from mnemosyne.facts import RES_SUBCLASS
from mnemosyne.resolve.python.classes import RECEIVER_ATTRS
from mnemosyne.resolve.python.fixpoint import Fixpoint
from mnemosyne.resolve.python.reads import READ_BINDS, READ_HEADER, READ_INST_ATTRS
from mnemosyne.resolve.python.values import EMPTY, EXTERNAL_KINDS, VAL_CLASS, VAL_FUNC, VAL_INST

# a class's answer for one name (``member_summary``): (its MRO's walk, the first class binding the
# name as ``_first_binder`` gives it or None, whether a class of the walk assigns ``self.name``)
Summary = tuple[list[tuple], tuple | None, bool]


class Overrides(Fixpoint):
    """The override edges of ``self.m()`` / ``cls.m()``."""

    __slots__ = ()

    def emit_overrides(self, caller: str, path: str, sc: int, fn: Any, line: int) -> None:
        """``self.m()`` / ``cls.m()`` in a method of class C may run the ``m`` of any subclass of C
        (class hierarchy analysis): an edge to each override, resolution ``subclass``, confidence
        0.9 (a possible target; which one runs depends on the receiver's runtime class)."""
        bs = self.binding_scope(path, sc, fn[1][1])
        assert bs is not None  # ``call_kind`` said "self": the receiver is a parameter of a method
        cls = self.hdr(path, bs).parent
        recv = self.lookup(path, sc, fn[1][1])
        as_instance = (VAL_INST, path, cls) in recv
        if not as_instance and (VAL_CLASS, path, cls) not in recv:
            return  # an annotated or rebound first parameter: not the class's own receiver
        key = (cls, fn[2], as_instance)
        targets = self.override_memo.get(key)
        if targets is None:
            name = fn[2]
            found: set[str] = set()
            seen: set[frozenset] = set()  # values taken already (subclasses finding the same binding)
            by_binder: dict[tuple[str, int], tuple[frozenset, list[tuple[str, int]]]] = {}
            summaries: dict[tuple[str, int], Summary] = {}
            plain: dict[tuple[str, int], bool] = {}
            for q, di in self.subclasses(path, cls):
                # an instance also holds what the subclass assigns to ``self.m`` (a bound method,
                # a function), which a class does not; reading a property runs its getter
                if as_instance:
                    vals, getters = self.instance_member(q, di, name, by_binder, summaries, plain)
                    for gp, gi in getters:
                        found.add(self.fqn(gp, gi))
                else:
                    vals = self._class_value(self.member_summary((q, di), name, False, summaries)[1], self.mro(q, di)[1], name)
                if vals in seen:
                    continue
                seen.add(vals)
                for m in vals:
                    if m[0] == VAL_FUNC:
                        found.add(self.fqn(m[1], m[2]))
            targets = self.override_memo[key] = sorted(found)
        for t in targets:
            self.edge(caller, t, RES_SUBCLASS, line, confidence=0.9)

    def instance_member(
        self, q: str, di: int, name: str, by_binder: dict[tuple[str, int], tuple[frozenset, list[tuple[str, int]]]],
        summaries: dict[tuple[str, int], Summary], plain: dict[tuple[str, int], bool],
    ) -> tuple[frozenset, list[tuple[str, int]]]:
        """``getattr`` of ``name`` on an instance of class ``di`` of ``q``, for one of many subclasses
        (``emit_overrides``): when its MRO's first class binding ``name`` binds it in its body and
        no class of the MRO assigns ``self.name``, the answer depends on that binding alone
        (``Classes._getattr``), so subclasses finding the same one share it (``by_binder``); the
        reads that tell it are recorded by ``member_summary``. When no class of the MRO binds or
        assigns it, none has a class decorator (``plain``) and ``__getattr__`` is not asked,
        ``getattr`` would give only an external base's member (no function of the program, no
        getter): the search takes nothing from it, without computing it (its reads recorded)."""
        b = (VAL_INST, q, di)
        if name in RECEIVER_ATTRS:
            return self.getattr(b, name)
        walk, hit, assigned = self.member_summary((q, di), name, True, summaries)
        if assigned:
            return self.getattr(b, name)
        if hit is None:
            if self.undecorated((q, di), walk, summaries, plain):
                externals = self.mro(q, di)[1]
                if name.startswith("__") or externals and (
                    self._class_value(None, externals, name) or len(externals) != 1 or externals[0][0] not in EXTERNAL_KINDS
                ):  # (``_getattr``'s condition for ``__getattr__``, false)
                    return EMPTY, []
            return self.getattr(b, name)
        k = (hit[0], hit[1])
        r = by_binder.get(k)
        if r is None:
            r = self.getattr(b, name)
            if (b, name, self.max_depth) in self.ga_memo:  # (final: not resting on a cycle, nor cut)
                by_binder[k] = r
        return r

    def undecorated(
        self, c: tuple[str, int], walk: list[tuple], summaries: dict[tuple[str, int], Summary], plain: dict[tuple[str, int], bool]
    ) -> bool:
        """No class of class ``c``'s MRO ``walk`` has a class decorator (``decorator_stores``
        finds nothing), recording the header reads that tell it (``hdr``): its own, over the next
        class's answer when ``c``'s summary rests on it (``member_summary``), else every class's."""
        r = plain.get(c)
        if r is not None:
            return r
        reads = self.reads
        start = len(walk)
        if len(walk) > 1:
            nxt = (walk[1][0], walk[1][1])
            up = plain.get(nxt)
            s = summaries.get(nxt)
            if up is not None and s is not None and s[0] == walk[1:]:
                start = 1
                r = up
        r = r if r is not None else True
        for cp, ci, sc, own in islice(walk, 0, start):
            if not own:
                rd = reads.get(cp)
                if rd is None:
                    rd = reads[cp] = set()
                rd.add((READ_HEADER, ci))
            if sc.decorators:
                r = False
        plain[c] = r
        return r

    def member_summary(self, c: tuple[str, int], name: str, instance: bool, summaries: dict[tuple[str, int], Summary]) -> Summary:
        """Class ``c``'s ``Summary`` for ``name`` (``instance``: with ``self.name`` assignments),
        recording the reads a walk of its MRO records (``_first_binder``'s ``READ_BINDS`` up to the
        binder, ``READ_INST_ATTRS`` up to an assignment). When the MRO is the class followed by the
        next class's MRO, only its own entry is read and the rest is the next class's summary
        (computed first, kept in ``summaries``, whose reads are then exactly the rest's); a class
        binding the name whose next class has no summary yet walks the rest for the assignments
        only, as the walk does (the binder found, no more ``READ_BINDS``)."""
        waiting: list[tuple[tuple[str, int], list[tuple]]] = []  # classes not binding the name, on the next one's summary
        reads = self.reads
        while True:
            s = summaries.get(c)
            if s is not None:
                break
            walk = self.mro(*c)[2]
            cp, ci, sc, own = walk[0]
            if not own:
                rd = reads.get(cp)
                if rd is None:
                    rd = reads[cp] = set()
                rd.add((READ_BINDS, ci, name))
                if instance:
                    rd.add((READ_INST_ATTRS, ci, name))
            bvals = sc.bindings.get(name)
            hit = (cp, ci, bvals) if bvals is not None else None
            if instance and name in sc.inst_attrs:
                s = (walk, hit, True)
            elif len(walk) == 1:
                s = (walk, hit, False)
            else:
                nxt = (walk[1][0], walk[1][1])
                up = summaries.get(nxt)
                if up is not None and up[0] == walk[1:]:
                    s = (walk, hit or up[1], up[2])
                elif up is None and hit is None and self.mro(*nxt)[2] == walk[1:]:
                    waiting.append((c, walk))
                    c = nxt
                    continue
                else:
                    s = self._walk_rest(walk, hit, name, instance)
            summaries[c] = s
            break
        while waiting:  # (none of them binds the name: the next class's binder and assignments are theirs)
            c, walk = waiting.pop()
            s = summaries[c] = (walk, s[1], s[2])
        return s

    def _walk_rest(self, walk: list[tuple], hit: tuple | None, name: str, instance: bool) -> Summary:
        """``member_summary`` of a walk from its second class on (its first one read, ``hit`` its
        binding of the name if any), recording what the walk records."""
        reads = self.reads
        for i in range(1, len(walk)):
            cp, ci, sc, own = walk[i]
            if not own and (hit is None or instance):
                rd = reads.get(cp)
                if rd is None:
                    rd = reads[cp] = set()
                if hit is None:
                    rd.add((READ_BINDS, ci, name))
                if instance:
                    rd.add((READ_INST_ATTRS, ci, name))
            if hit is None:
                bvals = sc.bindings.get(name)
                if bvals is not None:
                    hit = (cp, ci, bvals)
            if instance and name in sc.inst_attrs:
                return walk, hit, True
            if hit is not None and not instance:
                break
        return walk, hit, False
