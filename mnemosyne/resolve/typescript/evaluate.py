"""Value evaluation of the TypeScript resolver: names, expressions, types, members, call results.

~910 lines, over the ~600 of the guide: one concern (an expression of the parser's vocabulary to a
value, the hot path of resolution), about 100 of its lines import that vocabulary's tags one a line;
member lookup (``member`` and the inherited, keyed and spread members) is the part to split off next."""

from __future__ import annotations

from mnemosyne.parse.typescript import ITERATOR, SPREADS, WRAPPER_CALLEES, ParsedFile, this_owner
from mnemosyne.parse.typescript.tags import (
    ALIT,
    ALSO,
    ANY_KEY,
    AT,
    CALL,
    CAUGHT,
    COLLECTIONS,
    DECL,
    DECO,
    DEF,
    DEF_CLASS,
    DEF_FUNC,
    DEF_NS,
    DEFAT,
    DYNAMIC_IMPORT,
    EITHER,
    ELEM,
    EXPR,
    FLOW,
    FROM,
    ID,
    IFACE,
    IMPORT,
    IMPORT_ALL,
    IMPORT_DEFAULT,
    IN,
    INTEROP,
    KEY,
    KEYED,
    LOCAL,
    MAPPED,
    NEW,
    OLIT,
    PARAM,
    PROP,
    PROTO_KEY,
    PUSHED,
    PVAL,
    REACH,
    READS,
    REQUIRE,
    SNAP,
    SPREAD,
    SPREADS_OF,
    SUPER,
    THEN,
    THIS,
    THIS_CLS,
    THIS_EXPR,
    THIS_MOD,
    THIS_OBJ,
    THIS_SCLS,
    TYPE,
    TYPE_ARRAY,
    TYPEOF,
    UNION,
    VAR,
    YIELD,
)
from mnemosyne.parse.typescript.tags import (
    NULL as NULL_TAG,
)
from mnemosyne.resolve.typescript.builtins import ELEMENT_RESULTS, GLOBALS, SAME_ELEMENTS
from mnemosyne.resolve.typescript.modules import SPEC_EXT
from mnemosyne.resolve.typescript.reads import (
    READ_CALL_SITES,
    READ_CJS,
    READ_EXPORT,
    READ_LOOKUP,
    READ_NAMESPACE,
    READ_OBJECT,
    READ_RETURNS,
    READ_STARS,
    READ_THIS,
    READ_THROWS,
)
from mnemosyne.resolve.typescript.state import (
    MEMO_BINDINGS,
    MEMO_EXPORT,
    MEMO_OBJECT_MEMBER,
    MEMO_REACH,
    MEMO_RETURNS,
    MEMO_SNAP,
    MEMO_THROWN,
    CtxState,
)
from mnemosyne.resolve.typescript.values import (
    CLASS_OR_INST,
    FLAG_IMPORT,
    FLAG_INFERRED,
    FLAG_PARTIAL,
    FLAG_SELF,
    FLAG_SUPER,
    HELD,
    INST_OR_OBJ,
    NULL,
    UNTYPED_ARRAY,
    V_ABSM,
    V_ALIT,
    V_ARR,
    V_BIND,
    V_BUILTIN,
    V_CJSMODULE,
    V_CLASS,
    V_EXT,
    V_EXTINST,
    V_EXTM,
    V_FUNC,
    V_IFACE,
    V_IFM,
    V_IINST,
    V_INST,
    V_MOD,
    V_NS,
    V_NULL,
    V_OBJ,
    V_OLIT,
    V_UNI,
    alternatives,
    funcs,
    union,
)

# the call sites passing arguments of a function's name past which ``passed_few`` gives nothing
MAX_FEW_SITES = 64
# values a call's result may be (external / builtin values from a return are not named reliably)
# the read keys of a file's ``export *`` specifiers and of its CommonJS shape (no arguments)
_STARS_KEY = (READ_STARS,)
_CJS_KEY = (READ_CJS,)
_OBJECT_ASSIGN = (V_BUILTIN, "Object.assign")
_PROTOTYPES = frozenset({V_OBJ, V_OLIT, V_INST})  # what Object.create(p) inherits members from
_PATHS = (ID, PROP)  # expressions that may name a parameter or a member of one (``passed``)
_NAMED_RESULTS = frozenset({V_INST, V_IINST, V_OBJ, V_FUNC, V_CLASS, V_MOD, V_EXTINST, V_ARR, V_ALIT, V_OLIT, V_UNI})


# what `new F()` of a function that is no class gives when F returns one of these (a constructor
# returning an object or a function gives that, not the object it made)
_NEW_RESULTS = frozenset({V_FUNC, V_OBJ, V_INST})


