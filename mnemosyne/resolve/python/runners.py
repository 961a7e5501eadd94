"""Runners in the Python resolver (``Runners``): external callables that call a function they are
given with arguments they are given (``threading.Thread(target=f, args=(x,))``,
``executor.submit(f, x)``, ``atexit.register(f, x)``; ``known.RUNNERS`` / ``METHOD_RUNNERS``; on the
items of an iterable, ``itertools.filterfalse(f, xs)``: ``ITEM_RUNNERS``), and
``functools.partial(f, x)``, which binds them. A runner's site is, for what it is given, a call
``f(x)`` written where the runner is called: the caller calls ``f`` (resolution ``implicit``), and
``f``'s parameters get the arguments. Also the implementations registered on a
``functools.singledispatch`` generic function, which its calls run, and what the standard
library's copies, casts and ``defaultdict`` give for the program's values (``library_result``)."""

from __future__ import annotations

from typing import Any

from mnemosyne.parse.python import Scope
from mnemosyne.parse.python.tags import (
    T_ATTR,
    T_AWITH,
    T_CALL,
    T_DICT,
    T_ITEMS,
    T_NAME,
    T_STAR,
    T_STR,
    T_TUPLE,
    T_WITH,
    UNKNOWN,
)
from mnemosyne.resolve.python.known import (
    CASTS,
    COPIES,
    DEFAULT_DICTS,
    DISPATCHER_NAMES,
    DISPATCHERS,
    ENTER_SUFFIXES,
    ITEM_RUNNER_NAMES,
    ITEM_RUNNERS,
    ITEM_STAR,
    ITEM_TWO,
    METHOD_RUNNERS,
    POOL_APPLY,
    POOL_CLASSES,
    POOL_MAP,
    POOL_METHODS,
    RECORD_COPIES,
    RECORD_MAKERS,
    RUNNER_NAMES,
    RUNNER_SITES,
    RUNNERS,
)
from mnemosyne.resolve.python.modules import CALLS_PREFIX
from mnemosyne.resolve.python.params import Params
from mnemosyne.resolve.python.values import (
    BOUND_KINDS,
    CALLABLE_KINDS,
    EMPTY,
    VAL_CLASS,
    VAL_EXT,
    VAL_EXT_MEMBER,
    VAL_FUNC,
    VAL_INST,
    make_display,
)


