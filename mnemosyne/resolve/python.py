"""Python call/import/inheritance resolution over the parsed files of one tree (``PythonIndex``).

Resolution is demand-driven, flow-insensitive points-to over the program:

* a name evaluates to the union of every value ever bound to it in the scope that binds it (LEGB,
  ``global``/``nonlocal`` honoured, class bodies skipped by nested functions; comprehension
  variables bind in the enclosing function);
* values are internal functions/lambdas, classes, instances of internal classes, internal
  modules, external names (``os.path.join``, ``requests.Session``), instances of external
  classes, builtins, containers (tuple/list/dict displays) and ``super()`` proxies;
* attributes are looked up in modules (bindings, ``from m import *`` honouring ``__all__``,
  submodules), classes and instances (C3 MRO over internal bases, instance attributes assigned
  through the method's first parameter, ``@property``/``cached_property`` getters), external
  names by import path (``np.array`` -> ``numpy.array``);
* containers: items of displays, ``x[k] = v``, ``x.append(v)``/``add``/``insert``/``extend``/
  ``setdefault`` on a name or on ``self.attr``; read back by subscript, iteration, unpacking
  and ``x.get(k)`` (a dict's ``get``/``pop`` default too); a slice ``x[i:j]`` is a container of some of the items (exactly which for a
  display with literal bounds), not an item; comprehensions and generator expressions are
  containers of their item (positions unknown), and ``list``/``tuple``/``sorted``/``reversed``/
  ``set``/``iter``/``filter`` pass items on, ``next`` returns one, ``enumerate``/``zip`` pair them;
* enums: the members of an ``enum.Enum`` subclass (``Color.RED``, ``Color["RED"]``, iterating the
  class) are its instances;
* ``isinstance(x, C)`` narrows ``x`` as an attribute's object where the test holds (the parser
  marks it ``("N", x, C)``: an ``if``/``elif`` body, ``and``'s right operand, a conditional
  expression's value, the statements after ``assert isinstance`` or after ``if not isinstance(...):
  return``): x's instances of C or its subclasses, else an instance of C (``narrowed``);
* annotations: a class (``Optional``/``Union``/``|`` unpacked) is an instance of it, ``Self`` the
  method's own class, a type alias (``X: TypeAlias = ...``, ``X = Dict[str, C]``, ``type X = ...``;
  the parser binds ``("ta", annotation)``) what it stands for; a container
  annotation (``list[C]``, ``Sequence[C]``, ``Iterator[C]``, ``tuple[C, ...]``, ``dict[str, C]``,
  ``Mapping[K, C]``, ...) a container whose items (a mapping's values) are instances of C;
* parameters: annotation, default, ``self``/``cls``, plus the arguments passed by the call sites
  and decorator sites of the function's own module (intra-module, by position and keyword; a
  parameter after ``*args`` by keyword only; ``*args`` a tuple of the extra positional
  arguments, ``**kwargs`` a dict of the extra keyword arguments; a site's ``f(*[a, b])`` spelled
  out, ``f(*xs)`` any item of xs from its position on, ``f(**d)`` by name),
  including sites that call it through a local alias (``h = f; h(x)``, ``obj.h = f``, a lambda
  bound to a name, a class alias for ``__init__``; not a method's alias, which may be bound),
  and, for a function or lambda passed as an argument somewhere in its module, the calls of
  parameters that may hold it (``def run(cb): cb(x)``, checked by evaluating ``cb``); a method
  passed as an attribute (``run(self.step)``) gets them after its bound receiver (a
  staticmethod from the first);
* a call's result is the callee's return values (return statements + return annotation; a
  generator's is a container of what it yields, ``yield from x`` passing on x's items), an
  instance for a class, an instance for a capitalised external name
  (``requests.Session()``; a lower-case external call's result is unknown), nothing for builtins
  (``functools.partial(f, ...)`` is ``f``); a classmethod returning ``cls(...)`` called
  through a subclass (``Sub.create()``, inherited) returns an instance of that subclass.

What is NOT resolved (no edge, never a best guess by name): parameters fed only from other
modules, values flowing through unknown calls, attributes of unknown objects, ``getattr``/
``eval``, a decorated function called through another name than its own (an alias, a parameter:
the undecorated function),
methods of builtin values (``[].append``), subclasses whose base is named through anything
but a module-level alias (``B = Base``, ``from m import Base as B`` and chains of them are
followed; a base computed by a call or assigned in a function is not), overrides reached through a receiver other than
the method's own first parameter
(``def f(job: Job): job.prepare()`` calls ``Job.prepare`` only, unless it is abstract, below).

Conventions (tests/extract_py/corpus/README.md):

* instantiation ``C()`` calls the ``__init__`` found in C's internal MRO (resolution
  ``constructor``); a class without an internal ``__init__`` (dataclasses, exceptions) gives no
  edge; ``raise E`` instantiates E like ``raise E()``;
* decorators: the scope that holds the decorated definition calls the decorator (``@dec``) or
  the decorator factory's result (``@dec(arg)``: the call ``dec(arg)`` itself is an ordinary call);
  ``@property``, ``@staticmethod``, ``@classmethod`` and ``@x.setter`` are declarations, no edge
  (a decorator class of the program deriving from ``classmethod``/``staticmethod``, Django's
  ``classonlymethod``, binds like them: ``method_decorators``); reading a method whose outermost
  decorator is a program class with ``__get__`` calls that ``__get__`` (``decorator_gets``);
  a decorator's parameter is what it is applied to: the definition for the innermost one, else
  what the decorator below returns (an external or unresolved one is transparent); a class used
  as a decorator gets it in ``__init__``, an instance a factory returns in ``__call__``;
  a call by a decorated function's own name (``work()``, ``self.handle()``) is an edge to the
  function and, resolution ``implicit``, to what its decorators made of it: a wrapper function
  defined inside the decorator, or ``__call__`` of a class used as the decorator (a decorator
  returning its argument adds nothing);
* ``with f() as x`` over a ``@contextlib.contextmanager`` (``asynccontextmanager``) generator
  binds x to what it yields;
* subclass dispatch (resolution ``subclass``, confidence 0.9): ``self.m()`` (``cls.m()`` in a
  classmethod) in a method of class C also calls the ``m`` that each internal subclass of C
  finds in its MRO (its override, or a mixin host's method; for ``self``, also a function or
  bound method the subclass assigns to ``self.m``, and a property's getter), subclasses being found by the
  last name of their bases and confirmed by their MRO (class hierarchy analysis);
  a call that reaches an abstract method through any other receiver (``def f(store: Storage):
  store.save()``) also calls the override each subclass of the receiver's class finds: an
  ``@abstractmethod``, a body-less method of a ``typing.Protocol`` class, or a method that only
  raises ``NotImplementedError`` (not for an instance made right there: ``Codec().encode()``);
* ``map``/``filter``/``sorted``/``min``/``max`` call the internal function (or class) they are
  given (``key=`` for the last three) for the caller, resolution ``implicit``, and its parameter
  gets the iterable's items; so does ``xs.sort(key=f)`` when ``xs`` holds a list;
* instantiation calls ``__init__`` and ``__new__`` (resolution ``constructor``), and a dataclass's
  generated ``__init__`` its ``__post_init__``;
* implicit calls (resolution ``implicit``): ``__iter__``/``__next__`` for ``for``, ``__enter__``/
  ``__exit__`` for ``with`` (``__aenter__``/``__aexit__`` for ``async with``), ``__call__`` on
  calling an instance, property getters on attribute loads (setters / deleters on stores and
  ``del``), descriptors' ``__get__``/``__set__``/``__delete__``, ``__getattr__`` for attributes not
  found, ``__init_subclass__`` and ``__set_name__`` on class creation, a program metaclass's
  ``__new__``/``__init__`` on class creation and its ``__call__`` on calling the class, decorators, the dunders of operators
  (``a + b``, ``x[k]``, ``k in c``, ``-a``, ``a += b``) and of ``len``/``str``/... (``BUILTIN_DUNDERS``),
  ``__bool__`` (else ``__len__``) of a value whose truth a condition, ``not``, ``and`` or ``or`` tests;
* calls made in a class body belong to the enclosing function or module;
* a file whose module another file defines (``a.pyi`` next to ``a.py``, ``a.py`` next to
  ``a/__init__.py``) yields imports only, plus a warning, so fully qualified names stay unique.

Confidence: 1.0 for every resolved edge, except subclass dispatch (0.9) and a builtin name in a module that also does
``from <external> import *`` (the star import might shadow it): 0.5, resolution ``inferred``.
``mnemosyne.callgraph.to_pycg`` keeps edges with confidence >= 0.9.

Incremental contract: ``FileFacts.depends_on`` is every module name (present or not) looked up
while resolving the file (modules of bases, of imported names, the ones tried and missing), plus
``<calls>NAME`` entries when the file's resolution looked at every module's call sites of a
function called NAME (parameter flow into module-level functions). Resolution of a file uses only
per-file memo tables, so its result does not depend on what was resolved before, and it reads
other files' parse data only through recording accessors (``_FileResolver.hdr``, ``binds``, ...;
``parsed()`` is own-file only): each read is kept as a key (``mnemosyne.resolve.py_reads``, which
names scopes by qualified name, so code added above them does not change the key). ``update`` returns the
changed/deleted paths, the files whose ``depends_on`` meets a module that appeared or disappeared
(or one of its parent packages), the files one of whose recorded reads a modified file now answers
differently (interface pruning: a body-only edit answers them all the same, so its dependents are
not re-resolved), the files whose recorded ``importers_calling`` answer for a call name of a
changed file differs, the files whose recorded ``subclass_files`` answer (``<sub>NAME`` in
``depends_on``) for a base name of a changed file's classes differs, and files not resolved
since they last changed. Since a file's resolution is
a deterministic function of its own content, the module layout and the answers to its reads,
unchanged answers mean unchanged facts: that is what makes incremental facts equal fresh ones.
"""

from __future__ import annotations

import builtins
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from itertools import islice
from typing import Any

from mnemosyne.facts import Call, FileFacts, Import, Inherit, Symbol
from mnemosyne.gcpause import gc_paused
from mnemosyne.hashing import content_hash
from mnemosyne.indexmaps import discard_from
from mnemosyne.parse.pool import ParseJob
from mnemosyne.parse.python import (
    ParsedFile,
    Scope,
    file_aliases,
    file_attr_stores,
    file_param_calls,
    file_subclasses,
    parse_python,
)
from mnemosyne.resolve.incremental import FactBook, NameIndex, Search
from mnemosyne.resolve.py_reads import reads_differ, rebase_keys, same_numbering, stub_body

# builtin classes by name: their members are checked (``getattr``)
_BUILTIN_TYPES = {n: t for n in dir(builtins) if isinstance(t := getattr(builtins, n), type)}
BUILTIN_NAMES = frozenset(n for n in dir(builtins) if not n.startswith("__") or n in ("__import__",))
STDLIB = frozenset(sys.stdlib_module_names) | {"__future__", "__main__", "builtins"}
SUFFIXES = (".py", ".pyi")
DECLARATION_DECORATORS = frozenset({"property", "staticmethod", "classmethod"})
# external bases that declare a type rather than give an __init__ to call (``Generic[T]``, ``ABC``,
# ``Protocol``): a program class deriving from them has no ``typing.Generic.__init__`` edge
DECLARATIVE_BASE_MODULES = frozenset({"typing", "typing_extensions", "abc", "enum"})
_METHOD_KINDS = ("classmethod", "staticmethod")  # builtin bases of decorator classes that bind as these
# decorator names ``method_decorators`` does not evaluate: builtins, and the usual ones of functools
# / abc / typing, which are no classmethod subclass of the program
_PLAIN_DECORATORS = frozenset({
    "property", "staticmethod", "classmethod", "abstractmethod", "cached_property", "setter", "getter",
    "deleter", "wraps", "lru_cache", "cache", "override", "overload", "final",
})
# builtins whose result holds (or is) the items of their iterable argument
# builtins that call a dunder of their one argument: len(x) -> type(x).__len__
BUILTIN_DUNDERS = {
    "len": "__len__", "str": "__str__", "repr": "__repr__", "bool": "__bool__", "hash": "__hash__",
    "abs": "__abs__", "iter": "__iter__", "next": "__next__", "reversed": "__reversed__", "format": "__format__",
    "int": "__int__", "float": "__float__", "complex": "__complex__", "round": "__round__", "bytes": "__bytes__",
}
ITEM_BUILTINS = frozenset({"list", "tuple", "set", "frozenset", "sorted", "reversed", "iter", "next", "filter", "enumerate", "zip"})
# builtins that call a function they are given, on the items of an iterable: name -> where the
# function is (a position or a keyword) and the iterables' first position
CALLBACK_BUILTINS: dict[str, tuple[int | str, int]] = {
    "map": (0, 1), "filter": (0, 1), "sorted": ("key", 0), "min": ("key", 0), "max": ("key", 0),
}
EMPTY: frozenset = frozenset()
_SELF_TYPES = frozenset({"typing.Self", "typing_extensions.Self"})
_ANY_TYPES = frozenset({"typing.Any", "typing_extensions.Any"})  # annotations saying nothing
_PROTOCOLS = frozenset({"typing.Protocol", "typing_extensions.Protocol"})
_ENUM_BASES = frozenset(f"enum.{n}" for n in ("Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum"))
CALLS_PREFIX = "<calls>"  # depends_on entry: "the files with a call or decorator named X"
SUB_PREFIX = "<sub>"  # depends_on entry: "the files with a class whose base is named X"
SETTLE_ROUNDS = 3  # recomputations of a value that met itself, until it stops growing
# recomputations per file. Nested cycles settle with their outermost key (``defer``): before, each
# re-settled inside every round of an outer one (SETTLE_ROUNDS ** depth; mypy's types.py made every
# file reading it take ~1 s), so this only stops a pathological file
SETTLE_BUDGET = 5000
# values a settling key carries over: functions, classes, external names and instances
_SETTLED_KINDS = frozenset({"F", "C", "X", "XI", "XM", "I"})


def _class_of(v: Any) -> Any:
    """The class value of an instance value (``I`` -> ``C``, ``XI`` -> ``X``), else None."""
    if v[0] == "I":
        return ("C", v[1], v[2])
    if v[0] == "XI":
        return ("X", v[1])
    return None


def _carried(values: frozenset) -> frozenset:
    """What a cycle's key carries into its next round. Functions, classes, external names and
    instances (what calls reach; a value cut at a different place of a cycle made results depend
    on the order sets iterate in, i.e. on PYTHONHASHSEED); displays do not: they nest without end."""
    return frozenset(v for v in values if v[0] in _SETTLED_KINDS)
# operator sites (``a + b``, ``x[k]``, f-strings: ``resolve_operators``) are resolved after every
# other call of the file, with operands evaluated at most OPERATOR_DEPTH levels deep, and only
# while the file's resolution has made fewer than OPERATOR_BUDGET evaluations (normal files make
# < 20k: Django at most 6.6k, mypy 17k): without the bounds, sympy's operands pulled its whole
# expression class graph into one file after another (resolution 111 s -> 185 s)
OPERATOR_BUDGET = 20_000
# ``__getattr__`` is not assumed for a class with more subclasses than this (any of them may bind
# the attribute, and checking each for every attribute read cost pydantic's tests 1.6 s)
GETATTR_MAX_SUBCLASSES = 64
OPERATOR_DEPTH = 20
MAX_DEPTH = 100  # nested evaluations (alias chains, deep hierarchies): beyond it, unresolved + warning
# resolution time per line of a file never measured (.py, .pyi): mypy 18 / 2.2 us, Django 4.5 us, sympy's polys 5.3 us
SECONDS_PER_LINE = {False: 8e-6, True: 2e-6}
RECURSION_ROOM = 6000  # interpreter frames resolution may need: MAX_DEPTH levels of ~10 frames, and the caller's


@contextmanager
def _recursion_room() -> Iterator[None]:
    """Resolution recurses about ten Python frames per ``MAX_DEPTH`` level, so the interpreter's
    default limit (1,000 frames) could be hit before ``MAX_DEPTH`` (a RecursionError, which depended
    on how deep the caller already was). Room for ``MAX_DEPTH`` levels is made for the call; the
    actual depth stays bounded by ``MAX_DEPTH``, so the C stack is not at risk."""
    old = sys.getrecursionlimit()
    if old < RECURSION_ROOM:
        sys.setrecursionlimit(RECURSION_ROOM)
    try:
        yield
    finally:
        if old < RECURSION_ROOM:
            sys.setrecursionlimit(old)


def _strip_suffix(path: str) -> str:
    for s in SUFFIXES:
        if path.endswith(s):
            return path[: -len(s)]
    return path


