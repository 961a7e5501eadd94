"""What the Python resolver knows of Python itself: builtins, the standard decorators, typing's
special names."""

from __future__ import annotations

import builtins

from mnemosyne.resolve.python.values import VAL_EXT

# builtin classes by name: their members are checked (``getattr``)
BUILTIN_TYPES = {n: t for n in dir(builtins) if isinstance(t := getattr(builtins, n), type)}
BUILTIN_NAMES = frozenset(n for n in dir(builtins) if not n.startswith("__") or n in ("__import__",))
DECLARATION_DECORATORS = frozenset({"property", "staticmethod", "classmethod"})
# external bases that declare a type rather than give an __init__ to call (``Generic[T]``, ``ABC``,
# ``Protocol``): a program class deriving from them has no ``typing.Generic.__init__`` edge
DECLARATIVE_BASE_MODULES = frozenset({"typing", "typing_extensions", "abc", "enum"})
METHOD_KINDS = ("classmethod", "staticmethod")  # builtin bases of decorator classes that bind as these
# decorator names ``method_decorators`` does not evaluate: builtins, and the usual ones of functools
# / abc / typing, which are no classmethod subclass of the program
PLAIN_DECORATORS = frozenset({
    "property", "staticmethod", "classmethod", "abstractmethod", "cached_property", "setter", "getter",
    "deleter", "wraps", "lru_cache", "cache", "override", "overload", "final",
})
# builtins that call a dunder of their one argument: len(x) -> type(x).__len__
BUILTIN_DUNDERS = {
    "len": "__len__", "str": "__str__", "repr": "__repr__", "bool": "__bool__", "hash": "__hash__",
    "abs": "__abs__", "iter": "__iter__", "next": "__next__", "reversed": "__reversed__", "format": "__format__",
    "int": "__int__", "float": "__float__", "complex": "__complex__", "round": "__round__", "bytes": "__bytes__",
}
# builtins whose result holds (or is) the items of their iterable argument
ITEM_BUILTINS = frozenset({"list", "tuple", "set", "frozenset", "sorted", "reversed", "iter", "next", "filter", "enumerate", "zip"})
# builtins that call a function they are given, on the items of an iterable: name -> where the
# function is (a position or a keyword) and the iterables' first position
CALLBACK_BUILTINS: dict[str, tuple[int | str, int]] = {
    "map": (0, 1), "filter": (0, 1), "sorted": ("key", 0), "min": ("key", 0), "max": ("key", 0),
}
SELF_TYPES = frozenset({"typing.Self", "typing_extensions.Self"})
ANY_TYPES = frozenset({"typing.Any", "typing_extensions.Any"})  # annotations saying nothing
PROTOCOLS = frozenset({"typing.Protocol", "typing_extensions.Protocol"})
# the standard library's context manager decorators (``with f() as x`` binds what f yields)
CONTEXT_MANAGERS = frozenset({(VAL_EXT, "contextlib.contextmanager"), (VAL_EXT, "contextlib.asynccontextmanager")})
ENUM_BASES = frozenset(f"enum.{n}" for n in ("Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum"))
