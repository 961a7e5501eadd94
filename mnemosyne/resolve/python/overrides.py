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
# a class's override search plan (``override_plan``): (the irregular subclasses, the regular ones
# whose next class is the class itself, the subclasses by file)
Plan = tuple[list[tuple[str, int]], list[tuple[str, int]], dict[str, set[int]]]


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
            found = None
            if not (as_instance and name in RECEIVER_ATTRS):  # (``getattr`` gives those per class)
                found = self._search(self._visited(path, cls, name), name, as_instance, True)
            if found is None:
                found = self._search(self.subclasses(path, cls), name, as_instance, False)
            targets = self.override_memo[key] = sorted(found or ())
        for t in targets:
            self.edge(caller, t, RES_SUBCLASS, line, confidence=0.9)

    def _search(self, classes: list[tuple[str, int]], name: str, as_instance: bool, sharing: bool) -> set[str] | None:
        """The functions ``name`` is on the (instances of the) subclasses ``classes``: their
        ``getattr`` (``instance_member``), or their class lookup. ``sharing``: ``classes`` are
        ``_visited``'s, standing for every subclass; None when one's answer is not one its
        regular subclasses share (the search then visits every subclass)."""
        found: set[str] = set()
        seen: set[frozenset] = set()  # values taken already (subclasses finding the same binding)
        by_binder: dict[tuple[str, int], tuple[frozenset, list[tuple[str, int]]]] = {}
        summaries: dict[tuple[str, int], Summary] = {}
        plain: dict[tuple[str, int], bool] = {}
        for q, di in classes:
            # an instance also holds what the subclass assigns to ``self.m`` (a bound method,
            # a function), which a class does not; reading a property runs its getter
            if as_instance:
                vals, getters, shared = self.instance_member(q, di, name, by_binder, summaries, plain)
                if sharing and not shared:
                    return None
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
        return found

    def _visited(self, path: str, cls: int, name: str) -> list[tuple[str, int]]:
        """The subclasses of class ``cls`` whose answers for ``name`` stand for all (sorted): the
        irregular ones (``override_plan``), those whose body binds ``name`` or assigns
        ``self.name`` (``member_classes``: one read per file holding subclasses, standing for
        "which of them bind it"), and one regular subclass of ``cls`` itself not binding it. Every
        other subclass is regular and binds nothing of that name: its answer is its next class's."""
        irregular, direct, by_file = self.override_plan(path, cls)
        out = set(irregular)
        binders: set[tuple[str, int]] = set()
        for f, idxs in by_file.items():
            for i in self.member_classes(f, name):
                if i in idxs:
                    binders.add((f, i))
        out |= binders
        for d in direct:
            if d not in binders:
                out.add(d)
                break
        return sorted(out)

    def override_plan(self, path: str, cls: int) -> Plan:
        """What ``self.m()``'s search over class ``cls``'s subclasses needs whatever ``m`` is:
        (the irregular subclasses, the regular ones whose next class is ``cls``, the subclasses by
        file). A subclass is regular when its MRO is itself followed by its next class's, with the
        same external bases, and it has no class decorator, its next class being ``cls`` or one of
        its subclasses: when its body neither binds nor assigns ``m``, its answer is its next
        class's (``_visited``; the reads telling it are the MROs' and its header)."""
        key = (path, cls)
        r = self.plan_memo.get(key)
        if r is not None:
            return r
        subs = self.subclasses(path, cls)
        within = set(subs)
        within.add(key)
        irregular: list[tuple[str, int]] = []
        direct: list[tuple[str, int]] = []
        by_file: dict[str, set[int]] = {}
        for q in subs:
            idxs = by_file.get(q[0])
            if idxs is None:
                idxs = by_file[q[0]] = set()
            idxs.add(q[1])
            classes, externals, _walk = self.mro(*q)
            if len(classes) > 1 and classes[1] in within and not self.hdr(*q).decorators:
                nxt = self.mro(*classes[1])
                if nxt[1] == externals and classes[1:] == nxt[0]:
                    if classes[1] == key:
                        direct.append(q)
                    continue
            irregular.append(q)
        r = self.plan_memo[key] = (irregular, direct, by_file)
        return r

    def instance_member(
        self, q: str, di: int, name: str, by_binder: dict[tuple[str, int], tuple[frozenset, list[tuple[str, int]]]],
        summaries: dict[tuple[str, int], Summary], plain: dict[tuple[str, int], bool],
    ) -> tuple[frozenset, list[tuple[str, int]], bool]:
        """``getattr`` of ``name`` on an instance of class ``di`` of ``q``, for one of many subclasses
        (``emit_overrides``), and whether its regular subclasses (``override_plan``) not binding
        nor assigning ``name`` have that answer too. When its MRO's first class binding ``name``
        binds it in its body and no class of the MRO assigns ``self.name``, the answer depends on
        that binding alone (``Classes._getattr``), so subclasses finding the same one share it
        (``by_binder``); the reads that tell it are recorded by ``member_summary``. When no class
        of the MRO binds or assigns it and ``__getattr__`` is not asked, ``getattr`` gives an
        external base's member or what a class decorator of the MRO stores, the same for its
        regular subclasses; when none has a class decorator (``plain``) either, the search takes
        nothing from it, without computing it (its reads recorded)."""
        b = (VAL_INST, q, di)
        if name in RECEIVER_ATTRS:
            return (*self.getattr(b, name), False)
        walk, hit, assigned = self.member_summary((q, di), name, True, summaries)
        if assigned:
            return (*self.getattr(b, name), False)
        if hit is None:
            externals = self.mro(q, di)[1]
            if name.startswith("__") or externals and (
                self._class_value(None, externals, name) or len(externals) != 1 or externals[0][0] not in EXTERNAL_KINDS
            ):  # (``_getattr``'s condition for ``__getattr__``, false)
                if self.undecorated((q, di), walk, summaries, plain):
                    return EMPTY, [], True
                return (*self.getattr(b, name), True)
            self.undecorated((q, di), walk, summaries, plain)  # (its reads, as before)
            return (*self.getattr(b, name), False)
        k = (hit[0], hit[1])
        r = by_binder.get(k)
        if r is None:
            r = self.getattr(b, name)
            if (b, name, self.max_depth) in self.ga_memo:  # (final: not resting on a cycle, nor cut)
                by_binder[k] = r
            else:
                return (*r, False)
        return (*r, True)

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
