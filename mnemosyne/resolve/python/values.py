"""The abstract values of the Python resolver (docs/resolve-python.md, "Value tags").

What an expression may evaluate to is a set of values; each value is a plain tuple whose first
element is its tag (one of the ``VAL_*`` constants below) and whose other fields depend on the tag.
They stay plain tuples, not NamedTuples: the resolver hashes them constantly (memo keys, sets of
values), compares them with ``==`` against tuples it builds, sorts them by ``repr`` (the order of
an MRO over a union, of the edges it emits: a NamedTuple's ``repr`` differs and would change that
order) and pickles them across the fork of ``resolve/forked.py``.

Fields: ``path`` a file of the tree, ``idx`` a scope index of that file's parse result, ``dotted``
a dotted name (``os.path.join``), ``disp`` a parse expression (a display ``("t", elts)`` /
``("d", items)``, or one built by the resolver in the same form).
"""

from __future__ import annotations

from typing import Any

Value = tuple[Any, ...]  # (tag, *fields): one abstract value
EMPTY: frozenset[Value] = frozenset()  # no value (shared: the resolver returns it often)

VAL_FUNC = "F"  # ("F", path, idx): a function or lambda of the program
VAL_CLASS = "C"  # ("C", path, idx): a class of the program
VAL_INST = "I"  # ("I", path, idx): an instance of a class of the program
VAL_MODULE = "M"  # ("M", module): a module (or namespace package) of the program
VAL_EXT = "X"  # ("X", dotted): an external name (a module, function or class outside the program)
VAL_EXT_INST = "XI"  # ("XI", dotted): an instance of an external class
VAL_EXT_MEMBER = "XM"  # ("XM", dotted): an attribute of an external class or instance (``requests.Session.get``)
VAL_BUILTIN = "B"  # ("B", name): a builtin (``len``, ``dict``)
VAL_BUILTIN_MAYBE = "B?"  # ("B?", name): a builtin a ``from <external> import *`` of the module may shadow
VAL_BUILTIN_MEMBER = "BM"  # ("BM", dotted): an attribute of a builtin (``str.join``)
VAL_DISPLAY = "T"  # ("T", path, idx, disp): a container: the display ``disp`` evaluated in scope idx
VAL_SUPER = "S"  # ("S", path, idx): a ``super()`` proxy in class idx (lookups start after it in the MRO)
VAL_VIEW = "VW"  # ("VW", "values" | "items", values): a dict view over the frozenset of the dict's values
VAL_PAIR = "PR"  # ("PR", values): a (key, value) pair of ``dict.items()``: only the values are known
VAL_ALIAS = "TA"  # ("TA", path, idx, exprs): a type alias, the annotation expressions it stands for
VAL_METHOD_CALLER = "MC"  # ("MC", name): ``operator.methodcaller(name)``: calling it on x calls ``x.name()``
VAL_ATTR_GETTER = "AG"  # ("AG", name): ``operator.attrgetter(name)``: calling it on x reads ``x.name``
VAL_GLOBALS = "GL"  # ("GL", module): ``globals()`` of a module of the program: its names, by literal keys
# the ``operator`` factories of those values, called with a literal attribute name
OPERATOR_GETTERS = {"operator.methodcaller": VAL_METHOD_CALLER, "operator.attrgetter": VAL_ATTR_GETTER}

# values a settling key carries over (``fixpoint``): functions, classes, external names and instances
SETTLED_KINDS = frozenset({VAL_FUNC, VAL_CLASS, VAL_EXT, VAL_EXT_INST, VAL_EXT_MEMBER, VAL_INST})
EXTERNAL_KINDS = frozenset({VAL_EXT, VAL_EXT_MEMBER})  # names outside the program
BUILTIN_KINDS = frozenset({VAL_BUILTIN, VAL_BUILTIN_MAYBE})  # a builtin name, shadowed or not
OUTSIDE_KINDS = EXTERNAL_KINDS | BUILTIN_KINDS  # bases outside the program (external or builtin)
BOUND_KINDS = frozenset({VAL_INST, VAL_SUPER})  # receivers that bind a method (``obj.m``, ``super().m``)
MRO_KINDS = frozenset({VAL_CLASS, VAL_INST, VAL_SUPER})  # objects whose attributes are looked up along an MRO
CALLABLE_KINDS = frozenset({VAL_FUNC, VAL_CLASS, VAL_INST})  # program values a call may run code of

# the receiver-dependent returns of a method (``receiver_returns``)
RET_NEW = "new"  # ("new",): a classmethod returning ``cls(...)``, a method ``self.__class__(...)``
RET_SELF = "self"  # ("self",): ``return self``
RET_ATTR = "attr"  # ("attr", name): ``return self.name``

# an expression the resolver builds in the parser's form (``ann_values``: the items of an annotated container)
EXPR_ANN_ITEM = "ai"  # ("ai", (annotation exprs, ...)): an item: an instance of one of the annotated classes
# (``stored_items``: the list ``self.hooks.setdefault(k, []).append(hook)`` stores, as other modules fill it)
EXPR_STORED_PARAM = "sx"  # ("sx", name): what other modules pass the parameter ``name`` a method stores so

# constructors, for code off the hot paths (those build the tuples in place: a call per value costs)


def make_func(path: str, idx: int) -> Value:
    return (VAL_FUNC, path, idx)


def make_class(path: str, idx: int) -> Value:
    return (VAL_CLASS, path, idx)


def make_instance(path: str, idx: int) -> Value:
    return (VAL_INST, path, idx)


def make_module(name: str) -> Value:
    return (VAL_MODULE, name)


def make_external(dotted: str) -> Value:
    return (VAL_EXT, dotted)


def make_external_instance(dotted: str) -> Value:
    return (VAL_EXT_INST, dotted)


def make_builtin(name: str) -> Value:
    return (VAL_BUILTIN, name)


def make_display(path: str, idx: int, disp: Any) -> Value:
    return (VAL_DISPLAY, path, idx, disp)


def make_super(path: str, cidx: int) -> Value:
    return (VAL_SUPER, path, cidx)


def class_of(v: Value) -> Value | None:
    """The class value of an instance value (``I`` -> ``C``, ``XI`` -> ``X``), else None."""
    if v[0] == VAL_INST:
        return (VAL_CLASS, v[1], v[2])
    if v[0] == VAL_EXT_INST:
        return (VAL_EXT, v[1])
    return None
