"""Classes in the Python resolver (``Classes``): C3 MRO, metaclasses, subclasses, class and instance
attribute lookups (``getattr``: properties, descriptors, ``__getattr__``, enum members), operator
results (a dunder's returns) and ``getattr`` by a name prefix.

~740 lines, over the ~600 of the guide: one concern, a class's members as the resolver sees them;
its parts (MRO, metaclasses, member lookup, enum members, operators) read each other's memo tables
on every attribute asked. Left to split (session 13): the enum and operator parts into a mixin."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice
from typing import Any

from mnemosyne.parse.python.tags import (
    SCOPE_FUNCTION,
    STORE_DELETER,
    STORE_SETTER,
    T_ATTR,
    T_CALL,
    T_DEF,
    T_DICT,
    T_ITEMS,
    T_NAME,
    T_OR,
    T_PARAM,
    T_REACH,
    T_STAR,
    UNKNOWN,
)
from mnemosyne.resolve.python import bounds
from mnemosyne.resolve.python.fixpoint import KEY_RECV_ATTR, Fixpoint
from mnemosyne.resolve.python.hierarchy import SHARED_MRO, SHARED_PATH, SHARED_SUBCLASSES
from mnemosyne.resolve.python.known import (
    ABSTRACT_CLASSES,
    BUILTIN_TYPES,
    ENUM_BASES,
    RECORD_BASES,
    STD_STREAMS,
    stdlib_lacks,
)
from mnemosyne.resolve.python.reads import READ_BINDS, READ_INST_ATTRS
from mnemosyne.resolve.python.values import (
    EMPTY,
    EXTERNAL_KINDS,
    OUTSIDE_KINDS,
    VAL_BUILTIN,
    VAL_BUILTIN_MEMBER,
    VAL_CLASS,
    VAL_EXT,
    VAL_EXT_INST,
    VAL_EXT_MEMBER,
    VAL_FUNC,
    VAL_INST,
    VAL_MODULE,
    VAL_SUPER,
    make_display,
)

RECV_EXPR_TAGS = (T_NAME, T_REACH, T_OR)  # a base's __init__ stores these per subclass (``init_attr_values``)
# instance attributes whose value ``getattr`` gives from the receiver's class itself, not only from the
# binding its MRO finds: an enum member's ``value`` / ``_value_``, ``__class__``
RECEIVER_ATTRS = frozenset({"value", "_value_", "__class__"})


class Classes(Fixpoint):
    """MROs, subclasses, class and instance attributes."""

    __slots__ = ()

    def mro(self, path: str, cidx: int) -> tuple[list[tuple[str, int]], list[Any], list[tuple]]:
        """(internal classes in C3 order starting with the class itself, external/builtin bases,
        the same classes as ``(path, idx, scope, own file?)`` for the lookups that walk the MRO:
        ``_first_binder``, ``getattr``; they record their reads themselves)."""
        key = (path, cidx)
        r = self.mro_memo.get(key)
        if r is not None:
            return r
        if self.depth >= self.max_depth:
            self.truncated = True
            return ([key], [], self._walk([key]))
        shared = self.ix.hierarchy.answer(self, SHARED_MRO, path, cidx, _shared_mro)
        if shared is not None:  # computed once for every file (``hierarchy.py``; its walk records
            self.mro_memo[key] = shared  # the reads of every file, this one's are dropped: ``merge_used``)
            return shared
        return self.own_mro(path, cidx, key)

    def own_mro(self, path: str, cidx: int, key: tuple[str, int]) -> tuple[list[tuple[str, int]], list[Any], list[tuple]]:
        """``mro`` computed by this resolver (its bases' MROs still asked of ``mro``)."""
        self.mro_memo[key] = ([key], [], self._walk([key]))  # cycle guard
        self.depth += 1
        if self.depth > self.peak:
            self.peak = self.depth
        try:
            return self._mro(path, cidx, key)
        finally:
            self.depth -= 1

    def _walk(self, classes: list[tuple[str, int]]) -> list[tuple]:
        parsed = self.ix._parsed
        own = self.path
        return [(cp, ci, parsed[cp].scopes[ci], cp == own) for cp, ci in classes]

    def _mro(self, path: str, cidx: int, key: tuple[str, int]) -> tuple[list[tuple[str, int]], list[Any], list[tuple]]:
        s = self.hdr(path, cidx)
        bases: list[tuple[str, int]] = []
        externals: list[Any] = []
        for b in self.bases_of(path, cidx):
            for v in sorted(self.eval(path, s.parent, b), key=repr):
                if v[0] == VAL_CLASS:
                    if (v[1], v[2]) not in bases:
                        bases.append((v[1], v[2]))
                elif v[0] in OUTSIDE_KINDS and v not in externals:
                    if not (v[0] == VAL_BUILTIN and v[1] == "object"):
                        externals.append(v)
        out, ok = _c3_merge(key, [self.mro(*b)[0] for b in bases] + [bases])
        if not ok:  # inconsistent hierarchy: depth-first, left to right
            out = [key]
            for b in bases:
                for c in self.mro(*b)[0]:
                    if c not in out:
                        out.append(c)
        for b in bases:
            for x in self.mro(*b)[1]:
                if x not in externals:
                    externals.append(x)
        r = (out, externals, self._walk(out))
        self.mro_memo[key] = r
        return r

    def metaclasses(self, path: str, cidx: int) -> tuple[tuple[str, int], ...]:
        """The program classes that are class ``cidx``'s metaclass: the ``metaclass=`` of the
        first class of its MRO that names one (Python takes the most derived of the bases'
        metaclasses; the first named is that one unless the hierarchy is inconsistent)."""
        key = (path, cidx)
        r = self.meta_memo.get(key)
        if r is not None:
            return r
        self.meta_memo[key] = ()  # cycle guard (a metaclass naming itself)
        out: tuple[tuple[str, int], ...] = ()
        for cp, ci in self.mro(path, cidx)[0]:
            e = self.metaclass_of(cp, ci)
            if e is not None:
                vals = self.eval(cp, self.hdr(cp, ci).parent, e)
                out = tuple(sorted((v[1], v[2]) for v in vals if v[0] == VAL_CLASS))
                break
        self.meta_memo[key] = out
        return out

    def subclasses(self, path: str, cidx: int) -> list[tuple[str, int]]:
        """The internal classes whose MRO includes class ``cidx`` of ``path`` (not itself), found
        through the bases' names (``PythonIndex.subclass_files``) and confirmed by evaluating
        them; sorted, so the answer does not depend on the order of discovery."""
        key = (path, cidx)
        r = self.sub_memo.get(key)
        if r is not None:
            return r
        h = self.ix.hierarchy
        if self.path != SHARED_PATH:
            r = h.answer(self, SHARED_SUBCLASSES, path, cidx, _shared_subclasses)
        else:  # a shared search: the subclasses' own searches if shared already, else in its memo tables
            r = h.known(self, SHARED_SUBCLASSES, path, cidx)
        if r is not None:  # computed once for every file (``hierarchy.py``)
            self.sub_memo[key] = r
            return r
        return self.own_subclasses(path, cidx, key)

    def own_subclasses(self, path: str, cidx: int, key: tuple[str, int]) -> list[tuple[str, int]]:
        """``subclasses`` computed by this resolver (the subclasses' own ones asked of ``subclasses``)."""
        self.sub_memo[key] = []  # cycle guard
        name, files = self.subclass_files(path, cidx)
        found: set[tuple[str, int]] = set()
        mro_memo = self.mro_memo  # (``mro``'s memo read inline: a million lookups on Django)
        for q in files:
            for di in self.sub_sites(q, name):
                d = (q, di)
                if d == key or d in found:
                    continue
                m = mro_memo.get(d)
                if key in (m if m is not None else self.mro(q, di))[0]:  # (an MRO starts with d)
                    found.add(d)
                    found.update(self.subclasses(q, di))
        found.discard(key)
        r = self.sub_memo[key] = sorted(found)
        return r

    def found_as_subclass(self, key: tuple[str, int], c: tuple[str, int]) -> bool:
        """Whether ``subclasses(*key)`` finds class ``c``, without searching the program: a chain
        from ``key`` to ``c`` along ``c``'s MRO, each class naming the one before among its bases
        (``sub_sites``) and holding it in its MRO, as the search goes (for one class whose MRO
        holds ``key``; the search itself costs the MROs of every class with such a base name)."""
        return self._chain_to(key, c, {})

    def _chain_to(self, key: tuple[str, int], x: tuple[str, int], memo: dict[tuple[str, int], bool]) -> bool:
        """``found_as_subclass``'s chain from ``key`` to class ``x`` (a method, not a recursive
        closure: that would be a reference cycle holding the resolver, hence the whole index,
        until the cyclic collector ran)."""
        if x == key:
            return True
        r = memo.get(x)
        if r is None:
            memo[x] = False  # (an MRO holding itself further on: no chain through it)
            classes = self.mro(*x)[0]
            r = memo[x] = any(
                p != x and x[1] in self.sub_sites(x[0], self.hdr(*p).name) and self._chain_to(key, p, memo)
                for p in classes[1:]
            )
        return r

    def is_dataclass(self, path: str, cidx: int) -> bool:
        """A class of its MRO is decorated ``@dataclass`` (``dataclasses``', pydantic's): the
        ``__init__`` it generates calls ``__post_init__``."""
        return any("dataclass" in self.decorator_names(self.hdr(cp, ci)) for cp, ci in self.mro(path, cidx)[0])

    def is_enum(self, path: str, cidx: int) -> bool:
        """The class derives from ``enum.Enum`` (or another enum base of the standard library)."""
        return any(x[0] == VAL_EXT and x[1] in ENUM_BASES for x in self.mro(path, cidx)[1])

    def _first_binder(self, walk: list[tuple], name: str, start_after: bool) -> tuple | None:
        """The first class of an MRO (``mro(...)[2]``; after the first with ``start_after``) that
        binds ``name``: (path, idx, its bindings of the name); ``binds`` inlined over the walk."""
        reads = self.reads
        for cp, ci, sc, own in islice(walk, 1, None) if start_after else walk:
            if not own:
                r = reads.get(cp)
                if r is None:
                    r = reads[cp] = set()
                r.add((READ_BINDS, ci, name))
            bvals = sc.bindings.get(name)
            if bvals is not None:
                return cp, ci, bvals
        return None

    def _class_value(self, hit: tuple | None, externals: list[Any], name: str) -> frozenset:
        """``class_lookup``'s value, given the ``_first_binder`` of the name."""
        if hit is not None:
            return self.eval_bindings(hit[0], hit[1], name)
        if len(externals) == 1:
            x = externals[0]
            if x[0] in EXTERNAL_KINDS:
                if x[1] in ABSTRACT_CLASSES and stdlib_lacks(x[1], name):
                    return EMPTY  # class Settings(Mapping): no Mapping.as_string
                record = RECORD_BASES.get(x[1])
                if record is not None and hasattr(BUILTIN_TYPES[record[0]], name):
                    # class Opts(TypedDict): a dict's get, no edge; class P(NamedTuple): tuple.count
                    return EMPTY if record[1] else frozenset({(VAL_BUILTIN_MEMBER, f"{record[0]}.{name}")})
                return frozenset({(VAL_EXT_MEMBER, f"{x[1]}.{name}")})
            t = BUILTIN_TYPES.get(x[1])
            if t is not None and not hasattr(t, name):
                return EMPTY  # class Meta(type): no type.lookup
            return frozenset({(VAL_BUILTIN_MEMBER, f"{x[1]}.{name}")})
        return EMPTY

    def class_lookup(self, path: str, cidx: int, name: str, start_after: bool = False) -> frozenset:
        """Values of ``Class.name`` (methods as functions; properties -> their getter function)."""
        _, externals, walk = self.mro(path, cidx)
        return self._class_value(self._first_binder(walk, name, start_after), externals, name)

    def property_getters(self, path: str, cidx: int, name: str, start_after: bool = False) -> list[tuple[str, int]]:
        return self._getters(self._first_binder(self.mro(path, cidx)[2], name, start_after))

    def _getters(self, hit: tuple | None, kind: str = "") -> list[tuple[str, int]]:
        """The property getters among the bindings a ``_first_binder`` found; with ``kind``
        ('setter', 'deleter'), the ``@name.setter`` / ``@name.deleter`` methods instead."""
        if hit is None:
            return []
        cp, ci, bvals = hit
        out = []
        for v in bvals:
            if v[0] == T_CALL:  # x = property(fget, fset, fdel): those functions
                out.extend(self._property_call(cp, ci, v, kind))
            elif v[0] == T_DEF:
                d = self.hdr(cp, v[1])
                if d.kind != SCOPE_FUNCTION:
                    continue
                dn = self.decorator_names(d)
                if kind in dn if kind else ("property" in dn or "cached_property" in dn) and not {"setter", "deleter"} & dn:
                    out.append((cp, v[1]))
        return out

    def _property_call(self, cp: str, ci: int, e: Any, kind: str) -> list[tuple[str, int]]:
        """The program's functions a class body's ``property(fget, fset, fdel)`` call (``e``)
        is given for ``kind`` ('' the getter, 'setter', 'deleter'), by position or keyword."""
        pos, kw = _PROPERTY_ARGS[kind]
        a = e[2][pos] if len(e[2]) > pos else next((x for k, x in e[3] if k == kw), None)
        if a is None or a[0] == T_STAR or (VAL_BUILTIN, "property") not in self.eval(cp, ci, e[1]):
            return []
        return sorted((f[1], f[2]) for f in self.eval(cp, ci, a) if f[0] == VAL_FUNC)

    def property_accessors(self, path: str, cidx: int, name: str, kind: str) -> list[tuple[str, int]]:
        """The ``@name.setter`` (``kind`` 'setter') or ``@name.deleter`` methods that storing or
        deleting attribute ``name`` of an instance of class ``cidx`` calls, else the ``__set__`` /
        ``__delete__`` of a descriptor the class holds as ``name``."""
        _, externals, walk = self.mro(path, cidx)
        hit = self._first_binder(walk, name, False)
        if hit is None:
            return []
        out = self._getters(hit, kind)
        if not out:  # a data descriptor's __set__ / __delete__
            out = self.descriptor_methods(self._class_value(hit, externals, name), "__set__" if kind == STORE_SETTER else "__delete__")
        return out

    def getattr(self, b: Any, attr: str) -> tuple[frozenset, list[tuple[str, int]]]:
        """(values of b.attr, property getters invoked by the load), memoised like ``memoized``
        values: an answer that rested on a value still being computed (a cycle) or that met the
        depth limit is not kept. Its reads and ``load_calls`` were recorded the first time."""
        key = (b, attr, self.max_depth)
        r = self.ga_memo.get(key)
        if r is not None:
            return r
        lows = self.lows
        serial = self.serial = self.serial + 1
        self.ga_serials += 1
        lows.append(serial)
        truncated = self.truncated
        self.truncated = False
        try:
            r = self._getattr(b, attr)
        finally:
            low = lows.pop()
            if low < serial and low < lows[-1]:  # (an outer computation rests on it too)
                lows[-1] = low
            cut = self.truncated
            self.truncated = truncated or cut
        if low >= serial and not cut:
            self.ga_memo[key] = r
        return r

    def _getattr(self, b: Any, attr: str) -> tuple[frozenset, list[tuple[str, int]]]:
        k = b[0]
        if k == VAL_MODULE:
            vals, found = self.module_attr(b[1], attr)
            if not found and not attr.startswith("__"):
                # a name the module does not define: its __getattr__ (PEP 562), if it has one
                fallback = self.module_getattr(b[1])
                if fallback:
                    vals = self._returns_of(fallback) | self.delegated(fallback, attr, 0)
                    return self._load_call(b, attr, fallback, vals)
            return vals, []
        if k == VAL_EXT:
            # a module's attribute is named by its path (``os.path.join``); a capitalised segment
            # is a class, whose attribute is a member: ``requests.Session.get``
            last = b[1].rsplit(".", 1)[-1]
            return frozenset({(VAL_EXT_MEMBER if last[:1].isupper() else VAL_EXT, f"{b[1]}.{attr}")}), []
        if k == VAL_EXT_INST:
            if b[1] in ABSTRACT_CLASSES and stdlib_lacks(b[1], attr):  # data: Mapping; data.as_string(): not Mapping's
                return EMPTY, []
            return frozenset({(VAL_EXT_MEMBER, f"{b[1]}.{attr}")}), []
        if k == VAL_BUILTIN:
            t = BUILTIN_TYPES.get(b[1])
            if t is not None and not hasattr(t, attr):
                return EMPTY, []  # str has no addElement: a value of ours mixed up with a str
            return frozenset({(VAL_BUILTIN_MEMBER, f"{b[1]}.{attr}")}), []
        if k == VAL_EXT_MEMBER or k == VAL_BUILTIN_MEMBER:
            return EMPTY, []  # an attribute of a member of an external class: not known
        if k == VAL_CLASS:
            if attr == "__members__" and self.is_enum(b[1], b[2]):
                # Op.__members__: a mapping of names to the members, those iterating the class gives
                cls = self.hdr(b[1], b[2])
                members = (T_ITEMS, (T_NAME, cls.name))
                return frozenset({make_display(b[1], cls.parent, (T_DICT, ((UNKNOWN, members),)))}), []
            _, externals, walk = self.mro(b[1], b[2])
            hit = self._first_binder(walk, attr, False)
            vals = self._class_value(hit, externals, attr)
            gets = self.descriptor_methods(vals, "__get__")
            if gets:  # C.x, x a descriptor: its __get__(None, C)
                return self._load_call(b, attr, gets, self._returns_of(gets, functions=False))
            if not attr.startswith("_") and self.is_enum(b[1], b[2]):
                # an enum's members are its instances (``Color.RED.describe()``)
                bs = self.binds(b[1], b[2], attr)
                if bs and all(v[0] != T_DEF for v in bs):
                    vals = vals | {(VAL_INST, b[1], b[2])}
            if hit is None and not vals:  # stored on the class by a class decorator of the program
                dvals = self.decorator_stores(walk, attr)
                if dvals:
                    return frozenset(dvals), []
            if not vals and not hasattr(object, attr):
                # not on the class nor its bases (``object``'s ``__new__``, ``__init__``, ... are
                # every class's): a class is an instance of its metaclass, whose
                # methods, properties and attributes set on ``cls`` it has (Django's
                # ``Model._default_manager``, a property of ModelBase); not the members of ``type``
                # the metaclass derives from, which a class value mixed up with an instance
                # would name (``widget.decompress`` -> ``type.decompress``)
                metas = self.metaclasses(b[1], b[2])
                if metas:
                    out: set = set()
                    getters: list[tuple[str, int]] = []
                    for mp, mi in metas:
                        v, g = self.getattr((VAL_INST, mp, mi), attr)
                        out |= {x for x in v if x[0] != VAL_BUILTIN_MEMBER and x[0] != VAL_EXT_MEMBER}
                        getters += g
                    return frozenset(out), getters
            dg = self.decorator_gets(hit)
            if dg:  # C.m, m decorated by a descriptor class: its __get__ runs, m is still what is called
                return self._load_call(b, attr, dg, vals)
            return vals, []
        if k == VAL_INST and (attr == "value" or attr == "_value_") and self.is_enum(b[1], b[2]):
            if self._first_binder(self.mro(b[1], b[2])[2], attr, False) is None:
                return frozenset(self.enum_values(b[1], b[2])), []
        if k == VAL_INST and attr == "__class__":
            return frozenset({(VAL_CLASS, b[1], b[2])}), []
        if k == VAL_INST or k == VAL_SUPER:
            # property_getters, class_lookup and the instance attributes over one MRO walk
            start_after = k == VAL_SUPER
            _, externals, walk = self.mro(b[1], b[2])
            hit = self._first_binder(walk, attr, start_after)
            getters = self._getters(hit)
            if getters:
                return self._load_call(b, attr, getters, self._returns_of(getters))
            mvals = set(self._class_value(hit, externals, attr))
            gets = self.descriptor_methods(mvals, "__get__") if hit is not None else []
            if k == VAL_INST:
                ivals: set = set()
                found = False
                reads = self.reads
                for cp, ci, sc, own in walk:
                    if not own:  # ``iattrs`` inlined
                        r = reads.get(cp)
                        if r is None:
                            r = reads[cp] = set()
                        r.add((READ_INST_ATTRS, ci, attr))
                    for fi, v in sc.inst_attrs.get(attr, ()):
                        found = True
                        if ci != b[2] or cp != b[1]:  # stored by a base's method: maybe per subclass
                            ivals |= self.init_attr_values(cp, ci, fi, v, (b[1], b[2]))
                        else:
                            ivals |= self.eval_binding(cp, fi, v)
                        if v[0] == T_NAME or v[0] == T_CALL:  # a parameter stored (or its copy): what
                            ivals |= self.stored_param_values(cp, fi, v)  # other modules pass it too
                # stored through another object (``self.state.cb = f``): on some instances only, so
                # neither __getattr__ nor an outside base's member is ruled out
                ovals = self.object_stores(b, attr, False)
                if found:  # assigned on self by the program: not a member of an external base
                    mvals = {v for v in mvals if v[0] != VAL_EXT_MEMBER and v[0] != VAL_BUILTIN_MEMBER} | ivals
                if gets:  # obj.x, x a descriptor of the class: its __get__ (an instance's own x too)
                    return self._load_call(b, attr, gets, self._returns_of(gets, ivals, functions=False))
                if hit is None and not found:  # stored on a class by a class decorator of the program
                    dvals = self.decorator_stores(walk, attr)
                    if dvals:
                        return frozenset(dvals | ovals), []
                if hit is None and not found and not attr.startswith("__") and (
                    not externals or (not mvals and len(externals) == 1 and externals[0][0] in EXTERNAL_KINDS)
                ):
                    # not found on the instance nor its classes (all ours, or one outside base
                    # known to lack it: ``stdlib_lacks``): __getattr__, if defined
                    fallback = self.methods(b[1], b[2], "__getattr__")
                    if fallback and not self.subclass_may_have(b[1], b[2], attr):
                        fvals = self._returns_of(fallback) | self.delegated(fallback, attr, 1)
                        return self._load_call(b, attr, fallback, fvals | ovals)
                mvals |= ovals
            elif gets:
                return self._load_call(b, attr, gets, self._returns_of(gets, functions=False))
            dg = self.decorator_gets(hit)
            if dg:
                return self._load_call(b, attr, dg, frozenset(mvals))
            return frozenset(mvals), []
        return EMPTY, []

    def delegated(self, fns: list[tuple[str, int]], attr: str, pos: int) -> frozenset:
        """What ``__getattr__`` functions ``fns`` return for ``attr`` by forwarding the name they
        are asked for (parameter ``pos``) to another object: ``return getattr(self._inner, name[,
        default])`` reads ``attr`` on what ``self._inner`` holds (or gives the default)."""
        out: set = set()
        for p, i in fns:
            params = self.params_of(p, i)
            if len(params) <= pos:
                continue
            pname = (T_NAME, params[pos][0])
            for e in self.rets(p, i)[0]:
                if e[0] != T_CALL or e[1] != _GETATTR or len(e[2]) < 2 or e[2][1] != pname or e[2][0][0] == T_STAR:
                    continue
                if (VAL_BUILTIN, "getattr") not in self.eval(p, i, _GETATTR):
                    continue
                found: set = set()
                for d in self.eval(p, i, e[2][0]):
                    found |= self._forwarded_attr(d, attr)
                if not found:  # none of the objects its module wraps has it: those other modules wrap
                    for d in self.stored_init_cross(p, i, e[2][0]):
                        found |= self._forwarded_attr(d, attr)
                out |= found
                if len(e[2]) > 2 and e[2][2][0] != T_STAR:
                    out |= self.eval(p, i, e[2][2])
        return frozenset(out)

    def _forwarded_attr(self, d: Any, attr: str) -> frozenset:
        """``d.attr`` for a ``__getattr__`` forwarding to ``d``; nothing for a member a standard
        stream lacks (``sys.stdout`` has no ``getvalue``: the object wrapped is another one)."""
        if d[0] == VAL_EXT and d[1] in STD_STREAMS and stdlib_lacks(STD_STREAMS[d[1]], attr):
            return EMPTY
        return self.getattr(d, attr)[0]

    def operation(self, path: str, idx: int, e: Any) -> set:
        """An operator's result (``('op', operand, dunder, fallback)``): what ``dunder`` (else
        ``fallback``) of the class of each instance of ours the operand may be returns, as a call
        ``operand.dunder(...)`` would (``return self`` in a base's ``__iadd__`` gives the subclass's
        instance). Implicit lookups skip the instance and ``__getattr__``: the class's MRO only."""
        out: set = set()
        operand, dunder, fallback = e[1], e[2], e[3]
        for b in self.eval(path, idx, operand):
            if b[0] != VAL_INST:
                continue
            name = dunder
            ms = self.class_lookup(b[1], b[2], dunder)
            if not ms and fallback:
                name = fallback
                ms = self.class_lookup(b[1], b[2], fallback)
            for f in ms:
                if f[0] != VAL_FUNC:
                    continue
                r = set(self.returns(f[1], f[2]))
                if self.receiver_returns(f[1], f[2]):
                    r = self.receiver_result(path, idx, (T_ATTR, operand, name), f, r)
                out |= r
        return out

    def prefixed_attrs(self, path: str, idx: int, e: Any) -> set:
        """``getattr(obj, "visit_" + kind[, default])``: the attributes of obj's classes (the
        program's, along the MRO) whose names start with the prefix (and end with the suffix of
        ``"_get_%s_perms" % v`` after it), or the default; through
        ``self`` in a method, also those its subclasses define (a visitor's ``visit_*``)."""
        obj, prefix, suffix = e[2][0], e[2][1][1], e[2][1][2]
        out: set = set()
        via_self = obj[0] == T_NAME and self.is_self_param(path, idx, obj[1])
        for b in self.eval(path, idx, obj):
            if b[0] != VAL_INST and b[0] != VAL_CLASS:
                continue
            objs = [b, *((b[0], sp, si) for sp, si in self.subclasses(b[1], b[2]))] if via_self else [b]
            for o in objs:
                names = {n for cp, ci in self.mro(o[1], o[2])[0] for n in self.prefixed(cp, ci, prefix)}
                for name in sorted(n for n in names if n[len(prefix) :].endswith(suffix)):
                    out |= self.getattr(o, name)[0]
        if len(e[2]) > 2 and e[2][2][0] != T_STAR:
            out |= self.eval(path, idx, e[2][2])
        return out
    # ------------------------------------------------------------------ what a base's __init__ stores, per subclass
    def init_attr_values(self, cp: str, ci: int, fi: int, v: Any, recv: tuple[str, int]) -> frozenset:
        """The value ``v`` that method ``fi`` of class ``ci`` (a base of class ``recv``) assigns to
        an attribute of its ``self``, on an instance of ``recv``. In ``__init__``, a parameter
        (``self.cb = cb``, also through ``cb or default`` and local rebindings) holds only what the
        calls that may make an instance of ``recv`` pass (``init_site_reaches``): what a sibling
        subclass passes to ``super().__init__(...)`` is on the sibling's instances, not on
        ``recv``'s. Any other value is the flow-insensitive one."""
        f = self.hdr(cp, fi)
        if f.name != "__init__" or f.parent != ci or f.kind != SCOPE_FUNCTION:
            return self.eval_binding(cp, fi, v)
        return self.memoized((KEY_RECV_ATTR, cp, fi, v, recv), False, self._init_attr_values, cp, fi, v, recv)

    def _init_attr_values(self, cp: str, fi: int, v: Any, recv: tuple[str, int]) -> set:
        tag = v[0]
        if tag == T_OR:
            out: set = set()
            for x in v[1]:
                out |= self.init_attr_values(cp, self.hdr(cp, fi).parent, fi, x, recv)
            return out
        if tag == T_NAME or tag == T_REACH:
            if self.binding_scope(cp, fi, v[1]) != fi:
                return set(self.eval(cp, fi, v))
            bs: Sequence[Any] = self.binds(cp, fi, v[1]) or ()
            if tag == T_REACH:
                bs = bs[v[2] : v[3] + 1]
            out = set()
            ci = self.hdr(cp, fi).parent
            for x in bs:
                if x[0] == T_PARAM and x[1] == fi:
                    out |= self.receiver_param_values(cp, fi, x[2], recv)
                elif x[0] in RECV_EXPR_TAGS:
                    out |= self.init_attr_values(cp, ci, fi, x, recv)
                else:
                    out |= self.eval_binding(cp, fi, x)
            return out
        return set(self.eval_binding(cp, fi, v))

    def init_site_reaches(
        self, path: str, sc: int, e: Any, vals: frozenset, offset: int, recv: tuple[str, int]
    ) -> bool:
        """Call ``e`` (in scope ``sc``) of an ``__init__`` (``vals``: its callee's values; ``offset``
        1 when the receiver is bound) may make an instance of class ``recv``, or initialise one:
        ``C(...)`` of a class C that is ``recv`` or a subclass of it (C named at module level is
        exactly C; otherwise C or any subclass), ``super().__init__(...)`` in a method of class S
        and ``Base.__init__(obj, ...)`` with obj an instance of S, where S and ``recv`` may be
        one instance's classes (one derives from the other, or a subclass of ``recv`` derives from
        S). A site whose classes are not known may."""
        fn = e[1]
        classes: list[tuple[str, int]] = []
        exact = False
        if offset == 0:  # Base.__init__(obj, ...): obj's classes
            if not e[2] or e[2][0][0] == T_STAR:
                return True
            classes = [(x[1], x[2]) for x in self.eval(path, sc, e[2][0]) if x[0] == VAL_INST]
        elif fn[0] == T_ATTR and fn[2] == "__init__":  # super().__init__(...), obj.__init__(...)
            classes = [(x[1], x[2]) for x in self.eval(path, sc, fn[1]) if x[0] == VAL_INST or x[0] == VAL_SUPER]
        else:  # C(...)
            classes = [(x[1], x[2]) for x in vals if x[0] == VAL_CLASS]
            exact = fn[0] == T_NAME and self.binding_scope(path, sc, fn[1]) == 0
        if not classes:
            return True
        for c in classes:
            if recv in self.mro(*c)[0]:
                return True
            if not exact and (c in self.mro(*recv)[0] or any(c in self.mro(*t)[0] for t in self.subclasses(*recv))):
                return True
        return False

    def enum_values(self, path: str, cidx: int) -> set:
        """What enum class ``cidx``'s body assigns to its members (``ADD = partial(add)``): the
        ``.value`` of any of its members (which member a value is, is not tracked)."""
        out: set = set()
        for name in self.prefixed(path, cidx, ""):
            bs = self.binds(path, cidx, name)
            if not name.startswith("_") and bs and all(v[0] != T_DEF for v in bs):
                out |= self.eval_bindings(path, cidx, name)
        return out

    def decorator_stores(self, walk: list[tuple], attr: str) -> set:
        """What the program's class decorators store on the class they are given
        (``def add_hook(cls): cls.hook = staticmethod(helper)`` on ``@add_hook class A``: ``A.hook``
        is ``helper``), for the classes of an MRO ``walk``; for a decorator called first
        (``@with_handler(helper)``), the function the call returns."""
        out: set = set()
        for cp, ci, _sc, _own in walk:
            s = self.hdr(cp, ci)
            if not s.decorators:
                continue
            for d in s.decorators:
                for v in self.eval(cp, s.parent, d):  # (``@register(...)``: the function it returns)
                    if v[0] != VAL_FUNC:
                        continue
                    params = self.params_of(v[1], v[2])
                    if not params or params[0][1]:
                        continue
                    p = params[0][0]
                    for j, x in self.astores(v[1], p, attr):
                        if self.binding_scope(v[1], j, p) == v[2]:
                            out |= self.eval(v[1], j, x)
        return out

    def module_getattr(self, mod: str) -> list[tuple[str, int]]:
        """The module-level ``def __getattr__`` of internal module ``mod`` (PEP 562), if any."""
        path = self.mod_path(mod)
        if path is None:
            return []
        bs = self.binds(path, 0, "__getattr__")
        if not bs or any(v[0] != T_DEF for v in bs):
            return []
        return sorted((path, v[1]) for v in bs)

    def decorator_gets(self, hit: tuple | None) -> list[tuple[str, int]]:
        """The ``__get__`` of a program class used as the outermost decorator of a method that an
        attribute read finds (``_first_binder``): the class attribute is an instance of it
        (Django's ``classonlymethod``), so reading it runs ``__get__``."""
        if hit is None:
            return []
        cp, _ci, bvals = hit
        out: set[tuple[str, int]] = set()
        for v in bvals:
            if v[0] != T_DEF:
                continue
            d = self.hdr(cp, v[1])
            if d.kind == SCOPE_FUNCTION and d.decorators:
                for dp, di in self.decorator_classes(cp, d, d.decorators[:1]):  # the outermost
                    out.update(self.methods(dp, di, "__get__"))
        return sorted(out)

    def named_subclasses(self, path: str, cidx: int) -> int:
        """How many classes name class ``cidx`` among their bases (by its name, whatever they bind
        it to): a bound on its direct subclasses that costs no MRO (``subclasses`` confirms each)."""
        name, files = self.subclass_files(path, cidx)
        return sum(len(self.sub_sites(q, name)) for q in files)

    def subclass_may_have(self, path: str, cidx: int, attr: str) -> bool:
        """Whether a subclass of class ``cidx`` binds ``attr`` (in its body or on ``self``) or has a
        base outside the program that may: a mixin reading ``self.connection`` that its host
        classes provide does not go through its ``__getattr__``. Assumed for a class with more
        than ``GETATTR_MAX_SUBCLASSES`` subclasses."""
        if self.named_subclasses(path, cidx) > bounds.GETATTR_MAX_SUBCLASSES:
            return True  # a base of many (pydantic's BaseModel: 2,832 in its tests): not searched
        for sp, si in self.subclasses(path, cidx):
            _, externals, walk = self.mro(sp, si)  # (its other bases count: a mixin's host)
            if externals or self._first_binder(walk, attr, False) is not None:
                return True
            if any(self.iattrs(cp, ci, attr) for cp, ci, _sc, _own in walk):
                return True
        return False

    def methods(self, path: str, cidx: int, name: str) -> list[tuple[str, int]]:
        """The program's functions that class ``cidx`` finds for ``name`` along its MRO (sorted)."""
        return sorted((m[1], m[2]) for m in self.class_lookup(path, cidx, name) if m[0] == VAL_FUNC)

    def descriptor_methods(self, vals: Any, dunder: str) -> list[tuple[str, int]]:
        """``dunder`` (``__get__``, ``__set__``, ``__delete__``) of the classes of the instances
        among a class attribute's values ``vals``: a descriptor (``x = Field()`` in a class body)."""
        out = []
        for v in vals:
            if v[0] == VAL_INST:
                out.extend(self.methods(v[1], v[2], dunder))
        return out

    def _load_call(self, b: Any, attr: str, fns: list[tuple[str, int]], value: frozenset) -> tuple[frozenset, list[tuple[str, int]]]:
        """``getattr``'s answer when reading ``b.attr`` runs ``fns`` (a property getter, a
        descriptor's ``__get__``, ``__getattr__``): kept for calls through the attribute
        (``load_calls``)."""
        self.load_calls.setdefault(attr, {})[b] = fns
        return value, fns

    def _returns_of(self, fns: list[tuple[str, int]], also: Any = EMPTY, functions: bool = True) -> frozenset:
        """What the functions ``fns`` return (with ``also``). ``functions=False`` for a
        descriptor's ``__get__``: one returning a function builds a method from the descriptor's
        own state (``partial(self.instance_method, obj)``), and all instances of a descriptor class
        are one here, so their functions would merge (Django's ``get_lookups`` would call
        ``register_lookup``'s functions too)."""
        out = set(also)
        for p, i in fns:
            out.update(self.returns(p, i) if functions else (v for v in self.returns(p, i) if v[0] != VAL_FUNC))
        return frozenset(out)


def _shared_mro(r: Classes, path: str, cidx: int) -> tuple[list[tuple[str, int]], list[Any], list[tuple]]:
    return r.own_mro(path, cidx, (path, cidx))


def _shared_subclasses(r: Classes, path: str, cidx: int) -> list[tuple[str, int]]:
    return r.own_subclasses(path, cidx, (path, cidx))


# the argument of ``property(fget, fset, fdel)`` each accessor kind is (position, keyword)
_PROPERTY_ARGS = {"": (0, "fget"), STORE_SETTER: (1, "fset"), STORE_DELETER: (2, "fdel")}
_GETATTR = (T_NAME, "getattr")  # the builtin a ``__getattr__`` forwards a name with (``delegated``)


def _c3_merge(key: tuple[str, int], seqs: list[list[tuple[str, int]]]) -> tuple[list[tuple[str, int]], bool]:
    """C3 linearization: ``key`` followed by the merge of ``seqs`` (the bases' MROs, then the
    bases), and whether it succeeded. Each step takes the first head, in order, that stands in no
    sequence's tail. The tails are counted once and updated as heads are taken (slicing every tail
    at every step made a 2,000-class chain cubic: 28 s for one file)."""
    heads = [0] * len(seqs)
    tails: dict[tuple[str, int], int] = {}
    for sq in seqs:
        for x in islice(sq, 1, None):
            tails[x] = tails.get(x, 0) + 1
    out = [key]
    left = sum(len(sq) for sq in seqs)
    while left:
        cand = None
        for i, sq in enumerate(seqs):
            if heads[i] < len(sq) and not tails.get(sq[heads[i]]):
                cand = sq[heads[i]]
                break
        if cand is None:
            return out, False
        out.append(cand)
        for i, sq in enumerate(seqs):
            j = heads[i]
            if j < len(sq) and sq[j] == cand:
                heads[i] = j + 1
                left -= 1
                if j + 1 < len(sq):  # the new head leaves the tail
                    tails[sq[j + 1]] -= 1
    return out, True
