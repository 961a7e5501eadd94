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
from mnemosyne.resolve.typescript.reads import READ_RETURNS, ReadKey

if TYPE_CHECKING:
    from mnemosyne.resolve.typescript.index import TypeScriptIndex

# memo keys (``CtxState.memo``, ``memoized``): (MEMO_* kind, arguments...), one file's resolution
MEMO_SPEC = "spec"  # (spec, specifier, importing dir): what a specifier resolves to
# (b, path, scope, name, type context): what a name's bindings in a scope evaluate to
MEMO_BINDINGS = "b"
MEMO_EXPORT = "x"  # (x, path, name, type context): a module's export
MEMO_SNAP = "snap"  # (snap, path, scope, name, count, type context): a name's first bindings
MEMO_THROWN = "thr"  # (thr, path, function fqn, rejections only): what a function throws out of its body
MEMO_REACH = "reach"  # (reach, path, scope, name, index, type context): one binding of a name (flow order)
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
# (bd, path, function fqn): the ``this`` and the arguments f.call / apply / bind / Reflect.apply give
# a function (shared per index state too)
MEMO_BOUND = "bd"
# the memo kinds probe contexts share (``CtxState.shared_memo``): what they evaluate again most
SHARED_MEMO = frozenset({MEMO_BINDINGS, MEMO_RETURNS, MEMO_FIELD})
UNTAINTED = 1 << 30  # ``CtxState.taint``'s level when no frame is tainted