def module_name(path: str, present: set[str] | Mapping[str, Any]) -> str:
    """docs/schema.md (qualified names): dotted path relative to the source root: the repository root, or the
    first ``src/`` directory on the path that is not itself a package (``src/pkg/a.py`` ->
    ``pkg.a``; also ``packages/x/src/x/a.py`` -> ``x.a`` in a monorepo); ``pkg/__init__.py``
    is ``pkg``. Adding or removing a ``src/__init__.py`` renames modules: ``update`` then
    re-resolves everything."""
    parts = _strip_suffix(path).split("/")
    start = 0
    for i, seg in enumerate(parts[:-1]):
        if seg == "src":
            prefix = "/".join(parts[: i + 1])
            if f"{prefix}/__init__.py" not in present and f"{prefix}/__init__.pyi" not in present:
                start = i + 1
                break
    parts = parts[start:]
    if parts and parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


def _absolute(mod: str, is_pkg: bool, module: str, level: int) -> str | None:
    """The absolute module of ``from <level dots><module> import ...`` in module ``mod``."""
    if level == 0:
        return module
    parts = mod.split(".") if mod else []
    if not is_pkg:
        parts = parts[:-1]
    up = level - 1
    if up > len(parts):
        return None
    base = parts[: len(parts) - up] if up else parts
    if module:
        base = base + module.split(".")
    return ".".join(base) if base else None


def _call_names(pf: ParsedFile) -> set[str]:
    return set(pf.sites_by_name) | set(pf.decos_by_name)


def _base_names(pf: ParsedFile) -> set[str]:
    return set(file_subclasses(pf))


def _is_src_init(path: str) -> bool:
    parts = path.split("/")
    return len(parts) >= 2 and parts[-1] in ("__init__.py", "__init__.pyi") and "src" in parts[:-1]


def _call_name(key: tuple[str, str]) -> str:
    return key[1]


IMPORTERS = Search(CALLS_PREFIX, name_of=_call_name)  # importers_calling answers, by (module, name)
SUBCLASSES = Search(SUB_PREFIX)  # subclass_files answers, by base name


def _rebased_reads(
    old: ParsedFile, new: ParsedFile
) -> Callable[[ParsedFile, AbstractSet[tuple]], AbstractSet[tuple] | None]:
    """``RecordedReads.stale_readers``'s ``compare_for``: None when a key answers differently on
    ``new`` (``py_reads.reads_differ``), else the keys as they are on ``new`` (``rebase_keys``)."""
    alike = same_numbering(old, new)

    def compare(seen: ParsedFile, keys: AbstractSet[tuple]) -> AbstractSet[tuple] | None:
        same = alike if seen is old else same_numbering(seen, new)
        if reads_differ(seen, new, keys, same):
            return None
        return rebase_keys(seen, new, keys, same)

    return compare


class PythonIndex:
    """LanguageIndex for .py/.pyi files."""

    def __init__(self) -> None:
        self._hash: dict[str, str] = {}  # path -> content hash
        self._parsed: dict[str, ParsedFile] = {}
        self._parse_cache: dict[str, ParsedFile] = {}  # content hash -> parse result
        self._module_of: dict[str, str] = {}  # path -> module name
        self._mod_paths: dict[str, set[str]] = {}  # module -> paths
        self._packages: dict[str, int] = {}  # every dotted prefix of a module name -> count
        self._flipped: set[str] = set()  # prefixes that appeared or disappeared in this update
        # the resolved files' facts with what their resolution consulted (resolve/incremental.py)
        self._book: FactBook[ParsedFile, AbstractSet[tuple]] = FactBook((IMPORTERS, SUBCLASSES))
        self._callers = NameIndex()  # call/decorator last name -> paths with such a site
        self._imported: dict[str, frozenset[str]] = {}  # path -> absolute modules it imports
        self._importers_cache: dict[tuple[str, str], list[str]] = {}
        self._subclassers = NameIndex()  # base last name -> paths with a class naming such a base
        self._cost: dict[str, float] = {}  # path -> seconds its last resolution took

    # ------------------------------------------------------------------ protocol
    def owns(self, path: str) -> bool:
        return path.endswith(SUFFIXES)

    def paths(self) -> set[str]:
        return set(self._parsed)

    def parse_jobs(self, changed: Mapping[str, bytes | None]) -> list[ParseJob]:
        """The blobs of ``changed`` that ``update`` would parse (for a parse pool to do first)."""
        jobs: dict[str, ParseJob] = {}
        for path, data in changed.items():
            if data is None or not self.owns(path):
                continue
            h = content_hash(data)
            if h not in jobs and h not in self._parse_cache and self._hash.get(path) != h:
                jobs[h] = ParseJob("python", path, h, data)
        return list(jobs.values())

    def prime(self, job: ParseJob, parsed: ParsedFile) -> None:
        """Accept a parse result computed elsewhere (it depends on the bytes only)."""
        self._parse_cache[job.digest] = parsed

    def update(self, changed: Mapping[str, bytes | None]) -> set[str]:
        with gc_paused():
            return self._update(changed)

    def _update(self, changed: Mapping[str, bytes | None]) -> set[str]:
        """Changed files are re-resolved, and the others by the rules of ``resolve/incremental.py``
        (modules that appeared or disappeared, recorded reads answering differently, name searches
        answering differently: ``importers_calling``, ``subclass_files``); a ``src/.../__init__.py``
        added or deleted changes the module layout: every file is re-resolved."""
        affected: set[str] = set()
        changed_mods: set[str] = set()  # modules that appeared or disappeared
        call_names: set[str] = set()  # call/decorator names of changed files (before and after)
        base_names: set[str] = set()  # names of the bases of changed files' classes (before and after)
        modified: dict[str, ParsedFile] = {}  # path -> its parse result before this update
        relayout = False
        self._importers_cache.clear()
        self._flipped.clear()
        for path, data in changed.items():
            if not self.owns(path):
                continue
            if data is None:
                if path not in self._parsed:
                    continue
                affected.add(path)
                modified.pop(path, None)
                changed_mods.add(self._module_of[path])
                cn, bn = self._remove(path)
                call_names |= cn
                base_names |= bn
                relayout |= _is_src_init(path)
                continue
            h = content_hash(data)
            if self._hash.get(path) == h:
                continue
            pf = self._parse_cache.get(h)
            if pf is None:
                pf = parse_python(data)
                self._parse_cache[h] = pf
            is_new = path not in self._parsed
            if not is_new:
                old = self._parsed[path]
                modified.setdefault(path, old)
                mod = self._module_of[path]
                cn, bn = self._remove(path, keep_module=True)
                call_names |= cn
                base_names |= bn
            else:
                mod = ""
            self._hash[path] = h
            self._parsed[path] = pf
            cn, bn = _call_names(pf), _base_names(pf)
            self._callers.add(path, cn)
            call_names |= cn
            self._subclassers.add(path, bn)
            base_names |= bn
            if is_new:
                relayout |= _is_src_init(path)
                mod = module_name(path, self._parsed)
                self._add_module(path, mod)
                changed_mods.add(mod)
            affected.add(path)
        if relayout:
            for p in list(self._parsed):
                self._drop_module(p)
            for p in self._parsed:
                self._add_module(p, module_name(p, self._parsed))
            affected |= set(self._parsed)
            self._book.clear()
            self._imported.clear()
        else:
            # a module name's answers (``is_internal``, ``mod_path``) change only for the modules
            # themselves and for the package prefixes that appeared or disappeared with them; a
            # reader of a package that stays is not affected by a new submodule it did not name
            # (naming it recorded the submodule: ``module_attr`` asks ``is_internal`` of it)
            book = self._book
            for m in changed_mods | self._flipped:
                affected |= book.dependents(m)
            # interface pruning: a reader of a modified file is affected only if one of its reads
            # now answers differently
            book.reads.stale_readers(modified, self._parsed, _rebased_reads, affected)
            # callback flow: which files a module's callback parameters are fed from
            book.stale_searches(call_names, IMPORTERS, self._importers_answer, affected)
            # subclass dispatch: which files hold the subclasses of a class of a given name
            book.stale_searches(base_names, SUBCLASSES, self.subclass_files, affected)
            affected |= set(self._parsed) - set(book.facts)  # never resolved since: may differ
            for p in affected:
                book.drop(p)
        # keep the parse cache bounded to what is present (plus a little history)
        if len(self._parse_cache) > 2 * len(self._parsed) + 256:
            live = set(self._hash.values())
            self._parse_cache = {h: v for h, v in self._parse_cache.items() if h in live}
        return affected

    def facts(self, path: str) -> FileFacts | None:
        if path not in self._parsed:
            return None
        f = self._book.facts.get(path)
        if f is None:
            t = time.perf_counter()
            with gc_paused(), _recursion_room():
                r = _FileResolver(self, path)
                f = r.run()
                reads, ix_reads, sub_reads = r.reads, r.ix_reads, r.sub_reads
                del r  # its memo tables die here, before the collector runs again
                self._install(path, f, reads, ix_reads, sub_reads)
            self._cost[path] = time.perf_counter() - t
        return f

    def _install(self, path: str, f: FileFacts, reads: dict[str, AbstractSet[tuple]],
                 ix_reads: dict[tuple[str, str], tuple[str, ...]], sub_reads: dict[str, tuple[str, ...]]) -> None:
        """Record a file's facts with what its resolution read (for ``update``'s pruning)."""
        parsed = self._parsed
        # the resolver's own sets, no copies: nothing else holds them
        self._book.install(path, f, {b: (parsed[b], ks) for b, ks in reads.items()},
                           {IMPORTERS: ix_reads, SUBCLASSES: sub_reads})

    # ------------------------------------------------------------------ resolving elsewhere (resolve/forked.py)
    def unresolved_costs(self, paths: Iterable[str]) -> dict[str, float]:
        """Paths among ``paths`` whose facts are not computed, with an estimate of the seconds
        that takes: the last time it was measured, else from the file's length."""
        out: dict[str, float] = {}
        for p in paths:
            pf = self._parsed.get(p)
            if pf is not None and p not in self._book.facts:
                out[p] = self._cost.get(p, pf.line_count * SECONDS_PER_LINE[p.endswith(".pyi")])
        return out

    def export_facts(self, path: str) -> tuple | None:
        """A file's facts with what ``_install`` records, as plain data (another process resolved it)."""
        f = self.facts(path)
        if f is None:
            return None
        book = self._book
        reads = {b: ks for b, (_pf, ks) in book.reads.of(path).items()}
        return f, reads, book.answers(IMPORTERS, path), book.answers(SUBCLASSES, path), self._cost.get(path, 0.0)

    def adopt_facts(self, path: str, payload: tuple) -> None:
        """Take ``export_facts``'s answer from a process that forked from this index in this state."""
        if path in self._book.facts or path not in self._parsed:
            return
        f, reads, ix_reads, sub_reads, cost = payload
        self._install(path, f, reads, ix_reads, sub_reads)
        self._cost[path] = cost

    # ------------------------------------------------------------------ internals
    def _remove(self, path: str, keep_module: bool = False) -> tuple[set[str], set[str]]:
        """Forget a file's content (and, unless ``keep_module``, its module); returns the
        call/decorator names its sites had and the names of its classes' bases."""
        self._book.drop(path)
        if not keep_module:
            self._drop_module(path)
            self._cost.pop(path, None)
        self._imported.pop(path, None)
        pf = self._parsed.pop(path, None)
        self._hash.pop(path, None)
        names: set[str] = set()
        bases: set[str] = set()
        if pf is not None:
            names = _call_names(pf)
            self._callers.remove(path, names)
            bases = _base_names(pf)
            self._subclassers.remove(path, bases)
        return names, bases

    def _add_module(self, path: str, mod: str) -> None:
        self._module_of[path] = mod
        self._mod_paths.setdefault(mod, set()).add(path)
        parts = mod.split(".")
        for i in range(1, len(parts) + 1):
            k = ".".join(parts[:i])
            n = self._packages.get(k, 0)
            if not n:
                self._flipped.add(k)
            self._packages[k] = n + 1

    def _drop_module(self, path: str) -> None:
        mod = self._module_of.pop(path, None)
        if mod is None:
            return
        discard_from(self._mod_paths, (mod,), path)
        parts = mod.split(".")
        for i in range(1, len(parts) + 1):
            k = ".".join(parts[:i])
            n = self._packages.get(k, 0) - 1
            if n <= 0:
                self._packages.pop(k, None)
                self._flipped.add(k)
            else:
                self._packages[k] = n

    def imported_modules(self, path: str) -> frozenset[str]:
        """Absolute module names a file's import statements name (``from a import b``: a and a.b)."""
        r = self._imported.get(path)
        if r is None:
            mod = self._module_of[path]
            is_pkg = _strip_suffix(path).rsplit("/", 1)[-1] == "__init__"
            out: set[str] = set()
            for st in self._parsed[path].imports:
                if not st.is_from:
                    out.update(m for m, _alias in st.names)
                    continue
                base = _absolute(mod, is_pkg, st.module, st.level)
                if base is None:
                    continue
                out.add(base)
                out.update(f"{base}.{n}" if base else n for n, _alias in st.names)
            r = frozenset(out)
            self._imported[path] = r
        return r

    def importers_calling(self, mod: str, name: str) -> list[str]:
        """Files with a call or decorator site named ``name`` that import ``mod`` or one of its
        packages: the only files whose sites can name a function of ``mod`` (re-exports through
        unrelated modules are not followed). Depends only on those files' content, which the
        ``<calls>NAME`` dependency covers."""
        key = (mod, name)
        r = self._importers_cache.get(key)
        if r is None:
            prefixes = set()
            parts = mod.split(".")
            for i in range(1, len(parts) + 1):
                prefixes.add(".".join(parts[:i]))
            r = [q for q in self._callers.files(name) if self.imported_modules(q) & prefixes]
            self._importers_cache[key] = r
        return r

    def subclass_files(self, name: str) -> tuple[str, ...]:
        """The files with a class one of whose bases is named ``name`` (sorted): the only places
        a subclass of a class called ``name`` can be defined (a module-level alias of the base,
        import or assignment, is indexed under the aliased name too, see ``file_subclasses``)."""
        return self._subclassers.files(name)

    def _importers_answer(self, key: tuple[str, str]) -> tuple[str, ...]:
        """``importers_calling``'s answer as a resolution records it (``IMPORTERS``)."""
        return tuple(self.importers_calling(key[0], key[1]))

    def module_path(self, mod: str) -> str | None:
        paths = self._mod_paths.get(mod)
        if not paths:
            return None
        if len(paths) == 1:
            return next(iter(paths))
        # a package (__init__) wins over a same-named module; .py wins over .pyi
        return min(paths, key=lambda p: (p.endswith(".pyi"), not _strip_suffix(p).endswith("__init__"), p))


# ---------------------------------------------------------------------- values
# ('F', path, idx)  function / lambda          ('C', path, idx)  class
# ('I', path, idx)  instance of a class        ('M', module)     internal module / namespace package
# ('X', dotted)     external name              ('XI', dotted)    instance of an external class
# ('B', name)       builtin                    ('B?', name)      builtin maybe shadowed by a star import
# ('T', path, scope, expr)  container display  ('S', path, class_idx)  super() proxy
# ('VW', 'values'|'items', values)  dict view   ('PR', values)    a (key, value) pair of items()


