"""What the Python resolver knows of Python itself: builtins, the standard decorators, typing's
special names, and which capitalised names of the standard library are functions (read from its
source)."""

from __future__ import annotations

import abc
import ast
import builtins
import collections.abc
import io
import sys
import sysconfig
import types
import typing
from pathlib import Path

from mnemosyne.resolve.python.modules import STDLIB
from mnemosyne.resolve.python.values import VAL_EXT

# builtin classes by name: their members are checked (``getattr``)
BUILTIN_TYPES = {n: t for n in dir(builtins) if isinstance(t := getattr(builtins, n), type)}
BUILTIN_NAMES = frozenset(n for n in dir(builtins) if not n.startswith("__") or n in ("__import__",))
DECLARATION_DECORATORS = frozenset({"property", "staticmethod", "classmethod"})
# external bases that declare a type rather than give an __init__ to call (``Generic[T]``, ``ABC``,
# ``Protocol``): a program class deriving from them has no ``typing.Generic.__init__`` edge
DECLARATIVE_BASE_MODULES = frozenset({"typing", "typing_extensions", "abc", "enum"})


def may_derive(dotted: str) -> bool:
    """An external base of a program class that may itself derive from another external class
    (``isinstance`` narrowing keeps its instances): not a declaration of ``DECLARATIVE_BASE_MODULES``
    nor an abstract class of ``collections.abc`` (``Generic``, ``ABC``, ``Mapping``, ``Enum``)."""
    return dotted.split(".", 1)[0] not in DECLARATIVE_BASE_MODULES and not dotted.startswith("collections.abc.")


def unrelated_stdlib(dotted: str, classes: set[str]) -> bool:
    """An instance of the standard library's class ``dotted`` narrowed by ``isinstance`` to other
    classes of the standard library, all of other top-level modules than its own
    (``isinstance(value, datetime.datetime)`` with value a ``uuid.UUID``): taken for no instance of
    them (``narrowed`` gives one of the classes instead). Within one module classes do derive from
    each other (``datetime.datetime`` from ``datetime.date``); across modules rarely
    (``http.server.HTTPServer`` from ``socketserver.TCPServer``: the narrowed instance then names
    the base's methods, which it inherits)."""
    top = dotted.split(".", 1)[0]
    if top not in STDLIB:
        return False
    return all((t := c.split(".", 1)[0]) in STDLIB and t != top for c in classes)


def is_external_class(dotted: str) -> bool:
    """An external name taken for a class: its last part is capitalised (``requests.Session``, a
    single capital: ``models.Q``) but not all capitals (``click.STRING`` is a constant,
    ``ctypes.POINTER`` a function), it is not one of the declarations of
    ``DECLARATIVE_BASE_MODULES`` (``typing.TypeVar``), and it is not a function of the standard
    library (``stdlib_function``: ``tempfile.NamedTemporaryFile``, ``threading.RLock``)."""
    r = _external_classes.get(dotted)
    if r is None:
        head, _, last = dotted.rpartition(".")
        r = _external_classes[dotted] = (
            last[:1].isupper() and (len(last) == 1 or not last.isupper()) and bool(head)
            and head.split(".", 1)[0] not in DECLARATIVE_BASE_MODULES
            and not stdlib_function(head, last)
        )
    return r


_external_classes: dict[str, bool] = {}  # dotted name -> is_external_class (a pure function of it: one answer per process)


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


# modules of the standard library whose abstract classes' members (and ``io``'s streams') are
# known from the running interpreter (``stdlib_lacks``): imported by every process (the resolver
# imports them; ``io`` at start-up), so the answer never depends on what else a process imported
ABSTRACT_MODULES = {"typing": typing, "collections.abc": collections.abc, "abc": abc, "io": io}
_lacks: dict[tuple[str, str], bool] = {}  # (dotted class, member) -> stdlib_lacks
# the interpreter's standard streams, by the class of what they hold: a ``__getattr__`` forwarding to
# one (``OutputWrapper(sys.stdout)``, the only object its module's sites pass) gives no member that
# class lacks (``classes.delegated``: ``wrapper.getvalue()`` is a StringIO's, wrapped in another module)
STD_STREAMS = {f"sys.{n}": "io.TextIOWrapper" for n in ("stdout", "stderr", "stdin", "__stdout__", "__stderr__", "__stdin__")}
# their public classes by dotted name (``typing.Mapping`` too): the one test hot paths make first
ABSTRACT_CLASSES = frozenset(
    f"{m}.{n}" for m, mod in ABSTRACT_MODULES.items() for n in dir(mod)
    if not n.startswith("_") and isinstance(getattr(getattr(mod, n), "__origin__", getattr(mod, n)), type)
)


