"""Tables derived from a parse result on first use (aliases, parameter calls, subclasses by base name,
attribute stores, partials), cached on the shared ``ParsedFile``."""

from __future__ import annotations

from typing import Any

from mnemosyne.parse.python.model import CALLABLE_KINDS, ParsedFile, Scope
from mnemosyne.parse.python.tags import (
    SCOPE_CLASS,
    SCOPE_FUNCTION,
    SITES_ITEM,
    T_AT,
    T_ATTR,
    T_CALL,
    T_DICT,
    T_IMPORT_FROM,
    T_INDEX,
    T_ITER,
    T_KEYED,
    T_LAMBDA,
    T_NAME,
    T_OR,
    T_PARAM,
    T_STAR,
    T_SUBSCRIPT,
    T_TUPLE,
)

# tags of a name or attribute; of what makes an alias
_NAME_ATTR_TAGS = frozenset({T_NAME, T_ATTR})
_ALIAS_TAGS = frozenset({T_NAME, T_LAMBDA, T_OR})
_DISPLAYS = (T_TUPLE, T_DICT)  # a tuple / list / set or a dict display
# ``ParsedFile.aliases`` keys of the class-body attributes bound to a function (``callback = on_event``:
# ``BOUND_ALIAS + "on_event"``, a method through an instance) or to ``staticmethod(f)`` (``STATIC_ALIAS``)
BOUND_ALIAS = "."
STATIC_ALIAS = ":"
CLASSMETHOD_ALIAS = "@"  # ``create = classmethod(make)``: the class first
# ... and of the names and attributes bound to a call of a function (``h = make_handler("x")``,
# ``self.on = make_handler("y")``: ``RESULT_ALIAS + "make_handler"``), which may hold the closure it returns
RESULT_ALIAS = "("
_METHOD_WRAPPERS = {"staticmethod": STATIC_ALIAS, "classmethod": CLASSMETHOD_ALIAS}  # builtin -> its alias key prefix


def file_aliases(pf: ParsedFile) -> dict[Any, tuple[str, ...]]:
    """``pf.aliases``, computed on first use (only files whose parameters are resolved need it;
    a deterministic function of the parse result, so caching it on the shared result is safe)."""
    r = pf.aliases
    if r is None:
        r = pf.aliases = _aliases(pf.scopes, pf.lambdas)
    return r


def file_param_calls(pf: ParsedFile) -> tuple[tuple[str, ...], frozenset[Any]]:
    """(``pf.param_calls``, ``pf.passed``), computed on first use like ``file_aliases``."""
    if pf.param_calls is None or pf.passed is None:
        pf.param_calls, pf.passed = _param_calls(pf.scopes, pf.lambdas)
    return pf.param_calls, pf.passed


#: calls of builtins copying an iterable (``list(processors)``): a stored copy of a parameter is
#: stored like the parameter (``file_stored_params``; the resolver's ``stored_param_values``)
COPYING_CALLS = frozenset({(T_NAME, "list"), (T_NAME, "tuple")})


def file_stored_params(pf: ParsedFile) -> frozenset[str]:
    """``pf.stored_params``: names of parameters stored by their own function through an attribute
    (``self.cb = cb``, ``self.views[rule] = view``, ``self.hooks.append(hook)``, a copy ``list(hooks)``, in a list stored as an
    item: ``self.hooks.setdefault(k, []).append(hook)``) that the file
    calls: ``x.cb(...)``, ``x.views[k](...)``, or iterated, ``for h in x.hooks`` (computed on first use)."""
    r = pf.stored_params
    if r is None:
        called = _called_attrs(pf)
        out: set[str] = set()
        for s in pf.scopes:
            if s.kind not in CALLABLE_KINDS or not (s.attr_stores or s.attr_item_stores):
                continue
            names = {p[0] for p in s.params}
            for _base, attr, v in (*s.attr_stores, *s.attr_item_stores):
                if v[0] == T_KEYED:  # (stored under a literal key)
                    v = v[2]
                if v[0] == T_TUPLE and len(v[1]) == 1:  # ``self.hooks.setdefault(k, []).append(hook)``: a list of it
                    v = v[1][0]
                elif v[0] == T_CALL and v[1] in COPYING_CALLS and len(v[2]) == 1 and not v[3]:
                    v = v[2][0]  # ``self._processors = list(processors)``: a copy of it
                if v[0] == T_NAME and v[1] in names and attr in called:
                    out.add(v[1])
        r = pf.stored_params = frozenset(out)
    return r