class CtxState:
    """One file's resolution: memo tables and the set of modules consulted."""

    __slots__ = ("ix", "pf", "deps", "memo", "busy", "flags", "emit", "edges", "caller", "line", "reads", "sub_reads",
                 "call_reads", "tctx", "dir", "gen", "frame", "depth")

    def __init__(self, ix: TypeScriptIndex, pf: ParsedFile) -> None:
        self.ix = ix
        self.pf = pf
        self.deps: set[str] = set()
        self.memo: dict[tuple, tuple] = {}
        # the keys being computed -> the depth of the frame computing them (``shared_memo``)
        self.busy: dict[tuple, int] = {}
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
        # a probe context's question (``shared_value``: a number per question, 0 in a file's
        # context): its ``SHARED_MEMO`` computations are shared per index state with every other
        # probe (``shared_memo``), with the reads they made
        self.gen = 0
        self.frame = False  # a frame of a probe computing a shared entry (``shared_memo``)
        self.depth = 0  # how deep in frames

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
            if self.frame:
                self.frame_hit(key)
            return hit[0]
        owner = self.busy.get(key)
        if owner is not None:
            if self.frame:  # a cycle: what the frames inside the one computing the key compute is not shared
                self.taint(owner + 1)
            return None
        if key[0] in SHARED_MEMO:
            if self.gen:
                return self.shared_memo(key, flags, compute, args)
            shared = self.ix._memo_shared.get(key)
            if shared is not None:  # a file's context takes what the probes computed, too
                self.take_over(shared[2], shared[3], shared[4], shared[5])
                self.memo[key] = (shared[0], shared[1])
                self.flags |= shared[1]
                return shared[0]
        return self.compute_memo(key, flags, compute, args)

    def compute_memo(self, key: tuple, flags: int, compute, args: tuple):
        """``memoized``'s computation in this context (``key`` neither memoised nor busy here)."""
        self.busy[key] = self.depth
        saved_flags, saved_emit = self.flags, self.emit
        self.flags = flags
        self.emit = False
        result = compute(*args)
        fl = self.flags
        del self.busy[key]
        self.memo[key] = (result, fl)
        self.flags = saved_flags | fl
        self.emit = saved_emit
        return result

    def shared_memo(self, key: tuple, flags: int, compute, args: tuple):
        """``memoized`` of a probe context for a ``SHARED_MEMO`` key: computed once per index state
        for every probe that asks, in a frame of the asking probe (its memo and busy keys, so the
        value is what the probe would compute, but reads of its own, so that they are known) and
        taken over with those reads, by probes and files alike. Published only when its reads
        are complete and no cycle through a key computed outside it reached it (``taint``); a
        key another probe's question is computing is computed by the asker, as before."""
        ix = self.ix
        shared = ix._memo_shared.get(key)
        if shared is None:
            if key in ix._memo_busy:
                return self.compute_memo(key, flags, compute, args)
            sub = type(self)(ix, self.pf)
            sub.memo, sub.busy, sub.gen, sub.tctx, sub.frame = self.memo, self.busy, self.gen, self.tctx, True
            sub.depth = depth = self.depth + 1
            sub.flags = flags
            self.busy[key] = depth
            outer_cut, ix._pv_cut = ix._pv_cut, False
            outer_level, ix._memo_level = ix._memo_level, UNTAINTED
            ix._memo_busy.add(key)
            try:
                result = compute.__func__(sub, *args)
            finally:
                ix._memo_busy.discard(key)
                del self.busy[key]
            cut = ix._pv_cut or ix._memo_level <= depth
            ix._pv_cut = outer_cut or ix._pv_cut
            ix._memo_level = min(outer_level, ix._memo_level)
            shared = (result, sub.flags, sub.reads, sub.deps, sub.call_reads, sub.sub_reads)
            if not cut:
                ix._memo_shared[key] = shared
        self.take_over(shared[2], shared[3], shared[4], shared[5])
        self.memo[key] = (shared[0], shared[1])
        self.flags |= shared[1]
        return shared[0]

    def taint(self, level: int) -> None:
        """What the frames ``level`` deep and deeper compute is not shared (``shared_memo``)."""
        ix = self.ix
        if level < ix._memo_level:
            ix._memo_level = level

    def frame_hit(self, key: tuple) -> None:
        """A memo hit in a frame (``shared_memo``): the reads of a shared entry are taken over
        (with the ``READ_RETURNS`` its askers record before asking); another entry's are not
        known, so what the frames compute is not shared (``taint``)."""
        shared = self.ix._memo_shared.get(key) if key[0] in SHARED_MEMO else None
        if shared is None:
            self.taint(1)
            return
        self.take_over(shared[2], shared[3], shared[4], shared[5])
        if key[0] == MEMO_RETURNS:
            self.file_read(key[1], (READ_RETURNS, key[2]))

    def unknown_hit(self) -> None:
        """A memo hit whose reads are not known (a direct memo table, not ``memoized``): what a
        frame computes with it is not shared."""
        if self.frame:
            self.taint(1)

    def take_over(self, reads: dict, deps: set, call_reads: dict, sub_reads: dict) -> None:
        """Add what a shared computation (``shared_value``, ``shared_memo``) read, depended on and
        searched to this context's records (its reads of this file are not recorded)."""
        own = self.pf.path
        for path, (rpf, keys) in reads.items():
            if path != own:
                r = self.reads.get(path)
                if r is None or r[0] is not rpf:
                    r = self.reads[path] = (rpf, set())
                r[1].update(keys)
        self.deps.update(deps)
        self.call_reads.update(call_reads)
        self.sub_reads.update(sub_reads)

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
        def interop_value(self, pf: ParsedFile, scope: int, e: tuple): ...
        def cjs_function_member(self, pf: ParsedFile, fn: tuple, name: str): ...
        # -- evaluate.py
        def lookup(self, pf: ParsedFile, scope: int, name: str): ...
        def eval_bindings(self, pf: ParsedFile, scope: int, name: str, bl: list): ...
        @staticmethod
        def def_value(d: tuple, path: str): ...
        def import_value(self, pf: ParsedFile, spec: str, name: str): ...
        def export_value(self, path: str, name: str): ...
        def eval(self, pf: ParsedFile, scope: int, e: tuple | None, depth: int = 0): ...
        def entries(self, a: tuple, depth: int) -> list: ...
        def replaced_self(self, pf: ParsedFile, scope: int, name: str, v: tuple): ...
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
        def inherited_member(self, pf: ParsedFile, scope: int, spreads, proto, name: str): ...
        def own_keys(self, v, lister: str = "Object.keys") -> list[str] | None: ...
        def object_walk(self, pf: ParsedFile, scope: int, pairs: bool, arg: tuple | None): ...
        def walked_keys(self, pf: ParsedFile, scope: int, k: tuple) -> tuple[str, ...] | None: ...
        def walked_parameter(self, pf: ParsedFile, scope: int, e: tuple): ...
        def sole_value(self, pf: ParsedFile, scope: int, name: str) -> tuple[tuple, int] | None: ...
        @staticmethod
        def under_key(a: tuple, key: str) -> tuple: ...
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
        def passed_few(self, pf: ParsedFile, scope: int, e: tuple): ...
        def assigned_passed(self, pf: ParsedFile, scope: int, name: str): ...
        def callers_of(self, name: str) -> tuple[str, ...]: ...
        def param_values(self, pf: ParsedFile, scope: int, i: int, hops: int = 0): ...
        def class_props(self, fqn: str, path: str): ...
        def param_keys(self, pf: ParsedFile, scope: int, e: tuple) -> tuple[str, ...] | None: ...
        def bound_this(self, fqn: str, path: str): ...
        def bound_args(self, fqn: str, path: str, i: int): ...
        def shared_value(self, key: tuple, method: str, *args): ...
        def called_at_once(self, pf: ParsedFile, scope: int, fqn: str) -> tuple | None: ...
        def iife_argument(self, pf: ParsedFile, scope: int, e: tuple): ...
        def is_method(self, pf: ParsedFile, scope: int, i: int) -> bool: ...
        def returned_argument(self, pf: ParsedFile, scope: int, callee: tuple, fn: tuple): ...
        def args_returned(self, pf: ParsedFile, scope: int, fn: tuple, args: tuple): ...
        # -- emit.py
        def run_site(self, scope: int, kind: str, expr: Any, line: int) -> None: ...
        def add_edge(self, callee: str, resolution: Resolution, external: bool) -> None: ...
        def how(self, default: Resolution = 'exact') -> Resolution: ...
        def edge_to(self, v: tuple, resolution: Resolution | None) -> None: ...
        def ctor_edge(self, cls: tuple, resolution: Resolution = 'constructor') -> None: ...
        def is_promise(self, pf: ParsedFile, scope: int, r: tuple | None, depth: int = 0) -> bool: ...
        def is_array(self, pf: ParsedFile, scope: int, r: tuple | None, method: str = '', depth: int = 0) -> bool: ...
        def raw_bindings(self, pf: ParsedFile, scope: int, name: str) -> tuple[list | None, int]: ...
