"""Edge emission of the Python resolver (``Emit``): the call edges of a scope's call sites, attribute
loads and stores, iterations, ``with`` blocks, decorators, operators (last, bounded) and class
creation; subclass dispatch and abstract methods' overrides."""

from __future__ import annotations

from typing import Any

from mnemosyne.facts import (
    RES_BUILTIN,
    RES_CONSTRUCTOR,
    RES_EXACT,
    RES_EXTERNAL,
    RES_IMPLICIT,
    RES_IMPORT,
    RES_INFERRED,
    RES_SELF,
    RES_SUBCLASS,
    RES_SUPER,
)
from mnemosyne.parse.python import Scope
from mnemosyne.parse.python.tags import (
    CALL_RAISE,
    SCOPE_CLASS,
    SCOPE_FUNCTION,
    T_ATTR,
    T_CALL,
    T_DEF,
    T_IMPORT,
    T_IMPORT_FROM,
    T_ITEMS,
    T_NAME,
    T_PARAM,
    T_SLICE,
    T_STAR,
    T_SUBSCRIPT,
    T_TUPLE,
)
from mnemosyne.resolve.python import bounds
from mnemosyne.resolve.python.fixpoint import Fixpoint
from mnemosyne.resolve.python.known import (
    BASE_CALLBACK_NAMES,
    BASE_CALLBACKS,
    BUILTIN_DUNDERS,
    CALLBACK_BUILTINS,
    DECLARATION_DECORATORS,
    DECLARATIVE_BASE_MODULES,
    ENTER_CONTEXT,
    PASS_THROUGH_NAMES,
    POOL_CALLBACKS,
    POOL_METHODS,
    PROTOCOLS,
    REDUCER_NAMES,
    REDUCERS,
    RUNNER_DECORATORS,
    RUNNER_SITE_NAMES,
    is_external_class,
)
from mnemosyne.resolve.python.reads import STUB_EMPTY, STUB_RAISE
from mnemosyne.resolve.python.values import (
    CALLABLE_KINDS,
    MRO_KINDS,
    VAL_BUILTIN,
    VAL_BUILTIN_MAYBE,
    VAL_BUILTIN_MEMBER,
    VAL_CLASS,
    VAL_DISPLAY,
    VAL_EXT,
    VAL_EXT_MEMBER,
    VAL_FUNC,
    VAL_INST,
    VAL_METHOD_CALLER,
    VAL_MODULE,
    VAL_SUPER,
)

IMPORT_TAGS = (T_IMPORT, T_IMPORT_FROM)  # bindings made by an import statement
DATACLASS_FIELD = "dataclasses.field"  # field(default_factory=f): the generated __init__ calls f


