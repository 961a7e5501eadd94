"""What the Python resolver knows of Python itself: builtins, the standard decorators, typing's
special names, and which capitalised names of the standard library are functions (read from its
source)."""

from __future__ import annotations

import ast
import builtins
import sys
import sysconfig
from pathlib import Path

from mnemosyne.resolve.python.values import VAL_EXT

# builtin classes by name: their members are checked (``getattr``)
BUILTIN_TYPES = {n: t for n in dir(builtins) if isinstance(t := getattr(builtins, n), type)}
BUILTIN_NAMES = frozenset(n for n in dir(builtins) if not n.startswith("__") or n in ("__import__",))
DECLARATION_DECORATORS = frozenset({"property", "staticmethod", "classmethod"})
# external bases that declare a type rather than give an __init__ to call (``Generic[T]``, ``ABC``,
# ``Protocol``): a program class deriving from them has no ``typing.Generic.__init__`` edge
DECLARATIVE_BASE_MODULES = frozenset({"typing", "typing_extensions", "abc", "enum"})


def is_external_class(dotted: str) -> bool:
    """An external name taken for a class: its last part is capitalised (``requests.Session``, a
    single capital: ``models.Q``) but not all capitals (``click.STRING`` is a constant,
    ``ctypes.POINTER`` a function), it is not one of the declarations of
    ``DECLARATIVE_BASE_MODULES`` (``typing.TypeVar``), and it is not a function of the standard
    library (``stdlib_function``: ``tempfile.NamedTemporaryFile``, ``threading.RLock``)."""
    head, _, last = dotted.rpartition(".")
    return (
        last[:1].isupper() and (len(last) == 1 or not last.isupper()) and bool(head)
        and head.split(".", 1)[0] not in DECLARATIVE_BASE_MODULES
        and not stdlib_function(head, last)
    )


# the standard library's source, where the running interpreter has it (``stdlib_function``)
STDLIB_DIR = Path(sysconfig.get_paths()["stdlib"])
_STDLIB_TOPS = frozenset(sys.stdlib_module_names)
_stdlib_text: dict[str, str] = {}  # module -> its source ("" when it has none)
_stdlib_defs: dict[str, dict[str, list[ast.stmt]]] = {}  # module -> module-level name -> its definitions
_stdlib_answers: dict[tuple[str, str], bool] = {}


def stdlib_function(module: str, name: str) -> bool:
    """``module.name`` is a function of the standard library, not a class: the module's own source
    (read where the running interpreter has it, ``STDLIB_DIR``) defines the name at module level
    (also under ``if``/``try``) only by ``def`` or by binding it to such a function or to an
    external function (``Lock = _allocate_lock`` with ``_allocate_lock = _thread.allocate_lock``: a
    lower-case name, which the resolver calls by name too). A module without source (a C module),
    a name it does not define there (``multiprocessing`` makes its ``Pool`` at run time) or defines
    otherwise (``class``, an import) is not known to be a function. The source is parsed only when
    its text has ``def name(`` or ``name =``, so a class's module is seldom read."""
    k = (module, name)
    r = _stdlib_answers.get(k)
    if r is None:
        r = _stdlib_answers[k] = module.split(".", 1)[0] in _STDLIB_TOPS and _is_function(module, name, 0)
    return r


def _is_function(module: str, name: str, depth: int) -> bool:
    defs = _module_defs(module, name).get(name)
    if not defs or depth > 4:
        return False
    for d in defs:
        if isinstance(d, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        v = d.value if isinstance(d, ast.Assign) else None
        if isinstance(v, ast.Name) and _is_function(module, v.id, depth + 1):
            continue
        if isinstance(v, ast.Attribute) and not v.attr[:1].isupper() and isinstance(v.value, ast.Name):
            continue  # ``_thread.allocate_lock``
        return False
    return True


def _module_defs(module: str, name: str) -> dict[str, list[ast.stmt]]:
    """The module-level definitions of ``module``'s source (parsed once, when its text may bind
    ``name``; an empty answer otherwise)."""
    got = _stdlib_defs.get(module)
    if got is not None:
        return got
    text = _stdlib_text.get(module)
    if text is None:
        text = _stdlib_text[module] = ""
        base = STDLIB_DIR.joinpath(*module.split("."))
        for f in (base.with_name(base.name + ".py"), base / "__init__.py"):
            try:
                text = _stdlib_text[module] = f.read_text(encoding="utf-8")
                break
            except (OSError, ValueError):
                continue
    if f"def {name}(" not in text and f"{name} =" not in text:
        return {}  # no source, or no binding of the name there: not parsed (yet)
    out: dict[str, list[ast.stmt]] = {}
    try:
        body = ast.parse(text).body
    except (SyntaxError, ValueError):
        body = []
    stack = list(reversed(body))
    while stack:
        st = stack.pop()
        if isinstance(st, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.setdefault(st.name, []).append(st)
        elif isinstance(st, ast.Assign):
            for t in st.targets:
                if isinstance(t, ast.Name):
                    out.setdefault(t.id, []).append(st)
        elif isinstance(st, ast.If | ast.Try | ast.With):
            for block in (st.body, getattr(st, "orelse", []), getattr(st, "finalbody", [])):
                stack.extend(reversed(block))
            for h in getattr(st, "handlers", []):
                stack.extend(reversed(h.body))
        elif isinstance(st, ast.Import | ast.ImportFrom):
            for a in st.names:
                out.setdefault(a.asname or a.name.split(".", 1)[0], []).append(st)
    _stdlib_defs[module] = out
    return out


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
# external functions that call the function they are given (first argument) on the items of an
# iterable (second) and an accumulator (a third argument, then what it returns)
REDUCERS = frozenset({"functools.reduce"})
REDUCER_NAMES = frozenset(n.rsplit(".", 1)[1] for n in REDUCERS)  # the last names their call sites have
SELF_TYPES = frozenset({"typing.Self", "typing_extensions.Self"})
ANY_TYPES = frozenset({"typing.Any", "typing_extensions.Any"})  # annotations saying nothing
PROTOCOLS = frozenset({"typing.Protocol", "typing_extensions.Protocol"})
# the standard library's context manager decorators (``with f() as x`` binds what f yields)
CONTEXT_MANAGERS = frozenset({(VAL_EXT, "contextlib.contextmanager"), (VAL_EXT, "contextlib.asynccontextmanager")})
ENUM_BASES = frozenset(f"enum.{n}" for n in ("Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum"))
