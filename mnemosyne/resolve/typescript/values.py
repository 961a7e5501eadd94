"""The abstract values of the TypeScript resolver (what evaluating an expression gives) and the
helpers that combine them."""

from __future__ import annotations

# Values during evaluation (tuples):
#   ('func', fqn, path) | ('class', fqn, path) | ('inst', fqn, path) | ('obj', fqn, path)
#   | ('ns', fqn, path) | ('mod', path) | ('ext', import_path) | ('builtin', name) | ('null',) | None
#   | ('arr', element value | None): an array (T[], Array<T>, readonly T[]), None: of elements of unknown type
#   | ('extinst', import_path): an instance of an external class (`new axios.Axios()`, `c: AxiosInstance`)
#   | ('extm', callee): a member found on an external or builtin base class or instance; callable,
#     but nothing is looked up on it (`this.props.onClick()` is not `react.Component.props.onClick`)
#   | ('uni', values): one of several (a union type `A | B`; `x.m()` reaches each one's `m`)
#   | ('olit', path, scope, ((key, expr), ...)): an object literal passed as an argument
#   | ('bind', func value): ``f.bind``, which makes a function calling f (calling it is no call of f)
#   | ('alit', path, scope, (expr | None, ...)): an array literal (``[value, toggle]``), its
#     elements by position, evaluated where it was written


def union(vals: list, all_known: bool = False):
    """One value for several possible ones: the value itself when they agree, else
    ``('uni', values)``; None when none is known (or, with ``all_known``, when any is not)."""
    known: list = []
    for v in vals:
        if v is None:
            if all_known:
                return None
            continue
        for x in v[1] if v[0] == "uni" else (v,):
            if x not in known:
                known.append(x)
    if not known:
        return None
    return known[0] if len(known) == 1 else ("uni", tuple(known))


def alternatives(v) -> tuple:
    """The values ``v`` may be: its members for ``('uni', ...)``, none for None."""
    return () if v is None else v[1] if v[0] == "uni" else (v,)


def funcs(v) -> list:
    """The internal functions among the values ``v`` may be."""
    return [x for x in alternatives(v) if x[0] == "func"]