def stdlib_lacks(dotted: str, attr: str) -> bool:
    """``dotted`` is a class of ``ABSTRACT_MODULES`` (``collections.abc.Mapping``,
    ``typing.Mapping``: its origin; ``io.BytesIO``) without the member ``attr``: no class of its MRO has it, none
    defines ``__getattr__`` / ``__getattribute__`` (``object``'s aside) nor an ``__init__`` in
    Python (which might set it on the instance). A value annotated ``Mapping`` has no
    ``as_string``: the program's value is mixed up with it, or the annotation is loose."""
    if dotted not in ABSTRACT_CLASSES:
        return False
    k = (dotted, attr)
    r = _lacks.get(k)
    if r is None:
        head, _, name = dotted.rpartition(".")
        mod = ABSTRACT_MODULES.get(head)
        cls = getattr(mod, name, None) if mod is not None and not name.startswith("_") else None
        cls = getattr(cls, "__origin__", cls)
        r = isinstance(cls, type) and not hasattr(cls, attr) and not any(
            c is not object and ("__getattr__" in vars(c) or "__getattribute__" in vars(c)
                                 or isinstance(vars(c).get("__init__"), types.FunctionType))
            for c in cls.__mro__
        )
        _lacks[k] = r
    return r


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
# builtins whose result holds (or is) the items of their iterable argument (``map``: what f returns for them)
ITEM_BUILTINS = frozenset({"list", "tuple", "set", "frozenset", "sorted", "reversed", "iter", "next", "filter", "enumerate", "zip", "map"})
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
# external bases whose instances are builtin ones: a TypedDict's value is a plain dict (``opts.get(k)``
# is a builtin value's method, no edge, not ``typing.TypedDict.get``: pluggy's HookspecOpts), a
# NamedTuple's class subclasses tuple (``count`` / ``index`` are tuple's, as for ``class P(tuple)``;
# ``_replace`` / ``_asdict`` stay the NamedTuple's); name -> (the builtin type, whether its values are plain)
RECORD_BASES = {
    f"{m}.{n}": t for m in ("typing", "typing_extensions") for n, t in (("TypedDict", ("dict", True)), ("NamedTuple", ("tuple", False)))
}
# external callables that call a function they are given, with arguments they are given (``runners.py``):
# dotted name -> (where the function is: a position or a keyword; where its positional arguments are:
# the position they start at, or the keyword of the sequence holding them, "" for none; the keyword
# of the mapping of its keyword arguments, "" when the runner's own other keywords are passed on;
# whether the runner calls it: ``functools.partial`` binds the arguments to call it later)
RUNNERS: dict[str, tuple[int | str, int | str, str, bool]] = {
    "threading.Thread": ("target", "args", "kwargs", True),
    "threading.Timer": (1, "args", "kwargs", True),
    "multiprocessing.Process": ("target", "args", "kwargs", True),
    "atexit.register": (0, 1, "", True),
    "weakref.finalize": (1, 2, "", True),
    "weakref.ref": (1, "", "", True),  # weakref.ref(obj, callback): called when obj goes
    "weakref.WeakMethod": (1, "", "", True),
    "asyncio.to_thread": (0, 1, "", True),
    "signal.signal": (1, "", "", True),
    "collections.defaultdict": (0, "", "", True),  # calls its factory for a missing key
    "functools.cmp_to_key": (0, "", "", True),  # its key objects' comparisons call the function (sorted(key=))
    "functools.partial": (0, 1, "", False),
    "functools.partialmethod": (0, 1, "", False),
    "types.MethodType": (0, 1, "", False),
}
# external callables whose result is the function they are given first, bound to the arguments
# after it: calling the result calls that function (``evaluate.call_result``)
BINDERS = frozenset({"functools.partial", "functools.partialmethod", "types.MethodType", "enum.member"})
RUNNER_NAMES = frozenset(n.rsplit(".", 1)[1] for n in RUNNERS)  # the last names their call sites have
# runners used as a decorator (``@atexit.register``): the definition is the function they call later
RUNNER_DECORATORS = frozenset({"atexit.register"})
# methods of the standard library's objects (an executor, an event loop, ``contextlib.ExitStack``,
# ``unittest.TestCase``, pytest's ``request``) that call the function at this position with the positional and keyword
# arguments after it: recognised by name on a receiver that is not of the program
METHOD_RUNNERS: dict[str, int] = {
    "submit": 0, "run_in_executor": 1, "call_soon": 0, "call_soon_threadsafe": 0, "call_later": 1,
    "call_at": 1, "callback": 0, "addCleanup": 0, "addClassCleanup": 0, "add_done_callback": 0,
    "addfinalizer": 0,  # pytest's request.addfinalizer(f)
}
# the standard library's pools, by the class their instances are named through, and their methods
# that call the function they are given first (``runners.pool_call``): on each item of the
# iterables after it (``POOL_MAP``: one parameter per iterable), with each item's items as the
# arguments (``POOL_STARMAP``), or with a tuple of arguments and a dict of keywords (``POOL_APPLY``)
POOL_CLASSES = frozenset({
    "multiprocessing.Pool", "multiprocessing.pool.Pool", "multiprocessing.pool.ThreadPool",
    "concurrent.futures.Executor", "concurrent.futures.ThreadPoolExecutor", "concurrent.futures.ProcessPoolExecutor",
    "concurrent.futures.thread.ThreadPoolExecutor", "concurrent.futures.process.ProcessPoolExecutor",
    "concurrent.futures._base.Executor",
})
POOL_MAP, POOL_STARMAP, POOL_APPLY = "map", "starmap", "apply"
POOL_METHODS: dict[str, str] = {
    "map": POOL_MAP, "imap": POOL_MAP, "imap_unordered": POOL_MAP, "map_async": POOL_MAP,
    "starmap": POOL_STARMAP, "starmap_async": POOL_STARMAP, "apply": POOL_APPLY, "apply_async": POOL_APPLY,
}
POOL_CALLBACKS = frozenset({"callback", "error_callback"})  # keywords of the async ones: called with the result / error
# the standard library's functions that call the function they are given on each item of an
# iterable they are given (``runners.item_call``): dotted name -> (the function's position, -1 for
# keyword only; its keyword, "" for positional only; the iterable's position; how it is called:
# ``ITEM_ONE`` f(item), ``ITEM_TWO`` f(total, item) (the running total is an item or what f
# returns), ``ITEM_STAR`` f(*item))
ITEM_ONE, ITEM_TWO, ITEM_STAR = "one", "two", "star"
ITEM_RUNNERS: dict[str, tuple[int, str, int, str]] = {
    "itertools.filterfalse": (0, "", 1, ITEM_ONE),
    "itertools.takewhile": (0, "", 1, ITEM_ONE),
    "itertools.dropwhile": (0, "", 1, ITEM_ONE),
    "itertools.groupby": (1, "key", 0, ITEM_ONE),
    "itertools.accumulate": (1, "func", 0, ITEM_TWO),
    "itertools.starmap": (0, "", 1, ITEM_STAR),
    "heapq.nsmallest": (2, "key", 1, ITEM_ONE),
    "heapq.nlargest": (2, "key", 1, ITEM_ONE),
    **{f"bisect.{n}": (-1, "key", 0, ITEM_ONE) for n in ("bisect", "bisect_left", "bisect_right", "insort", "insort_left", "insort_right")},
}
ITEM_RUNNER_NAMES = frozenset(n.rsplit(".", 1)[1] for n in ITEM_RUNNERS)  # the last names their call sites have
RUNNER_SITES = tuple(sorted(RUNNER_NAMES | METHOD_RUNNERS.keys() | POOL_METHODS.keys() | ITEM_RUNNER_NAMES))  # the last names of runners' call sites
RUNNER_SITE_NAMES = frozenset(RUNNER_SITES)  # the same, for membership tests
# context managers that hand on the object they are given (``with closing(x) as y``: y is x), and
# whether leaving them calls its ``close``
PASS_THROUGH_CMS = {"contextlib.closing": True, "contextlib.nullcontext": False}
PASS_THROUGH_NAMES = frozenset(n.rsplit(".", 1)[1] for n in PASS_THROUGH_CMS)  # their call sites' last names
# ``ExitStack`` methods that enter the context manager they are given and return what its
# ``__enter__`` returns (its ``__exit__`` runs when the stack closes)
ENTER_CONTEXT = {"enter_context": ("__enter__", "__exit__"), "enter_async_context": ("__aenter__", "__aexit__")}
ENTER_SUFFIXES = tuple("." + n for n in ENTER_CONTEXT)  # the dotted names of those members end so
# generic functions whose call runs the implementations registered with ``@f.register`` (``runners.py``)
DISPATCHERS = frozenset({"functools.singledispatch", "functools.singledispatchmethod"})
DISPATCHER_NAMES = frozenset(n.rsplit(".", 1)[1] for n in DISPATCHERS)
# external functions returning a value of the kind of their first argument (a copy of it, a
# dataclass instance with fields replaced), and casts whose first argument names the class of the
# result (``runners.library_result``)
COPIES = frozenset({"copy.copy", "copy.deepcopy", "dataclasses.replace", "attr.evolve", "attrs.evolve"})
COPY_NAMES = frozenset(n.rsplit(".", 1)[1] for n in COPIES)  # ``return copy.copy(self)``: a fluent method
CASTS = frozenset({"typing.cast", "typing_extensions.cast"})
DEFAULT_DICTS = frozenset({"collections.defaultdict"})  # d[k] is what calling the first argument gives
# a NamedTuple class's own members making a record of the class: ``p._replace(x=1)`` an instance of
# p's class, ``P._make(xs)`` of P (named through the base, ``known.RECORD_BASES``)
RECORD_COPIES = frozenset(f"{m}.NamedTuple._replace" for m in ("typing", "typing_extensions"))
RECORD_MAKERS = frozenset(f"{m}.NamedTuple._make" for m in ("typing", "typing_extensions"))
LIBRARY_RESULTS = COPIES | CASTS | DEFAULT_DICTS | RECORD_COPIES | RECORD_MAKERS
# methods of external base classes that call a method the program's subclass defines
# (``Worker(threading.Thread)``: ``worker.start()`` runs ``Worker.run``): method -> the one it calls
BASE_CALLBACKS = {"threading.Thread.start": "run", "multiprocessing.Process.start": "run"}
BASE_CALLBACK_NAMES = frozenset(n.rsplit(".", 1)[1] for n in BASE_CALLBACKS)
