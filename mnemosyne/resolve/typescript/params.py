"""Parameter flow in the TypeScript resolver: what the calls of a function pass to its parameters.

~690 lines, over the ~600 of the guide: one concern (the values a parameter is given, by direct
calls, ``bind`` / ``call`` / ``apply``, callbacks written as arguments and shared answers); the
binders (``bound_this`` to ``_this_argument``) and the inline-argument search
(``_def_start`` to ``_param_call_arguments``) are the parts to split off next."""

from __future__ import annotations

import re

from mnemosyne.parse.typescript import CALLED_AT_ONCE, ParsedFile, called_params, param_slot
from mnemosyne.parse.typescript.calls import REFLECT_APPLY, THIS_BINDERS
from mnemosyne.parse.typescript.tags import (
    BOUND_CALLS,
    CALL,
    DECL,
    DEF,
    DEFAT,
    ID,
    KEY,
    PARAM,
    PROP,
    PVAL,
    SPREAD,
    THIS_CLS,
    THIS_OBJ,
    UNKNOWN,
    VAR,
)
from mnemosyne.resolve.typescript.builtins import THIS_ARG_METHODS
from mnemosyne.resolve.typescript.reads import CALLS_PREFIX, READ_CALL_SITES, READ_LOOKUP, READ_RETURNS, READ_THIS
from mnemosyne.resolve.typescript.state import (
    MEMO_BOUND,
    MEMO_CLASS_PROPS,
    MEMO_PARAM_KEYS,
    MEMO_PARAM_VALUES,
    MEMO_RETURNED_PARAMS,
    UNTAINTED,
    CtxState,
)
from mnemosyne.resolve.typescript.values import (
    FLAG_INFERRED,
    V_ALIT,
    V_BUILTIN,
    V_CLASS,
    V_FUNC,
    V_NULL,
    V_OLIT,
    alternatives,
    funcs,
    union,
)

# parameter flow looks at most this many call sites by the function's name (``_param_values``): a
# name called from everywhere (`set`, `add`) has sites that would each need their receiver's
# type, and three.js's bundles made that quadratic (9.6x the parse floor instead of 3.2x)
MAX_PARAM_SITES = 512
# an anonymous method is searched for by its member name among at most this many call sites: a
# name such as `next` or `replace` is also a builtin's, called all over (``_given_values``)
MAX_BOUND_SITES = 170
# callers passing on their own parameter are followed this many steps up (``_param_values``): a
# bound on the chain (rxjs's operators reach OperatorSubscriber's callbacks in one step)
MAX_PARAM_HOPS = 2
_NO_DEF = (DEF, "", "")  # a definition offset with no definition
# an anonymous function named by the property, key or attribute it is bound to (parse/anon.py):
# ``F.prototype.use = function (fn) {}`` is ``<function:use>``, called as ``r.use(f)``
_BOUND_TO = re.compile(r"<(?:function|arrow):([A-Za-z_$][\w$]*)(?:#\d+)?>$")
# how a function may be called by no name (``called_at_once``, ``_admits``):
HOW_RET = "ret"  # ('ret', name): returned by the function called ``name``: called as ``name()(...)``
_MAX_BOUND_ARGS = 8  # the parameter positions ``_bound`` follows
REFLECT = "Reflect.apply"  # the kind of a ``Reflect.apply(f, t, args)`` site (``_binder_sites``)
_REFLECT_APPLY_VALUE = (V_BUILTIN, REFLECT)  # what the global's ``Reflect.apply`` evaluates to
HOW_IIFE = "iife"  # ('iife', path, start): an IIFE, defined at ``start`` of ``path``


def _passes(args: tuple, i: int, rest: bool) -> bool:
    """Whether a call recorded with argument expressions ``args`` may pass something at position
    ``i`` (``rest``: at ``i`` or after)."""
    if rest:
        return any(x is not None and x[0] != KEY for x in args[i:])
    a = args[i] if len(args) > i else None
    return (a is not None and a[0] != KEY) or any(x is not None and x[0] == SPREAD for x in args[: i + 1])


