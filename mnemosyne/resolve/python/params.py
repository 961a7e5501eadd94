"""Parameter flow of the Python resolver (``Params``): what a parameter holds (annotation, default,
receiver, the arguments of its module's call and decorator sites, callbacks; other modules' sites
for called parameters come from cross.py) and what decorators make of a function.

~725 lines, over the ~600 of the guide: parameter flow is one pass (each part reads the others'
memo keys), and splitting the per-subclass ``__init__`` argument sites out would add a mixin whose
methods call back into this one on every parameter asked. What other modules pass is in cross.py."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from mnemosyne.parse.anon import anonymous_context
from mnemosyne.parse.python import Scope
from mnemosyne.parse.python.derived import BOUND_ALIAS, CLASSMETHOD_ALIAS, COPYING_CALLS, RESULT_ALIAS, STATIC_ALIAS
from mnemosyne.parse.python.tags import (
    PARAM_DSTAR,
    PARAM_STAR,
    SCOPE_CLASS,
    SCOPE_FUNCTION,
    SCOPE_LAMBDA,
    SITES_ITEM,
    SITES_LAMBDA,
    T_ATTR,
    T_CALL,
    T_DEF,
    T_DICT,
    T_INT,
    T_ITEMS,
    T_LAMBDA,
    T_NAME,
    T_PARAM,
    T_STAR,
    T_STR,
    T_TUPLE,
    T_UNKNOWN,
    UNKNOWN,
)
from mnemosyne.resolve.python.fixpoint import (
    KEY_DECO_INPUT,
    KEY_METHOD_DECOS,
    KEY_PARAM_FLOW,
    KEY_WRAPPERS,
    Fixpoint,
)
from mnemosyne.resolve.python.known import CALLBACK_BUILTINS, METHOD_KINDS, PLAIN_DECORATORS, REDUCERS
from mnemosyne.resolve.python.modules import CALLS_PREFIX
from mnemosyne.resolve.python.values import (
    EMPTY,
    VAL_BUILTIN,
    VAL_CLASS,
    VAL_DISPLAY,
    VAL_EXT,
    VAL_FUNC,
    VAL_INST,
    VAL_SUPER,
    make_class,
    make_instance,
)

LITERAL_KEYS = (T_STR, T_INT)  # parse tags of the literals an index may select an item by
UNKNOWN_KEYS = frozenset({UNKNOWN})  # ``param_keys``: any key
PARAM_STARS = (PARAM_STAR, PARAM_DSTAR)  # a ``*args`` / ``**kwargs`` parameter
NAME_OR_ATTR = (T_NAME, T_ATTR)  # a decorator written as a name or an attribute
# ``stored_cross``: arguments that may be the program's callables (``View.as_view("v")``: a call's result)
CALLABLE_ARGS = (T_NAME, T_ATTR, T_LAMBDA, T_UNKNOWN, T_CALL)


class Params(Fixpoint):
    """What parameters hold; what decorators make of functions."""

    __slots__ = ()

    def param_values(self, path: str, fidx: int, i: int) -> frozenset:
        f = self.hdr(path, fidx)
        name, star, ann, default = self.params_of(path, fidx)[i]
        out: set = set()
        if star:
            # *args: a tuple of the extra positional arguments; **kwargs: a dict of the extra
            # keyword arguments (by the call sites; annotations name the items, not the container)
            return self.param_flow(path, fidx, i) if star in PARAM_STARS else EMPTY
        if ann is not None:
            out |= self.ann_values(path, f.parent, ann[1])
        if default is not None:
            out |= self.eval(path, f.parent, default)
        if i == 0 and f.kind == SCOPE_FUNCTION and f.parent >= 0 and self.hdr(path, f.parent).kind == SCOPE_CLASS and ann is None:
            deco = self.method_decorators(path, fidx)
            if "staticmethod" not in deco:
                cls = f.parent
                if f.name == "__init_subclass__":  # runs for each subclass, never for its own class
                    out.update(make_class(q, di) for q, di in self.subclasses(path, cls))
                elif "classmethod" in deco or f.name in ("__new__", "__class_getitem__"):
                    out.add(make_class(path, cls))
                    if "classmethod" in deco:  # Sub.create() running Base.create: cls() makes a Sub
                        out |= self.called_through(path, fidx, cls)
                else:
                    out.add(make_instance(path, cls))
                return frozenset(out)
        if i == 0 and ann is None and f.kind == SCOPE_LAMBDA and self.is_class_lambda(path, fidx, f):
            out.add(make_instance(path, f.parent))  # ``run = lambda self: self.step()`` in a class body
            return frozenset(out)
        out |= self.param_flow(path, fidx, i)
        return frozenset(out)

    def identity_result(self, path: str, idx: int, f: Any, e: Any) -> set | None:
        """The result of call ``e`` (in scope ``idx``) of function ``f`` when f returns one of its
        parameters as it is (``def ensure_sync(self, func): ...; return func``): what this call
        passes for it, plus what f's other returns give, not what every call passes (each call's
        result would be every caller's argument); None when f returns no parameter so, or when
        this call's argument for it is not known (a splat, ``**kwargs``)."""
        fp, fidx = f[1], f[2]
        pname = ""
        i = -1
        for r in self.rets(fp, fidx)[0]:
            if r[0] == T_NAME:
                bs = self.binds(fp, fidx, r[1])
                if bs and len(bs) == 1 and bs[0][0] == T_PARAM and bs[0][1] == fidx:
                    if pname and pname != r[1]:
                        return None
                    pname, i = r[1], bs[0][2]
        if not pname:
            return None
        s = self.hdr(fp, fidx)
        if s.is_generator:
            return None
        params = self.params_of(fp, fidx)
        _name, star, _ann, default = params[i]
        if star:
            return None
        offset = 0
        fn = e[1]
        if fn[0] == T_ATTR and s.parent >= 0 and self.hdr(fp, s.parent).kind == SCOPE_CLASS:
            deco = self.method_decorators(fp, fidx)
            if "staticmethod" not in deco and (
                "classmethod" in deco or any(b[0] in (VAL_INST, VAL_SUPER) for b in self.eval(path, idx, fn[1]))
            ):
                offset = 1
        if i < offset:
            return None
        spec = self._param_spec(params, i)
        a = self._arg_expr(e, i - offset, pname, spec)
        if a is None:
            if default is None:
                return None
            vals = self.eval(fp, s.parent, default)
        elif a == UNKNOWN:
            return None
        else:
            vals = self._arg_values(path, idx, e, i - offset, pname, spec)
        return set(vals | self.returns(fp, fidx, pname))

    def stored_param_values(self, path: str, fi: int, v: Any) -> frozenset:
        """What other modules pass the parameter that ``self.attr = v`` / ``self.attr[k] = v``
        (stored in function ``fi``) stores, when v is one (``self.cb = cb``: ``stored_cross``);
        only where the stored value is read back, not where the parameter is (a method returning
        its parameter would give every module's arguments at each call). ``list(v)`` / ``tuple(v)``
        (a copy of a parameter: structlog's ``self._processors = list(processors)``) is v's."""
        if v[0] == T_CALL and v[1] in COPYING_CALLS and len(v[2]) == 1 and not v[3] and v[2][0][0] == T_NAME:
            if (VAL_BUILTIN, v[1][1]) not in self.eval(path, fi, v[1]):
                return EMPTY
            v = v[2][0]
        if v[0] != T_NAME or v[1] not in self.stored_params(path):
            return EMPTY
        bs = self.binding_scope(path, fi, v[1])
        vals = self.binds(path, bs, v[1]) if bs else None
        if not vals or len(vals) != 1 or vals[0][0] != T_PARAM:
            return EMPTY
        f = self.hdr(path, vals[0][1])
        if f.kind != SCOPE_FUNCTION or f.parent <= 0:
            return EMPTY
        return self.cross_param(path, vals[0][1], vals[0][2])

    def is_class_lambda(self, path: str, fidx: int, f: Scope) -> bool:
        """Lambda ``fidx`` is bound by its class's body to a name (``run = lambda self: ...``): a
        method, whose first parameter is the instance (not ``staticmethod(lambda x: ...)``, nor a
        lambda passed as an argument there)."""
        if f.parent < 0 or self.hdr(path, f.parent).kind != SCOPE_CLASS:
            return False
        name = anonymous_context(f.name)
        if not name.isidentifier():
            return False
        return any(
            v[0] == T_LAMBDA and self.lambda_scope(path, v[1]) == fidx for v in self.binds(path, f.parent, name) or ()
        )

    # ------------------------------------------------------------------ parameter flow
    def param_flow(self, path: str, fidx: int, i: int, recv: tuple[str, int] | None = None) -> frozenset:
        """Values passed for parameter ``i`` of function ``fidx`` by the call sites and decorator
        sites of the function's own module (flow-insensitive). Call sites are found by the
        callee's last name, then checked by evaluating the callee. With ``recv`` (a class), for an
        ``__init__``: only the call sites that may make an instance of that class
        (``init_site_reaches``)."""
        if recv is None:
            return self.memoized((KEY_PARAM_FLOW, path, fidx, i), False, self._param_flow, path, fidx, i, None)
        return self.memoized((KEY_PARAM_FLOW, path, fidx, i, recv), False, self._param_flow, path, fidx, i, recv)

    def receiver_param_values(self, path: str, fidx: int, i: int, recv: tuple[str, int]) -> frozenset:
        """``param_values`` of parameter ``i`` of ``__init__`` ``fidx`` on an instance of class
        ``recv``: what the call sites that may make such an instance pass (``param_flow``)."""
        name, star, ann, default = self.params_of(path, fidx)[i]
        if i == 0 or star:
            return self.param_values(path, fidx, i)
        parent = self.hdr(path, fidx).parent
        out = set(self.param_flow(path, fidx, i, recv))
        if ann is not None:
            out |= self.ann_values(path, parent, ann[1])
        if default is not None:
            out |= self.eval(path, parent, default)
        return frozenset(out)

    def _param_flow(self, path: str, fidx: int, i: int, recv: tuple[str, int] | None) -> set:
        f = self.hdr(path, fidx)
        params = self.params_of(path, fidx)
        pname = params[i][0]
        spec = self._param_spec(params, i)
        me = (VAL_FUNC, path, fidx)
        out: set = set()
        is_method = f.kind == SCOPE_FUNCTION and f.parent >= 0 and self.hdr(path, f.parent).kind == SCOPE_CLASS
        deco = self.method_decorators(path, fidx) if is_method else set()
        in_class = f.parent >= 0 and self.hdr(path, f.parent).kind == SCOPE_CLASS
        bound_attrs: Sequence[str] = ()
        class_attrs: Sequence[str] = ()
        cls_names: list[str] = []
        if f.kind == SCOPE_FUNCTION or (f.kind == SCOPE_LAMBDA and not in_class):
            if f.kind == SCOPE_LAMBDA:  # its aliases' sites and the calls of lambda expressions
                names = [*self.alias_names(path, fidx, ""), SITES_LAMBDA, SITES_ITEM]
            elif is_method and f.name == "__init__":
                # the class's calls (and its aliases'), its subclasses' in the module (which may
                # inherit it), and ``super().__init__(...)`` / ``Base.__init__(self, ...)``
                cname = self.hdr(path, f.parent).name
                names = [cname, *self.alias_names(path, cname, cname), "__init__"]
                # (only a subclass whose name the module calls adds sites: the classes it calls by
                # a new name are checked one by one, not every subclass in the program searched)
                key = (path, f.parent)
                found = sorted(
                    di for n, dis in self.called_classes(path).items() if n not in names for di in dis
                    if key in self.mro(path, di)[0] and self.found_as_subclass(key, (path, di))
                )
                for di in found:
                    sname = self.hdr(path, di).name
                    if sname not in names:
                        names.append(sname)
            elif is_method:
                names = [f.name]  # an alias of a method may be bound or not: positions unknown
            else:  # (and calls of a subscript, ``HANDLERS[kind](x)``, which may hold it)
                names = [f.name, *self.alias_names(path, f.name, f.name), SITES_ITEM]
                # class attributes bound to it: ``callback = on_event``, ``self.callback(ev)`` passes
                # ev after the bound instance; ``helper = staticmethod(plain)`` from the first
                if f.parent == 0:
                    bound_attrs = self.aliases(path, BOUND_ALIAS + f.name)
                    class_attrs = self.aliases(path, CLASSMETHOD_ALIAS + f.name)
                    cls_names = [*bound_attrs, *class_attrs, *self.aliases(path, STATIC_ALIAS + f.name)]
                elif f.parent > 0 and self.hdr(path, f.parent).kind == SCOPE_FUNCTION:
                    # a closure its function returns, called through what a call of it is bound to
                    # (``h = make_handler("x"); h(ev)``, ``self.on = make_handler("y")``)
                    cls_names = list(self.aliases(path, RESULT_ALIAS + self.hdr(path, f.parent).name))
            via_param: list[str] = []
            if is_method:
                passed = self.is_passed(path, "." + f.name)
            else:
                passed = (f.kind == SCOPE_LAMBDA and self.is_passed(path, fidx)) or any(self.is_passed(path, n) for n in names)
            if not is_method and passed:
                # passed as an argument to a function that calls its parameter with arguments
                # (``def run(cb): cb(x)``): it gets them
                names += [n for n in self.param_calls(path) if n not in names]
            elif is_method and passed:
                # a method passed (``run(self.step)``: bound; a staticmethod) and called through
                # a parameter: ``cb(x)`` passes x after the bound receiver
                # (or held, ``{"a": self.on_a}``, and called as an item, ``self.handlers[k](x)``)
                via_param = [*(n for n in self.param_calls(path) if n not in names), SITES_ITEM]
            # (a parameter after the first, not ``*args`` / ``**kwargs``: a site passing it nothing at either
            # position it may have there, after a bound receiver or not, is not evaluated)
            plain = i > 0 and not spec[0]
            for nm in names + [n for n in cls_names if n not in names] + via_param:
                for sc, e in self.sites(path, nm):
                    if plain and passes_nothing(e, i - 1, pname):
                        continue
                    fn = e[1]
                    vals = self.eval(path, sc, fn)
                    offset = -1
                    if me in vals:
                        offset = 0
                        if nm in via_param:
                            offset = 0 if "staticmethod" in deco else 1
                        elif is_method and "staticmethod" not in deco and fn[0] == T_ATTR:
                            bases = self.eval(path, sc, fn[1])
                            if any(b[0] in (VAL_INST, VAL_SUPER) for b in bases) or "classmethod" in deco:
                                offset = 1
                        elif nm in bound_attrs and fn[0] == T_ATTR and fn[2] == nm and nm != f.name:
                            objs = {b for b in self.eval(path, sc, fn[1]) if b[0] == VAL_INST}
                            if objs:  # obj.callback(ev): bound to obj, its first parameter
                                offset = 1
                                if i == 0:
                                    out |= objs
                                    continue
                        elif nm in class_attrs and fn[0] == T_ATTR and fn[2] == nm and nm != f.name:
                            # Item.create(x) / item.create(x) with create = classmethod(make): the class first
                            owners = {make_class(b[1], b[2]) for b in self.eval(path, sc, fn[1]) if b[0] in (VAL_CLASS, VAL_INST)}
                            if owners:
                                offset = 1
                                if i == 0:
                                    out |= owners
                                    continue
                    elif f.name == "__init__":
                        for v in vals:
                            if v[0] == VAL_CLASS and me in self.class_lookup(v[1], v[2], "__init__"):
                                offset = 1
                    if offset < 0:
                        continue
                    if recv is not None and not self.init_site_reaches(path, sc, e, vals, offset, recv):
                        continue  # makes no instance of recv: not what recv's instances hold
                    out |= self._arg_values(path, sc, e, i - offset, pname, spec)
            if passed:  # given to a runner (``Thread(target=f, args=(x,))``, ``partial(f, x)``): its arguments
                kind = next((k for k in METHOD_KINDS if k in deco), "method") if is_method else ""
                out |= self.runner_args(path, fidx, kind, i, pname, spec)
                out |= self.partial_args(path, fidx, kind, i, pname, spec)
        if is_method and f.name == "__init__" and i > 0 and not spec[0] and self.is_enum(path, f.parent):
            out |= self.enum_init_args(path, f.parent, i)
        if spec[0]:
            return out  # a decorator's *args / **kwargs: not modelled
        if (f.kind == SCOPE_LAMBDA or not is_method) and (
            (f.kind == SCOPE_LAMBDA and self.is_passed(path, fidx)) or self.is_passed(path, f.name)
        ):
            out |= self.callback_items(path, fidx, i)
        elif is_method and self.is_passed(path, "." + f.name):
            # a method given to a builtin (``max(xs, key=self.score)``): the items after its
            # bound receiver (a staticmethod's from the first parameter)
            j = i if "staticmethod" in deco else i - 1
            if j >= 0:
                out |= self.callback_items(path, fidx, j)
        if i == 0 or (i == 1 and is_method and f.name not in ("__init__", "__call__") and "staticmethod" not in deco):
            out |= self._decorated(path, fidx, [path])  # (``@registry.add``: a bound method as the decorator)
        elif i == 1 and is_method and f.name in ("__init__", "__call__") and not deco & {"staticmethod", "classmethod"}:
            out |= self._decorated(path, fidx, [path], f.name)  # a class / an instance as decorator
        return out

    def enum_init_args(self, path: str, cidx: int, i: int) -> set:
        """What the members of enum class ``cidx`` pass parameter ``i`` of its ``__init__`` when
        the class is made: a member's tuple value its items (``ADD = ("+", add)``: ``__init__(self,
        symbol, fn)``), a call's value itself (``ADD = partial(add)``, for the first parameter
        after ``self``; a function assigned is no member)."""
        out: set = set()
        for nm in self.prefixed(path, cidx, ""):
            if nm.startswith("_"):
                continue
            for v in self.binds(path, cidx, nm) or ():
                if v[0] == T_TUPLE:
                    elts = v[1]
                    if i - 1 < len(elts) and not any(x[0] == T_STAR for x in elts[:i]):
                        out |= self.eval(path, cidx, elts[i - 1])
                elif i == 1 and v[0] == T_CALL:  # (a function assigned is a method, no member: ``partial(f)`` is)
                    out |= self.eval(path, cidx, v)
        return out

    def param_keys(self, path: str, fidx: int, i: int) -> frozenset:
        """The literals (``("str", s)`` / ``("int", n)``) parameter ``i`` of function ``fidx`` may
        hold, for a parameter used as an index: what every call site passes (its module's sites by
        the function's name or alias and, for a module-level function, the sites of the modules
        importing it), and a literal default; ``{("u",)}`` (unknown) when a site passes anything
        else, when there is no site, or when the function may be called from where its sites are
        not known (a method, a decorated or a passed function, a lambda). A key met again while
        being computed is unknown."""
        k = (path, fidx, i)
        r = self.keys_memo.get(k)
        if r is None:
            self.keys_memo[k] = UNKNOWN_KEYS
            r = self.keys_memo[k] = frozenset(self._param_keys(path, fidx, i))
        return r

    def _param_keys(self, path: str, fidx: int, i: int) -> frozenset:
        f = self.hdr(path, fidx)
        params = self.params_of(path, fidx)
        pname, star, _ann, default = params[i]
        if star or f.kind != SCOPE_FUNCTION or f.decorators or f.parent < 0 or self.hdr(path, f.parent).kind == SCOPE_CLASS:
            return UNKNOWN_KEYS
        names = [f.name, *self.alias_names(path, f.name, f.name)]
        if any(self.is_passed(path, n) for n in names):
            return UNKNOWN_KEYS  # passed on: called where its arguments are not known
        where = [(path, n) for n in (*names, SITES_ITEM)]  # (a subscript's calls may call it)
        if f.parent == 0:
            self.deps.add(CALLS_PREFIX + f.name)
            where += [(q, f.name) for q in self.importers_calling(self.modname(path), f.name) if q != path]
        spec = self._param_spec(params, i)
        me = (VAL_FUNC, path, fidx)
        out: set = set()
        if default is not None:
            if default[0] not in LITERAL_KEYS:
                return UNKNOWN_KEYS
            out.add(default)
        for q, nm in where:
            for sc, e in self.sites(q, nm):
                fn = e[1]
                if (q != path and fn[0] == T_ATTR and fn[1][0] != T_NAME) or me not in self.eval(q, sc, fn):
                    continue
                a = self._arg_expr(e, i, pname, spec)
                if a is None:
                    if default is None:
                        return UNKNOWN_KEYS
                    continue
                if a[0] == T_NAME:
                    a = self.constant(q, sc, a[1])
                if a[0] not in LITERAL_KEYS:
                    return UNKNOWN_KEYS
                out.add(a)
        return frozenset(out) if out else UNKNOWN_KEYS

    @classmethod
    def _may_pass_callable(cls, e: Any, j: int, pname: str, spec: tuple) -> bool:
        """Call ``e`` passes for the parameter at position ``j`` named ``pname`` a name, an
        attribute, a lambda or a call's result (what may be a function or an object of the
        program), a list / tuple / set display holding one, or an argument not known (a splat)."""
        if j < 0:
            return False
        a = cls._arg_expr(e, j, pname, spec)
        if a is not None and a[0] == T_TUPLE:  # [add_timestamp, render_json]: a display of such
            return any(x[0] in CALLABLE_ARGS or x[0] == T_STAR for x in a[1])
        return a is not None and a[0] in CALLABLE_ARGS

    @staticmethod
    def _arg_expr(e: Any, j: int, pname: str, spec: tuple) -> Any:
        """The argument expression call ``e`` passes for the parameter at position ``j`` named
        ``pname`` (None when it passes none), ``("u",)`` when a splat leaves it unknown."""
        args, kwargs = e[2], e[3]
        if not spec[1]:
            for k, a in enumerate(args):
                if a[0] == T_STAR:
                    return UNKNOWN
                if k == j:
                    return a
        for nm, a in kwargs:
            if nm == pname:
                return a
            if nm is None:
                return UNKNOWN
        return None

    def callback_items(self, path: str, fidx: int, i: int) -> set:
        """Argument ``i`` of function ``fidx`` (its parameter ``i``, after the receiver of a bound
        method) when a ``CALLBACK_BUILTINS`` call of its module passes it: the items of the (i-th,
        for ``map``) iterable; for ``functools.reduce(f, xs[, initial])`` (``REDUCERS``) the
        items of xs, and the initial value for the first parameter."""
        me = (VAL_FUNC, path, fidx)
        out: set = set()
        if i < 2:
            for name in REDUCERS:
                for sc, e in self.sites(path, name.rsplit(".", 1)[1]):
                    args = e[2]
                    if len(args) < 2 or any(a[0] == T_STAR for a in args[:3]) or (VAL_EXT, name) not in self.eval(path, sc, e[1]):
                        continue
                    if me in self.eval(path, sc, args[0]):
                        out |= self.iter_values(path, sc, args[1])
                        if i == 0 and len(args) > 2:
                            out |= self.eval(path, sc, args[2])
        for name, (_where, first) in CALLBACK_BUILTINS.items():
            if i > 0 and name != "map":
                continue
            for sc, e in self.sites(path, name):
                if (VAL_BUILTIN, name) not in self.eval(path, sc, e[1]):
                    continue
                a = self.callback_arg(e)
                if a is None or me not in self.eval(path, sc, a):
                    continue
                k = first + i
                if len(e[2]) > k and e[2][k][0] != T_STAR and not any(x[0] == T_STAR for x in e[2][:k]):
                    out |= self.iter_values(path, sc, e[2][k])
        return out

    def _decorated(self, path: str, fidx: int, where: list[str], method: str = "") -> set:
        """Definitions that decorator sites in ``where`` pass to function ``fidx`` (used as the
        decorator itself or returned by a decorator factory); with ``method`` (``__init__`` or
        ``__call__``), to that method of a class used as the decorator (``@Cls``) or of an
        instance a decorator factory returns (``@Cls(arg)``)."""
        f = self.hdr(path, fidx)
        me = (VAL_FUNC, path, fidx)
        if method:
            dnames = [self.hdr(path, f.parent).name]
            want = VAL_CLASS if method == "__init__" else VAL_INST
        else:
            dnames = [f.name]
            if f.parent > 0 and self.hdr(path, f.parent).kind == SCOPE_FUNCTION:
                dnames += self.factory_names(path, f.parent)  # a decorator factory's inner function
        out: set = set()
        for q in where:
            for nm in dnames:
                for de, didx in self.decos(q, nm):
                    dscope = self.hdr(q, didx).parent
                    if de[0] == T_CALL:
                        vals: set = set()
                        for fv in self.eval(q, dscope, de[1]):
                            vals |= self.call_result(q, dscope, fv, de)
                    else:
                        vals = set(self.eval(q, dscope, de))
                    if method:
                        hit = any(v[0] == want and me in self.class_lookup(v[1], v[2], method) for v in vals)
                    else:
                        hit = me in vals
                    if hit:
                        decorators = self.hdr(q, didx).decorators
                        for k, d in enumerate(decorators):
                            if d == de:
                                out |= self.deco_input(q, didx, k)
        return out

    def factory_names(self, path: str, fidx: int) -> list[str]:
        """The name of decorator factory ``fidx`` and, for a method, those of the other methods of
        its class that return a call of it by name (``def get(self, rule): return
        self.route(rule)``, also through one another): the names its decorator sites (``@app.get("/")``)
        may have, a pre-check by name (the sites are checked by evaluating them)."""
        f = self.hdr(path, fidx)
        names = [f.name]
        if f.parent < 0 or self.hdr(path, f.parent).kind != SCOPE_CLASS:
            return names
        cls = f.parent
        methods = [
            (nm, v[1]) for nm in self.prefixed(path, cls, "") if nm != f.name
            for v in self.binds(path, cls, nm) or () if v[0] == T_DEF and self.hdr(path, v[1]).kind == SCOPE_FUNCTION
        ]
        grew = True
        while grew:
            grew = False
            for nm, mi in methods:
                if nm not in names and any(
                    r[0] == T_CALL and r[1][0] in NAME_OR_ATTR and r[1][-1] in names for r in self.rets(path, mi)[0]
                ):
                    names.append(nm)
                    grew = True
        return names

    def deco_input(self, path: str, didx: int, k: int) -> frozenset:
        """What the ``k``-th decorator (outermost first) of scope ``didx`` is applied to: the
        definition itself for the innermost one, else what the decorator below it returns. A
        decorator whose result is known (an internal function or factory, a class, an instance
        with ``__call__``) gives its return values; one that is not (external, builtin,
        unresolved) is taken as transparent, as a decorated name keeps naming the function."""
        return self.memoized((KEY_DECO_INPUT, path, didx, k), False, self._deco_input, path, didx, k)

    def _deco_input(self, path: str, didx: int, k: int) -> set:
        s = self.hdr(path, didx)
        decorators = s.decorators
        if k + 1 >= len(decorators):
            return set(self.eval_binding(path, s.parent, (T_DEF, didx)))
        fvals = self.decorator_value(path, s.parent, decorators[k + 1])
        out: set = set()
        transparent = not fvals
        for v in fvals:
            if v[0] == VAL_FUNC:
                out |= self.returns(v[1], v[2])
            elif v[0] == VAL_CLASS:
                out.add(make_instance(v[1], v[2]))
            elif v[0] == VAL_INST:
                for m in self.class_lookup(v[1], v[2], "__call__"):
                    if m[0] == VAL_FUNC:
                        out |= self.returns(m[1], m[2])
            else:
                transparent = True
        if transparent:
            out |= self.deco_input(path, didx, k + 1)
        return out

    def decorator_value(self, path: str, scope: int, d: Any) -> set:
        """What decorator expression ``d`` (evaluated in ``scope``) is: for ``@factory(arg)``, what
        the factory returns."""
        if d[0] != T_CALL:
            return set(self.eval(path, scope, d))
        out: set = set()
        for fv in self.eval(path, scope, d[1]):
            out |= self.call_result(path, scope, fv, d)
        return out

    def wrappers(self, path: str, fidx: int, k: int = 0) -> frozenset:
        """What a call of decorated function ``fidx`` runs besides the function itself: the
        wrapper its decorators return (``def dec(f): def inner(): ...; return inner``; the one an
        instance's ``__call__`` returns for ``@Factory(arg)``), or an instance of a class used as
        the decorator (``@Cls``: calling the name runs ``Cls.__call__``). Taken from the outermost decorator
        ``k`` whose result is known; an external or unresolved one is transparent. A returned
        function counts only if it is defined inside the decorator (a closure made per
        application): a decorator returning its argument (``return f``) is an identity, and its
        flow-insensitive return values (every function it decorates) must not become targets."""
        return self.memoized((KEY_WRAPPERS, path, fidx, k), False, self._wrappers, path, fidx, k)

    def _wrappers(self, path: str, fidx: int, k: int) -> set:
        s = self.hdr(path, fidx)
        decorators = s.decorators
        if k >= len(decorators):
            return set()
        fvals = self.decorator_value(path, s.parent, decorators[k])
        out: set = set()
        known = False
        for v in fvals:
            if v[0] == VAL_FUNC:
                known = True
                out.update(self.closures(v[1], v[2]))
            elif v[0] == VAL_CLASS:
                known = True
                out.add((VAL_INST, v[1], v[2]))
            elif v[0] == VAL_INST:
                known = True
                for m in self.class_lookup(v[1], v[2], "__call__"):  # applied: what it returns
                    if m[0] == VAL_FUNC:
                        out.update(self.closures(m[1], m[2]))
        return out if known else set(self.wrappers(path, fidx, k + 1))

    def closures(self, path: str, fidx: int) -> list:
        """The wrappers decorator ``fidx`` returns: functions it returns that are defined inside
        it and do not themselves return such closures (a factory usable bare or with arguments,
        ``return decorator(f) if callable(f) else decorator``, also returns its ``decorator``)."""
        return [
            w for w in self.returns(path, fidx)
            if w[0] == VAL_FUNC and self.nested_in(w, path, fidx)
            and not any(r[0] == VAL_FUNC and self.nested_in(r, w[1], w[2]) for r in self.returns(w[1], w[2]))
        ]

    def nested_in(self, v: Any, path: str, fidx: int) -> bool:
        """Value ``v`` is a function defined (at any depth) inside function ``fidx`` of ``path``."""
        if v[1] != path:
            return False
        i = self.hdr(path, v[2]).parent
        while i > fidx:
            i = self.hdr(path, i).parent
        return i == fidx

    @staticmethod
    def _param_spec(params: Any, i: int) -> tuple[str, bool, frozenset]:
        """(star of parameter i, whether it is keyword-only because a ``*args`` precedes it, the
        names of the named parameters: what ``**kwargs`` does not receive)."""
        star = params[i][1]
        kwonly = False
        for p in params[:i]:
            if p[1] == PARAM_STAR:
                kwonly = True
                break
        named = frozenset(p[0] for p in params if not p[1]) if star == PARAM_DSTAR else EMPTY
        return star, kwonly, named

    def _arg_values(self, path: str, sc: int, e: Any, j: int, pname: str, spec: tuple = ("", False, EMPTY)) -> frozenset:
        """What call ``e`` (in scope ``sc``) passes for the parameter at position ``j`` (after
        the receiver) named ``pname``, of kind ``spec`` (``_param_spec``)."""
        args, kwargs = e[2], e[3]
        star, kwonly, named = spec
        if j < 0:
            return EMPTY
        if star == PARAM_STAR:
            if any(a[0] == T_STAR for a in args[:j]) or len(args) <= j:
                return EMPTY
            rest = args[j:]
            if any(a[0] == T_STAR for a in rest):  # a splat inside: its items, positions unknown
                disp: Any = (T_TUPLE, ((T_STAR, UNKNOWN), *((T_ITEMS, a[1]) if a[0] == T_STAR else a for a in rest)))
            else:
                disp = (T_TUPLE, tuple(rest))
            return frozenset({(VAL_DISPLAY, path, sc, disp)})
        if star == PARAM_DSTAR:
            items = tuple(((T_STR, nm), a) for nm, a in kwargs if nm is not None and nm not in named)
            return frozenset({(VAL_DISPLAY, path, sc, (T_DICT, items))}) if items else EMPTY
        if not kwonly:
            for k, a in enumerate(args):
                if a[0] == T_STAR:
                    inner = a[1]
                    if inner[0] == T_TUPLE and not any(x[0] == T_STAR for x in inner[1]):  # f(*[a, b]): spelled out
                        spelled = (e[0], e[1], (*args[:k], *inner[1], *args[k + 1 :]), e[3])
                        return self._arg_values(path, sc, spelled, j, pname, spec)
                    # f(*args): positions from here on are unknown, any item or later argument
                    out: set = set(self.iter_values(path, sc, inner))
                    for b in args[k + 1 :]:
                        out |= self.iter_values(path, sc, b[1]) if b[0] == T_STAR else self.eval(path, sc, b)
                    return frozenset(out | self._kwarg_values(path, sc, kwargs, pname))
                if k == j:
                    return self.eval(path, sc, a)
        return self._kwarg_values(path, sc, kwargs, pname)

    def _kwarg_values(self, path: str, sc: int, kwargs: Any, pname: str) -> frozenset:
        """What keyword arguments pass for ``pname``: ``pname=v``, or the ``pname`` item of a
        ``**mapping`` (a dict display, ``**kwargs`` forwarded from a caller's keywords)."""
        out: set = set()
        for nm, a in kwargs:
            if nm == pname:
                return self.eval(path, sc, a)
            if nm is None:
                for c in self.eval(path, sc, a):
                    if c[0] == VAL_DISPLAY and c[3][0] == T_DICT:
                        out |= self.container_item(c, (T_STR, pname))
        return frozenset(out)

    @staticmethod
    def decorator_names(s: Scope) -> set[str]:
        out = set()
        for d in s.decorators:
            if d[0] == T_NAME:
                out.add(d[1])
            elif d[0] == T_ATTR:
                out.add(d[2])
        return out

    def method_decorators(self, path: str, fidx: int) -> frozenset[str]:
        """``decorator_names`` of method ``fidx``, where a decorator that is a class of the program
        deriving from ``classmethod`` or ``staticmethod`` (Django's ``classonlymethod``) also counts
        as that builtin: its first parameter is the class, or no receiver."""
        return self.memoized((KEY_METHOD_DECOS, path, fidx), False, self._method_decorators, path, fidx)

    def _method_decorators(self, path: str, fidx: int) -> set[str]:
        s = self.hdr(path, fidx)
        names = self.decorator_names(s)
        for cp, ci in self.decorator_classes(path, s, s.decorators):
            names.update(x[1] for x in self.mro(cp, ci)[1] if x[0] == VAL_BUILTIN and x[1] in METHOD_KINDS)
        return names

    def decorator_classes(self, path: str, s: Scope, decorators: Iterable[Any]) -> Iterator[tuple[str, int]]:
        """The program classes that ``decorators`` of function scope ``s`` name (``@Name``,
        ``@mod.Name``; not the builtin and standard ones of ``PLAIN_DECORATORS``)."""
        for d in decorators:
            if d[0] not in NAME_OR_ATTR or (d[1] if d[0] == T_NAME else d[2]) in PLAIN_DECORATORS:
                continue
            for v in self.eval(path, s.parent, d):
                if v[0] == VAL_CLASS:
                    yield v[1], v[2]

    def is_self_param(self, path: str, idx: int, name: str) -> bool:
        """``name`` is the first parameter of method scope ``idx``."""
        s = self.hdr(path, idx)
        if s.kind != SCOPE_FUNCTION or s.parent < 0:
            return False
        params = self.params_of(path, idx)
        return bool(params) and params[0][0] == name and self.hdr(path, s.parent).kind == SCOPE_CLASS


def passes_nothing(e: Any, j: int, pname: str) -> bool:
    """Call ``e`` passes nothing for a parameter named ``pname`` at position ``j`` or later: fewer
    positional arguments, no splat, no ``pname=`` and no ``**mapping`` keyword."""
    args = e[2]
    if len(args) > j or any(a[0] == T_STAR for a in args):
        return False
    return all(nm is not None and nm != pname for nm, _a in e[3])