class EvaluateMixin(CtxState):
    """What an expression, a name or a member evaluates to (``values.py``)."""

    __slots__ = ()

    def lookup(self, pf: ParsedFile, scope: int, name: str):
        if pf is not self.pf:
            self.read(pf, (READ_LOOKUP, pf.scope_key[scope], name))
        s = scope
        bindings = pf.bindings
        parents = pf.scope_parent
        while s >= 0:
            bl = bindings[s].get(name)
            if bl is not None:
                if bl[0][0] == IFACE and all(b[0] == IFACE for b in bl):
                    if self.tctx:
                        return (V_IFACE, bl[-1][1], pf.path)
                else:
                    key = (MEMO_BINDINGS, pf.path, s, name, self.tctx)  # eval_bindings' memo, without the call
                    hit = self.memo.get(key)
                    if hit is not None:
                        self.flags |= hit[1]
                        if self.frame:
                            self.frame_hit(key)
                        return hit[0]
                    return self.memoized(key, 0, self._eval_bindings, pf, bl)
            s = parents[s]
        if name in GLOBALS:
            return (V_BUILTIN, name)
        if name == "exports":  # CommonJS free variables
            return (V_MOD, pf.path)
        if name == "module":
            return (V_CJSMODULE, pf.path)
        return None

    def eval_bindings(self, pf: ParsedFile, scope: int, name: str, bl: list):
        return self.memoized((MEMO_BINDINGS, pf.path, scope, name, self.tctx), 0, self._eval_bindings, pf, bl)

    def _eval_bindings(self, pf: ParsedFile, bl: list):
        result = None
        param = None
        for b in bl:
            k = b[0]
            if k == DECL or k == IFACE:
                continue  # an interface merged with a value: the value (``lookup`` sees lone interfaces)
            if k == DEF:
                v = self.def_value(b, pf.path)
            elif k == DECO:  # @d class C: a class d returns in C's place, if it returns one
                v = self.eval(pf, b[1], b[2])
                if v is None or not all(x[0] == V_CLASS for x in alternatives(v)):
                    continue
            elif k == IMPORT:
                self.flags |= FLAG_IMPORT
                v = self.import_value(pf, b[1], b[2])
            elif k == VAR:
                v = typed = None
                if b[1] is not None:
                    fl = self.flags
                    v = typed = self.type_value(pf, b[3], b[1])
                    if v is not None and (v[0] == V_IINST or v == UNTYPED_ARRAY) and b[2] is not None and b[2][0] != PVAL:
                        # an interface-typed value, an array of what no type names (`const hs:
                        # Handler[] = [a, b]`): what is assigned says more, if known
                        v = None
                        self.flags = fl
                if v is None and b[2] is not None and b[2][0] != PVAL:  # (`h: Hook`: ``passed``)
                    e0 = b[2]
                    while e0[0] == PROP:
                        e0 = e0[1]
                    if e0[0] == REQUIRE or e0[0] == DYNAMIC_IMPORT or e0[0] == INTEROP:
                        self.flags |= FLAG_IMPORT  # const x = require(...) / const { x } = require(...): an import
                    elif b[2][0] != DEFAT:
                        self.flags |= FLAG_INFERRED  # a value flowing through a variable: inferred
                    # const a = id(f): what this call passes, if id returns it (``args_returned``)
                    v = self.eval_as(False, pf, b[3], b[2] if len(b) == 4 else (CALL, b[2][1], (ALIT, b[4])))
                if v is None:
                    v = typed
            elif k == PARAM and b[1] < 0:  # function all(...fns): an array literal of the arguments per call
                v = self.param_values(pf, b[2], b[1])
            elif k == PARAM and len(bl) > 1:  # cb = cb || noop: the rest, then what the calls pass it
                param = b
                continue
            else:
                v = None
            if v is not None and v[0] == V_NULL:
                continue
            if v is None:  # one assignment we cannot name: the others are still what it may hold
                self.flags |= FLAG_PARTIAL
                continue
            result = v if result is None else union([result, v])  # several known: one of them
        if param is not None and result is not None and all(x[0] == V_FUNC for x in alternatives(result)):
            # a callback parameter given a default (cb = cb || noop): also what the calls pass it
            # (asked only then: vite's `options = options || {}` made this +7 % of its extraction)
            v = self.param_values(pf, param[2], param[1])
            if v is not None:
                result = union([result, v])
        return result

    def cjs_member(self, pf: ParsedFile, spec: str, name: str):
        """``require(spec).name`` when the module's ``module.exports = X`` is also given members
        (``module.exports.helper = ...``): that export; else None."""
        r = self.resolve_spec(spec, pf.path)
        if r is None or r[0] == SPEC_EXT or name == IMPORT_DEFAULT:
            return None
        target = self.file_read(r[1], _CJS_KEY)
        if target is None or not target.cjs_whole:
            return None
        return self.export_value(r[1], name)

    @staticmethod
    def def_value(d: tuple, path: str):
        kind = d[2]
        if kind == DEF_FUNC:
            return (V_FUNC, d[1], path)
        if kind == DEF_CLASS:
            return (V_CLASS, d[1], path)
        if kind == DEF_NS:
            return (V_NS, d[1], path)
        return (V_OBJ, d[1], path)

    def import_value(self, pf: ParsedFile, spec: str, name: str):
        r = self.resolve_spec(spec, pf.path)
        if r is None:
            return None
        if r[0] == SPEC_EXT:
            return (V_EXT, spec if name in (IMPORT_ALL, IMPORT_DEFAULT) else f"{spec}.{name}")
        if name == IMPORT_ALL:
            return (V_MOD, r[1])
        return self.export_value(r[1], name)

    def export_value(self, path: str, name: str):
        return self.memoized((MEMO_EXPORT, path, name, self.tctx), 0, self._export_value, path, name)

    def _export_value(self, path: str, name: str):
        pf = self.file(path)
        result = None
        if pf is not None:
            foreign = pf is not self.pf
            if foreign:
                self.read(pf, (READ_EXPORT, name))
            e = pf.exports.get(name)
            if e is not None:
                k = e[0]
                if k == LOCAL:
                    result = self.lookup(pf, 0, e[1]) if e[1] else None
                elif k == IMPORT:
                    result = self.import_value(pf, e[1], e[2])
                elif k == EXPR:
                    result = self.eval(pf, e[2], e[1]) if e[1] is not None else None
                elif k == DEFAT:
                    d = pf.defs_at.get(e[1])
                    result = self.def_value(d, pf.path) if d is not None else None
            elif name != IMPORT_DEFAULT:
                if foreign:
                    self.read(pf, _STARS_KEY)
                for spec in pf.stars:
                    result = self.import_value(pf, spec, name)
                    if result is not None:
                        break
        self.flags |= FLAG_IMPORT  # reached through an export: an import
        return result

    def eval(self, pf: ParsedFile, scope: int, e: tuple | None, depth: int = 0):
        if e is None or depth > 200:
            return None
        k = e[0]
        if k == ID:
            v = self.lookup(pf, scope, e[1])
            if v is not None and v[0] == V_UNI and pf.scope_parent[scope] >= 0:
                return self.replaced_self(pf, scope, e[1], v)
            return v
        if k == PROP:
            if e[1][0] == REQUIRE:  # const { helper } = require('./factory'): also a CommonJS whole export's
                v = self.cjs_member(pf, e[1][1], e[2])
                if v is not None:
                    return v
            base = self.eval(pf, scope, e[1], depth + 1)
            if base is None:
                r = e[1]  # it.next().value, const { value } = it.next(): a value a generator yields
                if e[2] == "value" and r[0] == CALL and r[1] is not None and r[1][0] == PROP and r[1][2] == "next":
                    it = self.eval(pf, scope, r[1][1], depth + 1)
                    if it is not None and it[0] == V_ARR:  # (an array has no `next`: a generator's result)
                        return it[1]
                return None
            return self.member(base, e[2])
        if k == CALL:
            fn = self.eval(pf, scope, e[1], depth + 1)
            if fn is None and e[1] is not None and e[1][0] == ID:  # factory() in a UMD wrapper: what it is given
                fn = self.iife_argument(pf, scope, e[1])
                if fn is None:  # `const b = getBackend()` with a callback parameter: what its callers pass,
                    fn = self.passed(pf, scope, e[1])  # when that is one function (rxjs' createErrorClass(impl)
                    if fn is not None and fn[0] != V_FUNC:  # is given nine: each error class would be all nine)
                        fn = None
                    if fn is not None:
                        self.flags |= FLAG_INFERRED
            if fn is None:
                c = e[1]
                if c is not None and c[0] == PROP and c[2] in SAME_ELEMENTS:  # xs.filter(p), xs.concat(ys), ...
                    return self.same_elements(pf, scope, e, depth)
                if c is not None and c[0] == PROP and c[2] in ELEMENT_RESULTS:  # xs.find(p), xs.pop(): an element
                    v = self.eval(pf, scope, c[1], depth + 1)
                    if v is None and (c[1][0] == ID or c[1][0] == PROP):  # a parameter: what is passed
                        v = self.passed(pf, scope, c[1])
                    if v is not None and v[0] == V_ARR:
                        return v[1]
                    if v is None or not all(x[0] == V_ALIT for x in alternatives(v)):
                        return None
                    return self.element(v, None, depth)
                # m.get(k) / s.values() of a Map or Set held as the literal of its values
                if c is not None and c[0] == PROP and (c[2] == "get" or c[2] == "values"):
                    v = self.eval(pf, scope, c[1], depth + 1)
                    if v is not None and v[0] == V_ARR:  # a field added to (this.handlers.set(k, f))
                        return v if c[2] == "values" else v[1]
                    if v is not None and all(x[0] == V_ALIT for x in alternatives(v)):
                        if c[2] == "values":
                            return v
                        if len(e) > 2 and e[2][0] == KEY:  # m.get("a"): the values under "a" or a key we cannot read
                            v = union([self.under_key(x, e[2][1]) for x in alternatives(v)])
                        return self.element(v, None, depth) if v is not None else None
                return None
            if len(e) > 2:
                if e[2] is not None and e[2][0] == ALIT and any(x == _OBJECT_ASSIGN for x in alternatives(fn)):
                    # Object.assign({}, a, { k: f }), tsc's __assign (Object.assign || a polyfill of it):
                    # the members of each argument, the last one having a key
                    merged = (V_OLIT, pf.path, scope, ((SPREADS, (SPREADS_OF, e[2][1])),))
                    t = self.eval(pf, scope, e[2][1][0], depth + 1) if e[2][1] else None
                    fns = [x for x in alternatives(t) if x[0] == V_FUNC or x[0] == V_CLASS]
                    # Object.assign(create, { helper }): the function itself (callable), with those members
                    return union([*fns, merged]) if fns else merged
                if fn[0] == V_EXT and fn[1] in WRAPPER_CALLEES:
                    return self.eval(pf, scope, e[2], depth + 1)
                if fn[0] == V_BUILTIN and fn[1] == "Promise.resolve":
                    # Promise.resolve(f): what the promise resolves to (its `then` callback's argument)
                    v = self.eval(pf, scope, e[2], depth + 1)
                    if v is None and e[2] is not None and (e[2][0] == ID or e[2][0] == PROP):
                        v = self.passed_few(pf, scope, e[2])  # Promise.resolve(fn), fn a parameter
                    return v if v is not None and v[0] in _NAMED_RESULTS else None
                if fn[0] == V_BUILTIN and fn[1] == "Array.of" and e[2] is not None and e[2][0] == ALIT:
                    return (V_ALIT, pf.path, scope, e[2][1])  # Array.of(a, b): [a, b]
                if fn[0] == V_BUILTIN and (fn[1] == "Array.from" or fn[1] == "Promise.all"):
                    # Array.from(new Set([a])): its elements; await Promise.all([f(), g()]): their values
                    v = self.eval(pf, scope, e[2], depth + 1)
                    if v is not None and (v[0] == V_INST or v[0] == V_OBJ) and fn[1] == "Array.from":
                        return self.iterated(v)  # Array.from(iterable of ours): what it yields
                    return v if v is not None and all(x[0] == V_ALIT for x in alternatives(v)) else None
                if fn[0] == V_BUILTIN and (fn[1] == "Object.values" or fn[1] == "Object.entries"):
                    return self.object_walk(pf, scope, fn[1] == "Object.entries", e[2])  # a table's values
                if fn[0] == V_BUILTIN and fn[1] == "Object.create":  # Object.create(proto): proto's members
                    v = self.eval(pf, scope, e[2], depth + 1)
                    return v if v is not None and all(x[0] in _PROTOTYPES for x in alternatives(v)) else None
            res = self.call_result(fn)
            if res is None and fn[0] == V_FUNC and (e[1][0] == ID or e[1][0] == PROP):
                if len(e) > 2 and e[2] is not None and e[2][0] == ALIT:  # id(f)(), a = id(f): its own arguments
                    return self.args_returned(pf, scope, fn, e[2][1])
                res = self.returned_argument(pf, scope, e[1], fn)  # ret(f)(): `function ret(x) { return x }`
            if res is not None and res[0] == V_INST and e[1][0] == PROP and self.returns_new_this(fn):
                # `Sub.create()` with an inherited `static create() { return new this(); }`
                recv = self.eval(pf, scope, e[1][1], depth + 1)
                if recv is not None and recv[0] == V_CLASS:
                    return (V_INST, recv[1], recv[2])
            return res
        if k == NEW:
            c = self.eval(pf, scope, e[1], depth + 1)
            if c is None and (e[1][0] == ID or e[1][0] == PROP):  # new Kind(), Kind a parameter: the classes passed
                c = union([x for x in alternatives(self.passed(pf, scope, e[1])) if x[0] == V_CLASS])
            if c is None:
                return None
            if c[0] == V_UNI:  # one of several classes (`@d class C` with d returning a class)
                return union([(V_INST, x[1], x[2]) if x[0] == V_CLASS else None for x in c[1]], all_known=True)
            if c[0] == V_CLASS:
                return (V_INST, c[1], c[2])
            if c[0] == V_EXT:
                return (V_EXTINST, c[1])
            if len(e) > 2 and c[0] == V_BUILTIN and c[1] in COLLECTIONS:  # new Map(): the literal of its values
                return (V_ALIT, pf.path, scope, e[2][1])
            if c[0] == V_FUNC:  # new F() with F.prototype.m = ...: an instance of F's prototype
                _pf, info = self.class_info(c[1], c[2])
                if info is not None:
                    return (V_INST, c[1], c[2])
                # a function returning a function or object of ours (Express's `new Router()`): that
                r = self.call_result(c)
                return r if r is not None and all(x[0] in _NEW_RESULTS for x in alternatives(r)) else None
            return None
        if k == THIS:
            if pf is not self.pf:
                self.read(pf, (READ_THIS, pf.scope_key[scope]))
            this = pf.scope_this[scope]
            if this is None:  # in an ES5 constructor (`function Dog() { this.init() }` with
                fqn = pf.scope_key[scope][0]  # `Dog.prototype.init = ...`): an instance
                info = None
                if pf is not self.pf or fqn in pf.classes:
                    _pf, info = self.class_info(fqn, pf.path)
                if info is None:  # f.call(obj) / f.apply(obj, xs) / f.bind(obj): obj
                    owner = this_owner(pf, scope)
                    return self.bound_this(pf.scope_fqn[owner], pf.path) if owner > 0 else None
                self.flags |= FLAG_SELF
                return (V_INST, fqn, pf.path)
            if this[0] == TYPE:
                return self.type_value(pf, scope, this[1])
            self.flags |= FLAG_SELF
            if this[0] == THIS_SCLS:  # a static method's `this`: the class (`new this()`)
                return (V_CLASS, this[1], pf.path)
            if this[0] == THIS_CLS:
                return (V_INST, this[1], pf.path)
            owner = this_owner(pf, scope)
            if this[0] == THIS_MOD:  # exports.f = function () {}: the exports, unless f is an ES5 class
                fqn = pf.scope_fqn[owner]
                _pf, info = self.class_info(fqn, pf.path) if pf is not self.pf or fqn in pf.classes else (None, None)
                obj = (V_INST, fqn, pf.path) if info is not None else (V_MOD, pf.path)
            else:  # an object literal's method, also bound to others (`o.m.bind(p)`)
                obj = (V_OBJ, this[1], pf.path)
            if owner <= 0:
                return obj
            flags = self.flags
            bound = self.bound_this(pf.scope_fqn[owner], pf.path)
            if bound is None:
                self.flags = flags  # not bound anywhere: still `self`, not inferred
                return obj
            return union([obj, bound])
        if k == SUPER:
            if pf is not self.pf:
                self.read(pf, (READ_THIS, pf.scope_key[scope]))
            this = pf.scope_this[scope]
            if this is not None and this[0] == THIS_OBJ:  # { __proto__: base, f() { super.g() } }: base
                proto = self.member((V_OBJ, this[1], pf.path), PROTO_KEY)
                if proto is not None:
                    self.flags |= FLAG_SUPER
                return proto
            if this is None or (this[0] != THIS_CLS and this[0] != THIS_SCLS):
                return None
            self.flags |= FLAG_SUPER
            return self.base_of(this[1], pf.path)
        if k == DEFAT:
            d = pf.defs_at.get(e[1])
            return self.def_value(d, pf.path) if d is not None else None
        if k == REQUIRE:
            r = self.resolve_spec(e[1], pf.path)
            if r is None:
                return None
            if r[0] == SPEC_EXT:
                return (V_EXT, e[1])
            target = self.file_read(r[1], _CJS_KEY)
            if target is not None and target.cjs_whole:
                return self.export_value(r[1], IMPORT_DEFAULT)
            return (V_MOD, r[1])
        if k == EITHER:  # `c ? a : b`, `a ?? b`, `a || b`: one of them (a null one drops out, and
            vals = [self.eval(pf, scope, x, depth + 1) for x in e[1:]]  # so does one we cannot name)
            if None in vals:
                self.flags |= FLAG_PARTIAL
            return union([v for v in vals if v is not None and v[0] != V_NULL])
        if k == ELEM:  # items[i] / for (x of items) / items.map(x => ...) with items: T[]
            r = e[1]
            if r is not None and r[0] == THEN:  # p.then(v => ...): a Promise<T> is typed T
                v = self.eval(pf, scope, r[1], depth + 1)
                if v is not None:
                    self.flags |= FLAG_INFERRED
                return v
            while r is not None and r[0] == CALL and r[1] is not None and r[1][0] == PROP and r[1][2] in SAME_ELEMENTS:
                r = r[1][1]  # items.filter(...).map(x => ...): the same elements
            v = self.eval(pf, scope, r, depth + 1)
            if v is None and r is not None and (r[0] == ID or r[0] == PROP):  # a parameter: what is passed
                v = self.passed(pf, scope, r)
            if v is not None and v[0] == V_ARR:
                self.flags |= FLAG_INFERRED
                return v[1]
            if v is not None and (v[0] == V_ALIT or v[0] == V_UNI):
                return self.element(v, None, depth)
            if len(e) > 2:  # o[k], k a parameter given string literals: the members they name
                if v is not None and v[0] != V_ARR and v[0] != V_ALIT:
                    # o[k].push(f) with o an object literal: the arrays kept under unknown keys (KEYED)
                    keyed = [m for x in alternatives(v) if x[0] == V_OBJ for m in (self.member(x, KEYED),) if m is not None]
                    keys = self.param_keys(pf, scope, e[2])
                    if keys is None:  # o[k], k a key of Object.keys(t) / for (k in t): t's members' names
                        keys = self.walked_keys(pf, scope, e[2])
                        if keys is not None:
                            return union([self.member(x, key) for x in alternatives(v) for key in keys])
                    elif keys:  # a registry looked up by name (`getPlugin("Patches")`: plugins[name]): also
                        keyed += [  # what `plugins[name] = impl` stores under keys we cannot read (ANY_KEY)
                            m for x in alternatives(v) if x[0] == V_OBJ for m in (self.member(x, ANY_KEY),) if m is not None
                        ]
                    if keys is not None:
                        named = [self.member(x, key) for x in alternatives(v) for key in keys]
                        if keyed:
                            return union([m for m in named if m is not None] + keyed)
                        return union(named, all_known=True)
                    if keyed:
                        return union(keyed)
            if v is not None and (v[0] == V_INST or v[0] == V_OBJ):  # an iterable of ours: what its
                it = self.iterated(v)  # [Symbol.iterator] yields (a generator method)
                return it[1] if it is not None else None
            return None
        if k == AT:  # pair[1] / const [a, b] = pair: that element of an array literal
            v = self.eval(pf, scope, e[1], depth + 1)
            if v is None and (e[1][0] == ID or e[1][0] == PROP):  # a parameter: what is passed
                v = self.passed(pf, scope, e[1])
            if v is None:
                return None
            if v[0] == V_ARR:
                self.flags |= FLAG_INFERRED
                return v[1]
            x1, s1 = (e[1][2], e[1][1]) if e[1][0] == IN else (e[1], scope)  # (a callback's parameter: IN)
            if x1[0] == ELEM and len(x1) == 2 and all(x[0] != V_ALIT for x in alternatives(v)):
                # for (const [k, f] of m), m a Map: an entry [key, value], the value one of m's
                m = self.eval(pf, s1, x1[1], depth + 1)
                if any(x[0] == V_ALIT and x[3][:1] == (MAPPED,) for x in alternatives(m)):
                    return v if e[2] == 1 else None
            if v[0] == V_INST or v[0] == V_OBJ:  # const [a] = iterable of ours: one of its yields
                it = self.iterated(v)
                return it[1] if it is not None else None
            return self.element(v, e[2], depth)
        if k == ALIT:  # an array literal: its elements are evaluated where it was written
            return (V_ALIT, pf.path, scope, e[1])
        if k == SNAP:  # [p, q] = [q, p]: the values q had before (its first bindings)
            if pf is not self.pf:
                self.read(pf, (READ_LOOKUP, pf.scope_key[e[2]], e[1]))
            bl = pf.bindings[e[2]].get(e[1])
            if not bl:
                return None
            return self.memoized((MEMO_SNAP, pf.path, e[2], e[1], e[3], self.tctx), 0, self._eval_bindings, pf, bl[: e[3]])
        if k == REACH:  # flow order: the one binding of a name that reaches a call (`f = b; f()`)
            if pf is not self.pf:
                self.read(pf, (READ_LOOKUP, pf.scope_key[e[2]], e[1]))
            bl = pf.bindings[e[2]].get(e[1])
            if not bl or e[3] >= len(bl):
                return None
            return self.memoized((MEMO_REACH, pf.path, e[2], e[1], e[3], self.tctx), 0, self._eval_bindings, pf, bl[e[3] : e[3] + 1])
        if k == FLOW:  # flow order: the value last assigned to an object literal's member (`o.k = b; o.k()`)
            x = e[2]
            if x[0] != DEFAT:
                self.flags |= FLAG_INFERRED  # (a value flowing through a member, as ``member`` reads it)
            emit, self.emit = self.emit, False  # (what the member's expression calls is not this site's)
            try:
                v = self.eval_as(False, pf, e[1], x)
            finally:
                self.emit = emit
            if v is None and x[0] in _PATHS:  # o.k = cb with cb a parameter: what the callers pass
                v = self.passed(pf, e[1], x)
            return v
        if k == ALSO:  # an object member assigned again (`state.handler = f`), a pattern's default
            vals = []  # (`{ cb = dflt }`, the member or the default): what is known of both
            for x in e[1:]:
                v = self.eval(pf, scope, x, depth + 1)
                if v is None and x is not None and x[0] == PROP:  # a member of a parameter: what is passed
                    v = self.passed(pf, scope, x)
                vals.append(v)
            return union([v for v in vals if v is not None and v[0] != V_NULL])
        if k == IN:  # a member added to an object literal from another scope: evaluated there
            v = self.eval(pf, e[1], e[2], depth + 1)
            if v is None and e[2][0] in _PATHS:  # registry.onLog = cb, this.fn = fn: what the callers pass
                v = self.passed(pf, e[1], e[2])
            return v
        if k == FROM:  # [x, ...rest] = xs / xs.slice(1): the elements from a position on
            return self.sliced(pf, scope, e, depth)
        if k == DYNAMIC_IMPORT:  # await import("./x"): the namespace
            self.flags |= FLAG_IMPORT
            return self.import_value(pf, e[1], IMPORT_ALL)
        if k == TYPE:
            return self.type_value(pf, scope, e[1])
        if k == NULL_TAG or k == KEY:
            return NULL
        if k == OLIT:  # an object literal argument: its members are evaluated where it was written
            return (V_OLIT, pf.path, scope, e[1])
        if k == INTEROP:  # _interopRequireDefault(require(spec)): the module, or { default: module }
            return self.interop_value(pf, scope, e)
        if k == CAUGHT:  # catch (e): what the try block throws, itself or through the functions it calls
            vals = [self.eval(pf, scope, x, depth + 1) for x in e[1]]
            for c in e[2]:  # (load().catch(e => ...): a rejection, what an async function throws)
                fn = self.eval(pf, scope, c, depth + 1)
                if fn is None and (c[0] == ID or c[0] == PROP):  # cb(), api.get() of a parameter: what is passed
                    fn = self.passed(pf, scope, c)
                vals += [self.thrown_by(f, len(e) > 3) for f in funcs(fn)]
            return union(vals)
        return None

    def same_elements(self, pf: ParsedFile, scope: int, e: tuple, depth: int):
        """``xs.filter(p)``, ``xs.reverse()``, ``xs.concat(ys, f)`` (``SAME_ELEMENTS``) of an array
        ``xs``: an array literal of xs's elements at unknown positions (and, for concat, the
        elements of the array literals given and the other arguments); None if xs is no array."""
        c = e[1]
        v = self.eval(pf, scope, c[1], depth + 1)
        if v is None and (c[1][0] == ID or c[1][0] == PROP):  # a parameter: what is passed
            v = self.passed(pf, scope, c[1])
        if v is None or not all(x[0] == V_ALIT or x[0] == V_ARR for x in alternatives(v)):
            return None
        items: tuple = (PUSHED, (SPREAD, c[1]))  # (PUSHED: no element is known by its position)
        if c[2] == "concat" and len(e) > 2 and e[2] is not None and e[2][0] == ALIT:
            items += tuple((SPREAD, a) if a is not None and a[0] == ALIT else a for a in e[2][1])
        return (V_ALIT, pf.path, scope, items)

    def replaced_self(self, pf: ParsedFile, scope: int, name: str, v: tuple):
        """``v``, what ``name`` holds seen from ``scope``, without a function enclosing ``scope``
        that assigns ``name`` at its top level: a function replacing itself (tsc's ``__assign =
        Object.assign || function (t) {...}; return __assign.apply(this, arguments)`` inside the
        first ``__assign``) calls the replacement there, not itself."""
        own = pf.scope_fqn[scope]
        selfs = [x for x in v[1] if x[0] == V_FUNC and x[2] == pf.path and (own == x[1] or own.startswith(x[1] + "."))]
        if not selfs:
            return v
        bl, _s = self.raw_bindings(pf, scope, name)
        parent, fqns = pf.scope_parent, pf.scope_fqn
        drop = []
        for x in selfs:
            s = scope
            while s > 0 and fqns[s] != x[1]:
                s = parent[s]
            while s > 0 and fqns[parent[s]] == x[1]:  # from a block of the function to its own scope
                s = parent[s]
            if s > 0 and any(b[0] == VAR and b[3] == s for b in bl or ()):
                drop.append(x)
        return union([x for x in v[1] if x not in drop]) if drop else v

    def entries(self, a: tuple, depth: int) -> list:
        """The elements of array-literal value ``a`` in order: ``(path, scope, expr)`` each (expr
        None: a hole or an expression not encoded), where a spread of a known literal is put in
        place (``[...head, c]``) and a spread of anything else is ``('spread', path, scope, expr)``:
        positions after it are unknown. ``('alit', None, None, entries)`` (a slice) holds them."""
        if a[1] is None:
            return list(a[3])
        out: list = []
        path, scope = a[1], a[2]
        pf = None
        for x in a[3]:
            if x is not None and x[0] == SPREAD:
                inner = None
                if x[1] is not None and depth < 16:
                    pf = pf or self.file(path)
                    inner = self.eval(pf, scope, x[1], depth + 1) if pf is not None else None
                if inner is not None and inner[0] == V_ALIT:
                    out.extend(self.entries(inner, depth + 1))
                else:
                    out.append((SPREAD, path, scope, x[1]))
            else:
                out.append((path, scope, x))
        return out

    def element(self, v: tuple, pos: int | None, depth: int):
        """Element ``pos`` (None: any element) of the array literal(s) ``v`` may be; None when
        not known (a position after a spread of unknown length, a value that is not an array
        literal)."""
        found = []
        for a in alternatives(v):
            if a[0] != V_ALIT:
                return None
            pushed = bool(a[3]) and a[3][0] == PUSHED
            if pos is not None and pushed:
                continue  # xs.push(f) leaves the positions before as they are, f's is not known
            elems = self.entries(a, depth)
            if pos is not None:
                if any(len(x) == 4 for x in elems[: pos + 1]) or pos >= len(elems):
                    return None
                elems = elems[pos : pos + 1]
            for x in elems:
                if len(x) == 4:  # a spread of an array of unknown length: any of its elements
                    path, scope, ex = x[1], x[2], (ELEM, x[3]) if x[3] is not None else None
                else:
                    path, scope, ex = x
                pf = self.file(path) if ex is not None else None
                y = self.eval(pf, scope, ex, depth + 1) if pf is not None else None
                if y is None and pushed and pf is not None and ex is not None and (ex[0] == ID or ex[0] == PROP):
                    # listeners.push(l), l a parameter: the functions and objects of ours passed
                    y = union([z for z in alternatives(self.passed_few(pf, scope, ex)) if z[0] in HELD])
                found.append(y)
        return union(found, all_known=pos is not None)

    def passed_few(self, pf: ParsedFile, scope: int, e: tuple):
        """What the callers pass for ``e`` in ``scope`` when it is a parameter (``passed``) of a
        function whose name has at most ``MAX_FEW_SITES`` call sites passing arguments; else
        None. For the values only worth a search when it is cheap: a parameter pushed onto an
        array (``function subscribe(l) { listeners.push(l) }``, ``element``) and one handed to the
        runtime or an array method (``setTimeout(cb)``, ``xs.forEach(cb)``, ``run_site``). Past
        the limit, functions named like an array method (picomatch's local ``push(tok)``,
        postcss-selector-parser's ``map(callback)``) would have every ``xs.push(...)`` /
        ``xs.map(...)`` of vite's bundle evaluated: +3 % of its extraction for no edge."""
        p = self.param_path(pf, scope, e)
        if p is None:
            return None
        name = pf.scope_fqn[p[1]].rsplit(".", 1)[-1]
        n = 0
        for path in self.callers_of(name):
            cpf = self.file_read(path, (READ_CALL_SITES, name))
            n += len(cpf.call_args.get(name, ())) if cpf is not None else 0
            if n > MAX_FEW_SITES:
                return None
        return self.passed(pf, scope, e)

    def sliced(self, pf: ParsedFile, scope: int, e: tuple, depth: int):
        """``('from', xs, start, end, is_slice)``: the elements of the array literal(s) ``xs`` may
        be from ``start`` (to ``end``), as a literal; an array typed ``T[]`` stays one; a
        ``slice`` of anything else is the call it is (a class's own ``slice``)."""
        v = self.eval(pf, scope, e[1], depth + 1)
        if v is not None and v[0] == V_ARR:
            return v
        start, end = e[2], e[3]
        out: list = []
        for a in alternatives(v):
            if a[0] != V_ALIT:
                out = []
                break
            elems = self.entries(a, depth)
            if any(len(x) == 4 for x in elems[: start if end is None else max(start, end)]):
                out = []
                break
            out.append((V_ALIT, None, None, tuple(elems[start:end])))
        if out:
            return union(out)
        if e[4]:
            return self.eval(pf, scope, (CALL, (PROP, e[1], "slice")), depth + 1)
        return None

    def iterated(self, v: tuple):
        """What iterating ``v`` (an instance or object of ours) gives when its ``[Symbol.iterator]``
        is a generator: ``('arr', its yields)``; None otherwise."""
        it = self.iterator(v)
        return it[1] if it is not None and it[1] is not None and it[1][0] == V_ARR else None

    def iterator(self, v: tuple):
        """(method, result) of the ``[Symbol.iterator]`` method of value ``v`` (an instance or
        an object of ours), or None."""
        fs = funcs(self.member(v, ITERATOR)) if v[0] in INST_OR_OBJ else []
        return (fs[0], self.call_result(fs[0])) if fs else None

    def argument(self, pf: ParsedFile, scope: int, args: tuple, i: int):
        """Argument ``i`` of a call recorded with argument expressions ``args``
        (``pf.call_args``), spreads of known literals put in place (``f(...[a, b])``)."""
        if any(x is not None and x[0] == SPREAD for x in args[: i + 1]):
            return self.element((V_ALIT, pf.path, scope, args), i, 0)
        return self.eval(pf, scope, args[i])

    def eval_as(self, types: bool, pf: ParsedFile, scope: int, e: tuple | None):
        """``eval`` of a type expression (``types``: names may denote interfaces) or of a value
        expression (names never denote interfaces)."""
        if self.tctx is types:
            return self.eval(pf, scope, e)
        self.tctx = types
        try:
            return self.eval(pf, scope, e)
        finally:
            self.tctx = not types

    def type_value(self, pf: ParsedFile, scope: int, t: tuple):
        if t[0] == UNION:  # `A | B`: a value of one of them
            return union([self.type_value(pf, scope, m) for m in t[1]], all_known=True)
        if t[0] == TYPE_ARRAY:  # elements of a type we may not know: still an array (``run_site``, "cb")
            return (V_ARR, self.type_value(pf, scope, t[1]) if t[1] is not None else None)
        if t[0] == TYPEOF:
            v = self.eval_as(False, pf, scope, t[1])
            return v if v is not None and v[0] != V_NULL else None
        v = self.eval_as(True, pf, scope, t)
        if v is None:
            return None
        if v[0] == V_CLASS:
            self.flags |= FLAG_INFERRED
            return (V_INST, v[1], v[2])
        if v[0] == V_IFACE:
            self.flags |= FLAG_INFERRED
            return (V_IINST, v[1], v[2])
        if v[0] == V_EXT:
            return (V_EXTINST, v[1])
        return None

    def member(self, base: tuple, name: str):
        k = base[0]
        if k == V_UNI:
            return union([self.member(b, name) for b in base[1]])
        if k == V_MOD:
            return self.export_value(base[1], name)
        if k == V_EXT:
            if (name == "call" or name == "apply") and base[1].rsplit(".", 1)[-1].rsplit("/", 1)[-1][:1].isupper():
                return base  # EventEmitter.call(this): a call of the external constructor (ES5 inheritance)
            return (V_EXT, f"{base[1]}.{name}")
        if k == V_BUILTIN:
            path = f"{base[1]}.{name}"
            if path.count(".") >= 2 or base[1] == "process.env":
                # window.location.href / process.env.X: data, not API; callable but not looked into
                return (V_EXTM, f"<builtin>.{path}")
            return (V_BUILTIN, path)
        if k == V_NS:
            pf = self.file_read(base[2], (READ_NAMESPACE, base[1], name))
            if pf is None:
                return None
            for scope in pf.namespaces.get(base[1], ()):
                bl = pf.bindings[scope].get(name)
                if bl is not None:
                    return self.eval_bindings(pf, scope, name, bl)
            return None
        if k == V_EXTINST:
            return (V_EXTM, f"{base[1]}.{name}")
        if k == V_CJSMODULE:
            return (V_MOD, base[1]) if name == "exports" else None
        if k == V_FUNC:  # f.call(t, ...) / f.apply(t, args) call f; f.bind(t) makes a function calling f
            if name == "call" or name == "apply":
                return base
            if name == "prototype":  # F.prototype of an ES5 class: what its instances inherit
                _pf, info = self.class_info(base[1], base[2])
                return (V_INST, base[1], base[2]) if info is not None else None
            if name == "bind":
                return (V_BIND, base)
        if k == V_OBJ or k == V_FUNC:  # a named object literal's member, or one assigned to a function
            pf = self.file_read(base[2], (READ_OBJECT, base[1]))
            if pf is None:
                return None
            o = pf.objects.get(base[1])
            if o is None:  # module.exports = function f() {}; module.exports.extra = ...: f.extra
                return self.cjs_function_member(pf, base, name) if k == V_FUNC else None
            e = o[1].get(name)
            if e is None:
                sp = o[1].get(SPREADS) if name != SPREADS else None
                proto = o[1].get(PROTO_KEY) if name != PROTO_KEY else None
                if sp is None and proto is None:
                    return None
                # { ...a } / Object.assign(o, a): a member of a source (the last one that has it);
                # { __proto__: base }: then base's
                return self.memoized(
                    (MEMO_OBJECT_MEMBER, base[2], base[1], name), FLAG_INFERRED, self.inherited_member, pf, o[0], sp,
                    proto, name
                )
            if e[0] == READS:  # { get value() {} }: reading o.value runs the getter
                d = pf.defs_at.get(e[1][1])
                if d is None:
                    return None
                if self.emit:
                    self.add_edge(d[1], "implicit", False)
                return self.call_result((V_FUNC, d[1], base[2]))
            # the member's own expression is not evaluated at this call site (emit off)
            fl = 0 if e[0] == DEFAT else FLAG_INFERRED
            return self.memoized((MEMO_OBJECT_MEMBER, base[2], base[1], name), fl, self.eval, pf, o[0], e)
        if k == V_INST and name == "constructor":  # this.constructor.create(): the class (its statics)
            return (V_CLASS, base[1], base[2])
        if k in CLASS_OR_INST:
            r = self.class_member(base[1], base[2], name, set())
            if name == "props" and k == V_INST and (r is None or r[0] == V_EXTM or r[0] == V_IINST):
                # a class component's this.props: what its elements pass
                p = self.class_props(base[1], base[2])
                if p is not None:
                    return p
            return r
        if k == V_IINST:
            return self.interface_member(base[1], base[2], name, set())
        if k == V_OLIT:
            e = next((x for key, x in base[3] if key == name), None)
            if e is None and name != SPREADS:  # Object.assign's result: a member of a source
                sp = next((x for key, x in base[3] if key == SPREADS), None)
                pf = self.file(base[1]) if sp is not None else None
                if pf is None or sp is None:
                    return None
                key = (MEMO_OBJECT_MEMBER, base[1], base[2], sp, name)
                return self.memoized(key, FLAG_INFERRED, self.spread_member, pf, base[2], sp[1], name)
            pf = self.file(base[1]) if e is not None else None
            return self.eval(pf, base[2], e) if pf is not None else None
        return None

    def call_result(self, fn: tuple):
        if fn[0] == V_UNI:
            return union([self.call_result(f) for f in fn[1]])
        if fn[0] == V_BIND:  # f.bind(t): the bound function (calling bind does not call f)
            return fn[1]
        if fn[0] == V_IFM or fn[0] == V_ABSM:  # a method signature: its declared return type
            pf, info = self.class_info(fn[5], fn[6])
            if info is None or fn[4] is None:
                return None
            self.flags |= FLAG_INFERRED
            return self.type_value(pf, info.scope, fn[4])
        if fn[0] != V_FUNC:
            return None
        key = (MEMO_RETURNS, fn[2], fn[1])
        pf = r = None
        if key not in self.memo and key not in self.busy:
            # a function with no file or no return info is not memoised (nor its flags)
            pf = self.file_read(fn[2], (READ_RETURNS, fn[1]))
            if pf is None:
                return None
            r = pf.returns.get(fn[1])
            if r is None:
                return None
        return self.memoized(key, FLAG_INFERRED, self._call_result, pf, r)

    def thrown_by(self, fn: tuple, rejects: bool = False):
        """The instances function ``fn`` (a ``V_FUNC``) throws out of its body (``throw new E()``);
        ``rejects``: only if it is async (or returns a promise), its throws a rejection. Memoised
        (``MEMO_THROWN``): a rethrow of what a call throws may come back to ``fn`` (recursion)."""
        return self.memoized((MEMO_THROWN, fn[2], fn[1], rejects), 0, self._thrown_by, fn, rejects)

    def _thrown_by(self, fn: tuple, rejects: bool):
        if rejects:
            rpf = self.file_read(fn[2], (READ_RETURNS, fn[1]))
            if rpf is None or fn[1] not in rpf.asyncs:
                return None
        fpf = self.file_read(fn[2], (READ_THROWS, fn[1]))
        t = fpf.throws.get(fn[1]) if fpf is not None else None
        if fpf is None or t is None:
            return None
        saved = self.emit
        self.emit = False  # (a getter read there is that function's, not an edge of this site)
        try:
            return union([self.eval(fpf, t[0], x) for x in t[1]])
        finally:
            self.emit = saved

    def returns_new_this(self, fn: tuple) -> bool:
        """Function ``fn`` (a static method) returns ``new this(...)``."""
        if fn[0] != V_FUNC:
            return False
        fpf = self.file_read(fn[2], (READ_RETURNS, fn[1]))
        r = fpf.returns.get(fn[1]) if fpf is not None else None
        return r is not None and any(x is not None and x[0] == NEW and x[1] == THIS_EXPR for x in r[1])

    def _call_result(self, pf: ParsedFile, r: tuple):
        scope, rets, ann = r
        result = typed = None
        if ann is not None:
            fl = self.flags
            result = self.type_value(pf, scope, ann)
            if result is not None and result[0] == V_IINST and rets:
                typed, result = result, None  # an interface type: the returned values say more, if known
                self.flags = fl
        if rets and any(e is not None and e[0] == YIELD for e in rets):
            # a generator: an iterator of the values it yields (as an array of them)
            vals = [self.eval(pf, scope, e[1]) for e in rets if e is not None and e[0] == YIELD and e[1] is not None]
            return (V_ARR, union([v for v in vals if v is not None and v[0] != V_NULL]))
        if result is None and rets:
            for e in rets:
                v = self.eval(pf, scope, e)
                if v is not None and v[0] == V_NULL:
                    continue
                if v is None:
                    result = None
                    break
                result = v if result is None else union([result, v])  # returns of several known values
        if result is not None and result[0] == V_UNI:
            result = union([x for x in result[1] if x[0] in _NAMED_RESULTS], all_known=True)
        if result is not None and result[0] not in _NAMED_RESULTS:
            result = None  # external / builtin values from a return are not named reliably
        return result if result is not None else typed