def this_sites(pf: ParsedFile) -> dict[str, list]:
    """Function expression fqn -> (binder, method, site) of the calls of ``pf`` that may give it
    its ``this``, in the order ``_this_argument`` takes them: ``function () {}.call(t)`` / ``apply``
    / ``bind`` (binder True, ``THIS_BINDERS``), then ``xs.forEach(function () {}, t)``
    (``THIS_ARG_METHODS``); computed once per parse result (each anonymous function's question
    went through every such call of its file)."""
    r = pf.this_sites
    if r is None:
        r = pf.this_sites = {}
        defs = pf.defs_at
        for m in THIS_BINDERS:
            for site in pf.call_args.get(m, ()):
                e, args = site[1], site[2]
                if e[0] != PROP or e[1] is None or e[1][0] != DEFAT or not args or args[0] is None:
                    continue
                d = defs.get(e[1][1])
                if d is not None:
                    r.setdefault(d[1], []).append((True, m, site))
        for m in THIS_ARG_METHODS:
            for site in pf.call_args.get(m, ()):
                e, args = site[1], site[2]
                a = args[0] if len(args) > 1 else None
                if a is None or a[0] != DEFAT or args[1] is None or e[0] != PROP:
                    continue
                d = defs.get(a[1])
                if d is not None:
                    r.setdefault(d[1], []).append((False, m, site))
    return r


def _admits(how: tuple, callee: tuple) -> bool:
    """Whether a call of ``callee`` (filed under ``CALLED_AT_ONCE``) may call a function that is
    called at once as ``how`` says (``Ctx.called_at_once``): an IIFE by its own definition; a
    function returned by ``name`` by a call of a call of ``name`` (of any call, when nameless)."""
    if how[0] == HOW_IIFE:
        return callee == (DEFAT, how[2])
    if callee[0] != CALL or callee[1] is None:
        return False
    inner = callee[1]
    if how[1].startswith("<"):
        return True
    return (inner[0] == ID and inner[1] == how[1]) or (inner[0] == PROP and inner[2] == how[1])


# the file of a probe context (``Ctx.param_values``): no real file, so every read is recorded
_PROBE = ParsedFile(path="", language="typescript", module="", content_hash="")