class _FileResolver:
    # a slot per attribute: the hot paths read them constantly, and an instance dict stops
    # being shared (every attribute load slower) once a class has ~30 attributes
    __slots__ = (
        "abstract_memo",
        "active",
        "bs_memo",
        "cycles",
        "deferred",
        "deps",
        "depth",
        "edges",
        "fqn_memo",
        "ix",
        "ix_reads",
        "ga_memo",
        "ga_serials",
        "lk_memo",
        "load_calls",
        "lows",
        "memo",
        "meta_memo",
        "module",
        "moved",
        "ops_skipped",
        "max_depth",
        "pending_ops",
        "mro_memo",
        "override_memo",
        "partial",
        "path",
        "pf",
        "prov",
        "reads",
        "scopes",
        "selfret_memo",
        "serial",
        "settle_budget",
        "sub_memo",
        "sub_reads",
        "truncated",
    )

    def __init__(self, index: PythonIndex, path: str) -> None:
        self.ix = index
        self.path = path
        self.pf = index._parsed[path]
        self.scopes = self.pf.scopes  # own file: read without recording
        self.module = index._module_of[path]
        self.deps: set[str] = {self.module}
        self.memo: dict[tuple, frozenset] = {}  # final values
        # values resting on what a key still being computed held so far (a cycle): key -> (value,
        # serial of the outermost such key). Final once that key is settled, forgotten in its rounds
        self.prov: dict[tuple, tuple[frozenset, int]] = {}
        self.active: dict[tuple, int] = {}  # keys being computed -> their serial (increasing with nesting)
        self.lows: list[int] = []  # per active computation: the lowest serial it rested on (its own: none)
        self.serial = 0
        self.cycles: set[tuple] = set()  # active keys a computation met again (``settle``)
        self.deferred: list[tuple[tuple, int]] = []  # (key, serial): cycles settled with an outer key
        self.moved = 0  # times a deferred key's ``partial`` grew
        self.ops_skipped = 0  # operator sites left unresolved past OPERATOR_BUDGET
        self.max_depth = MAX_DEPTH  # OPERATOR_DEPTH while the operator sites are resolved
        # operator sites (caller, scope, operand, dunder, fallback, line): resolved last (``resolve_operators``)
        self.pending_ops: list[tuple[str, int, Any, str, str, int]] = []
        self.partial: dict[tuple, frozenset] = {}  # what a settling key is known to hold so far
        self.settle_budget = SETTLE_BUDGET  # recomputations left for this file (``settle``)
        self.mro_memo: dict[tuple[str, int], tuple[list[tuple[str, int]], list[Any], list[tuple]]] = {}
        self.edges: dict[tuple[str, str], list] = {}
        self.depth = 0
        self.truncated = False
        self.reads: dict[str, set[tuple]] = {}  # other path -> read keys (see PythonIndex)
        self.lk_memo: dict[tuple[str, int, str], int] = {}  # structural: which scope binds a name
        self.bs_memo: dict[tuple[str, int, str], int | None] = {}
        self.fqn_memo: dict[tuple[str, int], str] = {}
        self.ix_reads: dict[tuple[str, str], tuple[str, ...]] = {}  # importers_calling answers
        self.sub_reads: dict[str, tuple[str, ...]] = {}  # subclass_files answers
        self.sub_memo: dict[tuple[str, int], list[tuple[str, int]]] = {}
        self.override_memo: dict[tuple[int, str, bool], list[str]] = {}  # (own class, name, instance?) -> overrides
        self.selfret_memo: dict[tuple[str, int], tuple] = {}  # method -> receiver_returns
        self.meta_memo: dict[tuple[str, int], tuple[tuple[str, int], ...]] = {}  # class -> its metaclasses
        self.abstract_memo: dict[tuple[str, int, str], list[str]] = {}  # (receiver class, name) -> overrides
        # (base value, attr) -> the methods reading base.attr calls (property getter, a descriptor's
        # __get__, __getattr__), kept by ``getattr`` for calls through the attribute (``obj.prop()``)
        self.load_calls: dict[str, dict[Any, list[tuple[str, int]]]] = {}  # attr -> base value -> methods
        # (base value, attr, max_depth) -> getattr's final answer; one class's attributes are read
        # over and over (mypy: 123k reads of 11k distinct ones)
        self.ga_memo: dict[tuple, tuple[frozenset, list[tuple[str, int]]]] = {}
        self.ga_serials = 0  # serials getattr took (not evaluations: OPERATOR_BUDGET does not count them)

    # ------------------------------------------------------------------ modules
    def mod_path(self, mod: str) -> str | None:
        self.deps.add(mod)
        return self.ix.module_path(mod)

    def is_internal(self, mod: str) -> bool:
        self.deps.add(mod)
        return mod in self.ix._packages

    def modname(self, path: str) -> str:
        return self.ix._module_of[path]

    def parsed(self, path: str) -> ParsedFile:
        """The file's own parse result. Other files' data is read ONLY through the recording
        accessors below (``hdr``, ``binds``, ...), which is what interface pruning relies on."""
        assert path == self.path, "cross-file reads must go through the recording accessors"
        return self.pf

    # ------------------------------------------------------------------ recorded reads
    # Every read of another file's parse data goes through one of these; each records a read key
    # (see ``mnemosyne.resolve.py_reads``) so that ``PythonIndex.update`` can tell whether a changed file still
    # answers every read this file made the same way (then this file's facts cannot differ).
    def _rd(self, path: str, key: tuple) -> None:
        s = self.reads.get(path)
        if s is None:
            s = self.reads[path] = set()
        s.add(key)

    def hdr(self, path: str, idx: int) -> Scope:
        """A scope, for its header fields only: kind, name, qual, parent, decorators, is_generator."""
        if path == self.path:
            return self.scopes[idx]
        r = self.reads.get(path)  # ``_rd`` inlined: the hottest accessors
        if r is None:
            r = self.reads[path] = set()
        r.add(("h", idx))
        return self.ix._parsed[path].scopes[idx]

    def globs(self, path: str, idx: int) -> Scope:
        """A scope, for its ``globals`` / ``nonlocals`` only."""
        if path == self.path:
            return self.scopes[idx]
        r = self.reads.get(path)  # ``_rd`` inlined: the hottest accessors
        if r is None:
            r = self.reads[path] = set()
        r.add(("g", idx))
        return self.ix._parsed[path].scopes[idx]

    def binds(self, path: str, idx: int, name: str) -> list | None:
        if path == self.path:
            return self.scopes[idx].bindings.get(name)
        r = self.reads.get(path)  # ``_rd`` inlined: the hottest accessors
        if r is None:
            r = self.reads[path] = set()
        r.add(("b", idx, name))
        return self.ix._parsed[path].scopes[idx].bindings.get(name)

    def ibinds(self, path: str, idx: int, name: str) -> list | None:
        if path != self.path:
            self._rd(path, ("ib", idx, name))
        return self.ix._parsed[path].scopes[idx].item_bindings.get(name)

    def params_of(self, path: str, idx: int) -> list:
        if path != self.path:
            self._rd(path, ("p", idx))
        return self.ix._parsed[path].scopes[idx].params

    def rets(self, path: str, idx: int) -> tuple[list, Any, list]:
        if path != self.path:
            self._rd(path, ("r", idx))
        s = self.ix._parsed[path].scopes[idx]
        return s.returns, s.return_ann, s.yields

    def bases_of(self, path: str, idx: int) -> list:
        if path != self.path:
            self._rd(path, ("B", idx))
        return self.ix._parsed[path].scopes[idx].bases

    def metaclass_of(self, path: str, idx: int) -> Any:
        if path != self.path:
            self._rd(path, ("B", idx))
        return self.ix._parsed[path].scopes[idx].metaclass

    def iattrs(self, path: str, idx: int, name: str) -> list:
        if path != self.path:
            self._rd(path, ("ia", idx, name))
        return self.ix._parsed[path].scopes[idx].inst_attrs.get(name, ())

    def iitems(self, path: str, idx: int, name: str) -> list:
        if path != self.path:
            self._rd(path, ("ii", idx, name))
        return self.ix._parsed[path].scopes[idx].inst_items.get(name, ())

    def sites(self, path: str, name: str) -> list:
        if path != self.path:
            self._rd(path, ("S", name))
        return self.ix._parsed[path].sites_by_name.get(name, ())

    def astores(self, path: str, name: str, attr: str) -> tuple:
        if path != self.path:
            self._rd(path, ("AS", name, attr))
        return file_attr_stores(self.ix._parsed[path]).get((name, attr), ())

    def decos(self, path: str, name: str) -> list:
        if path != self.path:
            self._rd(path, ("D", name))
        return self.ix._parsed[path].decos_by_name.get(name, ())

    def aliases(self, path: str, key: Any) -> tuple[str, ...]:
        if path != self.path:
            self._rd(path, ("AL", key))
        return file_aliases(self.ix._parsed[path]).get(key, ())

    def param_calls(self, path: str) -> tuple[str, ...]:
        if path != self.path:
            self._rd(path, ("PC",))
        return file_param_calls(self.ix._parsed[path])[0]

    def is_passed(self, path: str, key: Any) -> bool:
        if path != self.path:
            self._rd(path, ("PA", key))
        return key in file_param_calls(self.ix._parsed[path])[1]

    def alias_names(self, path: str, key: Any, exclude: str) -> list[str]:
        """The names (other than ``exclude``) bound, directly or through a chain of aliases, to
        ``key``: a name or a lambda's scope index (``ParsedFile.aliases``)."""
        out: list[str] = []
        seen = {exclude}
        todo = [key]
        while todo:
            for nm in self.aliases(path, todo.pop()):
                if nm not in seen:
                    seen.add(nm)
                    out.append(nm)
                    todo.append(nm)
        return out

    def sub_sites(self, path: str, name: str) -> tuple[int, ...]:
        if path != self.path:
            self._rd(path, ("SB", name))
        return file_subclasses(self.ix._parsed[path]).get(name, ())

    def stars(self, path: str) -> list:
        if path != self.path:
            self._rd(path, ("*",))
        return self.ix._parsed[path].star_imports

    def all_names(self, path: str) -> list | None:
        if path != self.path:
            self._rd(path, ("A",))
        return self.ix._parsed[path].all_names

    def lambda_scope(self, path: str, start: int) -> int | None:
        # not recorded: read keys compare expressions with lambda start bytes mapped to scopes
        return self.ix._parsed[path].lambdas.get(start)

    def fqn(self, path: str, idx: int) -> str:
        k = (path, idx)
        r = self.fqn_memo.get(k)
        if r is None:  # (its header read is recorded the first time)
            mod = self.ix._module_of[path]
            q = self.hdr(path, idx).qual
            r = self.fqn_memo[k] = f"{mod}.{q}" if q else mod
        return r

    def absolute(self, path: str, module: str, level: int) -> str | None:
        if level == 0:
            return module
        mod = self.ix._module_of[path]
        is_pkg = _strip_suffix(path).endswith("/__init__") or _strip_suffix(path) == "__init__"
        return _absolute(mod, is_pkg, module, level)

    # ------------------------------------------------------------------ memoised values
    def memoized(self, key: tuple, deep: bool, compute: Any, *args: Any) -> frozenset:
        """``frozenset(compute(*args))`` memoised under ``key``. A key already being computed (a
        cycle) holds what it is known to hold so far (``cycle_hit``); with ``deep`` the computation
        counts as one level of nesting, and past ``MAX_DEPTH`` levels it is not done: empty, and
        the resolution is marked truncated. A computation that meets its own key is settled or
        deferred (``cycled``); one resting on an unfinished key is provisional (``finish``)."""
        r = self.memo.get(key)
        if r is not None:
            return r
        prov = self.prov
        if prov and key in prov:  # (the emptiness tests spare hashing a deep key again)
            return self.prov_hit(prov[key])
        active = self.active
        serial = self.serial + 1
        if active.setdefault(key, serial) != serial:  # already being computed (a lower serial)
            return self.cycle_hit(key)
        if deep:
            if self.depth >= self.max_depth:
                del active[key]
                self.truncated = True
                return EMPTY
            self.depth += 1
        self.serial = serial
        lows = self.lows
        lows.append(serial)
        mark = len(prov)
        r = frozenset(compute(*args))
        if self.cycles and key in self.cycles:
            r = self.cycled(key, serial, r, mark, compute, args)
        if deep:
            self.depth -= 1
        self.finish(key, serial, r)
        return r

    def finish(self, key: tuple, serial: int, r: frozenset, keep: bool = True) -> None:
        """``key``'s computation is over: its value (when ``keep``) is final, or provisional when
        it rested on a key further out, which the enclosing computation now rests on too."""
        lows = self.lows
        low = lows.pop()
        del self.active[key]
        if low < serial:
            if keep:
                self.prov[key] = (r, low)
            if low < lows[-1]:
                lows[-1] = low
        elif keep:
            self.memo[key] = r

    def prov_hit(self, p: tuple[frozenset, int]) -> frozenset:
        """A provisional value: the asking computation rests on the same unsettled key."""
        r, low = p
        if low < self.lows[-1]:
            self.lows[-1] = low
        return r

    def cycle_hit(self, key: tuple) -> frozenset:
        """``key`` is being computed: what it is known to hold so far; the asking computation
        (and those it is part of, up to ``key``) rest on it, and ``key`` will be settled."""
        self.cycles.add(key)
        serial = self.active[key]
        if serial < self.lows[-1]:
            self.lows[-1] = serial
        return self.partial.get(key, EMPTY)

    def cycled(self, key: tuple, serial: int, r: frozenset, mark: int, compute: Any, args: tuple) -> frozenset:
        """``key``'s computation (``serial``, still on the stack) read ``key``: settle it, or defer
        it to the key further out it also rests on. The values made provisional since ``mark``
        that rest on it then become final, or rest on what it rests on."""
        if self.lows[-1] < serial:
            self.defer(key, r, serial)
        else:
            r = self.settle(key, r, serial, mark, compute, args)
        low = self.lows[-1]
        prov = self.prov
        n = len(prov) - mark
        if n:
            if low < serial:
                for k in list(islice(reversed(prov), n)):
                    v, at = prov[k]
                    if at >= serial:
                        prov[k] = (v, low)
            else:  # settled: everything since mark rested on it alone
                memo = self.memo
                for k in list(islice(reversed(prov), n)):
                    memo[k] = prov.pop(k)[0]
        return r

    def defer(self, key: tuple, r: frozenset, serial: int) -> None:
        """``key`` met itself, but its computation also rests on a key further out (one cycle
        through both): it is settled with that key's rounds, reading meanwhile what it held in the
        previous round (``settle``), instead of settling on its own and again in every round."""
        self.cycles.discard(key)
        known = _carried(r)
        if known != self.partial.get(key, EMPTY):
            self.partial[key] = known
            self.moved += 1
        self.deferred.append((key, serial))

    def settle(self, key: tuple, r: frozenset, serial: int, mark: int, compute: Any, args: tuple) -> frozenset:
        """``key``'s computation met ``key`` itself (a cycle: a function calling its parameter,
        passed itself, ``def f(a): a(g)`` with ``f(f)``), which then read as what was known so
        far, and rested on nothing further out. Compute again with the larger value until neither
        it nor the keys deferred to it (``defer``) grow (at most ``SETTLE_ROUNDS`` times), first
        forgetting the provisional values of the pass, which rest on ``key`` or on the keys nested
        in it (``mark``: ``prov``'s size when the pass began). Final values of the pass read no
        unfinished key: they are kept."""
        deferred = self.deferred
        members = len(deferred)
        while members and deferred[members - 1][1] > serial:
            members -= 1
        moved = any(self.partial.get(k) for k, _ in deferred[members:])  # grown in the first pass
        for _ in range(SETTLE_ROUNDS):
            self.cycles.discard(key)
            if self.settle_budget <= 0:
                break  # a pathological file: nested cycles recomputed over and over; keep what is known
            self.settle_budget -= 1
            known = _carried(r)
            if known == self.partial.get(key, EMPTY) and not moved:
                break
            self.partial[key] = known
            # the values made provisional since the pass began are the last ones (dicts keep
            # insertion order), and all rest on ``key``: nothing it read rested further out
            prov = self.prov
            for k in list(islice(reversed(prov), len(prov) - mark)):
                del prov[k]
            before = self.moved
            r = frozenset(compute(*args))
            moved = self.moved != before
            if key not in self.cycles and not moved:
                break
        self.cycles.discard(key)
        self.partial.pop(key, None)
        self.forget_deferred(serial)
        return r

    def forget_deferred(self, serial: int) -> None:
        """The keys deferred to the computation ``serial`` (nested in it) are settled."""
        deferred = self.deferred
        while deferred and deferred[-1][1] > serial:
            self.partial.pop(deferred.pop()[0], None)

    # ------------------------------------------------------------------ names
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
                if (first or sc.kind != "class") and sc.bindings.get(name) is not None and name not in sc.nonlocals:
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
                (first or sc.kind != "class")
                and self.binds(path, cur, name) is not None
                and name not in self.globs(path, cur).nonlocals
            ):
                return cur
            first = False
            cur = sc.parent
        return 0

    def eval_bindings(self, path: str, idx: int, name: str) -> frozenset:
        key = ("b", path, idx, name)
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
        key = ("m", mod, name, for_name)
        r = self.memo.get(key)
        if r is not None:
            return r, True
        if key in self.prov:
            return self.prov_hit(self.prov[key]), True
        if key in self.active:  # a cycle: not found
            return EMPTY, False
        if depth > 50:
            return EMPTY, False
        if path is None:
            path = self.mod_path(mod)
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
                    r = frozenset({("B?" if ext_stars else "B", name)})
                    return r, True, True
                if len(ext_stars) == 1:
                    r = frozenset({("X", f"{ext_stars[0]}.{name}")})
                    return r, True, True
                return EMPTY, False, False
        sub = f"{mod}.{name}" if mod else name
        if not for_name and self.is_internal(sub):
            r = frozenset({("M", sub)})
            return r, True, True
        if for_name and name in BUILTIN_NAMES:
            return frozenset({("B", name)}), True, False
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
        if tag == "def":
            s = self.hdr(path, v[1])
            return frozenset({("C" if s.kind == "class" else "F", path, v[1])})
        if tag == "p":
            return self.param_values(path, v[1], v[2])
        if tag == "im":
            mod = v[1]
            if self.is_internal(mod):
                return frozenset({("M", mod)})
            if self.is_internal(mod.split(".", 1)[0]):
                return EMPTY  # a missing module of one of the repository's packages
            return frozenset({("X", mod)})
        if tag == "if":
            _, module, name, level = v
            am = self.absolute(path, module, level)
            if am is None:
                return EMPTY
            if level == 0 and not self.is_internal(am):
                if self.is_internal(am.split(".", 1)[0]):
                    return EMPTY  # a missing module of one of the repository's packages
                return frozenset({("X", f"{am}.{name}")})
            if not self.is_internal(am):
                return EMPTY
            vals, _found = self.module_attr(am, name)
            return vals
        if tag == "it":
            return self.iter_values(path, idx, v[1])
        if tag == "ix":
            out: set = set()
            for c in self.eval_binding(path, idx, v[1]):
                if c[0] == "PR":  # (key, value) of dict.items(): only values are known
                    if v[2] == 1 or v[2] == -1:
                        out |= c[1]
                    continue
                if c[0] == "T" and c[3][0] == "t":
                    elts = c[3][1]
                    i = v[2]  # negative after a starred target: from the end
                    if -len(elts) <= i < len(elts) and not any(e[0] == "*" for e in elts):
                        out |= self.eval(c[1], c[2], elts[i])
            return frozenset(out)
        if tag == "w" or tag == "aw":
            out = set()
            enter = "__enter__" if tag == "w" else "__aenter__"
            for c in self.eval(path, idx, v[1]):
                if c[0] == "I":
                    for m in self.class_lookup(c[1], c[2], enter):
                        if m[0] == "F":
                            out |= self.returns(m[1], m[2])
                elif c[0] == "T" and self.is_context_generator(c):
                    for x in c[3][1][1:]:  # what a @contextmanager generator yields
                        out |= self.eval(c[1], c[2], x)
            return frozenset(out)
        if tag == "ann":
            return self.ann_values(path, idx, v[1])
        if tag == "at":
            return self.eval_binding(path, v[1], v[2])
        if tag == "exc":
            out = set()
            for e in v[1]:
                for c in self.eval(path, idx, e):
                    if c[0] == "C":
                        out.add(("I", c[1], c[2]))
                    elif c[0] == "X" or c[0] == "XM":
                        out.add(("XI", c[1]))
            return frozenset(out)
        return self.eval(path, idx, v)

    def is_context_generator(self, c: Any) -> bool:
        """``c`` is the generator object of a ``@contextlib.contextmanager`` (or
        ``asynccontextmanager``) function's call (``_returns``)."""
        _, path, fidx, disp = c
        s = self.hdr(path, fidx)
        if s.kind != "function" or not s.is_generator or not s.decorators:
            return False
        if disp != ("t", (("*", ("u",)), *self.rets(path, fidx)[2])):
            return False
        for d in s.decorators:
            for v in self.eval(path, s.parent, d):
                if v in (("X", "contextlib.contextmanager"), ("X", "contextlib.asynccontextmanager")):
                    return True
        return False

    def ann_values(self, path: str, idx: int, exprs: tuple, depth: int = 0) -> frozenset:
        out: set = set()
        for e in exprs:
            if e[0] == "ctr":  # list[C], dict[str, C], Iterator[C]: a container of C instances
                if e[1] == "p":  # tuple[A, B]: by position
                    disp = ("t", tuple(("ai", pos) for pos in e[2]))
                elif e[1] == "t":
                    disp = ("t", (("*", ("u",)), ("ai", e[2])))
                else:
                    disp = ("d", ((("u",), ("ai", e[2])),))
                out.add(("T", path, idx, disp))
                continue
            as_class = e[0] == "cls"
            if as_class:
                e = e[1]
            for c in self.eval(path, idx, e):
                if c[0] == "C":
                    out.add(c if as_class else ("I", c[1], c[2]))
                elif c[0] == "TA":  # a type alias (``Graph: TypeAlias = Dict[str, State]``)
                    if depth < 8:  # (aliases naming each other)
                        vals = self.ann_values(c[1], c[2], c[3], depth + 1)
                        out |= {_class_of(v) for v in vals} - {None} if as_class else vals
                elif c[0] == "X" and c[1] in _SELF_TYPES:
                    # typing.Self in a method's annotation: the class the method is defined in
                    if idx >= 0 and self.hdr(path, idx).kind == "class":
                        out.add(("C", path, idx) if as_class else ("I", path, idx))
                elif (c[0] == "X" or c[0] == "XM") and c[1] not in _ANY_TYPES:  # (Any: not a class)
                    out.add(("X", c[1]) if as_class else ("XI", c[1]))
        return frozenset(out)

    def param_values(self, path: str, fidx: int, i: int) -> frozenset:
        f = self.hdr(path, fidx)
        name, star, ann, default = self.params_of(path, fidx)[i]
        out: set = set()
        if star:
            # *args: a tuple of the extra positional arguments; **kwargs: a dict of the extra
            # keyword arguments (by the call sites; annotations name the items, not the container)
            return self.param_flow(path, fidx, i) if star in ("*", "**") else EMPTY
        if ann is not None:
            out |= self.ann_values(path, f.parent, ann[1])
        if default is not None:
            out |= self.eval(path, f.parent, default)
        if i == 0 and f.kind == "function" and f.parent >= 0 and self.hdr(path, f.parent).kind == "class" and ann is None:
            deco = self.method_decorators(path, fidx)
            if "staticmethod" not in deco:
                cls = f.parent
                if "classmethod" in deco or f.name in ("__new__", "__init_subclass__", "__class_getitem__"):
                    out.add(("C", path, cls))
                else:
                    out.add(("I", path, cls))
                return frozenset(out)
        out |= self.param_flow(path, fidx, i)
        return frozenset(out)

    # ------------------------------------------------------------------ parameter flow
    def param_flow(self, path: str, fidx: int, i: int) -> frozenset:
        """Values passed for parameter ``i`` of function ``fidx`` by the call sites and decorator
        sites of the function's own module (flow-insensitive). Call sites are found by the
        callee's last name, then checked by evaluating the callee."""
        return self.memoized(("pf", path, fidx, i), False, self._param_flow, path, fidx, i)

    def _param_flow(self, path: str, fidx: int, i: int) -> set:
        f = self.hdr(path, fidx)
        params = self.params_of(path, fidx)
        pname = params[i][0]
        spec = self._param_spec(params, i)
        me = ("F", path, fidx)
        out: set = set()
        is_method = f.kind == "function" and f.parent >= 0 and self.hdr(path, f.parent).kind == "class"
        deco = self.method_decorators(path, fidx) if is_method else set()
        in_class = f.parent >= 0 and self.hdr(path, f.parent).kind == "class"
        if f.kind == "function" or (f.kind == "lambda" and not in_class):
            if f.kind == "lambda":
                names = self.alias_names(path, fidx, "")
            elif is_method and f.name == "__init__":
                cname = self.hdr(path, f.parent).name
                names = [cname, *self.alias_names(path, cname, cname)]
            elif is_method:
                names = [f.name]  # an alias of a method may be bound or not: positions unknown
            else:
                names = [f.name, *self.alias_names(path, f.name, f.name)]
            via_param: list[str] = []
            if not is_method and (
                (f.kind == "lambda" and self.is_passed(path, fidx)) or any(self.is_passed(path, n) for n in names)
            ):
                # passed as an argument to a function that calls its parameter with arguments
                # (``def run(cb): cb(x)``): it gets them
                names += [n for n in self.param_calls(path) if n not in names]
            elif is_method and self.is_passed(path, "." + f.name):
                # a method passed (``run(self.step)``: bound; a staticmethod) and called through
                # a parameter: ``cb(x)`` passes x after the bound receiver
                via_param = [n for n in self.param_calls(path) if n not in names]
            for nm in names + via_param:
                for sc, e in self.sites(path, nm):
                    fn = e[1]
                    vals = self.eval(path, sc, fn)
                    offset = -1
                    if me in vals:
                        offset = 0
                        if nm in via_param:
                            offset = 0 if "staticmethod" in deco else 1
                        elif is_method and "staticmethod" not in deco and fn[0] == "a":
                            bases = self.eval(path, sc, fn[1])
                            if any(b[0] in ("I", "S") for b in bases) or "classmethod" in deco:
                                offset = 1
                    elif f.name == "__init__":
                        for v in vals:
                            if v[0] == "C" and me in self.class_lookup(v[1], v[2], "__init__"):
                                offset = 1
                    if offset < 0:
                        continue
                    out |= self._arg_values(path, sc, e, i - offset, pname, spec)
        if spec[0]:
            return out  # a decorator's *args / **kwargs: not modelled
        if (f.kind == "lambda" or not is_method) and (
            (f.kind == "lambda" and self.is_passed(path, fidx)) or self.is_passed(path, f.name)
        ):
            out |= self.callback_items(path, fidx, i)
        if i == 0:
            out |= self._decorated(path, fidx, [path])
        elif i == 1 and is_method and f.name in ("__init__", "__call__") and not deco & {"staticmethod", "classmethod"}:
            out |= self._decorated(path, fidx, [path], f.name)  # a class / an instance as decorator
        return out

    def callback_items(self, path: str, fidx: int, i: int) -> set:
        """Parameter ``i`` of function ``fidx`` when a ``CALLBACK_BUILTINS`` call of its module
        passes it: the items of the (i-th, for ``map``) iterable."""
        me = ("F", path, fidx)
        out: set = set()
        for name, (_where, first) in CALLBACK_BUILTINS.items():
            if i > 0 and name != "map":
                continue
            for sc, e in self.sites(path, name):
                if ("B", name) not in self.eval(path, sc, e[1]):
                    continue
                a = self.callback_arg(e)
                if a is None or me not in self.eval(path, sc, a):
                    continue
                k = first + i
                if len(e[2]) > k and e[2][k][0] != "*" and not any(x[0] == "*" for x in e[2][:k]):
                    out |= self.iter_values(path, sc, e[2][k])
        return out

    def _decorated(self, path: str, fidx: int, where: list[str], method: str = "") -> set:
        """Definitions that decorator sites in ``where`` pass to function ``fidx`` (used as the
        decorator itself or returned by a decorator factory); with ``method`` (``__init__`` or
        ``__call__``), to that method of a class used as the decorator (``@Cls``) or of an
        instance a decorator factory returns (``@Cls(arg)``)."""
        f = self.hdr(path, fidx)
        me = ("F", path, fidx)
        if method:
            dnames = [self.hdr(path, f.parent).name]
            want = "C" if method == "__init__" else "I"
        else:
            dnames = [f.name]
            if f.parent > 0 and self.hdr(path, f.parent).kind == "function":
                dnames.append(self.hdr(path, f.parent).name)  # a decorator factory's inner function
        out: set = set()
        for q in where:
            for nm in dnames:
                for de, didx in self.decos(q, nm):
                    dscope = self.hdr(q, didx).parent
                    if de[0] == "c":
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

    def deco_input(self, path: str, didx: int, k: int) -> frozenset:
        """What the ``k``-th decorator (outermost first) of scope ``didx`` is applied to: the
        definition itself for the innermost one, else what the decorator below it returns. A
        decorator whose result is known (an internal function or factory, a class, an instance
        with ``__call__``) gives its return values; one that is not (external, builtin,
        unresolved) is taken as transparent, as a decorated name keeps naming the function."""
        return self.memoized(("di", path, didx, k), False, self._deco_input, path, didx, k)

    def _deco_input(self, path: str, didx: int, k: int) -> set:
        s = self.hdr(path, didx)
        decorators = s.decorators
        if k + 1 >= len(decorators):
            return set(self.eval_binding(path, s.parent, ("def", didx)))
        fvals = self.decorator_value(path, s.parent, decorators[k + 1])
        out: set = set()
        transparent = not fvals
        for v in fvals:
            if v[0] == "F":
                out |= self.returns(v[1], v[2])
            elif v[0] == "C":
                out.add(("I", v[1], v[2]))
            elif v[0] == "I":
                for m in self.class_lookup(v[1], v[2], "__call__"):
                    if m[0] == "F":
                        out |= self.returns(m[1], m[2])
            else:
                transparent = True
        if transparent:
            out |= self.deco_input(path, didx, k + 1)
        return out

    def decorator_value(self, path: str, scope: int, d: Any) -> set:
        """What decorator expression ``d`` (evaluated in ``scope``) is: for ``@factory(arg)``, what
        the factory returns."""
        if d[0] != "c":
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
        return self.memoized(("dw", path, fidx, k), False, self._wrappers, path, fidx, k)

    def _wrappers(self, path: str, fidx: int, k: int) -> set:
        s = self.hdr(path, fidx)
        decorators = s.decorators
        if k >= len(decorators):
            return set()
        fvals = self.decorator_value(path, s.parent, decorators[k])
        out: set = set()
        known = False
        for v in fvals:
            if v[0] == "F":
                known = True
                out.update(self.closures(v[1], v[2]))
            elif v[0] == "C":
                known = True
                out.add(("I", v[1], v[2]))
            elif v[0] == "I":
                known = True
                for m in self.class_lookup(v[1], v[2], "__call__"):  # applied: what it returns
                    if m[0] == "F":
                        out.update(self.closures(m[1], m[2]))
        return out if known else set(self.wrappers(path, fidx, k + 1))

    def closures(self, path: str, fidx: int) -> list:
        """The wrappers decorator ``fidx`` returns: functions it returns that are defined inside
        it and do not themselves return such closures (a factory usable bare or with arguments,
        ``return decorator(f) if callable(f) else decorator``, also returns its ``decorator``)."""
        return [
            w for w in self.returns(path, fidx)
            if w[0] == "F" and self.nested_in(w, path, fidx)
            and not any(r[0] == "F" and self.nested_in(r, w[1], w[2]) for r in self.returns(w[1], w[2]))
        ]

    def nested_in(self, v: Any, path: str, fidx: int) -> bool:
        """Value ``v`` is a function defined (at any depth) inside function ``fidx`` of ``path``."""
        if v[1] != path:
            return False
        i = self.hdr(path, v[2]).parent
        while i > fidx:
            i = self.hdr(path, i).parent
        return i == fidx

    def cross_param(self, path: str, fidx: int, i: int) -> frozenset:
        """Values other modules pass for parameter ``i`` of a module-level function (or of a
        function a module-level decorator factory returns): their ``f(...)`` / ``mod.f(...)``
        call sites and their decorator sites. Used for callees only (a parameter that is called,
        directly or as an element): the callback case. Makes the file depend on ``<calls>NAME``."""
        return self.memoized(("xp", path, fidx, i), False, self._cross_param, path, fidx, i)

    def _cross_param(self, path: str, fidx: int, i: int) -> set:
        f = self.hdr(path, fidx)
        out: set = set()
        mod = self.modname(path)
        module_level = f.kind == "function" and f.parent == 0
        fp = self.hdr(path, f.parent) if f.parent >= 0 else None
        factory = f.kind == "function" and f.parent > 0 and fp.kind == "function" and fp.parent == 0  # type: ignore[union-attr]
        params = self.params_of(path, fidx)
        spec = self._param_spec(params, i)
        if module_level:
            nm = f.name
            pname = params[i][0]
            me = ("F", path, fidx)
            self.deps.add(CALLS_PREFIX + nm)
            for q in self.importers_calling(mod, nm):
                if q == path:
                    continue
                for sc, e in self.sites(q, nm):
                    fn = e[1]
                    if fn[0] == "a" and fn[1][0] != "n":
                        continue  # obj.f(...) on a computed object: not a module function call
                    if me in self.eval(q, sc, fn):
                        out |= self._arg_values(q, sc, e, i, pname, spec)
        if i == 0 and (module_level or factory) and not spec[0]:
            names = [f.name] + ([fp.name] if factory else [])  # type: ignore[union-attr]
            where: set[str] = set()
            for nm in names:
                self.deps.add(CALLS_PREFIX + nm)
                where.update(q for q in self.importers_calling(mod, nm) if q != path)
            out |= self._decorated(path, fidx, sorted(where))
        return out

    def importers_calling(self, mod: str, name: str) -> list[str]:
        r = self.ix.importers_calling(mod, name)
        self.ix_reads[(mod, name)] = tuple(r)
        return r

    def callee_cross_values(self, path: str, sc: int, fn: Any) -> set:
        """Extra values of a callee that is a parameter (or an element of a parameter) of a
        module-level function, passed from other modules (see ``cross_param``)."""
        if fn[0] != "n":
            return set()
        bs = self.binding_scope(path, sc, fn[1])
        if bs is None or bs == 0:
            return set()
        out: set = set()
        for v in self.binds(path, bs, fn[1]) or ():
            if v[0] == "p":
                out |= self.cross_param(path, v[1], v[2])
            elif v[0] == "it" and v[1][0] == "n":
                bs2 = self.binding_scope(path, bs, v[1][1])
                if bs2 is None or bs2 == 0:
                    continue
                for v2 in self.binds(path, bs2, v[1][1]) or ():
                    if v2[0] == "p":
                        for c in self.cross_param(path, v2[1], v2[2]):
                            if c[0] == "T":
                                disp = c[3]
                                elts = disp[1] if disp[0] == "t" else tuple(k for k, _ in disp[1])
                                for x in elts:
                                    out |= self.iter_values(c[1], c[2], x[1]) if x[0] == "*" else self.eval(c[1], c[2], x)
        return out

    @staticmethod
    def _param_spec(params: Any, i: int) -> tuple[str, bool, frozenset]:
        """(star of parameter i, whether it is keyword-only because a ``*args`` precedes it, the
        names of the named parameters: what ``**kwargs`` does not receive)."""
        star = params[i][1]
        kwonly = False
        for p in params[:i]:
            if p[1] == "*":
                kwonly = True
                break
        named = frozenset(p[0] for p in params if not p[1]) if star == "**" else EMPTY
        return star, kwonly, named

    def _arg_values(self, path: str, sc: int, e: Any, j: int, pname: str, spec: tuple = ("", False, EMPTY)) -> frozenset:
        """What call ``e`` (in scope ``sc``) passes for the parameter at position ``j`` (after
        the receiver) named ``pname``, of kind ``spec`` (``_param_spec``)."""
        args, kwargs = e[2], e[3]
        star, kwonly, named = spec
        if j < 0:
            return EMPTY
        if star == "*":
            if any(a[0] == "*" for a in args[:j]) or len(args) <= j:
                return EMPTY
            rest = args[j:]
            if any(a[0] == "*" for a in rest):  # a splat inside: its items, positions unknown
                disp: Any = ("t", (("*", ("u",)), *(("itm", a[1]) if a[0] == "*" else a for a in rest)))
            else:
                disp = ("t", tuple(rest))
            return frozenset({("T", path, sc, disp)})
        if star == "**":
            items = tuple((("str", nm), a) for nm, a in kwargs if nm is not None and nm not in named)
            return frozenset({("T", path, sc, ("d", items))}) if items else EMPTY
        if not kwonly:
            for k, a in enumerate(args):
                if a[0] == "*":
                    inner = a[1]
                    if inner[0] == "t" and not any(x[0] == "*" for x in inner[1]):  # f(*[a, b]): spelled out
                        spelled = (e[0], e[1], (*args[:k], *inner[1], *args[k + 1 :]), e[3])
                        return self._arg_values(path, sc, spelled, j, pname, spec)
                    # f(*args): positions from here on are unknown, any item or later argument
                    out: set = set(self.iter_values(path, sc, inner))
                    for b in args[k + 1 :]:
                        out |= self.iter_values(path, sc, b[1]) if b[0] == "*" else self.eval(path, sc, b)
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
                    if c[0] == "T" and c[3][0] == "d":
                        out |= self.container_item(c, ("str", pname))
        return frozenset(out)

    @staticmethod
    def decorator_names(s: Scope) -> set[str]:
        out = set()
        for d in s.decorators:
            if d[0] == "n":
                out.add(d[1])
            elif d[0] == "a":
                out.add(d[2])
        return out

    def method_decorators(self, path: str, fidx: int) -> frozenset[str]:
        """``decorator_names`` of method ``fidx``, where a decorator that is a class of the program
        deriving from ``classmethod`` or ``staticmethod`` (Django's ``classonlymethod``) also counts
        as that builtin: its first parameter is the class, or no receiver."""
        return self.memoized(("md", path, fidx), False, self._method_decorators, path, fidx)

    def _method_decorators(self, path: str, fidx: int) -> set[str]:
        s = self.hdr(path, fidx)
        names = self.decorator_names(s)
        for cp, ci in self.decorator_classes(path, s, s.decorators):
            names.update(x[1] for x in self.mro(cp, ci)[1] if x[0] == "B" and x[1] in _METHOD_KINDS)
        return names

    def decorator_classes(self, path: str, s: Scope, decorators: Iterable[Any]) -> Iterator[tuple[str, int]]:
        """The program classes that ``decorators`` of function scope ``s`` name (``@Name``,
        ``@mod.Name``; not the builtin and standard ones of ``_PLAIN_DECORATORS``)."""
        for d in decorators:
            if d[0] not in ("n", "a") or (d[1] if d[0] == "n" else d[2]) in _PLAIN_DECORATORS:
                continue
            for v in self.eval(path, s.parent, d):
                if v[0] == "C":
                    yield v[1], v[2]

    def is_self_param(self, path: str, idx: int, name: str) -> bool:
        """``name`` is the first parameter of method scope ``idx``."""
        s = self.hdr(path, idx)
        if s.kind != "function" or s.parent < 0:
            return False
        params = self.params_of(path, idx)
        return bool(params) and params[0][0] == name and self.hdr(path, s.parent).kind == "class"

    # ------------------------------------------------------------------ expressions
    def eval(self, path: str, idx: int, e: Any) -> frozenset:
        tag = e[0]
        if tag == "n":  # ``lookup`` inlined up to its memo hits: the hottest path
            name = e[1]
            k = (path, idx, name)
            cur = self.lk_memo.get(k)
            if cur is None:
                cur = self.lk_memo[k] = self._lookup_scope(path, idx, name)
            if cur == 0:
                r = self.memo.get(("m", self.ix._module_of[path], name, True))
                return r if r is not None else self.module_name_lookup(path, name)
            k = ("b", path, cur, name)
            r = self.memo.get(k)
            return r if r is not None else self.memoized(k, True, self._eval_bindings, path, cur, name)
        if tag in ("u", "lit", "str", "int"):
            return EMPTY
        # the hottest path: memoized(key, True, self._eval, ...) written out (a call less per
        # expression, measurably slower through the helper)
        key = ("e", path, idx, e)
        r = self.memo.get(key)
        if r is not None:
            return r
        prov = self.prov
        if prov and key in prov:  # (the emptiness tests spare hashing a deep key again)
            return self.prov_hit(prov[key])
        active = self.active
        serial = self.serial + 1
        if active.setdefault(key, serial) != serial:  # already being computed (a lower serial)
            return self.cycle_hit(key)
        if self.depth >= self.max_depth:
            del active[key]
            self.truncated = True
            return EMPTY
        self.serial = serial
        lows = self.lows
        lows.append(serial)
        self.depth += 1
        mark = len(prov)
        r = frozenset(self._eval(path, idx, e))
        if self.cycles and key in self.cycles:
            r = self.cycled(key, serial, r, mark, self._eval, (path, idx, e))
        self.depth -= 1
        low = lows.pop()  # finish(), written out: the hottest path
        del active[key]
        if low < serial:
            self.prov[key] = (r, low)
            if low < lows[-1]:
                lows[-1] = low
        else:
            self.memo[key] = r
        return r

    def _eval(self, path: str, idx: int, e: Any) -> set:
        tag = e[0]
        if tag == "a":
            out: set = set()
            for b in self.eval(path, idx, e[1]):
                out |= self.getattr(b, e[2])[0]
            base = e[1][1] if e[1][0] == "N" else e[1]  # (a narrowed name is the same variable)
            if base[0] == "n":
                out |= self.stored_attr(path, idx, base[1], e[2])
            return out
        if tag == "c":
            fn = e[1]
            out = set()
            for f in self.eval(path, idx, fn):
                r = self.call_result(path, idx, f, e)
                if fn[0] == "a" and f[0] == "F":
                    if self.receiver_returns(f[1], f[2]):
                        r = self.receiver_result(path, idx, fn, f, r)
                out |= r
            if fn[0] == "a" and fn[2] in ("get", "pop", "setdefault") and e[2] and e[2][0][0] != "*":
                # mapping.get(key): the values of a dict display / items stored into the container
                key = e[2][0] if e[2][0][0] in ("str", "int") else ("u",)
                mapping = False
                for c in self.eval(path, idx, fn[1]):
                    if c[0] == "T" and c[3][0] == "d":
                        out |= self.container_item(c, key)
                        mapping = True
                out |= self.stored_items(path, idx, fn[1])
                if mapping and fn[2] in ("get", "pop") and len(e[2]) > 1 and e[2][1][0] != "*":
                    out |= self.eval(path, idx, e[2][1])  # the default of a dict's get / pop
            if fn[0] == "a" and fn[2] in ("values", "items") and not e[2] and not e[3]:
                # a view of a dict display's / a container's values: ('VW', kind, values)
                vals: set = set()
                for c in self.eval(path, idx, fn[1]):
                    if c[0] == "T" and c[3][0] == "d":
                        vals |= self.container_item(c, ("u",))
                vals |= self.stored_items(path, idx, fn[1])
                if vals:
                    out.add(("VW", fn[2], frozenset(vals)))
            return out
        if tag == "s":
            return self.subscript(path, idx, e)
        if tag == "L":
            li = self.lambda_scope(path, e[1])
            return {("F", path, li)} if li is not None else set()
        if tag in ("t", "d"):
            return {("T", path, idx, e)}
        if tag == "ai":  # an item of an annotated container: instances of the annotations
            return set(self.ann_values(path, idx, e[1]))
        if tag == "itm":  # the items of iterating e[1] (built by ``call_result`` for builtins)
            return set(self.iter_values(path, idx, e[1]))
        if tag == "or":
            out = set()
            for x in e[1]:
                out |= self.eval(path, idx, x)
            return out
        if tag == "N":
            return self.narrowed(path, idx, e)
        if tag == "R" or tag == "RI":  # flow order: the bindings (a stored item) reaching a use
            vals = self.binds(path, idx, e[1]) if tag == "R" else self.ibinds(path, idx, e[1])
            out = set()
            for v in (vals or ())[e[2] : (e[3] if tag == "R" else e[2]) + 1]:
                out |= self.eval_binding(path, idx, v)
            return out
        if tag == "ta":  # a type alias: what annotations naming it mean (``ann_values``)
            return {("TA", path, idx, e[1])}
        if tag == "*":
            return set()
        return set()

    def narrowed(self, path: str, idx: int, e: Any) -> set:
        """``x`` where ``isinstance(x, C)`` holds (``("N", x, C)``, the object of an attribute in
        the narrowed region): x's instances of C or of its subclasses (a program class deriving
        from an external C too), and its instances of external classes when C is external (which
        may derive from C: not known), else an instance of C (as the annotation ``x: C`` gives);
        C a tuple of classes too. A builtin class: nothing known (methods of builtin values are
        not edges); an unknown one: x's values unchanged."""
        vals = self.eval(path, idx, e[1])
        ce = e[2]
        classes: set = set()
        for c in ce[1] if ce[0] == "t" else (ce,):
            if c[0] != "*":
                for v in self.eval(path, idx, c):
                    if v[0] == "TA":  # isinstance(x, Alias) of a Union alias: its classes
                        classes.update(x for x in map(_class_of, self.ann_values(v[1], v[2], v[3])) if x is not None)
                    else:
                        classes.add(v)
        if not classes:
            return set(vals)
        prog = [(c[1], c[2]) for c in classes if c[0] == "C"]
        ext = {c[1] for c in classes if (c[0] == "X" or c[0] == "XM") and c[1] not in _ANY_TYPES}
        bset = {c[1] for c in classes if c[0] == "B"}
        keep = set()
        for v in vals:
            k = v[0]
            if k == "I":
                mro, externals, _ = self.mro(v[1], v[2])
                if any(c in mro for c in prog) or any(
                    x[1] in ext if x[0] == "X" or x[0] == "XM" else x[0] == "B" and x[1] in bset for x in externals
                ):
                    keep.add(v)
            elif k == "XI":
                if ext:  # may derive from the external class: not known
                    keep.add(v)
            elif bset and k not in ("S", "M"):  # displays, classes, functions: builtin instances
                keep.add(v)
        if keep:
            return keep
        return {("I", cp, ci) for cp, ci in prog} | {("XI", x) for x in ext}

    def receiver_returns(self, path: str, fidx: int) -> tuple:
        """The returns of method ``fidx`` that depend on the receiver it is called through, when
        its first parameter is not rebound in the body: ``('new',)`` for a classmethod returning
        ``cls(...)`` (directly or through a local), ``('self',)`` for ``return self`` (a fluent
        interface), ``('attr', name)`` for ``return self.name`` (which a subclass may define)."""
        key = (path, fidx)
        r = self.selfret_memo.get(key)
        if r is None:
            r = self.selfret_memo[key] = self._receiver_returns(path, fidx)
        return r

    def _receiver_returns(self, path: str, fidx: int) -> tuple:
        s = self.hdr(path, fidx)
        if s.kind != "function" or s.parent < 0 or self.hdr(path, s.parent).kind != "class":
            return ()
        deco = self.method_decorators(path, fidx) if s.decorators else set()
        params = self.params_of(path, fidx)
        if not params or "staticmethod" in deco:
            return ()
        me = params[0][0]
        if any(v[0] != "p" for v in self.binds(path, fidx, me) or ()):
            return ()  # ``cls = Base`` / ``self = other`` in the body: not the receiver
        rets = self.rets(path, fidx)[0]
        if "classmethod" in deco:

            def is_cls_call(e: Any) -> bool:
                return e[0] == "c" and e[1] == ("n", me)

            for e in rets:
                if is_cls_call(e) or (e[0] == "n" and any(is_cls_call(v) for v in self.binds(path, fidx, e[1]) or ())):
                    return (("new",),)
            return ()
        return tuple(
            ("self",) if e == ("n", me) else ("attr", e[2])
            for e in rets if e == ("n", me) or (e[0] == "a" and e[1] == ("n", me))
        )

    def receiver_result(self, path: str, idx: int, fn: Any, f: Any, r: set) -> set:
        """``fn(...)`` (``recv.m``) where method ``f`` may be inherited from a base and its result
        depends on the receiver (``receiver_returns``): through a ``Sub`` receiver, an instance
        of ``Sub`` (``Sub.create()`` returning ``cls(...)``, ``sub.step()`` returning ``self``),
        or ``Sub``'s attribute for ``return self.name``; not only what the method's own
        evaluation, done once with its own class, found."""
        rr = self.receiver_returns(f[1], f[2])
        own = ("I", f[1], self.hdr(f[1], f[2]).parent)
        kinds = ("C", "I") if rr[0][0] == "new" else ("I",)
        recv = {
            ("I", b[1], b[2]) for b in self.eval(path, idx, fn[1])
            if b[0] in kinds and f in self.class_lookup(b[1], b[2], fn[2])
        }
        subs = recv - {own}
        if not subs:
            return r
        out = set(r)
        for e in rr:
            if e[0] == "attr":
                for sub in subs:
                    out |= self.getattr(sub, e[1])[0]
            else:  # the receiver's own instance, not (only) the base's
                if own not in recv:
                    out.discard(own)
                out |= recv
        return out

    def stored_attr(self, path: str, idx: int, name: str, attr: str) -> set:
        """``name.attr`` also holds what ``name.attr = value`` statements of the file stored, where
        ``name`` is the same variable, not a parameter (``app = App(); app.handler = on_event;
        app.handler()``); a method's ``self.attr`` is the class's instance attribute instead
        (``getattr``), and a decorator's ``cls.m = wrapper`` after ``orig = cls.m`` would make the
        wrapper call itself in this flow-insensitive view."""
        bs = self.binding_scope(path, idx, name)
        binds = self.binds(path, bs, name) or () if bs is not None else ()
        if any(v[0] == "p" for v in binds):
            return set()  # an object passed in, patched (``cls.setUp = setUp`` after reading it): not followed
        out: set = set()
        for j, v in self.astores(path, name, attr):
            if self.binding_scope(path, j, name) == bs:
                out |= self.eval(path, j, v)
        for b in binds:  # ``from plugins import registry``: what plugins stores on its registry
            mpath = self.import_source(path, b)
            if mpath is not None and mpath != path:
                for j, v in self.astores(mpath, b[2], attr):
                    if self.binding_scope(mpath, j, b[2]) in (None, 0):
                        out |= self.eval(mpath, j, v)
        return out

    def import_source(self, path: str, b: Any) -> str | None:
        """The file of the internal module a ``from m import name`` binding ``b`` reads from."""
        if b[0] != "if":
            return None
        mod = self.absolute(path, b[1], b[3])
        return self.mod_path(mod) if mod is not None and self.is_internal(mod) else None

    def subscript(self, path: str, idx: int, e: Any) -> set:
        base, key = e[1], e[2]
        out: set = set()
        if key[0] == "sl":
            # a slice of a list/tuple display is a list of some of its elements (the exact ones
            # with literal bounds; else any of them, at unknown positions: a leading unknown
            # splat), not an element; items stored into a container are read back through the
            # slice expression (``_stored_items``)
            for c in self.eval(path, idx, base):
                if c[0] == "T" and c[3][0] == "t":
                    elts = c[3][1]
                    if len(key) == 3 and not any(x[0] == "*" for x in elts):
                        out.add(("T", c[1], c[2], ("t", tuple(elts[key[1] : key[2]]))))
                    else:
                        out.add(("T", c[1], c[2], ("t", (("*", ("u",)), *elts))))
            return out
        if key[0] == "n":
            key = self.constant(path, idx, key[1])
        for c in self.eval(path, idx, base):
            if c[0] == "T":
                out |= self.container_item(c, key)
            elif c[0] == "C" and key[0] == "str" and self.is_enum(c[1], c[2]):
                out.add(("I", c[1], c[2]))  # Color["RED"]: a member
        out |= self.stored_items(path, idx, base)
        return out

    def constant(self, path: str, idx: int, name: str) -> Any:
        """A name used as an index (``handlers[KIND]``) as the literal it is always bound to, in
        its scope or, through ``from m import KIND``, in m's module scope; else unknown."""
        bs = self.binding_scope(path, idx, name)
        vals = self.binds(path, bs, name) if bs is not None else None
        if vals and len(vals) == 1 and vals[0][0] == "if":
            mpath = self.import_source(path, vals[0])
            vals = self.binds(mpath, 0, vals[0][2]) if mpath is not None else None
        if vals and all(v[0] in ("str", "int") for v in vals) and len(set(vals)) == 1:
            return vals[0]
        return ("u",)

    def stored_items(self, path: str, idx: int, e: Any) -> frozenset:
        """Items put into the container ``e`` names by ``e[k] = v`` / ``e.append(v)`` / ...:
        ``e`` a name (items recorded in the scope binding it) or ``obj.attr`` of an instance."""
        return self.memoized(("items", path, idx, e), False, self._stored_items, path, idx, e)

    def _stored_items(self, path: str, idx: int, e: Any) -> set:
        out: set = set()
        if e[0] == "s" and e[2][0] == "sl":
            return set(self.stored_items(path, idx, e[1]))  # some of the items of the sliced one
        if e[0] == "n":
            bscope = self.binding_scope(path, idx, e[1])
            if bscope is not None:
                for v in self.ibinds(path, bscope, e[1]) or ():
                    out |= self.eval_binding(path, bscope, v)
        elif e[0] == "a":
            for b in self.eval(path, idx, e[1]):
                if b[0] == "I":
                    for cp, ci in self.mro(b[1], b[2])[0]:
                        for fi, v in self.iitems(cp, ci, e[2]):
                            out |= self.eval_binding(cp, fi, v)
        return out

    def binding_scope(self, path: str, idx: int, name: str) -> int | None:
        k = (path, idx, name)
        r = self.bs_memo.get(k, -1)
        if r == -1:
            r = self.bs_memo[k] = self._binding_scope(path, idx, name)
        return r

    def _binding_scope(self, path: str, idx: int, name: str) -> int | None:
        if path == self.path:  # own file: the same walk, without the recording accessors
            scopes = self.scopes
            if name in scopes[idx].globals:
                return 0
            cur = idx
            first = True
            while cur >= 0:
                sc = scopes[cur]
                if (first or sc.kind != "class") and (
                    sc.bindings.get(name) is not None or sc.item_bindings.get(name) is not None
                ):
                    return cur
                first = False
                cur = sc.parent
            return None
        if name in self.globs(path, idx).globals:
            return 0
        cur = idx
        first = True
        while cur >= 0:
            sc = self.hdr(path, cur)
            if (first or sc.kind != "class") and (
                self.binds(path, cur, name) is not None or self.ibinds(path, cur, name) is not None
            ):
                return cur
            first = False
            cur = sc.parent
        return None

    def container_item(self, c: Any, key: Any) -> set:
        _, cpath, cidx, disp = c
        out: set = set()
        if disp[0] == "t":
            elts = disp[1]
            if key[0] == "int" and not any(x[0] == "*" for x in elts) and -len(elts) <= key[1] < len(elts):
                return set(self.eval(cpath, cidx, elts[key[1]]))
            for x in elts:
                out |= self.iter_values(cpath, cidx, x[1]) if x[0] == "*" else self.eval(cpath, cidx, x)
        elif disp[0] == "d":
            items = disp[1]
            if key[0] in ("str", "int"):
                matched = [v for k, v in items if k == key]
                if matched or all(k[0] in ("str", "int") for k, _ in items):
                    for v in matched:
                        out |= self.eval(cpath, cidx, v)
                    return out
            for _, v in items:
                out |= self.eval(cpath, cidx, v)
        return out

    def iter_values(self, path: str, idx: int, e: Any) -> frozenset:
        """The items iterating ``e`` gives (memoised: ``xs = [*xs, x]`` is a cycle)."""
        return self.memoized(("iv", path, idx, e), True, self._iter_values, path, idx, e)

    def _iter_values(self, path: str, idx: int, e: Any) -> set:
        out: set = set(self.stored_items(path, idx, e))
        for c in self.eval(path, idx, e):
            if c[0] == "VW":
                if c[1] == "values":
                    out |= c[2]
                else:
                    out.add(("PR", c[2]))
            elif c[0] == "T":
                disp = c[3]
                if disp[0] == "t":
                    for x in disp[1]:
                        out |= self.iter_values(c[1], c[2], x[1]) if x[0] == "*" else self.eval(c[1], c[2], x)
                else:
                    for k, _v in disp[1]:
                        out |= self.eval(c[1], c[2], k)
            elif c[0] == "C" and self.is_enum(c[1], c[2]):
                out.add(("I", c[1], c[2]))  # iterating an enum class gives its members
            elif c[0] == "I":
                for it in self.class_lookup(c[1], c[2], "__iter__"):
                    if it[0] != "F":
                        continue
                    for itv in self.returns(it[1], it[2]):
                        if itv[0] == "T":  # a generator __iter__: what it yields
                            for x in itv[3][1]:
                                out |= self.iter_values(itv[1], itv[2], x[1]) if x[0] == "*" else self.eval(itv[1], itv[2], x)
                        elif itv[0] == "I":
                            for nx in self.class_lookup(itv[1], itv[2], "__next__"):
                                if nx[0] == "F":
                                    out |= self.returns(nx[1], nx[2])
        return frozenset(out)

    # ------------------------------------------------------------------ calls
    def call_result(self, path: str, idx: int, f: Any, e: Any) -> set:
        k = f[0]
        if k == "F":
            return set(self.returns(f[1], f[2]))
        if k == "C":
            return {("I", f[1], f[2])}
        if k == "I":
            out: set = set()
            for m in self.class_lookup(f[1], f[2], "__call__"):
                if m[0] == "F":
                    out |= self.returns(m[1], m[2])
            return out
        if k == "X" or k == "XM":
            name = f[1]
            if name == "functools.partial" and e[2]:
                a0 = e[2][0]
                return set(self.eval(path, idx, a0)) if a0[0] != "*" else set()
            last = name.rsplit(".", 1)[-1]
            if last[:1].isupper():
                return {("XI", name)}
            return set()
        if k in ("B", "B?"):
            if f[1] == "super":
                return self.super_value(path, idx, e)
            if f[1] == "type" and len(e[2]) == 1 and not e[3] and e[2][0][0] != "*":
                return {("C", v[1], v[2]) for v in self.eval(path, idx, e[2][0]) if v[0] == "I"}
            if f[1] in ("staticmethod", "classmethod") and len(e[2]) == 1 and e[2][0][0] != "*":
                return set(self.eval(path, idx, e[2][0]))
            if f[1] == "getattr" and len(e[2]) >= 2 and e[2][1][0] == "str" and e[2][0][0] != "*":
                # getattr(obj, "name"[, default]): obj.name, or the default
                out = set()
                for b in self.eval(path, idx, e[2][0]):
                    out |= self.getattr(b, e[2][1][1])[0]
                if len(e[2]) > 2 and e[2][2][0] != "*":
                    out |= self.eval(path, idx, e[2][2])
                return out
            if k == "B" and f[1] in ITEM_BUILTINS:
                return self.items_result(path, idx, f[1], e)
            return set()
        return set()

    def items_result(self, path: str, idx: int, name: str, e: Any) -> set:
        """What a builtin that passes items on returns: ``next(it)`` an item; ``list(x)`` /
        ``tuple(x)`` x's display itself (same positions); ``sorted``, ``reversed``, ``set``,
        ``iter``, ``filter``, ... a container of x's items at unknown positions; ``enumerate(x)``
        (index, item) pairs; ``zip(a, b)`` (item of a, item of b) tuples."""
        args = e[2]
        if not args or any(a[0] == "*" for a in args):
            return set()
        if name == "next":
            out = set(self.iter_values(path, idx, args[0]))
            if len(args) > 1:
                out |= self.eval(path, idx, args[1])
            return out
        if name == "zip":
            item: Any = ("t", tuple(("itm", a) for a in args))
        elif name == "enumerate":
            item = ("t", (("u",), ("itm", args[0])))
        else:
            src = args[1] if name == "filter" else args[0]
            if name in ("list", "tuple") and len(args) == 1:
                vals = self.eval(path, idx, src)
                out = {v for v in vals if v[0] == "T" and v[3][0] == "t"}
                if out and len(out) == len(vals) and not self.stored_items(path, idx, src):
                    return out
            item = ("itm", src)
        return {("T", path, idx, ("t", (("*", ("u",)), item)))}

    def super_value(self, path: str, idx: int, e: Any) -> set:
        args = e[2]
        if args:
            out = set()
            for c in self.eval(path, idx, args[0]):
                if c[0] == "C":
                    out.add(("S", c[1], c[2]))
            return out
        cur = idx
        while cur >= 0:
            s = self.hdr(path, cur)
            if s.kind == "function" and s.parent >= 0 and self.hdr(path, s.parent).kind == "class":
                return {("S", path, s.parent)}
            cur = s.parent
        return set()

    def returns(self, path: str, fidx: int) -> frozenset:
        return self.memoized(("r", path, fidx), False, self._returns, path, fidx)

    def _returns(self, path: str, fidx: int) -> set:
        s = self.hdr(path, fidx)
        out: set = set()
        returns, return_ann, yields = self.rets(path, fidx)
        if s.is_generator:
            # a generator object: a container of what it yields (iteration, next())
            out.add(("T", path, fidx, ("t", (("*", ("u",)), *yields))))
            return out
        for e in returns:
            out |= self.eval(path, fidx, e)
        if return_ann is not None and s.parent >= 0:
            out |= self.ann_values(path, s.parent, return_ann[1])
        return out

    # ------------------------------------------------------------------ classes
    def mro(self, path: str, cidx: int) -> tuple[list[tuple[str, int]], list[Any], list[tuple]]:
        """(internal classes in C3 order starting with the class itself, external/builtin bases,
        the same classes as ``(path, idx, scope, own file?)`` for the lookups that walk the MRO:
        ``_first_binder``, ``getattr``; they record their reads themselves)."""
        key = (path, cidx)
        r = self.mro_memo.get(key)
        if r is not None:
            return r
        if self.depth >= self.max_depth:
            self.truncated = True
            return ([key], [], self._walk([key]))
        self.mro_memo[key] = ([key], [], self._walk([key]))  # cycle guard
        self.depth += 1
        try:
            return self._mro(path, cidx, key)
        finally:
            self.depth -= 1

    def _walk(self, classes: list[tuple[str, int]]) -> list[tuple]:
        parsed = self.ix._parsed
        own = self.path
        return [(cp, ci, parsed[cp].scopes[ci], cp == own) for cp, ci in classes]

    def _mro(self, path: str, cidx: int, key: tuple[str, int]) -> tuple[list[tuple[str, int]], list[Any], list[tuple]]:
        s = self.hdr(path, cidx)
        bases: list[tuple[str, int]] = []
        externals: list[Any] = []
        for b in self.bases_of(path, cidx):
            for v in sorted(self.eval(path, s.parent, b), key=repr):
                if v[0] == "C":
                    if (v[1], v[2]) not in bases:
                        bases.append((v[1], v[2]))
                elif v[0] in ("X", "XM", "B", "B?") and v not in externals:
                    if not (v[0] == "B" and v[1] == "object"):
                        externals.append(v)
        seqs = [list(self.mro(*b)[0]) for b in bases] + [list(bases)]
        out = [key]
        ok = True
        while any(seqs):
            cand = None
            for sq in seqs:
                if not sq:
                    continue
                h = sq[0]
                if not any(h in other[1:] for other in seqs):
                    cand = h
                    break
            if cand is None:
                ok = False
                break
            out.append(cand)
            for sq in seqs:
                if sq and sq[0] == cand:
                    del sq[0]
        if not ok:  # inconsistent hierarchy: depth-first, left to right
            out = [key]
            for b in bases:
                for c in self.mro(*b)[0]:
                    if c not in out:
                        out.append(c)
        for b in bases:
            for x in self.mro(*b)[1]:
                if x not in externals:
                    externals.append(x)
        r = (out, externals, self._walk(out))
        self.mro_memo[key] = r
        return r

    def metaclasses(self, path: str, cidx: int) -> tuple[tuple[str, int], ...]:
        """The program classes that are class ``cidx``'s metaclass: the ``metaclass=`` of the
        first class of its MRO that names one (Python takes the most derived of the bases'
        metaclasses; the first named is that one unless the hierarchy is inconsistent)."""
        key = (path, cidx)
        r = self.meta_memo.get(key)
        if r is not None:
            return r
        self.meta_memo[key] = ()  # cycle guard (a metaclass naming itself)
        out: tuple[tuple[str, int], ...] = ()
        for cp, ci in self.mro(path, cidx)[0]:
            e = self.metaclass_of(cp, ci)
            if e is not None:
                vals = self.eval(cp, self.hdr(cp, ci).parent, e)
                out = tuple(sorted((v[1], v[2]) for v in vals if v[0] == "C"))
                break
        self.meta_memo[key] = out
        return out

    def subclass_files(self, path: str, cidx: int) -> tuple[str, tuple[str, ...]]:
        """Class ``cidx``'s name and the files where its subclasses may be (recorded: a
        ``<sub>NAME`` dependency and the answer, so a new or removed subclass re-resolves)."""
        name = self.hdr(path, cidx).name
        self.deps.add(SUB_PREFIX + name)
        files = self.sub_reads[name] = self.ix.subclass_files(name)
        return name, files

    def subclasses(self, path: str, cidx: int) -> list[tuple[str, int]]:
        """The internal classes whose MRO includes class ``cidx`` of ``path`` (not itself), found
        through the bases' names (``PythonIndex.subclass_files``) and confirmed by evaluating
        them; sorted, so the answer does not depend on the order of discovery."""
        key = (path, cidx)
        r = self.sub_memo.get(key)
        if r is not None:
            return r
        self.sub_memo[key] = []  # cycle guard
        name, files = self.subclass_files(path, cidx)
        found: set[tuple[str, int]] = set()
        for q in files:
            for di in self.sub_sites(q, name):
                d = (q, di)
                if d != key and d not in found and key in self.mro(q, di)[0][1:]:
                    found.add(d)
                    found.update(self.subclasses(q, di))
        found.discard(key)
        r = self.sub_memo[key] = sorted(found)
        return r

    def is_dataclass(self, path: str, cidx: int) -> bool:
        """A class of its MRO is decorated ``@dataclass`` (``dataclasses``', pydantic's): the
        ``__init__`` it generates calls ``__post_init__``."""
        return any("dataclass" in self.decorator_names(self.hdr(cp, ci)) for cp, ci in self.mro(path, cidx)[0])

    def is_enum(self, path: str, cidx: int) -> bool:
        """The class derives from ``enum.Enum`` (or another enum base of the standard library)."""
        return any(x[0] == "X" and x[1] in _ENUM_BASES for x in self.mro(path, cidx)[1])

    def _first_binder(self, walk: list[tuple], name: str, start_after: bool) -> tuple | None:
        """The first class of an MRO (``mro(...)[2]``; after the first with ``start_after``) that
        binds ``name``: (path, idx, its bindings of the name); ``binds`` inlined over the walk."""
        reads = self.reads
        for cp, ci, sc, own in islice(walk, 1, None) if start_after else walk:
            if not own:
                r = reads.get(cp)
                if r is None:
                    r = reads[cp] = set()
                r.add(("b", ci, name))
            bvals = sc.bindings.get(name)
            if bvals is not None:
                return cp, ci, bvals
        return None

    def _class_value(self, hit: tuple | None, externals: list[Any], name: str) -> frozenset:
        """``class_lookup``'s value, given the ``_first_binder`` of the name."""
        if hit is not None:
            return self.eval_bindings(hit[0], hit[1], name)
        if len(externals) == 1:
            x = externals[0]
            return frozenset({("XM" if x[0] in ("X", "XM") else "BM", f"{x[1]}.{name}")})
        return EMPTY

    def class_lookup(self, path: str, cidx: int, name: str, start_after: bool = False) -> frozenset:
        """Values of ``Class.name`` (methods as functions; properties -> their getter function)."""
        _, externals, walk = self.mro(path, cidx)
        return self._class_value(self._first_binder(walk, name, start_after), externals, name)

    def property_getters(self, path: str, cidx: int, name: str, start_after: bool = False) -> list[tuple[str, int]]:
        return self._getters(self._first_binder(self.mro(path, cidx)[2], name, start_after))

    def _getters(self, hit: tuple | None, kind: str = "") -> list[tuple[str, int]]:
        """The property getters among the bindings a ``_first_binder`` found; with ``kind``
        ('setter', 'deleter'), the ``@name.setter`` / ``@name.deleter`` methods instead."""
        if hit is None:
            return []
        cp, _ci, bvals = hit
        out = []
        for v in bvals:
            if v[0] == "def":
                d = self.hdr(cp, v[1])
                if d.kind != "function":
                    continue
                dn = self.decorator_names(d)
                if kind in dn if kind else ("property" in dn or "cached_property" in dn) and not {"setter", "deleter"} & dn:
                    out.append((cp, v[1]))
        return out

    def property_accessors(self, path: str, cidx: int, name: str, kind: str) -> list[tuple[str, int]]:
        """The ``@name.setter`` (``kind`` 'setter') or ``@name.deleter`` methods that storing or
        deleting attribute ``name`` of an instance of class ``cidx`` calls, else the ``__set__`` /
        ``__delete__`` of a descriptor the class holds as ``name``."""
        _, externals, walk = self.mro(path, cidx)
        hit = self._first_binder(walk, name, False)
        if hit is None:
            return []
        out = self._getters(hit, kind)
        if not out:  # a data descriptor's __set__ / __delete__
            out = self.descriptor_methods(self._class_value(hit, externals, name), "__set__" if kind == "setter" else "__delete__")
        return out

    def getattr(self, b: Any, attr: str) -> tuple[frozenset, list[tuple[str, int]]]:
        """(values of b.attr, property getters invoked by the load), memoised like ``memoized``
        values: an answer that rested on a value still being computed (a cycle) or that met the
        depth limit is not kept. Its reads and ``load_calls`` were recorded the first time."""
        key = (b, attr, self.max_depth)
        r = self.ga_memo.get(key)
        if r is not None:
            return r
        lows = self.lows
        serial = self.serial = self.serial + 1
        self.ga_serials += 1
        lows.append(serial)
        truncated = self.truncated
        self.truncated = False
        try:
            r = self._getattr(b, attr)
        finally:
            low = lows.pop()
            if low < serial and low < lows[-1]:  # (an outer computation rests on it too)
                lows[-1] = low
            cut = self.truncated
            self.truncated = truncated or cut
        if low >= serial and not cut:
            self.ga_memo[key] = r
        return r

    def _getattr(self, b: Any, attr: str) -> tuple[frozenset, list[tuple[str, int]]]:
        k = b[0]
        if k == "M":
            vals, _ = self.module_attr(b[1], attr)
            return vals, []
        if k == "X":
            # a module's attribute is named by its path (``os.path.join``); a capitalised segment
            # is a class, whose attribute is a member: ``requests.Session.get``
            last = b[1].rsplit(".", 1)[-1]
            return frozenset({("XM" if last[:1].isupper() else "X", f"{b[1]}.{attr}")}), []
        if k == "XI":
            return frozenset({("XM", f"{b[1]}.{attr}")}), []
        if k == "B":
            t = _BUILTIN_TYPES.get(b[1])
            if t is not None and not hasattr(t, attr):
                return EMPTY, []  # str has no addElement: a value of ours mixed up with a str
            return frozenset({("BM", f"{b[1]}.{attr}")}), []
        if k == "XM" or k == "BM":
            return EMPTY, []  # an attribute of a member of an external class: not known
        if k == "C":
            _, externals, walk = self.mro(b[1], b[2])
            hit = self._first_binder(walk, attr, False)
            vals = self._class_value(hit, externals, attr)
            gets = self.descriptor_methods(vals, "__get__")
            if gets:  # C.x, x a descriptor: its __get__(None, C)
                return self._load_call(b, attr, gets, self._returns_of(gets, functions=False))
            if not attr.startswith("_") and self.is_enum(b[1], b[2]):
                # an enum's members are its instances (``Color.RED.describe()``)
                bs = self.binds(b[1], b[2], attr)
                if bs and all(v[0] != "def" for v in bs):
                    vals = vals | {("I", b[1], b[2])}
            if not vals and not hasattr(object, attr):
                # not on the class nor its bases (``object``'s ``__new__``, ``__init__``, ... are
                # every class's): a class is an instance of its metaclass, whose
                # methods, properties and attributes set on ``cls`` it has (Django's
                # ``Model._default_manager``, a property of ModelBase); not the members of ``type``
                # the metaclass derives from, which a class value mixed up with an instance
                # would name (``widget.decompress`` -> ``type.decompress``)
                metas = self.metaclasses(b[1], b[2])
                if metas:
                    out: set = set()
                    getters: list[tuple[str, int]] = []
                    for mp, mi in metas:
                        v, g = self.getattr(("I", mp, mi), attr)
                        out |= {x for x in v if x[0] != "BM" and x[0] != "XM"}
                        getters += g
                    return frozenset(out), getters
            dg = self.decorator_gets(hit)
            if dg:  # C.m, m decorated by a descriptor class: its __get__ runs, m is still what is called
                return self._load_call(b, attr, dg, vals)
            return vals, []
        if k == "I" and attr == "__class__":
            return frozenset({("C", b[1], b[2])}), []
        if k == "I" or k == "S":
            # property_getters, class_lookup and the instance attributes over one MRO walk
            start_after = k == "S"
            _, externals, walk = self.mro(b[1], b[2])
            hit = self._first_binder(walk, attr, start_after)
            getters = self._getters(hit)
            if getters:
                return self._load_call(b, attr, getters, self._returns_of(getters))
            vals = set(self._class_value(hit, externals, attr))
            gets = self.descriptor_methods(vals, "__get__") if hit is not None else []
            if k == "I":
                ivals: set = set()
                found = False
                reads = self.reads
                for cp, ci, sc, own in walk:
                    if not own:  # ``iattrs`` inlined
                        r = reads.get(cp)
                        if r is None:
                            r = reads[cp] = set()
                        r.add(("ia", ci, attr))
                    for fi, v in sc.inst_attrs.get(attr, ()):
                        found = True
                        ivals |= self.eval_binding(cp, fi, v)
                if found:  # assigned on self by the program: not a member of an external base
                    vals = {v for v in vals if v[0] != "XM" and v[0] != "BM"} | ivals
                if gets:  # obj.x, x a descriptor of the class: its __get__ (an instance's own x too)
                    return self._load_call(b, attr, gets, self._returns_of(gets, ivals, functions=False))
                if hit is None and not found and not externals and not attr.startswith("__"):
                    # not found on the instance nor its classes (all ours): __getattr__, if defined
                    fallback = self.methods(b[1], b[2], "__getattr__")
                    if fallback and not self.subclass_may_have(b[1], b[2], attr):
                        return self._load_call(b, attr, fallback, self._returns_of(fallback))
            elif gets:
                return self._load_call(b, attr, gets, self._returns_of(gets, functions=False))
            dg = self.decorator_gets(hit)
            if dg:
                return self._load_call(b, attr, dg, frozenset(vals))
            return frozenset(vals), []
        return EMPTY, []

    def decorator_gets(self, hit: tuple | None) -> list[tuple[str, int]]:
        """The ``__get__`` of a program class used as the outermost decorator of a method that an
        attribute read finds (``_first_binder``): the class attribute is an instance of it
        (Django's ``classonlymethod``), so reading it runs ``__get__``."""
        if hit is None:
            return []
        cp, _ci, bvals = hit
        out: set[tuple[str, int]] = set()
        for v in bvals:
            if v[0] != "def":
                continue
            d = self.hdr(cp, v[1])
            if d.kind == "function" and d.decorators:
                for dp, di in self.decorator_classes(cp, d, d.decorators[:1]):  # the outermost
                    out.update(self.methods(dp, di, "__get__"))
        return sorted(out)

    def subclass_may_have(self, path: str, cidx: int, attr: str) -> bool:
        """Whether a subclass of class ``cidx`` binds ``attr`` (in its body or on ``self``) or has a
        base outside the program that may: a mixin reading ``self.connection`` that its host
        classes provide does not go through its ``__getattr__``. Assumed for a class with more
        than ``GETATTR_MAX_SUBCLASSES`` subclasses."""
        name, files = self.subclass_files(path, cidx)
        if sum(len(self.sub_sites(q, name)) for q in files) > GETATTR_MAX_SUBCLASSES:
            return True  # a base of many (pydantic's BaseModel: 2,832 in its tests): not searched
        for sp, si in self.subclasses(path, cidx):
            _, externals, walk = self.mro(sp, si)  # (its other bases count: a mixin's host)
            if externals or self._first_binder(walk, attr, False) is not None:
                return True
            if any(self.iattrs(cp, ci, attr) for cp, ci, _sc, _own in walk):
                return True
        return False

    def methods(self, path: str, cidx: int, name: str) -> list[tuple[str, int]]:
        """The program's functions that class ``cidx`` finds for ``name`` along its MRO (sorted)."""
        return sorted((m[1], m[2]) for m in self.class_lookup(path, cidx, name) if m[0] == "F")

    def descriptor_methods(self, vals: Any, dunder: str) -> list[tuple[str, int]]:
        """``dunder`` (``__get__``, ``__set__``, ``__delete__``) of the classes of the instances
        among a class attribute's values ``vals``: a descriptor (``x = Field()`` in a class body)."""
        out = []
        for v in vals:
            if v[0] == "I":
                out.extend(self.methods(v[1], v[2], dunder))
        return out

    def _load_call(self, b: Any, attr: str, fns: list[tuple[str, int]], value: frozenset) -> tuple[frozenset, list[tuple[str, int]]]:
        """``getattr``'s answer when reading ``b.attr`` runs ``fns`` (a property getter, a
        descriptor's ``__get__``, ``__getattr__``): kept for calls through the attribute
        (``load_calls``)."""
        self.load_calls.setdefault(attr, {})[b] = fns
        return value, fns

    def _returns_of(self, fns: list[tuple[str, int]], also: Any = EMPTY, functions: bool = True) -> frozenset:
        """What the functions ``fns`` return (with ``also``). ``functions=False`` for a
        descriptor's ``__get__``: one returning a function builds a method from the descriptor's
        own state (``partial(self.instance_method, obj)``), and all instances of a descriptor class
        are one here, so their functions would merge (Django's ``get_lookups`` would call
        ``register_lookup``'s functions too)."""
        out = set(also)
        for p, i in fns:
            out.update(self.returns(p, i) if functions else (v for v in self.returns(p, i) if v[0] != "F"))
        return frozenset(out)

    # ------------------------------------------------------------------ edges
    def edge(self, caller: str, callee: str, kind: str, line: int, external: bool = False, confidence: float = 1.0) -> None:
        k = (caller, callee)
        cur = self.edges.get(k)
        if cur is None:
            self.edges[k] = [kind, confidence, {line}, external]
        else:
            cur[2].add(line)
            if confidence > cur[1]:
                cur[1] = confidence
                cur[0] = kind

    def call_kind(self, path: str, idx: int, fn: Any) -> str:
        if fn[0] == "n":
            scopes = self.scopes  # own file (``parsed``)
            bs = self.binding_scope(path, idx, fn[1])
            if bs is None:
                return "exact"
            vals = scopes[bs].bindings.get(fn[1], ())
            if vals and all(v[0] in ("im", "if") for v in vals):
                return "import"
            if vals and all(v[0] == "def" for v in vals):
                return "exact"
            return "inferred"
        if fn[0] == "a":
            base = fn[1]
            if base[0] == "n":
                bs = self.binding_scope(path, idx, base[1])
                if bs is not None and self.is_self_param(path, bs, base[1]):
                    return "self"
                vals = self.eval(path, idx, base)
                if vals and all(v[0] == "M" for v in vals):
                    return "import"
                if vals and all(v[0] == "C" for v in vals):
                    return "exact"
            if base[0] == "c" and base[1] == ("n", "super"):
                return "super"
        return "inferred"

    def emit_call_targets(self, caller: str, path: str, idx: int, vals: frozenset, line: int, kind: str, ctor_only: bool = False) -> None:
        for v in sorted(vals, key=repr) if len(vals) > 1 else vals:
            k = v[0]
            if k == "F" and not ctor_only:
                self.edge(caller, self.fqn(v[1], v[2]), kind, line)
            elif k == "C":
                init = self.emit_methods(caller, v[1], v[2], "__init__", "constructor", line)
                self.emit_methods(caller, v[1], v[2], "__new__", "constructor", line)
                for mp, mi in self.metaclasses(v[1], v[2]):  # calling a class calls its metaclass's __call__
                    self.emit_methods(caller, mp, mi, "__call__", "implicit", line)
                if not init and self.is_dataclass(v[1], v[2]):  # its generated __init__ calls __post_init__
                    self.emit_methods(caller, v[1], v[2], "__post_init__", "implicit", line)
                elif not init:  # an __init__ inherited from the one external base: `pkg.Base.__init__`
                    for x in self.class_lookup(v[1], v[2], "__init__"):
                        if x[0] == "XM" and x[1].split(".", 1)[0] not in DECLARATIVE_BASE_MODULES:
                            self.edge(caller, x[1], "external", line, external=True)
            elif k == "I" and not ctor_only:
                self.emit_methods(caller, v[1], v[2], "__call__", "implicit", line)
            elif k == "X" or k == "XM":
                self.edge(caller, v[1], "external", line, external=True)
            elif k == "B" or k == "BM":
                self.edge(caller, f"<builtin>.{v[1]}", "builtin", line, external=True)
            elif k == "B?" and not ctor_only:
                self.edge(caller, f"<builtin>.{v[1]}", "inferred", line, external=True, confidence=0.5)

    @staticmethod
    def callback_arg(e: Any) -> Any:
        """The function argument of a call of a ``CALLBACK_BUILTINS`` builtin (None if absent)."""
        where = CALLBACK_BUILTINS[e[1][1]][0]
        if isinstance(where, int):
            a = e[2][where] if len(e[2]) > where else None
            return None if a is None or a[0] == "*" else a
        return next((v for k, v in e[3] if k == where), None)

    def emit_callbacks(self, caller: str, path: str, sc: int, a: Any, line: int) -> None:
        """``map(f, xs)``, ``filter(f, xs)``, ``sorted(xs, key=f)``, ``min``/``max(key=f)``,
        ``xs.sort(key=f)`` on a list: the builtin calls ``f`` (the argument ``a``, None when absent)
        for the caller (resolution ``implicit``); a builtin or external function passed is not an
        edge."""
        if a is None:
            return
        vals = frozenset(v for v in self.eval(path, sc, a) if v[0] in ("F", "C", "I"))
        if vals:
            self.emit_call_targets(caller, path, sc, vals, line, "implicit")

    def emit_methods(self, caller: str, path: str, cidx: int, name: str, kind: str, line: int) -> bool:
        """Edges to the program's functions class ``cidx`` finds for ``name`` (``methods``);
        whether there were any."""
        ms = self.methods(path, cidx, name)
        for mp, mi in ms:
            self.edge(caller, self.fqn(mp, mi), kind, line)
        return bool(ms)

    def emit_dunder(self, caller: str, path: str, sc: int, e: Any, dunder: str, fallback: str, line: int) -> None:
        """An operator or builtin applied to ``e`` calls ``dunder`` (else ``fallback``) of the
        internal class of each instance ``e`` may be (implicit)."""
        for c in self.eval(path, sc, e):
            if c[0] == "I" and not self.emit_methods(caller, c[1], c[2], dunder, "implicit", line) and fallback:
                self.emit_methods(caller, c[1], c[2], fallback, "implicit", line)

    def emit_wrappers(self, caller: str, vals: frozenset, name: str, line: int) -> None:
        """A call by the name of a decorated function (``func()``, ``self.method()``) runs what
        its decorators made of it: an edge to each wrapper (``wrappers``), resolution
        ``implicit``, beside the edge to the function itself. Calls of the same function through
        another name (a decorator's parameter ``f()``, an alias) reach the undecorated function."""
        for v in vals:
            if v[0] != "F":
                continue
            s = self.hdr(v[1], v[2])
            if not s.decorators or s.name != name:
                continue
            for w in sorted(self.wrappers(v[1], v[2]), key=repr):
                if w[0] == "F":
                    self.edge(caller, self.fqn(w[1], w[2]), "implicit", line)
                else:
                    for m in sorted(self.class_lookup(w[1], w[2], "__call__"), key=repr):
                        if m[0] == "F":
                            self.edge(caller, self.fqn(m[1], m[2]), "implicit", line)

    def emit_overrides(self, caller: str, path: str, sc: int, fn: Any, line: int) -> None:
        """``self.m()`` / ``cls.m()`` in a method of class C may run the ``m`` of any subclass of C
        (class hierarchy analysis): an edge to each override, resolution ``subclass``, confidence
        0.9 (a possible target; which one runs depends on the receiver's runtime class)."""
        bs = self.binding_scope(path, sc, fn[1][1])
        cls = self.hdr(path, bs).parent
        recv = self.lookup(path, sc, fn[1][1])
        as_instance = ("I", path, cls) in recv
        if not as_instance and ("C", path, cls) not in recv:
            return  # an annotated or rebound first parameter: not the class's own receiver
        key = (cls, fn[2], as_instance)
        targets = self.override_memo.get(key)
        if targets is None:
            found: set[str] = set()
            for q, di in self.subclasses(path, cls):
                # an instance also holds what the subclass assigns to ``self.m`` (a bound method,
                # a function), which a class does not; reading a property runs its getter
                if as_instance:
                    vals, getters = self.getattr(("I", q, di), fn[2])
                    found.update(self.fqn(gp, gi) for gp, gi in getters)
                else:
                    vals = self.class_lookup(q, di, fn[2])
                for m in vals:
                    if m[0] == "F":
                        found.add(self.fqn(m[1], m[2]))
            targets = self.override_memo[key] = sorted(found)
        for t in targets:
            self.edge(caller, t, "subclass", line, confidence=0.9)

    def emit_abstract_overrides(self, caller: str, path: str, sc: int, fn: Any, vals: frozenset, line: int) -> None:
        """A call ``recv.m()`` that reaches an abstract method (``is_abstract``: ``def f(store:
        Storage): store.save()``) runs an override: an edge to the ``m`` each internal subclass of
        the receiver's class finds in its MRO (resolution ``subclass``, confidence 0.9); the
        abstract method itself can never be what runs."""
        if not any(v[0] == "F" and self.is_abstract_method(v) for v in vals):
            return
        # an instance made right there (``Job().step()``, ``j = Job(); j.step()``) is of that very
        # class: a method that only raises NotImplementedError is what runs (the call fails)
        exact = self.constructed(path, sc, fn[1])
        for r in self.eval(path, sc, fn[1]):
            if r[0] not in ("I", "C"):
                continue
            key = (r[1], r[2], fn[2], exact)
            targets = self.abstract_memo.get(key)
            if targets is None:
                found: set[str] = set()
                if any(
                    m[0] == "F" and self.is_abstract_method(m, exact) for m in self.class_lookup(r[1], r[2], fn[2])
                ):
                    for q, di in self.subclasses(r[1], r[2]):
                        for m in self.class_lookup(q, di, fn[2]):
                            if m[0] == "F":
                                found.add(self.fqn(m[1], m[2]))
                targets = self.abstract_memo[key] = sorted(found)
            for t in targets:
                self.edge(caller, t, "subclass", line, confidence=0.9)

    def is_abstract_method(self, v: Any, exact: bool = False) -> bool:
        s = self.hdr(v[1], v[2])
        return (
            s.kind == "function" and s.parent >= 0 and self.hdr(v[1], s.parent).kind == "class"
            and self.is_abstract(v[1], v[2], s, exact)
        )

    def constructed(self, path: str, sc: int, e: Any) -> bool:
        """Receiver ``e`` is an instantiation (``Job()``) or a local name bound only to ones."""
        if e[0] == "n":
            bs = self.binding_scope(path, sc, e[1])
            if bs is None or bs == 0:
                return False
            exprs = self.pf.scopes[bs].bindings.get(e[1], ()) if path == self.path else ()
            return bool(exprs) and all(x[0] == "c" and self.constructed(path, bs, x) for x in exprs)
        if e[0] == "c":
            vals = self.eval(path, sc, e[1])
            return bool(vals) and all(v[0] == "C" for v in vals)
        return False

    def is_abstract(self, path: str, fidx: int, s: Scope, exact: bool = False) -> bool:
        """Method ``fidx`` (header ``s``) is a placeholder that subclasses override: an
        ``@abstractmethod``, a body-less method (``...``) of a ``typing.Protocol`` class (neither
        can be called on an instance of that class itself), or, unless the receiver is ``exact``
        (an instance of that very class), a body that only raises ``NotImplementedError``
        (``py_reads.stub_body``)."""
        if "abstractmethod" in self.decorator_names(s):
            return True
        stub = self.stub(path, fidx)
        return (stub == "raise" and not exact) or (stub == "empty" and self.is_protocol(path, s.parent))

    def stub(self, path: str, fidx: int) -> str:
        if path != self.path:
            self._rd(path, ("st", fidx))
        return stub_body(self.ix._parsed[path].scopes[fidx])

    def is_protocol(self, path: str, cidx: int) -> bool:
        """The class lists ``typing.Protocol`` (``Protocol[T]``) among its own bases."""
        s = self.hdr(path, cidx)
        for b in self.bases_of(path, cidx):
            if b[0] == "s":
                b = b[1]
            if any(v[0] == "X" and v[1] in _PROTOCOLS for v in self.eval(path, s.parent, b)):
                return True
        return False

    def resolve_scope(self, idx: int) -> None:
        path = self.path
        scopes = self.pf.scopes
        s = scopes[idx]
        caller = self.fqn(path, idx)
        flow = s.flow
        for ci, (e, line, flag, sc) in enumerate(s.calls):
            fn = e[1]
            if flow and ci in flow:  # flow order: only what reaches the call
                vals = self.eval(path, sc, flow[ci])
            else:
                vals = self.eval(path, sc, fn)
            if fn[0] == "n" and not (flow and ci in flow):
                extra = self.callee_cross_values(path, sc, fn)
                if extra:
                    vals = vals | extra
            if flag == "raise":
                self.emit_call_targets(caller, path, idx, vals, line, "constructor", ctor_only=True)
                continue
            kind = self.call_kind(path, sc, fn)
            self.emit_call_targets(caller, path, sc, vals, line, kind)
            lcs = self.load_calls.get(fn[2]) if fn[0] == "a" else None
            if lcs:  # obj.prop(): the getter (or __get__, __getattr__) first
                for b in self.eval(path, sc, fn[1]):
                    lc = lcs.get(b)
                    if lc:
                        for gp, gi in lc:
                            self.edge(caller, self.fqn(gp, gi), "implicit", line)
            if fn[0] == "n" and fn[1] in CALLBACK_BUILTINS and ("B", fn[1]) in vals:
                self.emit_callbacks(caller, path, sc, self.callback_arg(e), line)
            elif fn[0] == "n" and fn[1] in BUILTIN_DUNDERS and len(e[2]) == 1 and ("B", fn[1]) in vals:
                if e[2][0][0] != "*":  # len(x): x's __len__ (resolved last, as operators)
                    self.pending_ops.append((caller, sc, e[2][0], BUILTIN_DUNDERS[fn[1]], "", line))
            elif fn[0] == "a" and fn[2] == "sort" and e[3]:  # list.sort(key=f): a list display holds it
                key = next((v for k, v in e[3] if k == "key"), None)
                if key is not None and any(v[0] == "T" and v[3][0] == "t" for v in self.eval(path, sc, fn[1])):
                    self.emit_callbacks(caller, path, sc, key, line)
            if fn[0] == "n" or fn[0] == "a":
                self.emit_wrappers(caller, vals, fn[1] if fn[0] == "n" else fn[2], line)
            if kind == "self":
                self.emit_overrides(caller, path, sc, fn, line)
            elif fn[0] == "a" and kind != "super":  # super().m() names the one method it runs
                self.emit_abstract_overrides(caller, path, sc, fn, vals, line)
        for e, line, sc in s.loads:
            for b in self.eval(path, sc, e[1]):
                if b[0] in ("I", "S", "C"):
                    for gp, gi in self.getattr(b, e[2])[1]:
                        self.edge(caller, self.fqn(gp, gi), "implicit", line)
        for e, line, sc, is_async in s.iters:
            it_name, next_name = ("__aiter__", "__anext__") if is_async else ("__iter__", "__next__")
            for c in self.eval(path, sc, e):
                if c[0] != "I":
                    continue
                for it in sorted(self.class_lookup(c[1], c[2], it_name), key=repr):
                    if it[0] != "F":
                        continue
                    self.edge(caller, self.fqn(it[1], it[2]), "implicit", line)
                    for itv in self.returns(it[1], it[2]):
                        if itv[0] == "I":
                            for nx in self.class_lookup(itv[1], itv[2], next_name):
                                if nx[0] == "F":
                                    self.edge(caller, self.fqn(nx[1], nx[2]), "implicit", line)
        for e, line, sc, kind in s.stores:  # obj.prop = v, del obj.prop
            if e[0] != "a":
                continue
            for b in self.eval(path, sc, e[1]):
                if b[0] == "I":
                    for ap, ai in self.property_accessors(b[1], b[2], e[2], kind):
                        self.edge(caller, self.fqn(ap, ai), "implicit", line)
        for e, line, dunder, fallback, sc in s.ops:  # a + b, x[k], k in c, -a, a += b: resolved last
            self.pending_ops.append((caller, sc, e, dunder, fallback, line))
        for e, line, is_async, sc in s.withs:
            names = ("__aenter__", "__aexit__") if is_async else ("__enter__", "__exit__")
            for c in self.eval(path, sc, e):
                if c[0] == "I":
                    for n in names:
                        self.emit_methods(caller, c[1], c[2], n, "implicit", line)
        for di, (e, didx, line) in enumerate(s.decos):
            dscope = scopes[didx].parent
            if s.deco_flow and di in s.deco_flow:  # flow order: the binding reaching the decorator
                e = s.deco_flow[di]
            if e[0] == "c":
                vals: set = set()
                for f in self.eval(path, dscope, e[1]):
                    vals |= self.call_result(path, dscope, f, e)
            else:
                if (e[0] == "n" and e[1] in DECLARATION_DECORATORS) or (
                    e[0] == "a" and e[2] in ("setter", "getter", "deleter")
                ):
                    vals = set(v for v in self.eval(path, dscope, e) if v[0] != "B")
                else:
                    vals = set(self.eval(path, dscope, e))
            vals = {v for v in vals if not (v[0] == "B" and v[1] in DECLARATION_DECORATORS)}
            self.emit_call_targets(caller, path, dscope, frozenset(vals), line, "implicit")

    def resolve_operators(self) -> None:
        """The operator sites of the file (``pending_ops``), after every other call: their operands
        are evaluated at most ``OPERATOR_DEPTH`` levels deep (values truncated there serve only
        other operator sites), and past ``OPERATOR_BUDGET`` evaluations they are skipped. Truth
        tests (``__bool__``) come last: the most numerous sites, they must not change what the
        truncated operands of the others evaluate to, nor use up the budget first."""
        truncated = self.truncated
        self.max_depth = OPERATOR_DEPTH
        ops = self.pending_ops
        ops = [op for op in ops if op[3] != "__bool__"] + [op for op in ops if op[3] == "__bool__"]
        try:
            for caller, sc, e, dunder, fallback, line in ops:
                if self.serial - self.ga_serials > OPERATOR_BUDGET:
                    self.ops_skipped += 1
                else:
                    self.emit_dunder(caller, self.path, sc, e, dunder, fallback, line)
        finally:
            self.max_depth = MAX_DEPTH
            self.truncated = truncated  # (the operand depth is a bound of its own, not the file's limit)

    def class_creation(self, cidx: int, s: Scope) -> None:
        """What creating class ``cidx`` calls, from the code running its ``class`` statement: its
        metaclass's ``__new__`` and ``__init__`` (a program class: ``type``'s own are not calls
        into the program), the bases' ``__init_subclass__`` and the ``__set_name__`` of the
        descriptors its body assigns (implicit)."""
        path = self.path
        scopes = self.scopes
        caller = self.fqn(path, scopes[s.parent].owner)
        line = s.line_start
        _, externals, walk = self.mro(path, cidx)
        for mp, mi in self.metaclasses(path, cidx):
            self.emit_methods(caller, mp, mi, "__new__", "implicit", line)
            self.emit_methods(caller, mp, mi, "__init__", "implicit", line)
        hook = self._first_binder(walk, "__init_subclass__", True)  # its own runs for its subclasses
        for v in self._class_value(hook, externals, "__init_subclass__"):
            if v[0] == "F":
                self.edge(caller, self.fqn(v[1], v[2]), "implicit", line)
        for name, bl in s.bindings.items():
            if any(b[0] == "c" for b in bl):  # quantity = Validated(): created by a call
                for m in self.descriptor_methods(self.eval_bindings(path, cidx, name), "__set_name__"):
                    self.edge(caller, self.fqn(m[0], m[1]), "implicit", line)

    # ------------------------------------------------------------------ facts
    def run(self) -> FileFacts:
        path = self.path
        pf = self.pf
        scopes = pf.scopes
        mod = self.module
        owner = self.mod_path(mod)
        if owner != path:
            # another file defines this module (a package over a same-named module, a .py over its
            # .pyi stub, two source roots): Python never runs this one, and its symbols would
            # collide with the owner's fully qualified names
            return FileFacts(
                path=path,
                language="python",
                module=mod,
                content_hash=self.ix._hash[path],
                imports=self.imports(),
                warnings=[f"{path}: module {mod} is defined by {owner}; symbols and calls of this file are not extracted"],
                depends_on=frozenset(self.deps),
            )
        symbols: list[Symbol] = []
        seen: set[str] = set()
        for i, s in enumerate(scopes):
            fq = self.fqn(path, i)
            if fq in seen:
                continue
            seen.add(fq)
            if s.kind == "module":
                symbols.append(
                    Symbol(fq, mod, "module", path, path, 1, s.line_end, "", s.docstring, s.body_hash)
                )
                continue
            p = scopes[s.parent]
            parent = path if p.kind == "module" else self.fqn(path, s.parent)
            if s.kind == "class":
                kind = "class"
            elif s.kind == "lambda":
                kind = "lambda"
            else:
                kind = "method" if p.kind == "class" else "function"
            symbols.append(
                Symbol(fq, s.name, kind, path, parent, s.line_start, s.line_end, s.signature, s.docstring, s.body_hash,  # type: ignore[arg-type]
                       s.ordinal, *s.metrics)
            )
        for i, s in enumerate(scopes):
            if s.kind != "class":
                self.resolve_scope(i)
            else:
                self.class_creation(i, s)
        inherits: list[Inherit] = []
        for i, s in enumerate(scopes):
            if s.kind != "class" or not s.bases:
                continue
            child = self.fqn(path, i)
            seen_b: set[str] = set()
            for b in s.bases:
                for v in sorted(self.eval(path, s.parent, b), key=repr):
                    if v[0] == "C":
                        tgt, ext = self.fqn(v[1], v[2]), False
                    elif v[0] == "X" or v[0] == "XM":
                        tgt, ext = v[1], True
                    elif v[0] in ("B", "B?"):
                        tgt, ext = f"<builtin>.{v[1]}", True
                    else:
                        continue
                    if tgt not in seen_b:
                        seen_b.add(tgt)
                        inherits.append(Inherit(child, tgt, ext))
        self.resolve_operators()  # last: its depth-bounded values serve nothing else
        calls = [
            Call(caller, callee, v[0], v[1], tuple(sorted(v[2])), v[3])
            for (caller, callee), v in sorted(self.edges.items())
        ]
        imports = self.imports()
        warnings = [f"{path}: {w}" for w in pf.warnings]
        if self.truncated:
            warnings.append(f"{path}: resolution depth limit ({MAX_DEPTH}) reached; some calls left unresolved")
        if self.ops_skipped:
            warnings.append(
                f"{path}: {self.ops_skipped} operator sites (a + b, x[k], f-strings) left unresolved: "
                f"the file's resolution made more than {OPERATOR_BUDGET} evaluations"
            )
        return FileFacts(
            path=path,
            language="python",
            module=mod,
            content_hash=self.ix._hash[path],
            symbols=symbols,
            calls=calls,
            imports=imports,
            inherits=inherits,
            warnings=warnings,
            depends_on=frozenset(self.deps),
        )

    def imports(self) -> list[Import]:
        out: set[Import] = set()
        path = self.path
        for st in self.pf.imports:
            if not st.is_from:
                for mod, _alias in st.names:
                    self._import_module(out, mod)
                continue
            am = self.absolute(path, st.module, st.level)
            if am is None:
                continue
            targets: list[str] = []
            for name, _alias in st.names:
                sub = f"{am}.{name}"
                if self.mod_path(sub) is not None:
                    targets.append(sub)
                    continue
                targets.append(am)
            if st.star or not st.names:
                targets.append(am)
            for t in targets:
                if st.level > 0:
                    p = self.mod_path(t)
                    if p is not None and p != path:
                        out.add(Import(path, p, "file"))
                else:
                    self._import_module(out, t)
        return sorted(out, key=lambda i: (i.target_kind, i.target))

    def _import_module(self, out: set[Import], mod: str) -> None:
        parts = mod.split(".")
        for i in range(len(parts), 0, -1):
            p = self.mod_path(".".join(parts[:i]))
            if p is not None:
                if p != self.path:
                    out.add(Import(self.path, p, "file"))
                return
        top = parts[0]
        if self.is_internal(top):
            return  # a namespace package of the repository
        if top and top not in STDLIB:
            out.add(Import(self.path, top, "package", "pypi"))
