"""Classes and interfaces in the TypeScript resolver: class chains, members, fields, subclasses,
implementations; and the members an object literal gets from elsewhere (spreads, ``__proto__``,
``Object.values``, a Map's keys)."""

from __future__ import annotations

from mnemosyne.parse.typescript import SPREADS, ParsedFile, class_names_extended
from mnemosyne.parse.typescript.tags import (
    ALIT,
    ANY_KEY,
    CALL,
    DECO,
    ELEM,
    FIELD,
    GETTER,
    ID,
    ITEM,
    KEY,
    KEYED,
    MAPPED,
    METHOD,
    MSIG,
    NULL_EXPR,
    PROP,
    PUSHED,
    SETTER,
    SPREAD,
    TYPE,
    VAR,
)
from mnemosyne.resolve.typescript.builtins import KEY_LISTS, SYMBOL_KEY_LISTS, SYMBOLS_ONLY
from mnemosyne.resolve.typescript.reads import READ_CLASS, READ_OBJECT, READ_SUBCLASSES, SUB_PREFIX
from mnemosyne.resolve.typescript.state import (
    MEMO_BASE,
    MEMO_DECORATED,
    MEMO_FIELD,
    MEMO_IMPLEMENTATIONS,
    MEMO_MIXIN_MEMBER,
    MEMO_OVERRIDES,
    MEMO_SUBCLASSES,
    CtxState,
)
from mnemosyne.resolve.typescript.values import (
    CLASS_OR_INST,
    FLAG_INFERRED,
    FLAG_PARTIAL,
    HELD,
    UNTYPED_ARRAY,
    V_ABSM,
    V_ALIT,
    V_ARR,
    V_BUILTIN,
    V_CLASS,
    V_EXT,
    V_EXTM,
    V_FUNC,
    V_IFACE,
    V_IFM,
    V_IINST,
    V_INST,
    V_MOD,
    V_NULL,
    V_OBJ,
    V_OLIT,
    V_UNI,
    alternatives,
    funcs,
    union,
)

# what a class's ``extends`` may evaluate to (``base_of``)
_BASES = (V_CLASS, V_EXT, V_BUILTIN, V_UNI)
# an object with more keys is a data table, not one of functions (``own_keys``)
_MAX_TABLE_KEYS = 64
# what an object's or a function's prototype (``__proto__: p``, ``Object.setPrototypeOf(o, p)``)
# lends members from (``inherited_member``)
_PROTO_VALUES = frozenset({V_INST, V_OBJ, V_MOD, V_FUNC})


def _external_prototype(v: tuple) -> tuple | None:
    """The external class whose ``prototype`` value ``v`` is (``http.ServerResponse.prototype``)."""
    return (V_EXT, v[1][: -len(".prototype")]) if v[0] == V_EXT and v[1].endswith(".prototype") else None


def es5_base(extends: tuple) -> bool:
    """``extends`` is ``Base.prototype`` (the parser's reading of ``F.prototype =
    Object.create(Base.prototype)``): an ES5 chain between constructor functions."""
    return extends[0] == PROP and extends[2] == "prototype"


