"""The state of one file's resolution in the TypeScript resolver, shared by the concern mixins.

``CtxState`` holds the memo tables, the dependencies and recorded reads (``reads.py``) and the
edges found; the concerns (``modules.py``, ``evaluate.py``, ``classes.py``, ``params.py``,
``emit.py``) are mixins over it, composed into ``context.Ctx``. The methods each concern offers
the others are declared here for the type checker only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mnemosyne.facts import Resolution
from mnemosyne.parse.typescript import ParsedFile, module_name
from mnemosyne.resolve.typescript.config import dirname
from mnemosyne.resolve.typescript.reads import ReadKey

if TYPE_CHECKING:
    from mnemosyne.resolve.typescript.index import TypeScriptIndex

# memo keys (``CtxState.memo``, ``memoized``): (MEMO_* kind, arguments...), one file's resolution
MEMO_SPEC = "spec"  # (spec, specifier, importing dir): what a specifier resolves to
# (b, path, scope, name, type context): what a name's bindings in a scope evaluate to
MEMO_BINDINGS = "b"
MEMO_EXPORT = "x"  # (x, path, name, type context): a module's export
MEMO_SNAP = "snap"  # (snap, path, scope, name, count, type context): a name's first bindings
MEMO_OBJECT_MEMBER = "o"  # (o, path, object fqn, name): a member of a named object literal
MEMO_RETURNS = "r"  # (r, path, function fqn): what a call of a function returns
MEMO_RETURNED_PARAMS = "rp"  # (rp, path, function fqn): the parameters it returns, if it returns only those
MEMO_DECORATED = "deco"  # (deco, path, class fqn, name): a decorated method with its wrappers
MEMO_MIXIN_MEMBER = "mx"  # (mx, path, class fqn, name): a member a mixin adds to a class
MEMO_FIELD = "f"  # (f, path, class fqn, name): a field's value
MEMO_BASE = "base"  # (base, path, class fqn): a class's base being evaluated (``busy`` only)
MEMO_IMPLEMENTATIONS = "impl"  # (impl, interface fqn, path, name): the methods implementing one
MEMO_SUBCLASSES = "sub"  # (sub, class fqn, path): the internal subclasses of a class
MEMO_OVERRIDES = "ovr"  # (ovr, class fqn, path, name): the overrides of a method below a class
# (pv, path, scope, index, hops): what a parameter is given (shared per index state too); index
# -1 - i: a rest parameter from position i
MEMO_PARAM_VALUES = "pv"
MEMO_PARAM_KEYS = "pk"  # (pk, path, scope, index): the string literals a parameter is given (shared)
MEMO_CLASS_PROPS = "cp"  # (cp, path, class fqn): what a class component's props hold (shared too)


class CtxState:
    """One file's resolution: memo tables and the set of modules consulted."""

    __slots__ = ("ix", "pf", "deps", "memo", "busy", "flags", "emit", "edges", "caller", "line", "reads", "sub_reads",
                 "call_reads", "tctx", "dir")

    def __init__(self, ix: TypeScriptIndex, pf: ParsedFile) -> None:
        self.ix = ix
        self.pf = pf
        self.deps: set[str] = set()
        self.memo: dict[tuple, tuple] = {}
        self.busy: set[tuple] = set()
        self.flags = 0
        self.emit = False
        self.edges: dict[tuple[str, str], list] = {}
        self.caller = ""
        self.line = 0
        # foreign path -> (its ParsedFile, the read keys issued on it); see resolve/typescript/reads.py
        self.reads: dict[str, tuple[ParsedFile, set]] = {}
        self.sub_reads: dict[str, tuple[str, ...]] = {}  # subclass_files answers
        self.call_reads: dict[str, tuple[str, ...]] = {}  # caller_files answers
        # evaluating a type (an annotation, an implements clause): names may denote interfaces,
        # which are invisible to values (``new Error()`` is the global even where an interface
        # ``Error`` is declared)
        self.tctx = False
        self.dir = dirname(pf.path)

    def read(self, pf: ParsedFile, key: ReadKey) -> None:
        """Record a read of another file's parse result (every cross-module read calls this)."""
        r = self.reads.get(pf.path)
        if r is None or r[0] is not pf:
            r = self.reads[pf.path] = (pf, set())
        r[1].add(key)

    # -- memoised evaluation ----------------------------------------------------------------------
    def memoized(self, key: tuple, flags: int, compute, *args):
        """``compute(*args)`` memoised under ``key`` with its flags.

        A memo hit adds the flags recorded with it; a key already being computed (a cycle) is
        None. Otherwise ``compute`` runs with ``self.flags`` set to ``flags`` and ``emit`` off
        (nothing it evaluates is a call site of the caller); its result and flags are memoised
        and its flags are merged into the caller's, whose ``emit`` is restored.
        """
        hit = self.memo.get(key)
        if hit is not None:
            self.flags |= hit[1]
            return hit[0]
        if key in self.busy:
            return None
        self.busy.add(key)
        saved_flags, saved_emit = self.flags, self.emit
        self.flags = flags
        self.emit = False
        result = compute(*args)
        fl = self.flags
        self.busy.discard(key)
        self.memo[key] = (result, fl)
        self.flags = saved_flags | fl
        self.emit = saved_emit
        return result

    # -- files ------------------------------------------------------------------------------------
    def file(self, path: str) -> ParsedFile | None:
        pf = self.ix.files.get(path)
        if path != self.pf.path:
            self.deps.add(pf.module if pf is not None else module_name(path))
        return pf

    def file_read(self, path: str, key: ReadKey) -> ParsedFile | None:
        """``file(path)``, recording the read ``key`` on it when it is another file's."""
        pf = self.file(path)
        if pf is not None and pf is not self.pf:
            self.read(pf, key)
        return pf

    if TYPE_CHECKING:  # what the concern mixins provide each other
        # -- modules.py
        def resolve_spec(self, spec: str, from_path: str) -> tuple[str, str] | None: ...
        def try_path(self, base: str) -> str | None: ...
        # -- evaluate.py
        def lookup(self, pf: ParsedFile, scope: int, name: str): ...
        def eval_bindings(self, pf: ParsedFile, scope: int, name: str, bl: list): ...
        @staticmethod
        def def_value(d: tuple, path: str): ...
        def import_value(self, pf: ParsedFile, spec: str, name: str): ...
        def export_value(self, path: str, name: str): ...
        def eval(self, pf: ParsedFile, scope: int, e: tuple | None, depth: int = 0): ...
        def entries(self, a: tuple, depth: int) -> list: ...
        def element(self, v: tuple, pos: int | None, depth: int): ...
        def sliced(self, pf: ParsedFile, scope: int, e: tuple, depth: int): ...
        def iterator(self, v: tuple): ...
        def argument(self, pf: ParsedFile, scope: int, args: tuple, i: int): ...
        def eval_as(self, types: bool, pf: ParsedFile, scope: int, e: tuple | None): ...
        def type_value(self, pf: ParsedFile, scope: int, t: tuple): ...
        def member(self, base: tuple, name: str): ...
        def call_result(self, fn: tuple): ...
        def returns_new_this(self, fn: tuple) -> bool: ...
        # -- classes.py
        def decorated_method(self, pf: ParsedFile, fqn: str, entries: list): ...
        def spread_member(self, pf: ParsedFile, scope: int, sources, name: str): ...
        def own_keys(self, v, depth: int = 0) -> list[str] | None: ...
        def object_walk(self, pf: ParsedFile, scope: int, pairs: bool, arg: tuple | None): ...
        def walked_keys(self, pf: ParsedFile, scope: int, k: tuple) -> tuple[str, ...] | None: ...
        def interface_member(self, fqn: str, path: str, name: str, seen: set, recv: tuple[str, str] | None = None): ...
        def implementations(self, fqn: str, path: str, name: str) -> list[str]: ...
        def class_info(self, fqn: str, path: str): ...
        def base_of(self, fqn: str, path: str): ...
        def class_member(self, fqn: str, path: str, name: str, seen: set, recv: tuple[str, str] | None = None): ...
        def subclasses(self, fqn: str, path: str) -> list[tuple[str, str]]: ...
        def heritage_candidates(self, fqn: str) -> list[tuple[str, str]]: ...
        def overrides(self, fqn: str, path: str, name: str) -> list[str]: ...
        def chain_methods(self, classes: list[tuple[str, str]], name: str) -> set[str]: ...
        def setter_of(self, base: tuple, name: str): ...
        def field_value(self, pf: ParsedFile, fqn: str, name: str, fields: list): ...
        # -- params.py
        def param_path(
            self, pf: ParsedFile, scope: int, e: tuple, hop: int = 0
        ) -> tuple[int, int, tuple[str, ...]] | None: ...
        def passed(self, pf: ParsedFile, scope: int, e: tuple, hops: int = 0): ...
        def callers_of(self, name: str) -> tuple[str, ...]: ...
        def param_values(self, pf: ParsedFile, scope: int, i: int, hops: int = 0): ...
        def class_props(self, fqn: str, path: str): ...
        def param_keys(self, pf: ParsedFile, scope: int, e: tuple) -> tuple[str, ...] | None: ...
        def shared_value(self, key: tuple, method: str, *args): ...
        def called_at_once(self, pf: ParsedFile, scope: int, fqn: str) -> tuple | None: ...
        def iife_argument(self, pf: ParsedFile, scope: int, e: tuple): ...
        def is_method(self, pf: ParsedFile, scope: int) -> bool: ...
        def returned_argument(self, pf: ParsedFile, scope: int, callee: tuple, fn: tuple): ...
        # -- emit.py
        def run_site(self, scope: int, kind: str, expr: Any, line: int) -> None: ...
        def add_edge(self, callee: str, resolution: Resolution, external: bool) -> None: ...
        def how(self, default: Resolution = 'exact') -> Resolution: ...
        def edge_to(self, v: tuple, resolution: Resolution | None) -> None: ...
        def ctor_edge(self, cls: tuple, resolution: Resolution = 'constructor') -> None: ...
        def is_promise(self, pf: ParsedFile, scope: int, r: tuple | None, depth: int = 0) -> bool: ...
        def is_array(self, pf: ParsedFile, scope: int, r: tuple | None, method: str = '', depth: int = 0) -> bool: ...
        def raw_bindings(self, pf: ParsedFile, scope: int, name: str) -> tuple[list | None, int]: ...