def _called_attrs(pf: ParsedFile) -> set[str]:
    """Attribute names the file calls (``x.cb()``), calls an item of (``x.views[k]()``, also through
    a call or a name: ``ensure_sync(x.views[k])()``, ``f = x.views[k]; f()``) or iterates (``for h
    in x.hooks``, also an item or a method's result: ``x.hooks[k]``, ``x.hooks.get(k, ())``)."""
    out = set(pf.sites_by_name)
    for _sc, e in pf.sites_by_name.get(SITES_ITEM, ()):
        base = e[1][1]
        if base[0] == T_ATTR:
            out.add(base[2])
    scopes = pf.scopes
    for s in scopes:
        for it in s.iters:
            e = it[0]
            while e[0] == T_CALL or e[0] == T_SUBSCRIPT:  # ``for h in x.hooks.get(k, ())``, ``x.hooks[k]``
                e = e[1]
            while e[0] == T_ATTR:  # (the attribute and those it is read through: a pre-check by name)
                out.add(e[2])
                e = e[1]
        for c, _line, _flag, sc in s.calls:
            # an item handed to a call (``ensure_sync(x.views[k])``), called as a call's result
            # (``x.views.get(k)()``) or through a name bound to it (``f = x.views[k]; f()``)
            for a in (c[1], *c[2], *(kv[1] for kv in c[3])):
                if a[0] == T_SUBSCRIPT or a[0] == T_CALL:
                    attr = _item_attr(a)
                    if attr:
                        out.add(attr)
            if c[1][0] == T_NAME:
                cur = sc
                while cur >= 0:
                    vals = scopes[cur].bindings.get(c[1][1]) if scopes[cur].kind != SCOPE_CLASS else None
                    if vals is not None:
                        for v in vals:
                            if v[0] == T_SUBSCRIPT or v[0] == T_CALL:
                                attr = _item_attr(v)
                                if attr:
                                    out.add(attr)
                        break
                    cur = scopes[cur].parent
    return out


def _item_attr(e: Any) -> str:
    """``x.attr[k]`` / ``x.attr.get(k)`` (``pop``, ``setdefault``): "attr", else ""."""
    if e[0] == T_SUBSCRIPT and e[1][0] == T_ATTR:
        return str(e[1][2])
    if e[0] == T_CALL and e[1][0] == T_ATTR and e[1][2] in ("get", "pop", "setdefault") and e[1][1][0] == T_ATTR:
        return str(e[1][1][2])
    return ""


def file_subclasses(pf: ParsedFile) -> dict[str, tuple[int, ...]]:
    """``pf.subclasses``, computed on first use like ``file_aliases``."""
    r = pf.subclasses
    if r is None:
        out: dict[str, list[int]] = {}
        module = pf.scopes[0].bindings if pf.scopes else {}
        for i, s in enumerate(pf.scopes):
            if s.kind == SCOPE_CLASS:
                for b in s.bases:
                    names = {base_last_name(b)}
                    if b[0] == T_NAME:  # `from m import Base as B` / `B = Base`; class D(B)`: also under Base
                        todo, seen = [b[1]], {b[1]}
                        while todo:  # through chains of aliases (B = A; from m import Base as A)
                            for v in module.get(todo.pop(), ()):
                                nm = v[2] if v[0] == T_IMPORT_FROM else base_last_name(v) if v[0] in _NAME_ATTR_TAGS else None
                                if nm is not None:
                                    names.add(nm)
                                    if v[0] == T_NAME and nm not in seen:
                                        seen.add(nm)
                                        todo.append(nm)
                    for nm in names:
                        if nm is not None and i not in out.get(nm, ()):
                            out.setdefault(nm, []).append(i)
        r = pf.subclasses = {k: tuple(v) for k, v in out.items()}
    return r


def file_called_classes(pf: ParsedFile) -> dict[str, tuple[int, ...]]:
    """``pf.called_classes``, computed on first use like ``file_aliases``: the file's classes (at
    any depth) whose name is also a callee's last name in its call sites, by name."""
    r = pf.called_classes
    if r is None:
        sites = pf.sites_by_name
        out: dict[str, list[int]] = {}
        for i, s in enumerate(pf.scopes):
            if s.kind == SCOPE_CLASS and s.name in sites:
                out.setdefault(s.name, []).append(i)
        r = pf.called_classes = {k: tuple(v) for k, v in out.items()}
    return r


def file_member_classes(pf: ParsedFile) -> dict[str, tuple[int, ...]]:
    """``pf.member_classes``, computed on first use like ``file_aliases``: the file's classes whose
    body binds a name (``bindings``) or assigns ``self.name`` (``inst_attrs``), by name."""
    r = pf.member_classes
    if r is None:
        out: dict[str, list[int]] = {}
        for i, s in enumerate(pf.scopes):
            if s.kind == SCOPE_CLASS:
                for n in s.bindings.keys() | s.inst_attrs.keys():
                    out.setdefault(n, []).append(i)
        r = pf.member_classes = {k: tuple(v) for k, v in out.items()}
    return r


