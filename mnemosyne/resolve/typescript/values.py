"""The abstract values of the TypeScript resolver (what evaluating an expression gives), the
flags recording how a value was reached, and the helpers that combine values.

A value is a tuple whose first item is one of the ``V_*`` tags below (or None: not known). The
tags are this resolver's own vocabulary: the parser's expression, binding and member tags
(``mnemosyne.parse.typescript``) are another, although a few strings coincide (``'alit'``,
``'olit'``, ``'null'``: an expression evaluates to the value of the same name).
docs/resolve-typescript.md lists every tag.
"""

from __future__ import annotations

from typing import Any, TypeAlias

# an abstract value: (V_* tag, ...) as below; None where a value is not known
Value: TypeAlias = tuple[Any, ...] | None

V_FUNC = "func"  # ('func', fqn, path): an internal function or method
V_CLASS = "class"  # ('class', fqn, path): an internal class (the class itself, not an instance)
V_INST = "inst"  # ('inst', fqn, path): an instance of an internal class
V_OBJ = "obj"  # ('obj', fqn, path): a named object literal (``const api = { ... }``)
V_NS = "ns"  # ('ns', fqn, path): a TypeScript namespace
V_MOD = "mod"  # ('mod', path): a module's namespace (``import * as m``, ``require``, ``exports``)
V_CJSMODULE = "cjsmodule"  # ('cjsmodule', path): CommonJS ``module`` (its ``exports`` is the module)
V_EXT = "ext"  # ('ext', import_path): an external name (``react.useState``)
V_EXTINST = "extinst"  # ('extinst', import_path): an instance of an external class (``c: AxiosInstance``)
# ('extm', callee): a member found on an external or builtin base class or instance; callable, but
# nothing is looked up on it (``this.props.onClick()`` is not ``react.Component.props.onClick``)
V_EXTM = "extm"
V_BUILTIN = "builtin"  # ('builtin', name): a global of the runtime (``Map``, ``JSON.parse``)
V_NULL = "null"  # ('null',): null / undefined: drops out of the values a name may hold
# ('arr', element value | None): an array (``T[]``, ``Array<T>``); None: of elements of unknown type
V_ARR = "arr"
# ('alit', path, scope, (expr | None, ...)): an array literal, its elements by position, evaluated
# where it was written (``[value, toggle]``); ``('alit', None, None, entries)``: a slice of one
V_ALIT = "alit"
V_OLIT = "olit"  # ('olit', path, scope, ((key, expr), ...)): an object literal passed as an argument
V_UNI = "uni"  # ('uni', values): one of several (``A | B``; ``x.m()`` reaches each one's ``m``)
V_BIND = "bind"  # ('bind', func value): ``f.bind(t)``, a function calling f (calling bind is no call of f)
V_IFACE = "iface"  # ('iface', fqn, path): an interface, as a type (in a type context only)
V_IINST = "iinst"  # ('iinst', fqn, path): a value typed by an internal interface
# ('ifm', interface, path, name, return type, declaring interface, its path): a method signature
# reached through an interface-typed value; a call reaches each implementation
V_IFM = "ifm"
# ('absm', class, path, name, return type, declaring class, its path): an abstract method (a
# signature in a class); a call reaches each override below the receiver's class
V_ABSM = "absm"

NULL: Value = (V_NULL,)  # the one null value
# an array of what no type names (`Array<(t: T) => T>`, `Handler[]` with `type Handler = () =>
# void`): what is assigned to a field or variable so typed says more, if known
UNTYPED_ARRAY: Value = (V_ARR, None)

# how a value was reached (``CtxState.flags``, bits): the resolution of an edge to it
FLAG_SELF = 1  # through ``this``: 'self'
FLAG_IMPORT = 2  # through an import, an export or ``require``: 'import'
FLAG_INFERRED = 4  # through a variable, field, return value or declared type: 'inferred'
FLAG_SUPER = 8  # through ``super``: 'super'
FLAG_PARTIAL = 16  # a variable's value left out a binding it could not name (``let h = f; h = opts.cb``)

# values with a member lookup through a class chain
CLASS_OR_INST = (V_INST, V_CLASS)
# values the receiver of an iterator or ``next`` may be (``EvaluateMixin.iterator``)
INST_OR_OBJ = (V_INST, V_OBJ)
# what a field or an array element given a parameter holds of what the callers pass
# (``_field_value``, ``element``): functions, and objects, instances and classes of ours
# (`this.strategy.exec()`, `listeners.push(l)`)
HELD = frozenset({V_FUNC, V_OBJ, V_OLIT, V_INST, V_CLASS})


def union(vals: list, all_known: bool = False) -> Value:
    """One value for several possible ones: the value itself when they agree, else
    ``('uni', values)``; None when none is known (or, with ``all_known``, when any is not)."""
    known: list = []
    for v in vals:
        if v is None:
            if all_known:
                return None
            continue
        for x in v[1] if v[0] == V_UNI else (v,):
            if x not in known:
                known.append(x)
    if not known:
        return None
    return known[0] if len(known) == 1 else (V_UNI, tuple(known))


def alternatives(v: Value) -> tuple:
    """The values ``v`` may be: its members for ``('uni', ...)``, none for None."""
    return () if v is None else v[1] if v[0] == V_UNI else (v,)


def funcs(v: Value) -> list:
    """The internal functions among the values ``v`` may be."""
    return [x for x in alternatives(v) if x[0] == V_FUNC]