class Runners(Params):
    """The calls runners make of the functions they are given."""

    __slots__ = ()

    def runner_call(self, path: str, sc: int, e: Any, vals: frozenset) -> tuple[Any, bool] | None:
        """The call that call ``e`` (in scope ``sc``, its callee evaluating to ``vals``) makes
        or prepares of a function it is given, as a call expression ``(T_CALL, f, args, kwargs)``,
        and whether it runs it (``functools.partial`` does not); None when ``e`` is no runner."""
        fn, args, kwargs = e[1], e[2], e[3]
        spec = None
        if fn[0] == T_NAME or fn[0] == T_ATTR:
            last = fn[1] if fn[0] == T_NAME else fn[2]
            if last in RUNNER_NAMES:
                spec = next((RUNNERS[v[1]] for v in vals if v[0] == VAL_EXT and v[1] in RUNNERS), None)
            if (
                spec is None
                and fn[0] == T_ATTR
                and last in METHOD_RUNNERS
                and not any(v[0] in CALLABLE_KINDS for v in vals)
            ):
                at = METHOD_RUNNERS[last]
                spec = (at, at + 1, "", True)
            if spec is None and fn[0] == T_ATTR and last in POOL_METHODS:
                return self.pool_call(e, POOL_METHODS[last], vals)
            if spec is None and last in ITEM_RUNNER_NAMES:
                item = next((ITEM_RUNNERS[v[1]] for v in vals if v[0] == VAL_EXT and v[1] in ITEM_RUNNERS), None)
                return self.item_call(e, item) if item is not None else None
        if spec is None:
            return None
        where, pos, kw, runs = spec
        if isinstance(where, int):
            if len(args) <= where or any(a[0] == T_STAR for a in args[: where + 1]):
                return None
            f = args[where]
        else:
            f = next((a for k, a in kwargs if k == where), None)
            if f is None:
                return None
        if isinstance(pos, int):
            cargs = tuple(args[pos:])
        elif pos:
            seq = next((a for k, a in kwargs if k == pos), None)
            if seq is None:
                cargs = ()
            elif seq[0] == T_TUPLE:  # args=(x, y): spelled out
                cargs = tuple(seq[1])
            else:
                cargs = ((T_STAR, seq),)
        else:
            cargs = ()
        if kw:
            mapping = next((a for k, a in kwargs if k == kw), None)
            ckw: tuple = ((None, mapping),) if mapping is not None and mapping[0] == T_DICT else ()
        elif isinstance(where, int) and isinstance(pos, int):
            ckw = tuple(kwargs)  # the runner passes its keywords on
        else:
            ckw = ()
        return (T_CALL, f, cargs, ckw), runs

    @staticmethod
    def pool_call(e: Any, kind: str, vals: frozenset) -> tuple[Any, bool] | None:
        """The call ``pool.map(f, xs)`` (``e``, of a ``POOL_METHODS`` method of kind ``kind``, its
        callee evaluating to ``vals``) makes of ``f`` when ``vals`` has a member of one of
        ``POOL_CLASSES``: ``f(<item of xs>, <item of ys>)`` for ``POOL_MAP``, ``f(*<item of xs>)``
        for ``POOL_STARMAP``, ``f(*args, **kwds)`` for ``POOL_APPLY`` (by position or keyword)."""
        if not any(v[0] == VAL_EXT_MEMBER and v[1].rpartition(".")[0] in POOL_CLASSES for v in vals):
            return None
        args, kwargs = e[2], e[3]
        if not args or args[0][0] == T_STAR:
            return None
        f = args[0]
        if kind == POOL_MAP:
            rest = []
            for a in args[1:]:
                if a[0] == T_STAR:
                    break
                rest.append((T_ITEMS, a))
            return (T_CALL, f, tuple(rest), ()), True
        if kind != POOL_APPLY:  # starmap(f, [(a, b), ...])
            return (T_CALL, f, ((T_STAR, (T_ITEMS, args[1])),) if len(args) > 1 and args[1][0] != T_STAR else (), ()), True
        seq = args[1] if len(args) > 1 else next((a for k, a in kwargs if k == "args"), None)
        kwds = args[2] if len(args) > 2 else next((a for k, a in kwargs if k == "kwds"), None)
        if seq is None or seq[0] == T_STAR:
            cargs: tuple = ()
        else:
            cargs = tuple(seq[1]) if seq[0] == T_TUPLE else ((T_STAR, seq),)
        ckw = ((None, kwds),) if kwds is not None and kwds[0] == T_DICT else ()
        return (T_CALL, f, cargs, ckw), True

    @staticmethod
    def item_call(e: Any, item: tuple[int, str, int, str]) -> tuple[Any, bool] | None:
        """The call ``itertools.filterfalse(pred, xs)`` (``e``, of an ``ITEM_RUNNERS`` function
        described by ``item``) makes of the function it is given: ``pred(<item of xs>)``,
        ``f(<item>, <item>)`` for ``accumulate``, ``f(*<item>)`` for ``starmap``; None when the
        function or the iterable is not there (or behind a splat)."""
        at, kw, pos, how = item
        args, kwargs = e[2], e[3]
        stop = max(at, pos) + 1
        if any(a[0] == T_STAR for a in args[:stop]) or len(args) <= pos:
            return None
        f = args[at] if 0 <= at < len(args) else next((a for k, a in kwargs if kw and k == kw), None)
        if f is None:
            return None
        xs = (T_ITEMS, args[pos])
        if how == ITEM_STAR:
            cargs: tuple = ((T_STAR, xs),)
        elif how == ITEM_TWO:
            cargs = (xs, xs)
        else:
            cargs = (xs,)
        return (T_CALL, f, cargs, ()), True

    def runner_args(self, path: str, fidx: int, method: str, j: int, pname: str, spec: tuple) -> frozenset:
        """What the runner sites of module ``path`` pass function ``fidx`` for its parameter at
        position ``j`` named ``pname`` (of kind ``spec``, ``Params._param_spec``); ``method``:
        "" for a function, else the method's kind (``staticmethod``, ``classmethod``, or
        "method"), bound to its receiver when the runner is given ``obj.method``."""
        me = (VAL_FUNC, path, fidx)
        out: set = set()
        named = self.runner_memo.get(path)
        if named is None:
            named = self.runner_memo[path] = tuple(
                s for name in RUNNER_SITES for s in self.sites(path, name)
                if s[1][1][0] == T_ATTR or name not in POOL_METHODS or name in ITEM_RUNNER_NAMES
            )
        if named:
            for sc, e in named:
                rc = self.runner_call(path, sc, e, self.eval(path, sc, e[1]))
                if rc is None:
                    continue
                call = rc[0]
                if me not in self.eval(path, sc, call[1]):
                    continue
                f = call[1]
                k = j
                if (
                    method
                    and method != "staticmethod"
                    and f[0] == T_ATTR
                    and (method == "classmethod" or any(b[0] in BOUND_KINDS for b in self.eval(path, sc, f[1])))
                ):
                    k = j - 1  # obj.method: after the bound receiver
                out |= self._arg_values(path, sc, call, k, pname, spec)
        return frozenset(out) if out else EMPTY

    def partial_args(
        self, path: str, fidx: int, method: str, i: int, pname: str, spec: tuple, cross: bool = False
    ) -> frozenset:
        """What the later calls of the partial objects module ``path`` binds to names or attributes
        (``notify = partial(deliver, m)``, ``self.cb = partial(self.save, k)``; ``file_partials``)
        pass function ``fidx``'s parameter ``i`` (``runner_args``' other arguments): the sites by
        that name whose callee evaluates to the function, their arguments after the bound ones
        (and the bound receiver of ``method``). With ``cross``, the sites of the modules importing
        a name the module binds at module level, instead of the module's own."""
        f = self.hdr(path, fidx)
        entries = self.partials(path, "." + f.name if method else f.name)
        if not entries:
            return EMPTY
        me = (VAL_FUNC, path, fidx)
        shift = 1 if method and method != "staticmethod" else 0
        out: set = set()
        for name, bound, where in entries:
            if cross:
                if where != 0:
                    continue
                self.deps.add(CALLS_PREFIX + name)
                files = [q for q in self.importers_calling(self.modname(path), name) if q != path]
            else:
                files = [path]
            for q in files:
                for sc, e in self.sites(q, name):
                    if me in self.eval(q, sc, e[1]):
                        out |= self._arg_values(q, sc, e, i - shift - bound, pname, spec)
        return frozenset(out) if out else EMPTY

    def dispatch_impls(self, path: str, fidx: int, s: Scope) -> list[tuple[str, int]]:
        """The implementations registered on function ``fidx`` when a ``DISPATCHERS`` decorator
        makes it a generic function: ``@f.register`` / ``@f.register(T)`` definitions and
        ``f.register(T, impl)`` calls of its module (``s``: its header)."""
        for d in s.decorators:
            if d[-1] in DISPATCHER_NAMES or (d[0] == T_CALL and d[1][-1] in DISPATCHER_NAMES):
                break
        else:
            return []  # no decorator spelled like one (the common case: no evaluation)
        if not any(
            v[0] == VAL_EXT and v[1] in DISPATCHERS
            for d in s.decorators
            for v in self.eval(path, s.parent, d[1] if d[0] == T_CALL else d)
        ):
            return []
        me = (VAL_FUNC, path, fidx)
        out: set[tuple[str, int]] = set()
        for de, didx in self.decos(path, "register"):
            reg = de[1] if de[0] == T_CALL else de
            if reg[0] == T_ATTR and me in self.eval(path, self.hdr(path, didx).parent, reg[1]):
                out.add((path, didx))
        for sc, e in self.sites(path, "register"):
            fn = e[1]
            if fn[0] == T_ATTR and e[2] and e[2][-1][0] != T_STAR and me in self.eval(path, sc, fn[1]):
                out.update((v[1], v[2]) for v in self.eval(path, sc, e[2][-1]) if v[0] == VAL_FUNC)
        out.discard((path, fidx))
        return sorted(out)

    def library_result(self, path: str, idx: int, name: str, e: Any) -> set:
        """What call ``e`` of external name ``name`` gives, when it is one of ``COPIES``
        (``copy.copy(p)``: what p is), ``RECORD_COPIES`` / ``RECORD_MAKERS`` (``p._replace(x=1)`` /
        ``P._make(xs)``: an instance of p's class / of P), ``CASTS`` (``cast(Point, x)`` / ``cast("Point", x)``: an
        instance of Point) or ``DEFAULT_DICTS`` (``defaultdict(Bucket)``: a dict whose items at
        unknown keys are what calling Bucket gives), or an ``ExitStack``'s ``enter_context(cm)``
        (``ENTER_SUFFIXES``: what cm's ``__enter__`` returns)."""
        args = e[2]
        if name.endswith(ENTER_SUFFIXES):
            if len(args) != 1 or args[0][0] == T_STAR:
                return set()
            return set(self.eval_binding(path, idx, (T_WITH if name.endswith(".enter_context") else T_AWITH, args[0])))
        if name in COPIES:
            return set(self.eval(path, idx, args[0])) if args and args[0][0] != T_STAR else set()
        if name in RECORD_COPIES or name in RECORD_MAKERS:  # p._replace(x=1), P._make(xs): a P
            if e[1][0] != T_ATTR:
                return set()
            kind = VAL_INST if name in RECORD_COPIES else VAL_CLASS
            return {(VAL_INST, v[1], v[2]) for v in self.eval(path, idx, e[1][1]) if v[0] == kind}
        if name in CASTS:
            if len(args) != 2 or args[0][0] == T_STAR:
                return set()
            t = args[0]
            if t[0] == T_STR:  # cast("pkg.Point", x): the dotted name
                parts = t[1].split(".")
                if not all(p.isidentifier() for p in parts):
                    return set()
                t = (T_NAME, parts[0])
                for p in parts[1:]:
                    t = (T_ATTR, t, p)
            return set(self.ann_values(path, idx, (t,)))
        if name in DEFAULT_DICTS:  # the last of LIBRARY_RESULTS
            if not args or args[0][0] == T_STAR:
                return set()
            return {make_display(path, idx, (T_DICT, ((UNKNOWN, (T_CALL, args[0], (), ())),)))}
        return set()
