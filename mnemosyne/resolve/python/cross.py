"""Parameter flow across modules (``CrossParams``): what other modules pass a parameter. For a
module-level function (or one a module-level decorator factory returns), its importers' call and
decorator sites; for a parameter a method stores (``self.cb = cb``), the importers' calls of the
method (of its class, for ``__init__``) and the decorator sites of the function it returns
(``@app.route(...)``); the extra values of a called parameter they give (``callee_cross_values``);
and the subclasses a classmethod calling ``cls(...)`` is called through, for its ``cls`` (``called_through``).
The other side of params.py's parameter flow, which asks it for called parameters only."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mnemosyne.parse.python import Scope
from mnemosyne.parse.python.tags import (
    SCOPE_CLASS,
    SCOPE_FUNCTION,
    T_ATTR,
    T_CALL,
    T_ITER,
    T_NAME,
    T_PARAM,
    T_STAR,
    T_TUPLE,
)
from mnemosyne.resolve.python import bounds
from mnemosyne.resolve.python.fixpoint import KEY_CROSS_PARAM, KEY_METHOD_CROSS, KEY_RECV_CROSS, Fixpoint
from mnemosyne.resolve.python.modules import CALLS_PREFIX
from mnemosyne.resolve.python.params import passes_nothing
from mnemosyne.resolve.python.values import VAL_CLASS, VAL_DISPLAY, VAL_FUNC, VAL_INST, VAL_SUPER

SUPER_NAME = (T_NAME, "super")  # the callee of ``super()``


class CrossParams(Fixpoint):
    """What other modules pass parameters (``cross_param``)."""

    __slots__ = ()

    def cross_param(self, path: str, fidx: int, i: int) -> frozenset:
        """Values other modules pass for parameter ``i`` of a module-level function (or of a
        function a module-level decorator factory returns): their ``f(...)`` / ``mod.f(...)``
        call sites and their decorator sites. Used for callees only (a parameter that is called,
        directly or as an element): the callback case. Makes the file depend on ``<calls>NAME``."""
        return self.memoized((KEY_CROSS_PARAM, path, fidx, i), False, self._cross_param, path, fidx, i)

    def _cross_param(self, path: str, fidx: int, i: int) -> set:
        f = self.hdr(path, fidx)
        out: set = set()
        mod = self.modname(path)
        module_level = f.kind == SCOPE_FUNCTION and f.parent == 0
        fp = self.hdr(path, f.parent) if f.parent >= 0 else None
        factory = f.kind == SCOPE_FUNCTION and f.parent > 0 and fp.kind == SCOPE_FUNCTION and fp.parent == 0  # type: ignore[union-attr]
        params = self.params_of(path, fidx)
        spec = self._param_spec(params, i)
        if module_level:
            nm = f.name
            pname = params[i][0]
            me = (VAL_FUNC, path, fidx)
            for q, sc, e in self.importer_sites(path, nm):
                fn = e[1]
                if fn[0] == T_ATTR and fn[1][0] != T_NAME:
                    continue  # obj.f(...) on a computed object: not a module function call
                if not spec[0] and passes_nothing(e, i, pname):
                    continue  # (nothing passed for it: the callee is not evaluated)
                if me in self.eval(q, sc, fn):
                    out |= self._arg_values(q, sc, e, i, pname, spec)
            out |= self.partial_args(path, fidx, "", i, pname, spec, cross=True)
        if i == 0 and (module_level or factory) and not spec[0]:
            names = [f.name] + ([fp.name] if factory else [])  # type: ignore[union-attr]
            where: set[str] = set()
            for nm in names:
                self.deps.add(CALLS_PREFIX + nm)
                where.update(q for q in self.importers_calling(mod, nm) if q != path)
            out |= self._decorated(path, fidx, sorted(where))
        elif fp is not None and f.kind == SCOPE_FUNCTION and f.parent > 0 and params[i][0] in self.stored_params(path):
            out |= self.stored_cross(path, fidx, i, f, fp)
        return out

    def stored_cross(self, path: str, fidx: int, i: int, f: Scope, fp: Scope) -> set:
        """What other modules pass parameter ``i`` of a method, or of a function a method returns,
        that stores it (``self.cb = cb``: ``stored_params``): the importers' calls of the method
        (of its class, for ``__init__``) after the bound receiver, their decorator sites
        ``@app.before_request`` for the method's first parameter after the receiver, and
        ``@app.route(...)`` for the first parameter of the function ``route`` returns."""
        mod = self.modname(path)
        out: set = set()
        if fp.kind == SCOPE_CLASS:
            deco = self.method_decorators(path, fidx)
            out |= self._method_site_args(path, fidx, i, f, fp, deco)
            if i == 1 and f.name not in ("__init__", "__call__") and not deco & {"staticmethod", "classmethod"}:
                # a bound method as the decorator (``@app.before_request``): the definitions
                where = sorted(q for q in self.importers_calling(mod, f.name) if q != path)
                out |= self._decorated(path, fidx, where)
        elif i == 0 and self._is_method(path, fp):
            where_set: set[str] = set()
            for nm in self.factory_names(path, f.parent):  # ``@app.route("/")``: route returns the function
                self.deps.add(CALLS_PREFIX + nm)
                where_set.update(q for q in self.importers_calling(mod, nm) if q != path)
            where = sorted(where_set)
            out |= self._decorated(path, fidx, where)
        return out

    def method_cross(self, path: str, fidx: int, i: int) -> frozenset:
        """What other modules pass parameter ``i`` of method ``fidx`` (``Report().render(Buffer())``
        in a module importing ``Report``'s: ``out`` is a Buffer there), after the bound receiver,
        and what they pass a parameter of a module-level function (or another method) that its own
        module's calls hand on to it (``def export(report, out): report.render(out)``); nothing for
        the receiver itself. Asked only for a parameter called or used as a call's object
        (``out.write(...)``: ``receiver_cross_values``), never for every parameter."""
        return self.memoized((KEY_METHOD_CROSS, path, fidx, i), False, self._method_cross, path, fidx, i)

    def _method_cross(self, path: str, fidx: int, i: int) -> set:
        f = self.hdr(path, fidx)
        if f.kind != SCOPE_FUNCTION or f.parent <= 0:
            return set()
        fp = self.hdr(path, f.parent)
        if fp.kind != SCOPE_CLASS or self.params_of(path, fidx)[i][1]:
            return set()  # (a ``*args`` / ``**kwargs`` parameter: not modelled across modules)
        return self._method_site_args(path, fidx, i, f, fp, self.method_decorators(path, fidx), bounds.CROSS_MAX_SITES)

    def _method_site_args(self, path: str, fidx: int, i: int, f: Scope, fp: Scope, deco: frozenset, cap: int = 0) -> set:
        """What the calls of method ``fidx`` (of its class ``fp``, for ``__init__``) pass for its
        parameter ``i`` after the bound receiver: the calls of the modules importing its module,
        and what other modules pass a parameter its own module's calls hand on (``forwarded``).
        Only the sites passing a name, an attribute, a lambda, a call's result or a splat there
        are evaluated (a literal is no object of the program); with ``cap``, nothing when there
        are more than ``cap`` sites (``bounds.CROSS_MAX_SITES``)."""
        params = self.params_of(path, fidx)
        pname, spec = params[i][0], self._param_spec(params, i)
        nm = fp.name if f.name == "__init__" else f.name
        me = (VAL_FUNC, path, fidx)
        out: set = set()
        sites = [*self.importer_sites(path, nm), *((path, sc, e) for sc, e in self.sites(path, nm))]
        if cap and len(sites) > cap:
            return out
        for q, sc, e in sites:
            if not any(self._may_pass_callable(e, j, pname, spec) for j in (i - 1, i)):
                continue  # (a literal, ...: the site is not evaluated)
            vals = self.eval(q, sc, e[1])
            recv: Any = ()
            if q == path and me not in vals and e[1][0] == T_ATTR and e[1][1][0] == T_NAME:
                # ``def export(report, out): report.render(out)``: report is what other modules pass
                recv = self.receiver_cross_values(path, sc, e[1][1])
                if any(me in self.getattr(b, e[1][2])[0] for b in recv):
                    vals = vals | {me}
            if me in vals:
                bound = "classmethod" in deco or (
                    "staticmethod" not in deco and e[1][0] == T_ATTR
                    and any(b[0] in (VAL_INST, VAL_SUPER) for b in (*self.eval(q, sc, e[1][1]), *recv))
                )
                offset = 1 if bound else 0
            elif f.name == "__init__" and any(
                v[0] == VAL_CLASS and me in self.class_lookup(v[1], v[2], "__init__") for v in vals
            ):
                offset = 1
            else:
                continue
            if i >= offset:
                if q != path:
                    out |= self._arg_values(q, sc, e, i - offset, pname, spec)
                else:  # (its own module's arguments are the parameter's own flow)
                    out |= self.forwarded(path, sc, self._arg_expr(e, i - offset, pname, spec))
        return out

    def receiver_cross_values(self, path: str, sc: int, e: Any) -> set:
        """What other modules pass the parameter that name ``e`` (the object of a call
        ``out.write(...)`` in scope ``sc``) is, when it is one of a module-level function
        (``cross_param``) or of a method other than its receiver (``method_cross``), not annotated
        (the annotation names its class: Flask's ``save_session(..., response: Response)`` would
        get every value ``process_response`` may hold, ``HTTPException`` instances too)."""
        if e[0] != T_NAME:
            return set()
        bs = self.binding_scope(path, sc, e[1])
        if bs is None or bs == 0:
            return set()
        out: set = set()
        for v in self.binds(path, bs, e[1]) or ():
            if v[0] == T_PARAM:
                out |= self.receiver_param(path, v[1], v[2])
        return out

    def receiver_param(self, path: str, fidx: int, i: int) -> frozenset:
        """``receiver_cross_values`` of parameter ``i`` of function ``fidx`` (memoised: asked at
        each call through it)."""
        return self.memoized((KEY_RECV_CROSS, path, fidx, i), False, self._receiver_param, path, fidx, i)

    def _receiver_param(self, path: str, fidx: int, i: int) -> set:
        if self.params_of(path, fidx)[i][2] is not None:
            return set()  # annotated (``response: Response``): its class, not a union of every caller's
        f = self.hdr(path, fidx)
        if f.kind == SCOPE_FUNCTION and f.parent == 0:
            if sum(1 for _ in self.importer_sites(path, f.name)) > bounds.CROSS_MAX_SITES:
                return set()  # (a popular module-level name: ``bounds.CROSS_MAX_SITES``)
        elif i == 0 and self._is_method(path, f):
            if "staticmethod" not in self.method_decorators(path, fidx):
                return set()  # the receiver itself (``self.m()``)
        return set(self.param_cross(path, fidx, i))

    def _is_method(self, path: str, f: Scope) -> bool:
        """``f`` is a function defined in a class body."""
        return f.kind == SCOPE_FUNCTION and f.parent > 0 and self.hdr(path, f.parent).kind == SCOPE_CLASS

    def param_cross(self, path: str, fidx: int, i: int) -> frozenset:
        """What other modules pass parameter ``i`` of function ``fidx``: ``cross_param`` for a
        module-level function (or a function a decorator factory returns, a stored parameter),
        also ``method_cross`` for a method's parameter after its receiver."""
        f = self.hdr(path, fidx)
        out = self.cross_param(path, fidx, i)
        if self._is_method(path, f):
            deco = self.method_decorators(path, fidx)
            if i > 0 or "staticmethod" in deco:
                out = out | self.method_cross(path, fidx, i)
        return out

    def forwarded(self, path: str, sc: int, a: Any) -> set:
        """What other modules pass a parameter that argument ``a`` (in scope ``sc``) hands on to a
        stored one, ``a`` being the name of a parameter of a module-level function, of a function a
        module-level decorator factory returns (``cross_param``), the first of a function a method
        returns (``def route(self, rule): def deco(f): self.add_url_rule(rule, f)``: the
        decorator sites ``@app.route("/")`` of the importing modules) or a method's other than its
        receiver (``method_cross``)."""
        if a is None or a[0] != T_NAME:
            return set()
        bs = self.binding_scope(path, sc, a[1])
        vals = self.binds(path, bs, a[1]) if bs else None
        if not vals or len(vals) != 1 or vals[0][0] != T_PARAM:
            return set()
        gidx, j = vals[0][1], vals[0][2]
        g = self.hdr(path, gidx)
        if g.kind != SCOPE_FUNCTION or g.parent < 0:
            return set()
        gp = self.hdr(path, g.parent) if g.parent > 0 else None
        if g.parent == 0 or (gp is not None and gp.kind == SCOPE_FUNCTION and gp.parent == 0):
            return set(self.cross_param(path, gidx, j))
        if j == 0 and gp is not None and self._is_method(path, gp):
            return self.stored_cross(path, gidx, j, g, gp)
        if gp is not None and gp.kind == SCOPE_CLASS and (j > 0 or "staticmethod" in self.method_decorators(path, gidx)):
            return set(self.method_cross(path, gidx, j))  # a method's parameter handed on
        return set()

    def importer_sites(self, path: str, nm: str) -> Iterator[tuple[str, int, Any]]:
        """(file, scope, call) of the calls named ``nm`` in the other files importing ``path``'s
        module; the file then depends on ``<calls>nm``."""
        self.deps.add(CALLS_PREFIX + nm)
        for q in self.importers_calling(self.modname(path), nm):
            if q != path:
                for sc, e in self.sites(q, nm):
                    yield q, sc, e

    def callee_cross_values(self, path: str, sc: int, fn: Any) -> set:
        """Extra values of a callee that is a parameter (or an element of a parameter) of a
        module-level function, passed from other modules (see ``cross_param``)."""
        if fn[0] != T_NAME:
            return set()
        bs = self.binding_scope(path, sc, fn[1])
        if bs is None or bs == 0:
            return set()
        out: set = set()
        for v in self.binds(path, bs, fn[1]) or ():
            if v[0] == T_PARAM:
                out |= self.param_cross(path, v[1], v[2])
            elif v[0] == T_ITER and v[1][0] == T_NAME:
                bs2 = self.binding_scope(path, bs, v[1][1])
                if bs2 is None or bs2 == 0:
                    continue
                for v2 in self.binds(path, bs2, v[1][1]) or ():
                    if v2[0] == T_PARAM:
                        for c in self.cross_param(path, v2[1], v2[2]):
                            if c[0] == VAL_DISPLAY:
                                disp = c[3]
                                elts = disp[1] if disp[0] == T_TUPLE else tuple(k for k, _ in disp[1])
                                for x in elts:
                                    out |= self.iter_values(c[1], c[2], x[1]) if x[0] == T_STAR else self.eval(c[1], c[2], x)
        return out

    def called_through(self, path: str, fidx: int, cidx: int) -> set:
        """The subclasses of class ``cidx`` a classmethod ``fidx`` of it is called through, for its
        ``cls`` (``Sub.create()`` running the inherited ``Base.create``: ``cls()`` makes a Sub),
        only when the method (or a function nested in it) calls ``cls(...)``: a subclass S that
        inherits it and that a call ``S.name(...)`` names (in S's module or a module importing
        it, by S's own name), or that overrides it and calls ``super().name(...)`` in its body.
        Makes the file depend on ``<calls>NAME`` when a subclass inherits it."""
        params = self.params_of(path, fidx)
        if not params:
            return set()
        cname = params[0][0]
        if not any(self._nested_in(path, sc, fidx) for sc, _e in self.sites(path, cname)):
            return set()
        name = self.hdr(path, fidx).name
        me = (VAL_FUNC, path, fidx)
        inherit: dict[str, set] = {}  # a subclass's name -> the subclasses so named inheriting the method
        out: set = set()
        files: set[str] = set()
        for sp, si in self.subclasses(path, cidx):
            c = (VAL_CLASS, sp, si)
            if me in self.getattr(c, name)[0]:
                inherit.setdefault(self.hdr(sp, si).name, set()).add(c)
                files.add(sp)
                self.deps.add(CALLS_PREFIX + name)  # (with the answer it records: a dependency alone is always stale)
                files.update(self.importers_calling(self.modname(sp), name))
            elif any(
                e[1][0] == T_ATTR and e[1][1][0] == T_CALL and e[1][1][1] == SUPER_NAME and self.hdr(sp, sc).parent == si
                for sc, e in self.sites(sp, name)
            ):  # its override calls super().name(...): cls is it there
                out.add(c)
        for q in sorted(files):
            for sc, e in self.sites(q, name):
                fn = e[1]
                if fn[0] == T_ATTR and fn[1][0] == T_NAME and fn[1][1] in inherit:
                    out |= inherit[fn[1][1]] & self.eval(q, sc, fn[1])
        return out

    def _nested_in(self, path: str, sc: int, fidx: int) -> bool:
        """Scope ``sc`` is function ``fidx`` or a function nested in it."""
        while sc > fidx:
            sc = self.hdr(path, sc).parent
        return sc == fidx

    def stored_init_cross(self, path: str, fidx: int, e: Any) -> set:
        """What other modules' ``C(x)`` calls pass for the object ``e`` (``self._out``) a method
        ``fidx`` of class C reads, when C's ``__init__`` stores it from a parameter (``self._out =
        out``): a ``__getattr__`` forwarding to it (``classes.delegated``) wraps their objects too
        (``OutputWrapper(StringIO())`` in a test: ``wrapper.getvalue()`` is the StringIO's)."""
        f = self.hdr(path, fidx)
        params = self.params_of(path, fidx)
        if e[0] != T_ATTR or not params or e[1] != (T_NAME, params[0][0]) or f.parent < 0:
            return set()
        cls = self.hdr(path, f.parent)
        out: set = set()
        for fi, v in self.iattrs(path, f.parent, e[2]):
            g = self.hdr(path, fi)
            if g.name != "__init__" or g.parent != f.parent or v[0] != T_NAME:
                continue
            bs = self.binds(path, fi, v[1]) or ()
            if len(bs) == 1 and bs[0][0] == T_PARAM and bs[0][1] == fi:
                out |= self.stored_cross(path, fi, bs[0][2], g, cls)
        return out
