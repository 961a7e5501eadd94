"""What names and bindings evaluate to (``Names``): LEGB lookup, module attributes (star imports,
``__all__``, builtins), a binding's values, annotations."""

from __future__ import annotations

from typing import Any

from mnemosyne.parse.python.tags import (
    CTR_ITEMS,
    CTR_POSITIONS,
    SCOPE_CLASS,
    SCOPE_FUNCTION,
    T_ANN,
    T_AT,
    T_ATTR,
    T_AWITH,
    T_CALL,
    T_CLASS_OF,
    T_CONTAINER,
    T_DEF,
    T_DICT,
    T_EXC,
    T_IMPORT,
    T_IMPORT_FROM,
    T_INDEX,
    T_ITER,
    T_KEYED,
    T_NAME,
    T_PARAM,
    T_STAR,
    T_TUPLE,
    T_WITH,
    UNKNOWN,
    Expr,
)
from mnemosyne.resolve.python.fixpoint import KEY_BINDINGS, KEY_MODULE_ATTR, Fixpoint
from mnemosyne.resolve.python.hierarchy import SHARED_MODULE_ATTR
from mnemosyne.resolve.python.known import (
    ANY_TYPES,
    BUILTIN_NAMES,
    CONTEXT_MANAGERS,
    PASS_THROUGH_CMS,
    PASS_THROUGH_NAMES,
    SELF_TYPES,
)
from mnemosyne.resolve.python.values import (
    EMPTY,
    EXPR_ANN_ITEM,
    VAL_ALIAS,
    VAL_BUILTIN,
    VAL_BUILTIN_MAYBE,
    VAL_CLASS,
    VAL_DISPLAY,
    VAL_EXT,
    VAL_EXT_INST,
    VAL_EXT_MEMBER,
    VAL_FUNC,
    VAL_INST,
    VAL_PAIR,
    class_of,
    make_builtin,
    make_class,
    make_external,
    make_external_instance,
    make_func,
    make_instance,
    make_module,
)