class ClassesMixin(CtxState):
    """Class and interface members along ``extends`` chains, and the classes below one."""

    __slots__ = ()

    def decorated_method(self, pf: ParsedFile, fqn: str, entries: list):
        """Method ``fqn`` and the functions its decorators' calls return (``@bound`` returning a
        wrapper: a call through the method's name runs the wrapper)."""
        found = [(V_FUNC, fqn, pf.path)]
        for d in entries:
            if d[0] == DECO:
                found.extend(funcs(self.eval(pf, d[1], d[2])))
        return union(found)

    def spread_member(self, pf: ParsedFile, scope: int, sources, name: str):
        """Member ``name`` of the last of ``sources`` (expressions in ``scope``; with scope -1,
        ``('mixin', scope, expr)`` entries) that has one."""
        for x in reversed(sources):
            v = self.eval(pf, x[1], x[2]) if scope < 0 else self.eval(pf, scope, x)
            if v is None and scope < 0 and x[2] is not None and x[2][0] == ID:  # Object.assign(this, opts): passed
                v = self.passed_few(pf, x[1], x[2])
            if v is not None:
                m = self.member(v, name)
                if m is not None:
                    return m
        return None

    def inherited_member(self, pf: ParsedFile, scope: int, spreads, proto, name: str):
        """Member ``name`` an object literal (members in ``scope``) lacks: of its spreads' sources
        (``spreads``: its ``SPREADS`` member, ``spread_member``), else of its prototype (``proto``:
        the expression of ``__proto__: base``)."""
        m = self.spread_member(pf, scope, spreads[1], name) if spreads is not None else None
        if m is None and proto is not None:
            v = self.eval(pf, scope, proto)
            # (a module's exports, `Object.setPrototypeOf(app, require("./application"))`, or a
            # function's members, Express's Router: `setPrototypeOf(router, proto)`, are prototypes too)
            # (an external class's prototype, `Object.create(http.ServerResponse.prototype)`: that
            # class's member, named as an external instance's, `http.ServerResponse.end`)
            protos = [x if x[0] in _PROTO_VALUES else _external_prototype(x) for x in alternatives(v)] if v is not None else []
            m = union([self.member(x, name) for x in protos if x is not None]) if protos else None
        return m

    def own_keys(self, v, lister: str = "Object.keys") -> list[str] | None:
        """The keys of value ``v`` in order that ``lister`` (``builtins.KEY_LISTS``) gives: a named
        object literal's members, those its spreads and ``Object.assign`` sources give included,
        or an object literal argument's; None for any other value or past ``_MAX_TABLE_KEYS``.
        Symbol keys (``[Symbol.iterator]``, ``[K]`` with ``const K = Symbol()`` or imported) are
        not enumerable: only ``Reflect.ownKeys`` gives them, ``Object.getOwnPropertySymbols`` only
        them."""
        out = self._member_keys(v, 0)
        if out is None:
            return None
        sym = lister in SYMBOL_KEY_LISTS
        strings = lister not in SYMBOLS_ONLY
        keys = [
            k for k in dict.fromkeys(out)
            if k != ANY_KEY and (sym if k.startswith("@@") or (k[:1] == "[" and k != KEYED) else strings)
        ]
        return keys if len(keys) <= _MAX_TABLE_KEYS else None

    def _member_keys(self, v, depth: int) -> list[str] | None:
        out: list[str] = []
        for x in alternatives(v):
            if x[0] == V_OBJ:
                pf = self.file_read(x[2], (READ_OBJECT, x[1]))
                o = pf.objects.get(x[1]) if pf is not None else None
                if pf is None or o is None:
                    return None
                for key, ex in o[1].items():
                    if key != SPREADS:
                        out.append(key)
                    elif depth < 4:  # { ...base, f }: base's keys too (an unknown source adds none)
                        for src in ex[1]:
                            out.extend(self._member_keys(self.eval(pf, o[0], src), depth + 1) or ())
            elif x[0] == V_OLIT:
                for key, ex in x[3]:
                    if key != SPREADS:
                        out.append(key)
                    elif depth < 4:  # Object.assign({}, a, b): the keys of its arguments
                        opf = self.file(x[1])
                        if opf is not None:
                            for src in ex[1]:
                                out.extend(self._member_keys(self.eval(opf, x[2], src), depth + 1) or ())
            else:
                return None
        return out

    def object_walk(self, pf: ParsedFile, scope: int, pairs: bool, arg: tuple | None):
        """``Object.values(t)`` (``pairs``: ``Object.entries(t)``) with ``t`` (``arg``) an object
        literal of ours: the literal of its members' values (of ``[key, value]`` pairs), each
        read as ``t.key`` where the call is; None when ``t``'s keys are not known."""
        if arg is None:
            return None
        t = self.eval(pf, scope, arg)
        if t is None and (arg[0] == ID or arg[0] == PROP):  # a parameter: the objects passed, each
            return self.passed_walk(pf, scope, pairs, arg)
        keys = self.own_keys(t)
        if not keys:
            return None
        vals = [(PROP, arg, k) for k in keys]
        return (V_ALIT, None, None, tuple((pf.path, scope, (ALIT, (NULL_EXPR, x)) if pairs else x) for x in vals))

    def passed_walk(self, pf: ParsedFile, scope: int, pairs: bool, arg: tuple):
        """``Object.values(p)`` / ``Object.entries(p)`` (``pairs``) with ``p`` a parameter: the
        literal of the members' values (pairs) of each object literal the callers pass, each
        evaluated where it is written; None when none is known."""
        out: list = []
        for x in alternatives(self.passed(pf, scope, arg)):
            keys = self.own_keys(x)
            if not keys:
                continue  # not an object literal (or no key of it known): nothing of it
            if x[0] == V_OLIT:
                path, at, members = x[1], x[2], dict(x[3])
            else:
                opf = self.file_read(x[2], (READ_OBJECT, x[1]))
                o = opf.objects.get(x[1]) if opf is not None else None
                if o is None:
                    continue
                path, at, members = x[2], o[0], o[1]
            for k in keys:
                ex = members.get(k)  # (a key a spread gives has no expression here: left out)
                if ex is not None:
                    out.append((path, at, (ALIT, (NULL_EXPR, ex)) if pairs else ex))
        return (V_ALIT, None, None, tuple(out)) if out else None

    def walked_keys(self, pf: ParsedFile, scope: int, k: tuple) -> tuple[str, ...] | None:
        """The keys name ``k`` may hold when it is bound only to the keys of an object literal of
        ours: an element of ``Object.keys(t)`` (``Object.keys(t).forEach((k) => ...)``, ``for
        (const k of Object.keys(t))``) or the variable of ``for (k in t)`` (read as the same). A
        parameter ``t`` is not followed to what its callers pass: ``o[k]`` would be any member of
        any object passed, and such a union flowing on (``value = overrides[key]`` passed along)
        hides what the callers' own values are (vite's ``mergeAlias``: an array parameter no
        longer only arrays)."""
        src = self.key_source(pf, scope, k)
        if src is None:
            return None
        keys = self.own_keys(self.eval(pf, src[1], src[0]), src[2])
        return tuple(keys) if keys else None

    def key_source(self, pf: ParsedFile, scope: int, k: tuple) -> tuple[tuple, int, str] | None:
        """(``t``, the scope it is written in, the builtin listing them) when name ``k`` is bound
        only to the keys of ``t``: an element of ``Object.keys(t)`` (``KEY_LISTS``; or of a
        variable bound once to one) or the variable of ``for (k in t)``; else None."""
        if k[0] != ID:
            return None
        bl, _s = self.raw_bindings(pf, scope, k[1])
        if not bl or len(bl) != 1 or bl[0][0] != VAR or bl[0][2] is None:
            return None
        x, at = bl[0][2], bl[0][3]
        if x[0] != ELEM or len(x) != 2 or x[1] is None:
            return None
        if x[1][0] == ID:  # const keys = Object.keys(t); for (const k of keys)
            x = self.sole_value(pf, at, x[1][1])
            if x is None:
                return None
            x, at = x
        if x[1][0] != CALL or len(x[1]) != 3 or x[1][2] is None:
            return None
        f = self.eval(pf, at, x[1][1])
        if f is None or f[0] != V_BUILTIN or f[1] not in KEY_LISTS:
            return None
        return (x[1][2], at, f[1])

    def walked_parameter(self, pf: ParsedFile, scope: int, e: tuple):
        """``o[k]`` called (``o[k]()``), ``o`` a parameter and ``k`` walked over ``o``'s own keys
        (``key_source``: ``for (k in o)``, ``Object.keys(o).forEach((k) => ...)``): each member of
        each object literal the callers pass for ``o``; None if none is known. Only for the callee
        of a call, never as a value flowing on (``walked_keys``: such a union passed along hides
        what the callers' own values are)."""
        src = self.key_source(pf, scope, e[2])
        if src is None or src[0] != e[1]:
            return None
        p = self.param_path(pf, scope, e[1])
        if p is None or p != self.param_path(pf, src[1], src[0]):
            return None  # the same name, another binding (a shadowing one)
        found = []
        for x in alternatives(self.passed(pf, scope, e[1])):
            for key in self.own_keys(x, src[2]) or ():
                found.append(self.member(x, key))
        return union(found)

    def sole_value(self, pf: ParsedFile, scope: int, name: str) -> tuple[tuple, int] | None:
        """(``('elem', e)``, scope) for a variable bound once to ``e`` (``walked_keys``: the keys
        list a name holds)."""
        bl, _s = self.raw_bindings(pf, scope, name)
        if not bl or len(bl) != 1 or bl[0][0] != VAR or bl[0][2] is None:
            return None
        return (ELEM, bl[0][2]), bl[0][3]

    @staticmethod
    def under_key(a: tuple, key: str) -> tuple:
        """Array literal value ``a`` of a Map's values (``new Map([["a", f]])``, ``m.set("a", f)``)
        without the values stored under another string key than ``key``: a value is under the key
        of the ``('spread', ('key', k))`` mark before it, else under a key we cannot read."""
        items = a[3]
        if not any(x is not None and x[0] == SPREAD and x[1] is not None and x[1][0] == KEY and x != MAPPED for x in items):
            return a
        out: list = []
        under: str | None = None
        for x in items:
            if x is not None and x[0] == SPREAD and x[1] is not None and x[1][0] == KEY and x != MAPPED:
                under = x[1][1]
                continue
            if under is None or under == key or x == PUSHED or x == MAPPED:
                out.append(x)
            under = None
        return (V_ALIT, a[1], a[2], tuple(out))

    def interface_member(self, fqn: str, path: str, name: str, seen: set, recv: tuple[str, str] | None = None):
        """A member of a value typed by interface ``fqn``: a method signature is
        ``('ifm', interface, path, name, return type, declaring interface, its path)`` (the
        receiver's interface decides which implementations a call reaches, the declaring one
        where the return type is read); a property, a value of its type; else what the
        interfaces it extends say."""
        if (fqn, path) in seen or len(seen) > 50:
            return None
        seen.add((fqn, path))
        recv = recv or (fqn, path)
        pf, info = self.class_info(fqn, path)
        if info is None or not info.is_interface:
            return None
        for ent in info.members.get(name, ()):
            if ent[0] == MSIG:
                return (V_IFM, recv[0], recv[1], name, ent[1], fqn, path)
            if ent[0] == FIELD:
                return self.field_value(pf, fqn, name, [ent])
        for t in info.implements:
            b = self.eval_as(True, pf, info.scope, t)
            if b is not None and b[0] == V_IFACE:
                r = self.interface_member(b[1], b[2], name, seen, recv)
                if r is not None:
                    return r
        return None

    def implementations(self, fqn: str, path: str, name: str) -> list[str]:
        """The methods called ``name`` that the internal classes implementing interface ``fqn``
        (directly, through an interface extending it, or as a subclass of an implementing class)
        find in their chains."""
        key = (MEMO_IMPLEMENTATIONS, fqn, path, name)
        hit = self.memo.get(key)
        if hit is not None:
            self.unknown_hit()
            return hit[0]
        self.memo[key] = ([], 0)  # cycle guard
        saved_flags, saved_emit = self.flags, self.emit
        self.emit = False
        out: set[str] = set()
        for c, q in self.heritage_candidates(fqn):
            cpf, info = self.class_info(c, q)
            if info is None or not any(self.eval_as(True, cpf, info.scope, t) == (V_IFACE, fqn, path) for t in info.implements):
                continue
            if info.is_interface:
                out.update(self.implementations(c, q, name))
            else:
                out |= self.chain_methods([(c, q), *self.subclasses(c, q)], name)
        self.flags, self.emit = saved_flags, saved_emit
        r = sorted(out)
        self.memo[key] = (r, 0)
        return r

    def class_info(self, fqn: str, path: str):
        pf = self.file_read(path, (READ_CLASS, fqn))  # the whole class: scope, extends, constructor, members
        if pf is None:
            return None, None
        return pf, pf.classes.get(fqn)

    def base_of(self, fqn: str, path: str):
        pf, info = self.class_info(fqn, path)
        if info is None or info.extends is None:
            return None
        key = (MEMO_BASE, path, fqn)
        owner = self.busy.get(key)
        if owner is not None:
            if self.frame:  # (a cycle: ``CtxState.shared_memo``)
                self.taint(owner + 1)
            return None
        self.busy[key] = self.depth
        saved_flags, saved_emit = self.flags, self.emit
        self.emit = False
        v = self.eval(pf, info.scope, info.extends)
        if v is None and info.extends[0] == ID:  # (Base) => class extends Base: what is passed
            v = union([x for x in alternatives(self.passed(pf, info.scope, info.extends)) if x[0] == V_CLASS])
        self.flags, self.emit = saved_flags, saved_emit
        del self.busy[key]
        if v is not None and es5_base(info.extends):  # F.prototype = Object.create(Base.prototype)
            if v[0] == V_INST:
                v = (V_CLASS, v[1], v[2])  # an ES5 base of ours
            elif _external_prototype(v) is not None:
                v = _external_prototype(v)  # Object.create(Writable.prototype): Writable
        if v is None or v[0] not in _BASES:
            return None
        return v

    def class_member(self, fqn: str, path: str, name: str, seen: set, recv: tuple[str, str] | None = None):
        if (fqn, path) in seen or len(seen) > 50:
            return None
        seen.add((fqn, path))
        recv = recv or (fqn, path)
        pf, info = self.class_info(fqn, path)
        if info is None:
            return None
        entries = info.members.get(name)
        if entries:
            for ent in entries:
                if ent[0] == METHOD:
                    if any(d[0] == DECO for d in entries):  # and what its decorators return
                        return self.memoized((MEMO_DECORATED, path, fqn, name), 0, self.decorated_method, pf, ent[1], entries)
                    return (V_FUNC, ent[1], path)
            for ent in entries:
                if ent[0] == MSIG:  # `abstract m()`: an override below the receiver's class runs
                    return (V_ABSM, recv[0], recv[1], name, ent[1], fqn, path)
            for ent in entries:
                if ent[0] == GETTER:
                    if self.emit:
                        self.add_edge(ent[1], "implicit", False)
                    return self.call_result((V_FUNC, ent[1], path))
            fields = [ent for ent in entries if ent[0] == FIELD or ent[0] == ITEM]
            if fields:
                return self.field_value(pf, fqn, name, fields)
            return None
        mixins = info.members.get(SPREADS) if name != SPREADS else None
        if mixins:  # Object.assign(C.prototype, mixin): the last mixin having it
            m = self.memoized((MEMO_MIXIN_MEMBER, path, fqn, name), FLAG_INFERRED, self.spread_member, pf, -1, mixins, name)
            if m is not None:
                return m
        base = self.base_of(fqn, path)
        if base is None:
            return None
        if base[0] == V_UNI:  # class extends Base, with Base a parameter given several classes
            return union([self.class_member(b[1], b[2], name, seen, recv) for b in base[1] if b[0] == V_CLASS])
        if base[0] == V_CLASS:
            return self.class_member(base[1], base[2], name, seen, recv)
        if base[0] == V_EXT:
            return (V_EXTM, f"{base[1]}.{name}")
        return (V_EXTM, f"<builtin>.{base[1]}.{name}")

    def subclasses(self, fqn: str, path: str) -> list[tuple[str, str]]:
        """The internal classes whose ``extends`` chain reaches class ``fqn`` of ``path`` (not
        itself), sorted: found through the extended name (``TypeScriptIndex.subclass_files``)
        and confirmed by evaluating the ``extends`` expression."""
        key = (MEMO_SUBCLASSES, fqn, path)
        hit = self.memo.get(key)
        if hit is not None:
            self.unknown_hit()
            return hit[0]
        self.memo[key] = ([], 0)  # cycle guard
        found: set[tuple[str, str]] = set()
        saved_flags, saved_emit = self.flags, self.emit
        self.emit = False
        for sub, q in self.heritage_candidates(fqn):
            if (sub, q) not in found and (sub, q) != (fqn, path) and self.base_of(sub, q) == (V_CLASS, fqn, path):
                found.add((sub, q))
                found.update(self.subclasses(sub, q))
        self.flags, self.emit = saved_flags, saved_emit
        found.discard((fqn, path))
        r = sorted(found)
        self.memo[key] = (r, 0)
        return r

    def heritage_candidates(self, fqn: str) -> list[tuple[str, str]]:
        """(class or interface, path) whose ``extends``/``implements`` names end like ``fqn``'s
        name: the only possible subclasses or implementations, for the caller to confirm. Records
        the ``<sub>NAME`` dependency, the files' answer and each file's ``sb`` read."""
        name = fqn.rsplit(".", 1)[-1]
        self.deps.add(SUB_PREFIX + name)
        files = self.sub_reads[name] = self.ix.subclass_files(name)
        out: list[tuple[str, str]] = []
        for q in files:
            qpf = self.file_read(q, (READ_SUBCLASSES, name))
            if qpf is not None:
                out.extend((c, q) for c in class_names_extended(qpf).get(name, ()))
        return out

    def overrides(self, fqn: str, path: str, name: str) -> list[str]:
        """The methods called ``name`` that the subclasses of class ``fqn`` find in their chains."""
        key = (MEMO_OVERRIDES, fqn, path, name)
        hit = self.memo.get(key)
        if hit is not None:
            self.unknown_hit()
            return hit[0]
        saved_flags, saved_emit = self.flags, self.emit
        self.emit = False
        r = sorted(self.chain_methods(self.subclasses(fqn, path), name))
        self.flags, self.emit = saved_flags, saved_emit
        self.memo[key] = (r, 0)
        return r

    def chain_methods(self, classes: list[tuple[str, str]], name: str) -> set[str]:
        """The methods called ``name`` that each of ``classes`` finds in its own chain."""
        out: set[str] = set()
        for fqn, path in classes:
            for x in funcs(self.class_member(fqn, path, name, set())):  # (with a decorator's wrapper)
                out.add(x[1])
        return out

    def setter_of(self, base: tuple, name: str):
        if base[0] not in CLASS_OR_INST:
            return None
        seen: set = set()
        fqn, path = base[1], base[2]
        while (fqn, path) not in seen and len(seen) < 50:
            seen.add((fqn, path))
            _pf, info = self.class_info(fqn, path)
            if info is None:
                return None
            entries = info.members.get(name)
            if entries:
                for ent in entries:
                    if ent[0] == SETTER:
                        return ent[1]
                return None
            b = self.base_of(fqn, path)
            if b is None or b[0] != V_CLASS:
                return None
            fqn, path = b[1], b[2]
        return None

    def field_value(self, pf: ParsedFile, fqn: str, name: str, fields: list):
        return self.memoized((MEMO_FIELD, pf.path, fqn, name), FLAG_INFERRED, self._field_value, pf, fields)

    def _field_value(self, pf: ParsedFile, fields: list):
        items = [ent for ent in fields if ent[0] == ITEM]
        if items:  # this.listeners.push(cb): an array of (at least) the functions pushed
            fields = [ent for ent in fields if ent[0] != ITEM]
            v = self._field_value(pf, fields) if fields else None
            if v is not None and all(x[0] == V_ALIT for x in alternatives(v)):  # this.handlers = [a]; .push(b)
                v = (V_ARR, self.element(v, None, 0))
            keyed = any(ent[2][0] == ALIT for ent in items)  # this.handlers[name].push(f): arrays by key
            if keyed and v is not None and v[0] == V_OBJ:
                v = None  # this.handlers = {}: an object used as a table of arrays
            if v is not None and v[0] != V_ARR:
                return v
            found = [] if v is None or v[1] is None else [v[1]]
            for ent in items:
                if ent[2][0] == ALIT:  # an array under a key: this.handlers[name] is one of them
                    found.append(self.eval(pf, ent[1], ent[2]))
                    continue
                x = self.eval(pf, ent[1], ent[2])
                if (x is None or x[0] == V_IINST) and (ent[2][0] == ID or ent[2][0] == PROP):
                    # (`l: Listener`, an interface with a call signature: what the callers pass)
                    x = self.passed(pf, ent[1], ent[2])
                found.extend(y for y in alternatives(x) if y[0] in HELD)  # functions, objects of ours
            return (V_ARR, union(found)) if found else v
        result = None
        # a declared type wins; otherwise the assigned values, each known (several: one of them)
        typed = None
        fl = self.flags
        for ent in fields:
            e = ent[2]
            if e is not None and e[0] == TYPE:
                result = self.eval(pf, ent[1], e)
                if result is not None:
                    break
        if (
            result is not None
            and (result[0] == V_IINST or result == UNTYPED_ARRAY)
            and any(ent[2] is not None and ent[2][0] != TYPE for ent in fields)
        ):
            # an interface type, or an array of what no type names (`Array<(t: T) => T>`): the
            # assigned values say more, if known
            typed, result = result, None
            self.flags = fl
        if result is None:
            for ent in fields:
                e = ent[2]
                if e is not None and e[0] == TYPE:
                    continue
                v = self.eval(pf, ent[1], e) if e is not None else None
                if v is None and e is not None and (e[0] == ID or e[0] == PROP):
                    # this.cb = cb: the functions (and objects, instances, classes of ours) the callers pass
                    v = union([x for x in alternatives(self.passed(pf, ent[1], e)) if x[0] in HELD])
                if v is not None and v[0] == V_NULL:
                    continue
                if v is None:
                    if e is None or e[0] != ID:
                        result = None  # (an unknown call, member, ...: the field is not known)
                        break
                    # `this.onError = handler` in a setter only the package's users call: the
                    # field's other values are still what it may hold
                    self.flags |= FLAG_PARTIAL
                    continue
                # several known: one of them (a strategy set in the constructor and by a setter)
                result = v if result is None else union([result, v])
        return result if result is not None else typed