class ParamsMixin(CtxState):
    """The values callers pass to a parameter, computed once per index state."""

    __slots__ = ()

    def param_path(
        self, pf: ParsedFile, scope: int, e: tuple, hop: int = 0, keys_only: bool = False
    ) -> tuple[int, int, tuple[str, ...]] | None:
        """(index, function scope, member names) when expression ``e`` in ``scope`` of ``pf`` is a
        parameter of no known type (``cb``), a member of one (``opts.onDone``), or a name a
        destructuring parameter binds (``function f({ onDone })``); ``keys_only``: also one of a
        primitive type (``name: string``, asked for the keys callers pass); else None. Another
        file's lookups are recorded."""
        keys: list[str] = []
        while e[0] == PROP:
            keys.append(e[2])
            e = e[1]
        if e[0] == PVAL:  # a member of a destructured parameter (`{ cb = dflt }`: ``pattern_names``)
            return (e[1], e[2], tuple(reversed(keys)))
        if e[0] != ID:
            return None
        name = e[1]
        if pf is not self.pf:
            self.read(pf, (READ_LOOKUP, pf.scope_key[scope], name))
        s = scope
        while s >= 0:
            bl = pf.bindings[s].get(name)
            if bl is not None:
                if len(bl) != 1:
                    return None
                b = bl[0]
                slot = param_slot(b)  # `cb`, or `h: Hook`: a typed parameter
                if slot is not None:
                    return (slot[0], slot[1], tuple(reversed(keys)))
                if keys_only and b[0] == UNKNOWN and len(b) == 3 and not keys:  # `name: string`
                    return (b[1], b[2], ())
                if b[0] == VAR and b[1] is None and b[2] is not None:  # { onDone }: ('prop', ('pval', i, s), 'onDone')
                    x = b[2]
                    while x[0] == PROP:
                        keys.append(x[2])
                        x = x[1]
                    if x[0] == PVAL:
                        return (x[1], x[2], tuple(reversed(keys)))
                    if x[0] == ID and hop < 2:  # const original = desc.value: a member of a parameter
                        r = self.param_path(pf, b[3], x, hop + 1)
                        if r is not None:
                            return (r[0], r[1], r[2] + tuple(reversed(keys)))
                return None
            s = pf.scope_parent[s]
        return None

    def passed(self, pf: ParsedFile, scope: int, e: tuple, hops: int = 0):
        """What the callers pass for ``e`` when it is a parameter path (``param_path``): the values
        given to the parameter, then their members along the path; None if not known."""
        p = self.param_path(pf, scope, e)
        if p is None:
            return None
        v = self.param_values(pf, p[1], p[0], hops)
        for k in p[2]:
            if v is None:
                return None
            m = self.member(v, k)
            if hops < MAX_PARAM_HOPS and any(x[0] == V_OLIT for x in alternatives(v)):
                m = union([m, *(self._olit_passed(x, k, hops) for x in alternatives(v) if x[0] == V_OLIT)])
            v = m
        return v

    def _olit_passed(self, lit: tuple, k: str, hops: int):
        """Member ``k`` of object literal ``lit`` (a ``V_OLIT`` passed) when it is written as a
        parameter of the function passing it (``function go(cb) { run({ cb }) }``): what go's
        callers pass there; None otherwise."""
        e = next((x for key, x in lit[3] if key == k), None)
        if e is None or (e[0] != ID and e[0] != PROP):
            return None
        lpf = self.file(lit[1])
        if lpf is None or self.eval(lpf, lit[2], e) is not None:
            return None
        return self.passed(lpf, lit[2], e, hops + 1)

    def assigned_passed(self, pf: ParsedFile, scope: int, name: str):
        """What variable ``name`` (seen from ``scope`` of this file) holds when a function
        assigns it one of its parameters (``let handler; function on(fn) { handler = fn }``):
        the known values of its other bindings and what the callers pass there; None unless each
        binding is known, or such a parameter (or a member of one) that callers give something.
        Asked only for a call of the name that evaluates to nothing (``run_site``)."""
        s = scope
        bl = None
        while s >= 0:
            bl = pf.bindings[s].get(name)
            if bl is not None:
                break
            s = pf.scope_parent[s]
        if bl is None or len(bl) < 2:
            return None
        found = []
        passes = False
        for b in bl:
            if b[0] == DECL:
                continue
            if b[0] != VAR or b[1] is not None or b[2] is None:
                return None
            v = self.eval(pf, b[3], b[2])
            if v is None and b[3] != s and (b[2][0] == ID or b[2][0] == PROP):
                v = self.passed(pf, b[3], b[2])
                passes = True
            if v is None:
                return None
            if v[0] != V_NULL:
                found.append(v)
        return union(found) if passes else None

    def callers_of(self, name: str) -> tuple[str, ...]:
        """The files with calls whose callee ends with ``name`` passing arguments (recorded)."""
        self.deps.add(CALLS_PREFIX + name)
        files = self.call_reads[name] = self.ix.caller_files(name)
        return files

    def param_values(self, pf: ParsedFile, scope: int, i: int, hops: int = 0):
        """What parameter ``i`` of the function whose scope is ``scope`` is given: the functions
        the calls of it pass there (a callback: ``def run(cb) { cb() }`` with ``run(f)``), also
        through a caller's own parameter (``function go(g) { run(g) }``); None if none is known.

        Computed once per index state for all the files that ask (``TypeScriptIndex._pv_shared``):
        in a probe context that belongs to no file, so that every read it makes is recorded, and
        the asking file takes over those reads and dependencies with the value. A value resting on
        a cycle of such questions (one asked again while being computed: None there) depends on
        where the cycle was entered, so it is kept by the asking file only, never shared."""
        return self.shared_value((MEMO_PARAM_VALUES, pf.path, scope, i, hops), "_param_values", pf, scope, i, hops)

    def param_keys(self, pf: ParsedFile, scope: int, e: tuple) -> tuple[str, ...] | None:
        """The string literals the callers pass for ``e`` when it is a parameter (``function
        call(o, k) { o[k]() }`` with ``call(api, "start")``): None unless every call of the
        function found passes one there (shared per index state, as ``param_values``)."""
        p = self.param_path(pf, scope, e, keys_only=True)
        if p is None or p[2] or p[0] < 0:
            return None
        return self.shared_value((MEMO_PARAM_KEYS, pf.path, p[1], p[0]), "_param_keys", pf, p[1], p[0])

    def _param_keys(self, pf: ParsedFile, scope: int, i: int) -> tuple[str, ...] | None:
        fqn = pf.scope_fqn[scope]
        name = fqn.rsplit(".", 1)[-1]
        if fqn == pf.module or name.startswith("<") or name == "constructor":
            return None
        keys: set[str] = set()
        files = []
        n = 0
        for path in self.callers_of(name):
            cpf = self.file_read(path, (READ_CALL_SITES, name))
            if cpf is not None:
                files.append(cpf)
                n += len(cpf.call_args.get(name, ()))
        if n > MAX_PARAM_SITES:  # counted before any is evaluated (vite's `push(dest, name, elem)`,
            return None  # asked by `dest[name].push(elem)`: every `xs.push(...)` of the bundle)
        for cpf in files:
            for sc, ce, args in cpf.call_args.get(name, ()):
                if not any(x[0] == V_FUNC and x[1] == fqn for x in alternatives(self.eval(cpf, sc, ce))):
                    continue
                a = args[i] if len(args) > i else None
                if a is None or a[0] != KEY:
                    return None  # a key we cannot read: any member
                keys.add(a[1])
        return tuple(sorted(keys)) or None

    def class_props(self, fqn: str, path: str):
        """What ``this.props`` holds in class ``fqn`` (a class component whose ``props`` come from
        an external base): the props its elements pass (``<Button onPress={save} />``) and what
        ``new Button(...)`` is given; None if none is known. Shared as ``param_values``."""
        return self.shared_value((MEMO_CLASS_PROPS, path, fqn), "_site_values", fqn, fqn.rsplit(".", 1)[-1], V_CLASS, 0, 0)

    def bound_this(self, fqn: str, path: str):
        """What ``this`` is in function ``fqn`` (of ``path``) when it is called through
        ``fqn.call(obj, ...)`` / ``fqn.apply(obj, args)`` / ``Reflect.apply(fqn, obj, args)`` or
        made into ``fqn.bind(obj)``: the objects given there; None if none is known."""
        name = fqn.rsplit(".", 1)[-1]
        if name.startswith("<"):  # an anonymous function is bound by no name: xs.forEach(function () {}, obj)
            return self.shared_value((MEMO_BOUND, path, fqn), "_this_argument", fqn, path)
        if not self.callers_of(BOUND_CALLS + name):
            return None  # never bound explicitly (the search is recorded: one added later re-resolves)
        r = self.shared_value((MEMO_BOUND, path, fqn), "_bound", fqn, path)
        return r[0] if r is not None else None  # (None: met again while computed, a cycle)

    def bound_args(self, fqn: str, path: str, i: int):
        """What ``f.call(t, x)``, ``f.apply(t, [x])``, ``f.bind(t, x)`` and ``Reflect.apply(f, t,
        [x])`` pass as parameter ``i`` of function ``fqn`` (``x`` here for ``i`` 0); None if none."""
        name = fqn.rsplit(".", 1)[-1]
        if name.startswith("<") or not self.callers_of(BOUND_CALLS + name):
            return None
        r = self.shared_value((MEMO_BOUND, path, fqn), "_bound", fqn, path)
        return r[1][i] if r is not None and i < len(r[1]) else None

    def _bound(self, fqn: str, path: str) -> tuple:
        """(the ``this``, the values of each parameter position) the calls binding ``fqn``
        explicitly give it (``_binder_sites``), computed once per function and index state."""
        found: list = []
        per_arg: list[list] = []
        for cpf, sc, kind, args in self._binder_sites(fqn, path) or ():
            at = 1 if kind == REFLECT else 0
            v = self.argument(cpf, sc, args, at) if len(args) > at and args[at] is not None else None
            if v is not None and v[0] != V_NULL:
                found.append(v)
            if kind == THIS_BINDERS[1] or kind == REFLECT:  # an array of the arguments
                at += 1
                xs = self.eval(cpf, sc, args[at]) if len(args) > at and args[at] is not None else None
                n = len(xs[3]) if xs is not None and xs[0] == V_ALIT else 0
                vals = [self.element(xs, i, 0) for i in range(min(n, _MAX_BOUND_ARGS))] if xs is not None else []
            else:
                vals = [self.argument(cpf, sc, args, i) if args[i] is not None else None for i in range(1, min(len(args), _MAX_BOUND_ARGS + 1))]
            for i, v in enumerate(vals):
                while len(per_arg) <= i:
                    per_arg.append([])
                if v is not None and v[0] != V_NULL:
                    per_arg[i].append(v)
        return (union(found), tuple(union(vs) for vs in per_arg))

    def _binder_sites(self, fqn: str, path: str) -> list | None:
        """The calls binding function ``fqn`` (of ``path``) explicitly: ``fqn.call(...)`` /
        ``apply`` / ``bind`` (kind: the method's name) and ``Reflect.apply(fqn, ...)`` (kind
        ``REFLECT``), as (file, scope, kind, argument expressions): the parser files them under
        ``BOUND_CALLS`` + the function's name; None past ``MAX_PARAM_SITES``."""
        key = BOUND_CALLS + fqn.rsplit(".", 1)[-1]
        out: list = []
        for cpath in self.callers_of(key):
            cpf = self.file_read(cpath, (READ_CALL_SITES, key))
            if cpf is None:
                continue
            for sc, e, args in cpf.call_args.get(key, ()):
                if len(out) >= MAX_PARAM_SITES:
                    return None
                if e == REFLECT_APPLY:
                    if self.eval(cpf, sc, e) != _REFLECT_APPLY_VALUE:
                        continue  # a local named Reflect
                    kind, target = REFLECT, args[0]
                else:
                    kind, target = e[2], e[1]
                if any(x[0] == V_FUNC and x[1] == fqn and x[2] == path for x in alternatives(self.eval(cpf, sc, target))):
                    out.append((cpf, sc, kind, args))
        return out

    def _this_argument(self, fqn: str, path: str):
        """What ``this`` is in function expression ``fqn`` written as the callback of an array
        method given a ``thisArg`` (``xs.forEach(function (x) { this.add(x) }, this)``, the
        methods whose callback comes first: ``THIS_ARG_METHODS``), the receiver known to be an
        array, or bound where it is written (``function () { this.tick() }.bind(this)``, also
        ``.call(t)`` / ``.apply(t)``); None otherwise."""
        found: list = []
        cpf = None
        for m in THIS_BINDERS + THIS_ARG_METHODS:  # (the reads of every method's sites, as searched)
            cpf = self.file_read(path, (READ_CALL_SITES, m))
            if cpf is None:
                return None
        assert cpf is not None
        for binder, m, (sc, e, args) in this_sites(cpf).get(fqn, ()):
            if binder:
                v = self.argument(cpf, sc, args, 0)
            elif self.is_array(cpf, sc, e[1], m):
                v = self.argument(cpf, sc, args, 1)
            else:
                continue
            if v is not None and v[0] != V_NULL:
                found.append(v)
        return union(found)

    def shared_value(self, key: tuple, method: str, *args):
        """``getattr(self, method)(*args)``, computed once per index state (``param_values``)."""
        hit = self.memo.get(key)
        ix = self.ix
        if hit is not None:
            self.flags |= hit[1]
            if self.frame:  # the reads of a shared answer, else not known (``shared_memo``)
                shared = ix._pv_shared.get(key)
                if shared is None:
                    self.taint(1)
                else:
                    self.take_over(shared[2], shared[3], shared[4], shared[5])
            return hit[0]
        shared = ix._pv_shared.get(key)
        if shared is None:
            if key in ix._pv_busy:
                ix._pv_cut = True
                return None
            probe = type(self)(ix, _PROBE)
            probe.gen = 1
            outer_cut, ix._pv_cut = ix._pv_cut, False
            outer_level, ix._memo_level = ix._memo_level, UNTAINTED
            ix._pv_busy.add(key)
            try:
                v = getattr(probe, method)(*args)
            finally:
                ix._pv_busy.discard(key)
                ix._memo_level = outer_level
            cut = ix._pv_cut
            ix._pv_cut = outer_cut or cut
            shared = (v, probe.flags | FLAG_INFERRED, probe.reads, probe.deps, probe.call_reads, probe.sub_reads)
            if not cut:
                ix._pv_shared[key] = shared
        v, fl, reads, deps, call_reads, sub_reads = shared
        self.take_over(reads, deps, call_reads, sub_reads)
        self.memo[key] = (v, fl)
        self.flags |= fl
        return v

    def _param_values(self, pf: ParsedFile, scope: int, i: int, hops: int):
        given = self._given_values(pf, scope, i, hops)
        d = pf.param_defaults.get((scope, i)) if i >= 0 else None
        if d is None:
            return given
        dv = self.eval(pf, scope, d)  # `cb = dflt`: the default is one of the values, always
        if dv is None or dv[0] == V_NULL:
            return given
        return dv if given is None else union([given, dv])

    def _given_values(self, pf: ParsedFile, scope: int, i: int, hops: int):
        fqn = pf.scope_fqn[scope]
        name = fqn.rsplit(".", 1)[-1]
        if fqn == pf.module:
            return None
        if name.startswith("<"):  # an anonymous function is called by no name: called at once
            how = self.called_at_once(pf, scope, fqn)
            at_once = self._site_values(fqn, CALLED_AT_ONCE, V_FUNC, i, hops, how) if how is not None else None
            m = _BOUND_TO.match(name)  # or by the member it is assigned to: Router.prototype.use = function (fn)
            if m is not None and m[1] != "return" and i >= 0:  # or by the function it is written as an argument of
                inline = self._inline_argument_values(pf, fqn, m[1], i)
                if inline is not None:
                    at_once = union([at_once, inline])
            if m is None or m[1] == "return" or not self.is_method(pf, scope, i):
                return at_once  # (`<function:setTimeout>`, an argument of setTimeout(...), is not searched)
            return union([self._site_values(fqn, m[1], V_FUNC, i, hops, limit=MAX_BOUND_SITES), at_once])
        want = V_FUNC
        if name == "constructor" and fqn.count(".") >= 2:  # new C(...): C's constructor
            fqn = fqn.rsplit(".", 1)[0]
            name = fqn.rsplit(".", 1)[-1]
            want = V_CLASS
        named = self._site_values(fqn, name, want, i, hops)
        if want == V_FUNC and i >= 0:  # f.call(t, x), f.apply(t, [x]), f.bind(t, x), Reflect.apply(f, t, [x])
            named = union([named, self.bound_args(fqn, pf.path, i)])
            for callee in self._argument_of(pf, fqn):  # withCb(function named(cb) { ... })
                named = union([named, self._inline_argument_values(pf, fqn, callee, i)])
        how = self.called_at_once(pf, scope, fqn) if want == V_FUNC else None
        if how is not None:  # also make()(x), an IIFE
            return union([named, self._site_values(fqn, CALLED_AT_ONCE, V_FUNC, i, hops, how)])
        return named

    def _def_start(self, pf: ParsedFile, fqn: str) -> int | None:
        """The offset of function ``fqn``'s definition in ``pf`` (its ``defs_at`` key), or None."""
        ix = self.ix
        starts = ix._def_starts.get(pf.path)
        if starts is None or starts[0] is not pf:  # function fqn -> its offset, once per parse result
            starts = ix._def_starts[pf.path] = (pf, {d[1]: at for at, d in pf.defs_at.items()})
        return starts[1].get(fqn)

    def _argument_of(self, pf: ParsedFile, fqn: str) -> tuple[str, ...]:
        """The callee names of the calls of ``pf`` that function expression ``fqn``, named, is
        written as an argument of (``withCb(function named(cb) { ... })``: ``withCb``; an
        anonymous one is named after it, ``<function:withCb>``); () for any other function."""
        at = self._def_start(pf, fqn)
        if at is None:
            return ()
        ix = self.ix
        idx = ix._arg_callees.get(pf.path)
        if idx is None or idx[0] is not pf:  # offset -> callee names, once per parse result
            found: dict[int, list[str]] = {}
            for name, sites in pf.call_args.items():
                for _sc, _e, args in sites:
                    for a in args:
                        if a is not None and a[0] == DEFAT and name not in found.get(a[1], ()):
                            found.setdefault(a[1], []).append(name)
            idx = ix._arg_callees[pf.path] = (pf, {k: tuple(v) for k, v in found.items()})
        return idx[1].get(at, ())

    def _inline_argument_values(self, pf: ParsedFile, fqn: str, callee: str, i: int):
        """What parameter ``i`` of function expression ``fqn`` is given when it is written as an
        argument of a call of ``callee`` (``createStore((set) => ...)``) and that callee, a function
        of ours, calls the parameter it receives it as (``function createStore(createState) {
        createState(setState) }``): the arguments of those calls; None if none is known."""
        at = self._def_start(pf, fqn)
        if at is None:
            return None
        if pf is not self.pf:
            self.read(pf, (READ_CALL_SITES, callee))
        me = (DEFAT, at)
        found: list = []
        for sc, e, args in pf.call_args.get(callee, ()):
            if me not in args:
                continue
            j = args.index(me)
            for g in alternatives(self.eval(pf, sc, e)):
                if g[0] == V_FUNC and not any(x is not None and x[0] == SPREAD for x in args[:j]):
                    found.extend(self._param_call_arguments(g, j, i))
        return union(found)

    def _param_call_arguments(self, g: tuple, j: int, i: int) -> list:
        """Argument ``i`` of the calls function ``g`` makes of its parameter ``j`` (``cb(x)``)."""
        gpf = self.file_read(g[2], (READ_RETURNS, g[1]))
        r = gpf.returns.get(g[1]) if gpf is not None else None
        if gpf is None or r is None:
            return []
        gscope = r[0]
        # (a typed parameter, `createState: StateCreator<T>`, is a variable of the parameter's value)
        name = next((n for n, bl in gpf.bindings[gscope].items() if param_slot(bl[0]) == (j, gscope)), None)
        if name is None or self.file_read(g[2], (READ_CALL_SITES, name)) is None:
            return []
        out = []
        for sc, e, args in gpf.call_args.get(name, ()):
            if e == (ID, name) and len(args) > i and self.param_path(gpf, sc, e) == (j, gscope, ()):
                v = self.argument(gpf, sc, args, i)
                if v is not None:
                    out.append(v)
        return out

    def returned_argument(self, pf: ParsedFile, scope: int, callee: tuple, fn: tuple):
        """What the call of ``callee`` in ``scope`` returns when function ``fn`` returns one of its
        parameters (``function ret(x) { return x }``, every ``return`` a parameter): what this
        call passes there, found as the one call of ``callee`` in ``scope`` recorded with its
        arguments (several such calls in one scope: not known which, so only if they agree)."""
        key = (MEMO_RETURNED_PARAMS, fn[2], fn[1])
        hit = self.memo.get(key)
        if hit is None or self.frame:  # (a frame records the reads again: ``CtxState.shared_memo``)
            hit = self.memo[key] = (self._returned_params(fn),)
        idx = hit[0]
        if not idx:
            return None
        name = callee[1] if callee[0] == ID else callee[2]
        cpf = self.file_read(pf.path, (READ_CALL_SITES, name))
        sites = [c for c in cpf.call_args.get(name, ()) if c[0] == scope and c[1] == callee] if cpf is not None else []
        if not sites or len(sites) > 8:
            return None
        found = []
        for _sc, _e, args in sites:  # several calls in the scope: known only if they agree
            found.append(union([self.argument(pf, scope, args, i) if i < len(args) else None for i in idx], all_known=True))
            if found[-1] is None or found[-1] != found[0]:
                return None
        return found[0]

    def args_returned(self, pf: ParsedFile, scope: int, fn: tuple, args: tuple):
        """What a call of function ``fn`` with argument expressions ``args`` (in ``scope``)
        returns when ``fn`` returns one of its parameters; None otherwise."""
        key = (MEMO_RETURNED_PARAMS, fn[2], fn[1])
        hit = self.memo.get(key)
        if hit is None or self.frame:  # (a frame records the reads again: ``CtxState.shared_memo``)
            hit = self.memo[key] = (self._returned_params(fn),)
        idx = hit[0]
        if not idx or idx[-1] >= len(args):
            return None
        return union([self.argument(pf, scope, args, i) for i in idx], all_known=True)

    def _returned_params(self, fn: tuple) -> tuple[int, ...]:
        """The parameters function ``fn`` returns when every ``return`` of it gives one (else ())."""
        fpf = self.file_read(fn[2], (READ_RETURNS, fn[1]))
        r = fpf.returns.get(fn[1]) if fpf is not None else None
        if fpf is None or r is None or not r[1]:
            return ()
        fscope = r[0]
        idx: set[int] = set()
        for x in r[1]:
            if x is None or x[0] != ID:
                return ()
            bl, _s = self.raw_bindings(fpf, fscope, x[1])
            if not bl or len(bl) != 1 or bl[0][0] != PARAM or bl[0][2] != fscope or bl[0][1] < 0:
                return ()
            idx.add(bl[0][1])
        return tuple(sorted(idx))

    def is_method(self, pf: ParsedFile, scope: int, i: int) -> bool:
        """Whether the function of ``scope`` has a ``this`` the parser gave it as a member of a
        class, a prototype or an object literal (``F.prototype.m = function () {}``,
        ``app.init = function () {}``): a member, not an argument of a call; or it is an unnamed
        object literal's value for a key and calls its parameter ``i`` (``return { batch: (cb) =>
        cb() }``: a callback). (Searching for every keyed function's parameters, vite's plugin
        hooks' ``transform(code, id)`` among them, cost +1.3 % of vite's extraction for 2 edges;
        the callbacks' search, the idiom's point, ~0.2 %.)"""
        if pf is not self.pf:
            self.read(pf, (READ_THIS, pf.scope_key[scope]))
        this = pf.scope_this[scope]
        if this is not None and (this[0] == THIS_CLS or this[0] == THIS_OBJ):
            return True
        return scope in pf.keyed and i in called_params(pf).get(scope, ())

    def iife_argument(self, pf: ParsedFile, scope: int, e: tuple):
        """The functions parameter ``e`` (a name) of an IIFE is given (``(function (root, factory)
        { module.exports = factory(); })(this, function () { ... })``): one call site, so what
        calling it returns is that function's (a function called from several places would mix
        the results of all it is given); None otherwise."""
        p = self.param_path(pf, scope, e)
        if p is None or p[2] or p[0] < 0:
            return None
        how = self.called_at_once(pf, p[1], pf.scope_fqn[p[1]])
        if how is None or how[0] != HOW_IIFE:
            return None
        return union(funcs(self.param_values(pf, p[1], p[0])))

    def called_at_once(self, pf: ParsedFile, scope: int, fqn: str) -> tuple | None:
        """How function ``fqn`` (its scope ``scope`` in ``pf``) may be called by no name, as a
        filter of the calls to search (``_site_values``): ``('ret', name)`` when the function
        enclosing it, called ``name``, returns it (``make()(x)``: calls of a call of ``name``;
        any call of a call for an anonymous one), ``('iife', path, start)`` when it is an IIFE;
        else None (the calls of nameless callees are never searched for it: a search evaluates
        each of them)."""
        parent = pf.scope_parent[scope]
        if parent >= 0:
            outer = pf.scope_fqn[parent]
            fpf = self.file_read(pf.path, (READ_RETURNS, outer)) if outer != pf.module else None
            r = fpf.returns.get(outer) if fpf is not None else None
            if r is not None:
                own = (ID, fqn.rsplit(".", 1)[-1])
                defs = pf.defs_at
                if any(x == own or (x is not None and x[0] == DEFAT and defs.get(x[1], _NO_DEF)[1] == fqn) for x in r[1]):
                    return (HOW_RET, outer.rsplit(".", 1)[-1])
        if pf is not self.pf:
            self.read(pf, (READ_CALL_SITES, CALLED_AT_ONCE))
        iifes = pf.iifes
        if iifes is None:  # computed once per parse result: function fqn -> its offset
            iifes = pf.iifes = {
                pf.defs_at.get(site[1][1], _NO_DEF)[1]: site[1][1]
                for site in pf.call_args.get(CALLED_AT_ONCE, ())
                if site[1][0] == DEFAT
            }
        start = iifes.get(fqn)
        return (HOW_IIFE, pf.path, start) if start is not None else None

    def _site_values(
        self, fqn: str, name: str, want: str, i: int, hops: int, how: tuple | None = None, limit: int = MAX_PARAM_SITES
    ):
        """What the calls of function (or class, ``want``) ``fqn`` named ``name`` pass as
        argument ``i``; for ``CALLED_AT_ONCE``, the calls ``how`` (``called_at_once``) admits;
        None past ``limit`` sites."""
        groups: list[tuple[ParsedFile, tuple | list]] = []
        n = 0
        paths = (how[1],) if how is not None and how[0] == HOW_IIFE else self.callers_of(name)
        rest = i < 0  # a rest parameter `...fns` from position -1 - i: the arguments from there on
        if rest:
            i = -1 - i
        passing = self.ix._passing
        for path in paths:
            cpf = self.file_read(path, (READ_CALL_SITES, name))
            if cpf is None:
                continue
            key = (path, name, i, rest)
            hit = passing.get(key)
            if hit is None or hit[0] is not cpf:  # the file's sites passing position i, once per parse result
                hit = passing[key] = (cpf, tuple(site for site in cpf.call_args.get(name, ()) if _passes(site[2], i, rest)))
            got = hit[1] if how is None else [site for site in hit[1] if _admits(how, site[1])]
            if got:
                groups.append((cpf, got))
                n += len(got)
        if n > limit:
            return None  # a name called all over (`set`, `get`): each site would need its receiver's type
        found: list = []
        for cpf, got in groups:
            for sc, e, args in got:
                c = self.eval(cpf, sc, e)
                if not any(x[0] == want and x[1] == fqn for x in alternatives(c)):
                    continue
                if rest:  # an array literal of the arguments from i on (unknown after a spread of unknown length)
                    if not any(x is not None and x[0] == SPREAD for x in args[:i]):
                        found.append((V_ALIT, cpf.path, sc, args[i:]))
                    continue
                a = args[i] if len(args) > i else None
                v = self.argument(cpf, sc, args, i)
                if v is None and hops < MAX_PARAM_HOPS and a is not None and (a[0] == ID or a[0] == PROP):
                    v = self.passed(cpf, sc, a, hops + 1)  # passed on from the caller's own parameter
                if v is not None:
                    found.append(v)
        return union(found)