def file_attr_stores(pf: ParsedFile) -> dict[tuple[str, str], tuple[tuple[int, Any], ...]]:
    """``pf.attr_stores``, computed on first use like ``file_aliases``."""
    r = pf.attr_stores
    if r is None:
        out: dict[tuple[str, str], list[tuple[int, Any]]] = {}
        for i, s in enumerate(pf.scopes):
            for base, attr, v in s.attr_stores:
                out.setdefault((base, attr), []).append((i, v))
        r = pf.attr_stores = {k: tuple(v) for k, v in out.items()}
    return r


# the last names of ``functools.partial`` and ``types.MethodType`` at a binding (``file_partials``)
PARTIALS = frozenset({"partial", "MethodType"})


def file_partials(pf: ParsedFile) -> dict[str, tuple[tuple[str, int, int], ...]]:
    """``pf.partials``, computed on first use like ``file_aliases``: the names and attributes bound
    to ``partial(f, a, ...)`` or ``MethodType(f, obj)`` (spelled so or ``x.partial``, f a name or
    an attribute, no ``*args``), by f's name."""
    r = pf.partials
    if r is None and not any(n in pf.sites_by_name for n in PARTIALS):
        r = pf.partials = {}  # no call spelled like one: nothing bound (the common case: no walk)
    if r is None:
        out: dict[str, list[tuple[str, int, int]]] = {}

        def add(name: str, v: Any, i: int) -> None:
            if v[0] == T_OR:
                for x in v[1]:
                    add(name, x, i)
                return
            if v[0] != T_CALL:
                return
            fn, args = v[1], v[2]
            if not args or not ((fn[0] == T_NAME and fn[1] in PARTIALS) or (fn[0] == T_ATTR and fn[2] in PARTIALS)):
                return
            f = args[0]
            key = f[1] if f[0] == T_NAME else "." + f[2] if f[0] == T_ATTR else None
            if key is not None and not any(a[0] == T_STAR for a in args):
                out.setdefault(key, []).append((name, len(args) - 1, i))

        for i, s in enumerate(pf.scopes):
            for name, vals in s.bindings.items():
                for v in vals:
                    add(name, v, i)
            for _base, attr, v in s.attr_stores:
                add(attr, v, i)
        r = pf.partials = {k: tuple(v) for k, v in out.items()}
    return r


def base_last_name(e: Any) -> str | None:
    """The name a base-class expression ends with: ``Base``, ``pkg.Base``, ``Base[T]`` -> ``Base``;
    None for anything else (a call such as ``with_metaclass(M, Base)``)."""
    for _ in range(8):
        t = e[0]
        if t == T_NAME:
            return e[1]
        if t == T_ATTR:
            return e[2]
        if t != T_SUBSCRIPT:
            return None
        e = e[1]
    return None


def _aliases(scopes: list[Scope], lambdas: dict[int, int]) -> dict[Any, tuple[str, ...]]:
    """``ParsedFile.aliases``: bindings (outside class bodies, where a function would become a
    bound method) and attribute stores whose value is a plain name or a lambda, or any of them;
    and, under ``BOUND_ALIAS`` / ``STATIC_ALIAS`` / ``CLASSMETHOD_ALIAS`` + a name, the class-body
    attributes bound to it (as it is, ``staticmethod(f)``, ``classmethod(f)``),
    under ``RESULT_ALIAS`` + a name the names and attributes bound to a call of it."""
    out: dict[Any, dict[str, None]] = {}

    def add(name: str, v: Any) -> None:
        t = v[0]
        if t == T_NAME:
            k: Any = v[1]
        elif t == T_LAMBDA:
            k = lambdas.get(v[1])
            if k is None:
                return
        elif t == T_OR:
            for x in v[1]:
                add(name, x)
            return
        else:
            return
        if k != name:
            d = out.get(k)
            if d is None:
                d = out[k] = {}
            d[name] = None

    for s in scopes:
        if s.kind != SCOPE_CLASS:
            for name, vals in s.bindings.items():
                for v in vals:
                    if v[0] in _ALIAS_TAGS:
                        add(name, v)
        else:  # ``callback = on_event`` (bound through an instance), ``helper = staticmethod(plain)``
            for name, vals in s.bindings.items():
                for v in vals:
                    if v[0] == T_NAME:
                        out.setdefault(BOUND_ALIAS + v[1], {})[name] = None
                    elif v[0] == T_CALL and v[1][0] == T_NAME and v[1][1] in _METHOD_WRAPPERS and len(v[2]) == 1 and v[2][0][0] == T_NAME:
                        out.setdefault(_METHOD_WRAPPERS[v[1][1]] + v[2][0][1], {})[name] = None
        for _base, attr, v in s.attr_stores:
            if v[0] in _ALIAS_TAGS:
                add(attr, v)
            elif v[0] == T_CALL and v[1][0] == T_NAME:
                out.setdefault(RESULT_ALIAS + v[1][1], {})[attr] = None
        if s.kind != SCOPE_CLASS:
            for name, vals in s.bindings.items():
                for v in vals:
                    if v[0] == T_CALL and v[1][0] == T_NAME:
                        out.setdefault(RESULT_ALIAS + v[1][1], {})[name] = None
    return {k: tuple(d) for k, d in out.items()}