class Names(Fixpoint):
    """What names and bindings evaluate to."""

    __slots__ = ()

    def lookup(self, path: str, idx: int, name: str) -> frozenset:
        """LEGB lookup of ``name`` used in scope ``idx`` of ``path``."""
        k = (path, idx, name)
        cur = self.lk_memo.get(k)
        if cur is None:
            cur = self.lk_memo[k] = self._lookup_scope(path, idx, name)
        if cur == 0:
            return self.module_name_lookup(path, name)
        return self.eval_bindings(path, cur, name)

    def _lookup_scope(self, path: str, idx: int, name: str) -> int:
        """The scope whose bindings of ``name`` a load in scope ``idx`` sees (0: module level)."""
        if path == self.path:  # own file: the same walk, without the recording accessors
            scopes = self.scopes
            if name in scopes[idx].globals:
                return 0
            cur = idx
            first = True
            while cur > 0:
                sc = scopes[cur]
                if (first or sc.kind != SCOPE_CLASS) and sc.bindings.get(name) is not None and name not in sc.nonlocals:
                    return cur
                first = False
                cur = sc.parent
            return 0
        if name in self.globs(path, idx).globals:
            return 0
        cur = idx
        first = True
        while cur > 0:
            sc = self.hdr(path, cur)
            if (
                (first or sc.kind != SCOPE_CLASS)
                and self.binds(path, cur, name) is not None
                and name not in self.globs(path, cur).nonlocals
            ):
                return cur
            first = False
            cur = sc.parent
        return 0

    def eval_bindings(self, path: str, idx: int, name: str) -> frozenset:
        key = (KEY_BINDINGS, path, idx, name)
        r = self.memo.get(key)  # the memo hit inline: a hot path (one call less)
        if r is not None:
            return r
        return self.memoized(key, True, self._eval_bindings, path, idx, name)

    def _eval_bindings(self, path: str, idx: int, name: str) -> set:
        out: set = set()
        for v in self.binds(path, idx, name) or ():
            out |= self.eval_binding(path, idx, v)
        return out

    def module_name_lookup(self, path: str, name: str) -> frozenset:
        """A name at module level of ``path``: bindings, star imports, builtins."""
        vals, found = self.module_attr(self.modname(path), name, path=path, for_name=True)
        if found:
            return vals
        return EMPTY

    def module_attr(self, mod: str, name: str, path: str | None = None, for_name: bool = False, depth: int = 0) -> tuple[frozenset, bool]:
        """Attribute ``name`` of internal module ``mod`` -> (values, found)."""
        key = (KEY_MODULE_ATTR, mod, name, for_name)
        hit = self.memo.get(key)
        if hit is not None:
            return hit, True
        if key in self.prov:
            return self.prov_hit(self.prov[key]), True
        if key in self.active:  # a cycle: not found
            return EMPTY, False
        if depth > 50:
            return EMPTY, False
        if path is None:
            path = self.mod_path(mod)
        if path is not None and path != self.path and not depth:
            # another module's attribute: a shared answer, computed once per index state
            # (``hierarchy.SHARED_MODULE_ATTR``); None when it fails: computed here, as before
            shared = self.ix.hierarchy.answer(self, SHARED_MODULE_ATTR, path, key, _shared_module_attr)
            if shared is not None:
                r, found, keep = shared
                if keep:
                    self.memo[key] = r
                return r, found
        return self.own_module_attr(key, path, depth)

    def own_module_attr(self, key: tuple, path: str | None, depth: int) -> tuple[frozenset, bool]:
        """``module_attr`` computed by this resolver (``key``: its memo key)."""
        _kind, mod, name, for_name = key
        self.serial = serial = self.serial + 1
        self.active[key] = serial
        self.lows.append(serial)
        r: frozenset = EMPTY
        found = keep = False
        try:
            r, found, keep = self._module_attr_of(path, mod, name, for_name, depth)
        finally:
            # a cycle through this key reads "not found" and is not settled: nothing rests on it
            self.finish(key, serial, r, keep)
        return r, found

    def shared_module_attr(self, path: str, key: tuple) -> tuple[frozenset, bool, bool] | None:
        """``SHARED_MODULE_ATTR``: ``module_attr`` of ``key`` (module ``key[1]``, defined by ``path``)
        computed by this shared resolver: (values, found, memoise?). None when it rested on a key
        being computed (a cycle through a key further out: the asker computes it itself)."""
        r, found = self.own_module_attr(key, path, 0)
        if key in self.prov:
            return None
        return r, found, key in self.memo

    def _module_attr_of(
        self, path: str | None, mod: str, name: str, for_name: bool, depth: int
    ) -> tuple[frozenset, bool, bool]:
        """(values, found, memoise?)"""
        if path is not None:
            if self.binds(path, 0, name) is not None:
                r = self.eval_bindings(path, 0, name)
                return r, True, True
            ext_stars: list[str] = []
            for smod, level in self.stars(path):
                am = self.absolute(path, smod, level)
                if am is None:
                    continue
                if self.is_internal(am):
                    if not self.exported(am, name):
                        continue
                    vals, found = self.module_attr(am, name, depth=depth + 1)
                    if found:
                        return vals, True, True
                elif not self.is_internal(am.split(".", 1)[0]):
                    ext_stars.append(am)
            if for_name:
                if name in BUILTIN_NAMES:
                    r = frozenset({(VAL_BUILTIN_MAYBE if ext_stars else VAL_BUILTIN, name)})
                    return r, True, True
                if len(ext_stars) == 1:
                    r = frozenset({make_external(f"{ext_stars[0]}.{name}")})
                    return r, True, True
                return EMPTY, False, False
        sub = f"{mod}.{name}" if mod else name
        if not for_name and self.is_internal(sub):
            r = frozenset({make_module(sub)})
            return r, True, True
        if for_name and name in BUILTIN_NAMES:
            return frozenset({make_builtin(name)}), True, False
        return EMPTY, False, False

    def exported(self, mod: str, name: str) -> bool:
        path = self.mod_path(mod)
        if path is None:
            return False
        names = self.all_names(path)
        if names is not None:
            return name in names
        return not name.startswith("_")

    # ------------------------------------------------------------------ binding values
    def eval_binding(self, path: str, idx: int, v: Any) -> frozenset:
        tag = v[0]
        if tag == T_DEF:
            s = self.hdr(path, v[1])
            return frozenset({make_class(path, v[1]) if s.kind == SCOPE_CLASS else make_func(path, v[1])})
        if tag == T_PARAM:
            return self.param_values(path, v[1], v[2])
        if tag == T_IMPORT:
            mod = self.rooted(path, v[1])
            if self.is_internal(mod):
                return frozenset({make_module(mod)})
            if self.is_internal(mod.split(".", 1)[0]):
                return EMPTY  # a missing module of one of the repository's packages
            return frozenset({make_external(mod)})
        if tag == T_IMPORT_FROM:
            _, module, name, level = v
            am = self.absolute(path, module, level, name)
            if am is None:
                return EMPTY
            if level == 0 and not self.is_internal(am):
                if self.is_internal(am.split(".", 1)[0]):
                    return EMPTY  # a missing module of one of the repository's packages
                return frozenset({make_external(f"{am}.{name}")})
            if not self.is_internal(am):
                return EMPTY
            vals, found = self.module_attr(am, name)
            if not vals:
                # ``from . import keys`` in ``pkg/__init__.py`` binds ``keys`` by importing the
                # submodule: the binding reads itself (a cycle, no value), and every
                # ``from pkg import keys`` elsewhere reads that binding; the submodule it is,
                # also when pkg has a ``__getattr__`` (which answers other names: a deprecated
                # ``__version__``, marshmallow's; package_getattr_submodules)
                sub = f"{am}.{name}" if am else name
                if self.is_internal(sub):
                    return frozenset({make_module(sub)})
            if not found and not name.startswith("__"):
                getattr_ = self.module_getattr(am)  # PEP 562: what lib.__getattr__ returns
                if getattr_:
                    return self._returns_of(getattr_)
            return vals
        if tag == T_ITER:
            return self.iter_values(path, idx, v[1])
        if tag == T_INDEX:
            out: set = set()
            for c in self.eval_binding(path, idx, v[1]):
                if c[0] == VAL_PAIR:  # (key, value) of dict.items(): only values are known
                    if v[2] == 1 or v[2] == -1:
                        out |= c[1]
                    continue
                if c[0] == VAL_DISPLAY and c[3][0] == T_TUPLE:
                    elts = c[3][1]
                    i = v[2]  # negative after a starred target: from the end
                    if -len(elts) <= i < len(elts) and not any(e[0] == T_STAR for e in elts):
                        out |= self.eval(c[1], c[2], elts[i])
            return frozenset(out)
        if tag == T_WITH or tag == T_AWITH:
            out = set()
            enter = "__enter__" if tag == T_WITH else "__aenter__"
            e = v[1]
            handed = self.handed_on(path, idx, e) if e[0] == T_CALL and e[1][-1] in PASS_THROUGH_NAMES else None
            if handed is not None:  # with closing(x) as y: y is x
                return self.eval(path, idx, handed)
            for c in self.eval(path, idx, v[1]):
                if c[0] == VAL_INST:
                    for m in self.class_lookup(c[1], c[2], enter):
                        if m[0] == VAL_FUNC:
                            out |= self.returns(m[1], m[2])
                elif c[0] == VAL_DISPLAY and self.is_context_generator(c):
                    for x in c[3][1][1:]:  # what a @contextmanager generator yields
                        out |= self.eval(c[1], c[2], x)
                elif c[0] == VAL_EXT_INST:  # with requests.Session() as s: an external class's __enter__ returns self
                    out.add(c)
            return frozenset(out)
        if tag == T_ANN:
            return self.ann_values(path, idx, v[1])
        if tag == T_AT:
            return self.eval_binding(path, v[1], v[2])
        if tag == T_KEYED:  # an item stored under a literal key
            return self.eval_binding(path, idx, v[2])
        if tag == T_EXC:
            out = set()
            for e in v[1]:
                for c in self.eval(path, idx, e):
                    if c[0] == VAL_CLASS:
                        out.add(make_instance(c[1], c[2]))
                    elif c[0] == VAL_EXT or c[0] == VAL_EXT_MEMBER:
                        out.add(make_external_instance(c[1]))
            return frozenset(out)
        return self.eval(path, idx, v)

    def handed_on(self, path: str, idx: int, e: Any) -> Any:
        """The argument ``x`` of ``e`` when ``e`` is ``closing(x)`` / ``nullcontext(x)``
        (``PASS_THROUGH_CMS``), a context manager whose ``with ... as y`` binds y to x; else None."""
        if e[0] != T_CALL or len(e[2]) != 1 or e[2][0][0] == T_STAR or (e[1][0] != T_NAME and e[1][0] != T_ATTR):
            return None
        if (e[1][1] if e[1][0] == T_NAME else e[1][2]) not in PASS_THROUGH_NAMES:
            return None
        return e[2][0] if any(v[0] == VAL_EXT and v[1] in PASS_THROUGH_CMS for v in self.eval(path, idx, e[1])) else None

    def is_context_generator(self, c: Any) -> bool:
        """``c`` is the generator object of a ``@contextlib.contextmanager`` (or
        ``asynccontextmanager``) function's call (``_returns``)."""
        _, path, fidx, disp = c
        s = self.hdr(path, fidx)
        if s.kind != SCOPE_FUNCTION or not s.is_generator or not s.decorators:
            return False
        if disp != (T_TUPLE, ((T_STAR, UNKNOWN), *self.rets(path, fidx)[2])):
            return False
        for d in s.decorators:
            for v in self.eval(path, s.parent, d):
                if v in CONTEXT_MANAGERS:
                    return True
        return False

    def ann_values(self, path: str, idx: int, exprs: tuple, depth: int = 0) -> frozenset:
        out: set = set()
        for e in exprs:
            if e[0] == T_CONTAINER:  # list[C], dict[str, C], Iterator[C]: a container of C instances
                if e[1] == CTR_POSITIONS:  # tuple[A, B]: by position
                    disp: Expr = (T_TUPLE, tuple((EXPR_ANN_ITEM, pos) for pos in e[2]))
                elif e[1] == CTR_ITEMS:
                    disp = (T_TUPLE, ((T_STAR, UNKNOWN), (EXPR_ANN_ITEM, e[2])))
                else:
                    disp = (T_DICT, ((UNKNOWN, (EXPR_ANN_ITEM, e[2])),))
                out.add((VAL_DISPLAY, path, idx, disp))
                continue
            as_class = e[0] == T_CLASS_OF
            if as_class:
                e = e[1]
            for c in self.eval(path, idx, e):
                if c[0] == VAL_CLASS:
                    out.add(c if as_class else (VAL_INST, c[1], c[2]))
                elif c[0] == VAL_ALIAS:  # a type alias (``Graph: TypeAlias = Dict[str, State]``)
                    if depth < 8:  # (aliases naming each other)
                        vals = self.ann_values(c[1], c[2], c[3], depth + 1)
                        out |= {class_of(v) for v in vals} - {None} if as_class else vals
                elif c[0] == VAL_EXT and c[1] in SELF_TYPES:
                    # typing.Self in a method's annotation: the class the method is defined in
                    if idx >= 0 and self.hdr(path, idx).kind == SCOPE_CLASS:
                        out.add((VAL_CLASS, path, idx) if as_class else (VAL_INST, path, idx))
                elif (c[0] == VAL_EXT or c[0] == VAL_EXT_MEMBER) and c[1] not in ANY_TYPES:  # (Any: not a class)
                    out.add((VAL_EXT, c[1]) if as_class else (VAL_EXT_INST, c[1]))
        return frozenset(out)


def _shared_module_attr(r: Names, path: str, key: tuple) -> tuple[frozenset, bool, bool] | None:
    return r.shared_module_attr(path, key)