class Emit(Fixpoint):
    """The edges of a file's scopes."""

    __slots__ = ()

    def edge(self, caller: str, callee: str, kind: str, line: int, external: bool = False, confidence: float = 1.0) -> None:
        k = (caller, callee)
        cur = self.edges.get(k)
        if cur is None:
            self.edges[k] = [kind, confidence, {line}, external]
        else:
            cur[2].add(line)
            if confidence > cur[1]:
                cur[1] = confidence
                cur[0] = kind

    def call_kind(self, path: str, idx: int, fn: Any) -> str:
        if fn[0] == T_NAME:
            scopes = self.scopes  # own file (``parsed``)
            bs = self.binding_scope(path, idx, fn[1])
            if bs is None:
                return RES_EXACT
            bvals = scopes[bs].bindings.get(fn[1], ())
            if bvals and all(v[0] in IMPORT_TAGS for v in bvals):
                return RES_IMPORT
            if bvals and all(v[0] == T_DEF for v in bvals):
                return RES_EXACT
            return RES_INFERRED
        if fn[0] == T_ATTR:
            base = fn[1]
            if base[0] == T_NAME:
                bs = self.binding_scope(path, idx, base[1])
                if bs is not None and self.is_self_param(path, bs, base[1]):
                    return RES_SELF
                vals = self.eval(path, idx, base)
                if vals and all(v[0] == VAL_MODULE for v in vals):
                    return RES_IMPORT
                if vals and all(v[0] == VAL_CLASS for v in vals):
                    return RES_EXACT
            if base[0] == T_CALL and base[1] == (T_NAME, "super"):
                return RES_SUPER
        return RES_INFERRED

    def emit_call_targets(self, caller: str, path: str, idx: int, vals: frozenset, line: int, kind: str, ctor_only: bool = False) -> None:
        for v in sorted(vals, key=repr) if len(vals) > 1 else vals:
            k = v[0]
            if k == VAL_FUNC and not ctor_only:
                self.edge(caller, self.fqn(v[1], v[2]), kind, line)
            elif k == VAL_CLASS:
                if self.is_enum(v[1], v[2]):
                    continue  # Color(1) looks a member up: its class's __init__ / __new__ ran when the class was made
                init = self.emit_methods(caller, v[1], v[2], "__init__", RES_CONSTRUCTOR, line)
                self.emit_methods(caller, v[1], v[2], "__new__", RES_CONSTRUCTOR, line)
                for mp, mi in self.metaclasses(v[1], v[2]):  # calling a class calls its metaclass's __call__
                    self.emit_methods(caller, mp, mi, "__call__", RES_IMPLICIT, line)
                if not init and self.is_dataclass(v[1], v[2]):  # its generated __init__ calls __post_init__
                    self.emit_methods(caller, v[1], v[2], "__post_init__", RES_IMPLICIT, line)
                    self.emit_default_factories(caller, v[1], v[2], line)
                elif not init:  # an __init__ inherited from the one external base: `pkg.Base.__init__`
                    for x in self.class_lookup(v[1], v[2], "__init__"):
                        if x[0] == VAL_EXT_MEMBER and x[1].split(".", 1)[0] not in DECLARATIVE_BASE_MODULES:
                            self.edge(caller, x[1], RES_EXTERNAL, line, external=True)
            elif k == VAL_INST and not ctor_only:
                self.emit_methods(caller, v[1], v[2], "__call__", RES_IMPLICIT, line)
            elif k == VAL_EXT and is_external_class(v[1]):  # requests.Session(): its __init__
                self.edge(caller, v[1] + ".__init__", RES_CONSTRUCTOR, line, external=True)
            elif k == VAL_EXT or k == VAL_EXT_MEMBER:
                self.edge(caller, v[1], RES_EXTERNAL, line, external=True)
            elif k == VAL_BUILTIN or k == VAL_BUILTIN_MEMBER:
                self.edge(caller, f"<builtin>.{v[1]}", RES_BUILTIN, line, external=True)
            elif k == VAL_BUILTIN_MAYBE and not ctor_only:
                self.edge(caller, f"<builtin>.{v[1]}", RES_INFERRED, line, external=True, confidence=0.5)

    @staticmethod
    def callback_arg(e: Any) -> Any:
        """The function argument of a call of a ``CALLBACK_BUILTINS`` builtin (None if absent)."""
        where = CALLBACK_BUILTINS[e[1][1]][0]
        if isinstance(where, int):
            a = e[2][where] if len(e[2]) > where else None
            return None if a is None or a[0] == T_STAR else a
        return next((v for k, v in e[3] if k == where), None)

    def emit_callbacks(self, caller: str, path: str, sc: int, a: Any, line: int) -> None:
        """``map(f, xs)``, ``filter(f, xs)``, ``sorted(xs, key=f)``, ``min``/``max(key=f)``,
        ``xs.sort(key=f)`` on a list: the builtin calls ``f`` (the argument ``a``, None when absent)
        for the caller (resolution ``implicit``); a builtin or external function passed is not an
        edge."""
        if a is None:
            return
        vals = frozenset(v for v in self.eval(path, sc, a) if v[0] in CALLABLE_KINDS)
        if vals:
            self.emit_call_targets(caller, path, sc, vals, line, RES_IMPLICIT)

    def emit_method_callers(self, caller: str, path: str, sc: int, vals: frozenset, a: Any, line: int) -> None:
        """``methodcaller("run")(a)``: calls ``a.run`` for each ``methodcaller`` among ``vals``
        (the program's callables ``a.run`` may be, resolution ``implicit``)."""
        for mc in vals:
            if mc[0] == VAL_METHOD_CALLER:
                for b in self.eval(path, sc, a):
                    ms = frozenset(m for m in self.getattr(b, mc[1])[0] if m[0] in CALLABLE_KINDS)
                    if ms:
                        self.emit_call_targets(caller, path, sc, ms, line, RES_IMPLICIT)

    def emit_item_method_callers(self, caller: str, path: str, sc: int, e: Any, line: int) -> None:
        """``sorted(xs, key=methodcaller("rank"))``, ``min``/``max``, ``map``/``filter(methodcaller("m"),
        xs)``: the builtin calls each item's ``rank`` (``max(a, b, key=...)``: a's and b's)."""
        a = self.callback_arg(e)
        if a is None:
            return
        mcs = frozenset(v for v in self.eval(path, sc, a) if v[0] == VAL_METHOD_CALLER)
        if not mcs:
            return
        first = CALLBACK_BUILTINS[e[1][1]][1]
        args = e[2]
        if any(x[0] == T_STAR for x in args[: first + 1]) or len(args) <= first:
            return
        if len(args) == first + 1 or e[1][1] == "sorted":
            self.emit_method_callers(caller, path, sc, mcs, (T_ITEMS, args[first]), line)
        elif e[1][1] in ("min", "max"):  # max(a, b, key=...): the arguments are the items
            for x in args:
                if x[0] != T_STAR:
                    self.emit_method_callers(caller, path, sc, mcs, x, line)

    def emit_methods(self, caller: str, path: str, cidx: int, name: str, kind: str, line: int) -> bool:
        """Edges to the program's functions class ``cidx`` finds for ``name`` (``methods``);
        whether there were any."""
        ms = self.methods(path, cidx, name)
        for mp, mi in ms:
            self.edge(caller, self.fqn(mp, mi), kind, line)
        return bool(ms)

    def emit_dunder(self, caller: str, path: str, sc: int, e: Any, dunder: str, fallback: str, line: int) -> None:
        """An operator or builtin applied to ``e`` calls ``dunder`` (else ``fallback``) of the
        internal class of each instance ``e`` may be (implicit)."""
        for c in self.eval(path, sc, e):
            if c[0] == VAL_INST and not self.emit_methods(caller, c[1], c[2], dunder, RES_IMPLICIT, line) and fallback:
                self.emit_methods(caller, c[1], c[2], fallback, RES_IMPLICIT, line)
            elif c[0] == VAL_CLASS and dunder == "__getitem__":
                self.emit_class_getitem(caller, c, line)

    def emit_class_getitem(self, caller: str, c: Any, line: int) -> None:
        """``C[int]`` on a class of the program: its metaclass's ``__getitem__`` (a program
        metaclass), else the ``__class_getitem__`` its MRO finds (implicit)."""
        hits = [self.emit_methods(caller, mp, mi, "__getitem__", RES_IMPLICIT, line) for mp, mi in self.metaclasses(c[1], c[2])]
        if not any(hits):
            self.emit_methods(caller, c[1], c[2], "__class_getitem__", RES_IMPLICIT, line)

    def emit_wrappers(self, caller: str, vals: frozenset, name: str, line: int) -> None:
        """A call by the name of a decorated function (``func()``, ``self.method()``) runs what
        its decorators made of it: an edge to each wrapper (``wrappers``), resolution
        ``implicit``, beside the edge to the function itself. Calls of the same function through
        another name (a decorator's parameter ``f()``, an alias) reach the undecorated function."""
        for v in vals:
            if v[0] != VAL_FUNC:
                continue
            s = self.hdr(v[1], v[2])
            if not s.decorators or s.name != name:
                continue
            for w in sorted(self.wrappers(v[1], v[2]), key=repr):
                if w[0] == VAL_FUNC:
                    self.edge(caller, self.fqn(w[1], w[2]), RES_IMPLICIT, line)
                else:
                    for m in sorted(self.class_lookup(w[1], w[2], "__call__"), key=repr):
                        if m[0] == VAL_FUNC:
                            self.edge(caller, self.fqn(m[1], m[2]), RES_IMPLICIT, line)
            for ip, ii in self.dispatch_impls(v[1], v[2], s):  # a singledispatch function: what is registered
                self.edge(caller, self.fqn(ip, ii), RES_IMPLICIT, line)

    def emit_default_factories(self, caller: str, path: str, cidx: int, line: int) -> None:
        """A dataclass's generated ``__init__`` calls the ``default_factory`` of the fields its
        classes declare (``xs: list = field(default_factory=make)``), resolution ``implicit``; a
        builtin or external factory (``list``) is no edge, as for the builtins' callbacks."""
        for cp, ci in self.mro(path, cidx)[0]:
            for sc, e in self.sites(cp, "field"):
                if sc != ci or (VAL_EXT, DATACLASS_FIELD) not in self.eval(cp, sc, e[1]):
                    continue
                for k, fv in e[3]:
                    if k == "default_factory":  # the program's functions and classes (not list, dict)
                        fs = frozenset(f for f in self.eval(cp, sc, fv) if f[0] == VAL_FUNC or f[0] == VAL_CLASS)
                        self.emit_call_targets(caller, cp, sc, fs, line, RES_IMPLICIT)

    def emit_super_overrides(self, caller: str, path: str, sc: int, fn: Any, line: int) -> None:
        """``super().m()`` in a method of class B runs the ``m`` found after B in the receiver's MRO:
        for a subclass D of B (``class D(B, C)``) that may be C's (cooperative multiple
        inheritance), not only what B's own MRO finds. An edge to the ``m`` each internal subclass's
        MRO finds after B (resolution ``subclass``, confidence 0.9)."""
        for sv in self.eval(path, sc, fn[1]):
            if sv[0] != VAL_SUPER:
                continue
            key = (sv[1], sv[2], fn[2])
            targets = self.super_memo.get(key)
            if targets is None:
                found: set[str] = set()
                own = (sv[1], sv[2])
                for q, di in self.subclasses(sv[1], sv[2]):
                    classes, externals, walk = self.mro(q, di)
                    if own not in classes:
                        continue
                    hit = self._first_binder(walk[classes.index(own):], fn[2], True)
                    if hit is None:
                        continue
                    for m in self._class_value(hit, externals, fn[2]):
                        if m[0] == VAL_FUNC:
                            found.add(self.fqn(m[1], m[2]))
                targets = self.super_memo[key] = sorted(found)
            for t in targets:
                self.edge(caller, t, RES_SUBCLASS, line, confidence=0.9)

    def emit_abstract_overrides(self, caller: str, path: str, sc: int, fn: Any, vals: frozenset, line: int) -> None:
        """A call ``recv.m()`` that reaches an abstract method (``is_abstract``: ``def f(store:
        Storage): store.save()``) runs an override: an edge to the ``m`` each internal subclass of
        the receiver's class finds in its MRO (resolution ``subclass``, confidence 0.9); the
        abstract method itself can never be what runs."""
        if not any(v[0] == VAL_FUNC and self.is_abstract_method(v) for v in vals):
            return
        # an instance made right there (``Job().step()``, ``j = Job(); j.step()``) is of that very
        # class: a method that only raises NotImplementedError is what runs (the call fails)
        exact = self.constructed(path, sc, fn[1])
        for r in self.eval(path, sc, fn[1]):
            if r[0] != VAL_INST and r[0] != VAL_CLASS:
                continue
            key = (r[1], r[2], fn[2], exact)
            targets = self.abstract_memo.get(key)
            if targets is None:
                found: set[str] = set()
                if any(
                    m[0] == VAL_FUNC and self.is_abstract_method(m, exact) for m in self.class_lookup(r[1], r[2], fn[2])
                ):
                    for q, di in self.subclasses(r[1], r[2]):
                        for m in self.class_lookup(q, di, fn[2]):
                            if m[0] == VAL_FUNC:
                                found.add(self.fqn(m[1], m[2]))
                targets = self.abstract_memo[key] = sorted(found)
            for t in targets:
                self.edge(caller, t, RES_SUBCLASS, line, confidence=0.9)

    def is_abstract_method(self, v: Any, exact: bool = False) -> bool:
        s = self.hdr(v[1], v[2])
        return (
            s.kind == SCOPE_FUNCTION and s.parent >= 0 and self.hdr(v[1], s.parent).kind == SCOPE_CLASS
            and self.is_abstract(v[1], v[2], s, exact)
        )

    def constructed(self, path: str, sc: int, e: Any) -> bool:
        """Receiver ``e`` is an instantiation (``Job()``) or a local name bound only to ones; not
        ``cls()`` with ``cls`` a classmethod's, which may be any subclass."""
        if e[0] == T_NAME:
            bs = self.binding_scope(path, sc, e[1])
            if bs is None or bs == 0:
                return False
            exprs = self.pf.scopes[bs].bindings.get(e[1], ()) if path == self.path else ()
            return bool(exprs) and all(x[0] == T_CALL and self.constructed(path, bs, x) for x in exprs)
        if e[0] == T_CALL:
            fn = e[1]
            if fn[0] == T_NAME:  # ``cls()`` in a classmethod (or a function nested in one): any subclass
                bs = self.binding_scope(path, sc, fn[1])
                for v in (self.binds(path, bs, fn[1]) or ()) if bs else ():
                    if v[0] == T_PARAM and v[2] == 0 and "classmethod" in self.method_decorators(path, v[1]):
                        return False
            vals = self.eval(path, sc, fn)
            return bool(vals) and all(v[0] == VAL_CLASS for v in vals)
        return False

    def is_abstract(self, path: str, fidx: int, s: Scope, exact: bool = False) -> bool:
        """Method ``fidx`` (header ``s``) is a placeholder that subclasses override: an
        ``@abstractmethod``, a body-less method (``...``) of a ``typing.Protocol`` class (neither
        can be called on an instance of that class itself), or, unless the receiver is ``exact``
        (an instance of that very class), a body that only raises ``NotImplementedError``
        (``reads.stub_body``)."""
        if "abstractmethod" in self.decorator_names(s):
            return True
        stub = self.stub(path, fidx)
        return (stub == STUB_RAISE and not exact) or (stub == STUB_EMPTY and self.is_protocol(path, s.parent))

    def is_protocol(self, path: str, cidx: int) -> bool:
        """The class lists ``typing.Protocol`` (``Protocol[T]``) among its own bases."""
        s = self.hdr(path, cidx)
        for b in self.bases_of(path, cidx):
            if b[0] == T_SUBSCRIPT:
                b = b[1]
            if any(v[0] == VAL_EXT and v[1] in PROTOCOLS for v in self.eval(path, s.parent, b)):
                return True
        return False

    def resolve_scope(self, idx: int) -> None:
        path = self.path
        scopes = self.pf.scopes
        s = scopes[idx]
        caller = self.fqn(path, idx)
        flow = s.flow
        for ci, (e, line, flag, sc) in enumerate(s.calls):
            fn = e[1]
            if flow and ci in flow:  # flow order: only what reaches the call
                vals = self.eval(path, sc, flow[ci])
            else:
                vals = self.eval(path, sc, fn)
            if fn[0] == T_NAME and not (flow and ci in flow):
                extra = self.callee_cross_values(path, sc, fn)
                if extra:
                    vals = vals | extra
            elif fn[0] == T_ATTR and fn[1][0] == T_NAME:  # out.write(): also what other modules pass out
                recv = self.receiver_cross_values(path, sc, fn[1])
                if recv:
                    extra = set()
                    for b in recv:
                        extra |= self.getattr(b, fn[2])[0]
                    vals = vals | extra
            elif fn[0] == T_SUBSCRIPT and fn[1][0] == T_NAME and fn[2][0] != T_SLICE:
                # table[key](): also the items of what other modules pass table (``run(TABLE, "f")``)
                recv = self.receiver_cross_values(path, sc, fn[1])
                if recv:
                    key = fn[2]
                    keys = self.constants(path, sc, key[1]) if key[0] == T_NAME else (key,)
                    extra = set()
                    for c in recv:
                        if c[0] == VAL_DISPLAY:
                            for k in keys:
                                extra |= self.container_item(c, k)
                    vals = vals | extra
            if flag == CALL_RAISE:
                self.emit_call_targets(caller, path, idx, vals, line, RES_CONSTRUCTOR, ctor_only=True)
                continue
            kind = self.call_kind(path, sc, fn)
            self.emit_call_targets(caller, path, sc, vals, line, kind)
            lcs = self.load_calls.get(fn[2]) if fn[0] == T_ATTR else None
            if lcs:  # obj.prop(): the getter (or __get__, __getattr__) first
                for b in self.eval(path, sc, fn[1]):
                    lc = lcs.get(b)
                    if lc:
                        for gp, gi in lc:
                            self.edge(caller, self.fqn(gp, gi), RES_IMPLICIT, line)
            if e[2] and e[2][0][0] != T_STAR and any(v[0] == VAL_METHOD_CALLER for v in vals):
                self.emit_method_callers(caller, path, sc, vals, e[2][0], line)
            if fn[0] == T_NAME and fn[1] in CALLBACK_BUILTINS and (VAL_BUILTIN, fn[1]) in vals:
                self.emit_callbacks(caller, path, sc, self.callback_arg(e), line)
                self.emit_item_method_callers(caller, path, sc, e, line)
            elif (
                e[2] and e[2][0][0] != T_STAR and (fn[0] == T_NAME or fn[0] == T_ATTR) and fn[-1] in REDUCER_NAMES
                and any(v[0] == VAL_EXT and v[1] in REDUCERS for v in vals)
            ):  # functools.reduce(f, xs): f
                self.emit_callbacks(caller, path, sc, e[2][0], line)
            elif fn[0] == T_NAME and fn[1] == "iter" and len(e[2]) == 2 and (VAL_BUILTIN, "iter") in vals:
                fa = e[2][0] if e[2][0][0] != T_STAR else None
                self.emit_callbacks(caller, path, sc, fa, line)  # iter(f, sentinel): f
            elif (fn[0] == T_NAME or fn[0] == T_ATTR) and fn[-1] in RUNNER_SITE_NAMES and (rc := self.runner_call(path, sc, e, vals)):
                if rc[1]:  # Thread(target=f), executor.submit(f): the runner calls f
                    self.emit_callbacks(caller, path, sc, rc[0][1], line)
                if fn[0] == T_ATTR and fn[2] in POOL_METHODS and e[3]:  # pool.apply_async(f, callback=done): done too
                    for k, a in e[3]:
                        if k in POOL_CALLBACKS:
                            self.emit_callbacks(caller, path, sc, a, line)
            elif fn[0] == T_ATTR and fn[2] in ENTER_CONTEXT and len(e[2]) == 1 and any(v[0] == VAL_EXT_MEMBER for v in vals):
                if e[2][0][0] != T_STAR:  # stack.enter_context(cm): cm's __enter__ now, __exit__ when the stack closes
                    for c in self.eval(path, sc, e[2][0]):
                        if c[0] == VAL_INST:
                            for n in ENTER_CONTEXT[fn[2]]:
                                self.emit_methods(caller, c[1], c[2], n, RES_IMPLICIT, line)
            elif fn[0] == T_ATTR and fn[2] in BASE_CALLBACK_NAMES and any(v[0] == VAL_EXT_MEMBER and v[1] in BASE_CALLBACKS for v in vals):
                # worker.start() on a threading.Thread subclass: its run()
                runs = {BASE_CALLBACKS[v[1]] for v in vals if v[0] == VAL_EXT_MEMBER and v[1] in BASE_CALLBACKS}
                for b in self.eval(path, sc, fn[1]):
                    if b[0] == VAL_INST:
                        for n in sorted(runs):
                            self.emit_methods(caller, b[1], b[2], n, RES_IMPLICIT, line)
            elif fn[0] == T_NAME and fn[1] in BUILTIN_DUNDERS and len(e[2]) == 1 and (VAL_BUILTIN, fn[1]) in vals:
                if e[2][0][0] != T_STAR:  # len(x): x's __len__ (resolved last, as operators)
                    self.pending_ops.append((caller, sc, e[2][0], BUILTIN_DUNDERS[fn[1]], "", line))
            elif fn[0] == T_ATTR and fn[2] == "sort" and e[3]:  # list.sort(key=f): a list display holds it
                key = next((v for k, v in e[3] if k == "key"), None)
                if key is not None and any(v[0] == VAL_DISPLAY and v[3][0] == T_TUPLE for v in self.eval(path, sc, fn[1])):
                    self.emit_callbacks(caller, path, sc, key, line)
                    mcs = frozenset(v for v in self.eval(path, sc, key) if v[0] == VAL_METHOD_CALLER)
                    if mcs:  # xs.sort(key=methodcaller("rank")): each item's rank
                        self.emit_method_callers(caller, path, sc, mcs, (T_ITEMS, fn[1]), line)
            if fn[0] == T_NAME or fn[0] == T_ATTR:
                self.emit_wrappers(caller, vals, fn[1] if fn[0] == T_NAME else fn[2], line)
            if kind == RES_SELF:
                self.emit_overrides(caller, path, sc, fn, line)
            elif kind == RES_SUPER:
                self.emit_super_overrides(caller, path, sc, fn, line)
            elif fn[0] == T_ATTR and kind != RES_SUPER:  # super().m() names the one method it runs
                self.emit_abstract_overrides(caller, path, sc, fn, vals, line)
        for e, line, sc in s.loads:
            for b in self.eval(path, sc, e[1]):
                if b[0] in MRO_KINDS:
                    for gp, gi in self.getattr(b, e[2])[1]:
                        self.edge(caller, self.fqn(gp, gi), RES_IMPLICIT, line)
        for e, line, sc, is_async in s.iters:
            it_name, next_name = ("__aiter__", "__anext__") if is_async else ("__iter__", "__next__")
            for c in self.eval(path, sc, e):
                if c[0] != VAL_INST:
                    continue
                for it in sorted(self.class_lookup(c[1], c[2], it_name), key=repr):
                    if it[0] != VAL_FUNC:
                        continue
                    self.edge(caller, self.fqn(it[1], it[2]), RES_IMPLICIT, line)
                    for itv in self.returns(it[1], it[2]):
                        if itv[0] == VAL_INST:
                            for nx in self.class_lookup(itv[1], itv[2], next_name):
                                if nx[0] == VAL_FUNC:
                                    self.edge(caller, self.fqn(nx[1], nx[2]), RES_IMPLICIT, line)
        for e, line, sc, kind in s.stores:  # obj.prop = v, del obj.prop
            if e[0] != T_ATTR:
                continue
            for b in self.eval(path, sc, e[1]):
                if b[0] == VAL_INST:
                    for ap, ai in self.property_accessors(b[1], b[2], e[2], kind):
                        self.edge(caller, self.fqn(ap, ai), RES_IMPLICIT, line)
        for e, line, dunder, fallback, sc in s.ops:  # a + b, x[k], k in c, -a, a += b: resolved last
            self.pending_ops.append((caller, sc, e, dunder, fallback, line))
        for e, line, is_async, sc in s.withs:
            names = ("__aenter__", "__aexit__") if is_async else ("__enter__", "__exit__")
            handed = self.handed_on(path, sc, e) if e[0] == T_CALL and e[1][-1] in PASS_THROUGH_NAMES else None
            if handed is not None:  # with closing(x): x.close() on the way out
                if any(v == (VAL_EXT, "contextlib.closing") for v in self.eval(path, sc, e[1])):
                    for c in self.eval(path, sc, handed):
                        if c[0] == VAL_INST:
                            self.emit_methods(caller, c[1], c[2], "close", RES_IMPLICIT, line)
                continue
            for c in self.eval(path, sc, e):
                if c[0] == VAL_INST:
                    for n in names:
                        self.emit_methods(caller, c[1], c[2], n, RES_IMPLICIT, line)
        for di, (e, didx, line) in enumerate(s.decos):
            dscope = scopes[didx].parent
            if s.deco_flow and di in s.deco_flow:  # flow order: the binding reaching the decorator
                e = s.deco_flow[di]
            if e[0] == T_CALL:
                dvals: set = set()
                for f in self.eval(path, dscope, e[1]):
                    dvals |= self.call_result(path, dscope, f, e)
            else:
                if (e[0] == T_NAME and e[1] in DECLARATION_DECORATORS) or (
                    e[0] == T_ATTR and e[2] in ("setter", "getter", "deleter")
                ):
                    dvals = set(v for v in self.eval(path, dscope, e) if v[0] != VAL_BUILTIN)
                else:
                    dvals = set(self.eval(path, dscope, e))
            dvals = {v for v in dvals if not (v[0] == VAL_BUILTIN and v[1] in DECLARATION_DECORATORS)}
            self.emit_call_targets(caller, path, dscope, frozenset(dvals), line, RES_IMPLICIT)
            if len(scopes[didx].decorators) == 1 and any(v[0] == VAL_EXT and v[1] in RUNNER_DECORATORS for v in dvals):
                self.edge(caller, self.fqn(path, didx), RES_IMPLICIT, line)  # @atexit.register: it runs the definition

    def resolve_operators(self) -> None:
        """The operator sites of the file (``pending_ops``), after every other call: their operands
        are evaluated at most ``OPERATOR_DEPTH`` levels deep (values truncated there serve only
        other operator sites), and past ``OPERATOR_BUDGET`` evaluations they are skipped. Truth
        tests (``__bool__``) come last: the most numerous sites, they must not change what the
        truncated operands of the others evaluate to, nor use up the budget first."""
        truncated = self.truncated
        self.max_depth = bounds.OPERATOR_DEPTH
        ops = self.pending_ops
        ops = [op for op in ops if op[3] != "__bool__"] + [op for op in ops if op[3] == "__bool__"]
        try:
            for caller, sc, e, dunder, fallback, line in ops:
                if self.serial - self.ga_serials > bounds.OPERATOR_BUDGET:
                    self.ops_skipped += 1
                else:
                    self.emit_dunder(caller, self.path, sc, e, dunder, fallback, line)
        finally:
            self.max_depth = bounds.MAX_DEPTH
            self.truncated = truncated  # (the operand depth is a bound of its own, not the file's limit)

    def class_creation(self, cidx: int, s: Scope) -> None:
        """What creating class ``cidx`` calls, from the code running its ``class`` statement: its
        metaclass's ``__new__`` and ``__init__`` (a program class: ``type``'s own are not calls
        into the program), the bases' ``__init_subclass__`` and the ``__set_name__`` of the
        descriptors its body assigns (implicit)."""
        path = self.path
        scopes = self.scopes
        caller = self.fqn(path, scopes[s.parent].owner)
        line = s.line_start
        _, externals, walk = self.mro(path, cidx)
        for mp, mi in self.metaclasses(path, cidx):
            self.emit_methods(caller, mp, mi, "__new__", RES_IMPLICIT, line)
            self.emit_methods(caller, mp, mi, "__init__", RES_IMPLICIT, line)
        hook = self._first_binder(walk, "__init_subclass__", True)  # its own runs for its subclasses
        for v in self._class_value(hook, externals, "__init_subclass__"):
            if v[0] == VAL_FUNC:
                self.edge(caller, self.fqn(v[1], v[2]), RES_IMPLICIT, line)
        for name, bl in s.bindings.items():
            if any(b[0] == T_CALL for b in bl):  # quantity = Validated(): created by a call
                for m in self.descriptor_methods(self.eval_bindings(path, cidx, name), "__set_name__"):
                    self.edge(caller, self.fqn(m[0], m[1]), RES_IMPLICIT, line)