def _param_calls(scopes: list[Scope], lambdas: dict[int, int]) -> tuple[tuple[str, ...], frozenset[Any]]:
    """``ParsedFile.param_calls``: names called as ``name(...)`` where name is a parameter of the
    function or lambda the call sits in (or of an enclosing one that binds it), or a loop
    variable there (``for h in hooks: h(x)``, also in the module); and ``ParsedFile.passed``: the
    names and lambdas passed as they are for a call's argument, or held by a container (an
    element of a display passed, iterated, bound, stored or returned, ``[step_a]``; an item
    stored, ``REGISTRY[k] = fn``, ``hooks.append(fn)``), or decorated (the decorator is passed
    the function), and ``"." + attr`` for attributes passed (``run(self.step)``: a bound method,
    maybe) or held through a method's first parameter (``{"a": self.on_a}``)."""
    out: dict[str, None] = {}
    passed: set[Any] = set()

    me = ""  # the first parameter of the method being scanned: ``self.on_a`` is a bound method

    def held(e: Any) -> None:  # the names, lambdas and bound methods a display holds (as they are)
        while e[0] == T_AT or e[0] == T_KEYED:  # (stored from a nested scope, under a key)
            e = e[2]
        if e[0] == T_TUPLE:
            items: Any = e[1]
        elif e[0] == T_DICT:
            items = [kv[1] for kv in e[1]]
        else:
            items = (e,)
        for x in items:
            if x[0] == T_NAME:
                passed.add(x[1])
            elif x[0] == T_LAMBDA:
                passed.add(lambdas.get(x[1]))
            elif x[0] == T_ATTR and me and x[1] == (T_NAME, me):
                passed.add("." + x[2])

    for s in scopes:
        me = s.params[0][0] if s.kind == SCOPE_FUNCTION and s.params and scopes[s.parent].kind == SCOPE_CLASS else ""
        if s.decos:
            for _d, didx, _line in s.decos:
                d = scopes[didx]
                if d.kind == SCOPE_FUNCTION and scopes[d.parent].kind != SCOPE_CLASS:
                    passed.add(d.name)
        for it in s.iters:
            if it[0][0] in _DISPLAYS:
                held(it[0])
        for bvals in s.bindings.values():
            for v in bvals:
                if v[0] in _DISPLAYS:
                    held(v)
        for ivals in s.item_bindings.values():
            for v in ivals:
                held(v)
        for _b, _attr, v in (*s.attr_stores, *s.attr_item_stores):
            held(v)
        for r in s.returns:
            if r[0] in _DISPLAYS:
                held(r)
        for e, _line, _flag, sc in s.calls:
            for a in (*e[2], *(kv[1] for kv in e[3])):
                if a[0] == T_NAME:
                    passed.add(a[1])
                elif a[0] == T_LAMBDA:
                    passed.add(lambdas.get(a[1]))
                elif a[0] == T_ATTR:  # a bound method passed (``run(self.step)``): "." + its name
                    passed.add("." + a[2])
                elif a[0] in _DISPLAYS:
                    held(a)
            fn = e[1]
            if fn[0] != T_NAME or fn[1] in out:
                continue
            name = fn[1]
            cur = sc
            while cur >= 0:
                c = scopes[cur]
                vals = c.bindings.get(name) if c.kind != SCOPE_CLASS else None
                if vals is not None:
                    if (c.kind in CALLABLE_KINDS and any(v[0] == T_PARAM for v in vals)) or any(
                        v[0] == T_ITER or (v[0] == T_INDEX and v[1][0] == T_ITER) for v in vals
                    ):
                        out[name] = None
                    break
                cur = c.parent
    passed.discard(None)
    return tuple(out), frozenset(passed)
