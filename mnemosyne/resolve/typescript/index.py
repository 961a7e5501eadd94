"""TypeScript / TSX / JavaScript resolution: parsed files -> FileFacts with resolved calls.

``TypeScriptIndex`` keeps the parsed files (``mnemosyne.parse.typescript.ParsedFile``) and the
config files (tsconfig*.json / jsconfig*.json / package.json) of one tree. Facts are computed in
``update`` for every affected file and cached; each file's ``depends_on`` is the set of module
names whose content its resolution consulted (including specifier candidates that were tried and
missing). A file added or deleted re-resolves the files that depend on its module; a config
change re-resolves all. A file whose content changes re-resolves only the dependents for which
one of the cross-module reads they recorded (``_Ctx.read``; every read of another file's parse
result goes through it, see ``mnemosyne.resolve.typescript.reads``) answers differently on the new
version: a body-only edit re-resolves the edited file alone.
Resolution of a file uses only per-file memo tables, so its result never depends on what was
resolved before (the incremental contract of ``mnemosyne.extract``).

Module resolution: relative specifiers (extensions .ts/.tsx/.js/.jsx/.mts/.cts/.mjs/.cjs, then
``index.*``; a written ``.js``/``.mjs``/``.cjs``/``.jsx`` maps to the TS source first; ``.d.ts``
files are not sources), then the governing tsconfig/jsconfig ``paths`` (``*`` wildcards) and
``baseUrl`` (``extends`` with relative paths followed), then in-repo packages by package.json
``name`` (entry from ``source``/``exports``/``types``/``module``/``main``, ``.js`` mapped to
``.ts``, falling back to ``src/index`` and ``index``), else an npm package (valid npm names and
node builtins only; an alias nothing maps, like ``@/x``, is unresolved).

Conventions (what the corpus in tests/extract_ts/corpus expects; tests/extract_ts/CONVENTIONS.md):

* a call is resolved only through bindings: local definitions (lexical scopes, block scoping,
  ``var`` hoisting), imports and re-export chains, CommonJS ``require``/``module.exports``,
  declared types (annotations, ``as``, ``T | undefined``, ``Promise<T>``, ``typeof X``, a
  declared ``this: T``), inferred values
  (``new C()``, return values, ``this.x = ...`` fields, array elements: ``for (x of xs)``,
  ``xs[i]``, a callback passed to ``xs.map``/``forEach``/...), ``this``/``super`` through the class
  chain, object literals and TS namespaces; anything else gets no edge (never best-match by name);
* an array method given an internal function calls it for the caller (``xs.map(fmt)``: an edge to
  ``fmt``, resolution ``implicit``) when ``xs`` is known to be an array;
* a parameter called (``function run(cb) { cb() }``) calls what the calls of its function pass
  there (``run(task)``, in any file: ``caller_files``, recorded as ``<calls>NAME`` dependencies and
  ``('cs', name)`` reads), resolution ``inferred``;
* ``new C()`` calls the constructor declared in C or the nearest internal base (resolution
  ``constructor``); no declared constructor -> no edge; ``super(...)`` likewise (``super``);
  ``new`` of an external or builtin class is an edge to it (``react.Component``, ``<builtin>.Map``);
* a member missing from an internal class chain with an external base is ``<base path>.name``
  (``this.setState`` -> ``react.Component.setState``), but nothing is looked up further on it;
  an instance of an external type works the same (``c: AxiosInstance; c.get()``);
* JSX ``<C/>`` calls a function component (resolution ``jsx``), or a class component's declared
  constructor and its ``render``; lowercase intrinsic elements are not calls; ``memo``,
  ``forwardRef`` and mobx ``observer`` return their argument;
* decorators: ``@d`` is an implicit call of d, ``@d(x)`` an ordinary call of d, both from the
  scope that encloses the class (parameter decorators included); calls in class bodies outside
  methods (field initialisers, static blocks) belong to the enclosing scope too;
* getters: reading a getter of a known class is an implicit call; assigning to a setter too;
  a getter and its setter share one FQN;
* passing a function (``arr.map(fmt)``) is not a call; calls on unknown receivers get no edge;
* subclass dispatch: ``this.m()`` in a method of class C resolves to the ``m`` C's chain finds
  (``self``) and also to the ``m`` each internal subclass of C finds in its own chain (resolution
  ``subclass``, confidence 0.9); subclasses are found by the last name of their ``extends``
  expression and confirmed by evaluating it. A receiver typed ``C`` (``(j: Job) => j.step()``)
  calls ``C.m`` only.
* interfaces: a value typed by an interface gets its members' declared types (a method
  signature's return type, a property's type); calling a method through it is an edge to each
  internal implementation (``implements``, also through extending interfaces and subclasses of
  implementing classes), resolution ``subclass``, confidence 0.9; a value of the same name
  outranks the interface (declaration merging).

Confidence: 1.0 for every edge except ``inferred`` (through a variable, field or return value):
0.9, which ``mnemosyne.callgraph.to_pycg`` still keeps at its default threshold.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from mnemosyne.facts import FileFacts, Import, Inherit
from mnemosyne.gcpause import gc_paused
from mnemosyne.hashing import content_hash
from mnemosyne.indexmaps import add_to, discard_from
from mnemosyne.parse.pool import ParseJob
from mnemosyne.parse.ts_facts import make_call, make_import
from mnemosyne.parse.typescript import (
    CALLED_AT_ONCE,
    ITERATOR,
    SPREADS,
    WRAPPER_CALLEES,
    ParsedFile,
    class_names_extended,
    is_source,
    module_name,
    parse_file,
    suffix_of,
)
from mnemosyne.resolve.typescript.config import (
    ConfigModel,
    build_config,
    dirname,
    is_config,
    join,
    package_entries,
    package_subpath,
    resolution_view,
)
from mnemosyne.resolve.typescript.reads import same_answers

GLOBALS = frozenset(
    """console JSON Math Object Array Promise Reflect Proxy Symbol Number String Boolean BigInt Date
    RegExp Error TypeError RangeError SyntaxError ReferenceError EvalError URIError AggregateError Map
    Set WeakMap WeakSet WeakRef FinalizationRegistry Intl ArrayBuffer SharedArrayBuffer DataView
    Atomics Int8Array Uint8Array Uint8ClampedArray Int16Array Uint16Array Int32Array Uint32Array
    Float32Array Float64Array BigInt64Array BigUint64Array setTimeout setInterval clearTimeout
    clearInterval setImmediate clearImmediate queueMicrotask structuredClone fetch parseInt
    parseFloat isNaN isFinite encodeURIComponent decodeURIComponent encodeURI decodeURI escape
    unescape atob btoa globalThis window document navigator localStorage sessionStorage location
    history process Buffer URL URLSearchParams AbortController AbortSignal TextEncoder TextDecoder
    Headers Request Response FormData Blob File FileReader Event CustomEvent EventTarget
    MutationObserver IntersectionObserver ResizeObserver WebSocket Worker XMLHttpRequest alert
    confirm prompt requestAnimationFrame cancelAnimationFrame requestIdleCallback performance
    crypto Function eval getComputedStyle matchMedia Image Notification""".split()
)

NODE_BUILTINS = frozenset(
    """assert async_hooks buffer child_process cluster console constants crypto dgram
    diagnostics_channel dns domain events fs http http2 https inspector module net os path
    perf_hooks process punycode querystring readline repl stream string_decoder sys timers tls
    trace_events tty url util v8 vm wasi worker_threads zlib test""".split()
)

CONFIG_DEP = "<config>"  # depends_on entry: "resolved a non-relative specifier (read the configs)"
_NPM_NAME = re.compile(r"^(@[a-z0-9][\w.~-]*/)?[a-z0-9][\w.~-]*$", re.IGNORECASE)

def _union(vals: list, all_known: bool = False):
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


def _alternatives(v) -> tuple:
    """The values ``v`` may be: its members for ``('uni', ...)``, none for None."""
    return () if v is None else v[1] if v[0] == "uni" else (v,)


def _admits(how: tuple, callee: tuple) -> bool:
    """Whether a call of ``callee`` (filed under ``CALLED_AT_ONCE``) may call a function that is
    called at once as ``how`` says (``_Ctx.called_at_once``): an IIFE by its own definition; a
    function returned by ``name`` by a call of a call of ``name`` (of any call, when nameless)."""
    if how[0] == "iife":
        return callee == ("defat", how[2])
    if callee[0] != "call" or callee[1] is None:
        return False
    inner = callee[1]
    if how[1].startswith("<"):
        return True
    return (inner[0] == "id" and inner[1] == how[1]) or (inner[0] == "prop" and inner[2] == how[1])


def _funcs(v) -> list:
    """The internal functions among the values ``v`` may be."""
    return [x for x in _alternatives(v) if x[0] == "func"]


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
_NO_DEF = ("def", "", "")
CONFIDENCE = {"inferred": 0.9, "subclass": 0.9}  # every other resolution: 1.0 (nothing here is a guess)
# how indirect a resolution is: an edge found several ways keeps its most direct one
_INDIRECT = {"inferred": 1, "subclass": 2}
SUB_PREFIX = "<sub>"  # depends_on entry: "the files with a class whose extends clause is named X"
CALLS_PREFIX = "<calls>"  # depends_on entry: "the files with a call named X that passes arguments"
# parameter flow looks at most this many call sites by the function's name (``_param_values``): a
# name called from everywhere (`set`, `add`) has sites that would each need their receiver's
# type, and three.js's bundles made that quadratic (9.6x the parse floor instead of 3.2x)
MAX_PARAM_SITES = 512
# callers passing on their own parameter are followed this many steps up (``_param_values``): a
# bound on the chain (rxjs's operators reach OperatorSubscriber's callbacks in one step)
MAX_PARAM_HOPS = 2

# values a call's result may be (external / builtin values from a return are not named reliably)
_NAMED_RESULTS = frozenset({"inst", "iinst", "obj", "func", "class", "mod", "extinst", "arr", "alit", "uni"})
# array methods whose result holds (some of) the receiver's elements
_SAME_ELEMENTS = frozenset({"filter", "slice", "sort", "reverse", "concat", "toSorted", "toReversed", "splice"})
# builtins returning a new array (``is_array``)
# array methods returning an array (of other elements): ``is_array`` only
_ARRAY_RESULTS = frozenset({"fill", "flat", "copyWithin", "with", "toSpliced"})
# builtin classes whose instances' forEach calls the function given (``is_array``)
_FOREACH_COLLECTIONS = frozenset({"Set", "Map"})
_ARRAY_MAKERS = frozenset({"Object.keys", "Object.values", "Object.entries", "Array.from", "Array.of"})
_ARRAY_MAKER_NAMES = frozenset(m.rsplit(".", 1)[1] for m in _ARRAY_MAKERS)
# builtins returning a promise, and the methods of a promise returning one (``is_promise``)
_PROMISE_MAKERS = frozenset(
    {"fetch", "Promise.resolve", "Promise.reject", "Promise.all", "Promise.allSettled", "Promise.race", "Promise.any"}
)
_PROMISE_CHAIN = frozenset({"then", "catch", "finally"})

_PARSE_CACHE_SIZE = 256  # recent parse results kept per index, by (path, content hash)

_EXT_TRY = (".ts", ".tsx", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs")
_JS_TO_TS = {
    ".js": (".ts", ".tsx", ".js", ".jsx"),
    ".jsx": (".tsx", ".jsx"),
    ".mjs": (".mts", ".mjs"),
    ".cjs": (".cts", ".cjs"),
}


def npm_package_name(spec: str) -> str | None:
    """'@scope/pkg/sub' -> '@scope/pkg'; 'lodash/fp' -> 'lodash'; node builtins -> None."""
    if spec.startswith("node:"):
        return None
    parts = spec.split("/")
    name = "/".join(parts[:2]) if spec.startswith("@") and len(parts) >= 2 else parts[0]
    if name in NODE_BUILTINS or not _NPM_NAME.match(name):
        return None
    return name


# the file of a probe context (``_Ctx.param_values``): no real file, so every read is recorded
_PROBE = ParsedFile(path="", language="typescript", module="", content_hash="")


class _Ctx:
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

    def read(self, pf: ParsedFile, key: tuple) -> None:
        """Record a read of another file's parse result (every cross-module read calls this)."""
        r = self.reads.get(pf.path)
        if r is None or r[0] is not pf:
            r = self.reads[pf.path] = (pf, set())
        r[1].add(key)

    # -- memoised evaluation --------------------------------------------------------------------
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

    # -- files and specifiers -------------------------------------------------------------------
    def file(self, path: str) -> ParsedFile | None:
        pf = self.ix.files.get(path)
        if path != self.pf.path:
            self.deps.add(pf.module if pf is not None else module_name(path))
        return pf

    def file_read(self, path: str, key: tuple) -> ParsedFile | None:
        """``file(path)``, recording the read ``key`` on it when it is another file's."""
        pf = self.file(path)
        if pf is not None and pf is not self.pf:
            self.read(pf, key)
        return pf

    def resolve_spec(self, spec: str, from_path: str) -> tuple[str, str] | None:
        """('file', path) | ('ext', spec) | None (an internal-looking specifier with no file)."""
        d = self.dir if from_path is self.pf.path else dirname(from_path)
        key = ("spec", spec, d)
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        # shared by every file of the update (same file set and config): the answer and the
        # module names it tried, which become this file's dependencies as if it had tried them
        shared = self.ix._spec_cache
        ent = shared.get((spec, d))
        if ent is None:
            saved = self.deps
            self.deps = set()
            try:
                r = self._resolve_spec(spec, from_path)
            finally:
                tried, self.deps = self.deps, saved
            ent = shared[(spec, d)] = (r, tried)
        self.deps |= ent[1]
        self.memo[key] = (ent[0],)
        return ent[0]

    def _resolve_spec(self, spec: str, from_path: str) -> tuple[str, str] | None:
        if spec.startswith((".", "/")):
            base = join(dirname(from_path), spec) if spec.startswith(".") else join(spec.lstrip("/"))
            p = self.try_path(base)
            return ("file", p) if p else None
        self.deps.add(CONFIG_DEP)  # the answer depends on tsconfig paths/baseUrl and package.json files
        cfg = self.ix.config()
        opts = cfg.options_for(from_path)
        if opts is not None:
            for pattern, targets, pbase in opts.paths:
                star = pattern.find("*")
                if star < 0:
                    if spec != pattern:
                        continue
                    rest = ""
                else:
                    pre, post = pattern[:star], pattern[star + 1 :]
                    if not (spec.startswith(pre) and spec.endswith(post) and len(spec) >= len(pre) + len(post)):
                        continue
                    rest = spec[len(pre) : len(spec) - len(post)]
                for t in targets:
                    p = self.try_path(join(pbase, t.replace("*", rest)))
                    if p:
                        return ("file", p)
            if opts.base_url is not None:
                p = self.try_path(join(opts.base_url, spec))
                if p:
                    return ("file", p)
        parts = spec.split("/")
        n = 2 if spec.startswith("@") else 1
        pkg = cfg.packages.get("/".join(parts[:n]))
        if pkg is not None:
            sub = "/".join(parts[n:])
            for cand in package_entries(pkg) if not sub else package_subpath(pkg, sub):
                p = self.try_path(cand)
                if p:
                    return ("file", p)
            return None
        if spec.startswith("node:") or _NPM_NAME.match("/".join(parts[:n])):
            return ("ext", spec)
        return None  # an alias nothing maps (`@/x`, `~/x`, `#x`): not a package, not guessed

    def try_path(self, base: str) -> str | None:
        files = self.ix.files
        suf = suffix_of(base)
        if suf in _JS_TO_TS:
            stem = base[: -len(suf)]
            self.deps.add(module_name(base))
            for e in _JS_TO_TS[suf]:
                if stem + e in files:
                    return stem + e
        elif suf in (".ts", ".tsx", ".mts", ".cts"):
            if base.endswith(".d.ts"):
                base = base[: -len(".d.ts")]
            else:
                self.deps.add(module_name(base))
                if base in files:
                    return base
                base = base[: -len(suf)]
        if not base:
            return None
        self.deps.add(base)  # base/index.* files are module `base`
        self.deps.add(module_name(base + ".ts"))  # base.* files (`x/index` is module `x`)
        for e in _EXT_TRY:
            if base + e in files:
                return base + e
        for e in _EXT_TRY:
            if base + "/index" + e in files:
                return base + "/index" + e
        return None

    # -- bindings -------------------------------------------------------------------------------
    def lookup(self, pf: ParsedFile, scope: int, name: str):
        if pf is not self.pf:
            self.read(pf, ("lk", pf.scope_key[scope], name))
        s = scope
        bindings = pf.bindings
        parents = pf.scope_parent
        while s >= 0:
            bl = bindings[s].get(name)
            if bl is not None:
                if bl[0][0] == "iface" and all(b[0] == "iface" for b in bl):
                    if self.tctx:
                        return ("iface", bl[-1][1], pf.path)
                else:
                    key = ("b", pf.path, s, name, self.tctx)  # eval_bindings' memo, without the call
                    hit = self.memo.get(key)
                    if hit is not None:
                        self.flags |= hit[1]
                        return hit[0]
                    return self.memoized(key, 0, self._eval_bindings, pf, bl)
            s = parents[s]
        if name in GLOBALS:
            return ("builtin", name)
        if name == "exports":  # CommonJS free variables
            return ("mod", pf.path)
        if name == "module":
            return ("cjsmodule", pf.path)
        return None

    def eval_bindings(self, pf: ParsedFile, scope: int, name: str, bl: list):
        return self.memoized(("b", pf.path, scope, name, self.tctx), 0, self._eval_bindings, pf, bl)

    def _eval_bindings(self, pf: ParsedFile, bl: list):
        result = None
        ok = True
        for b in bl:
            k = b[0]
            if k == "decl" or k == "iface":
                continue  # an interface merged with a value: the value (``lookup`` sees lone interfaces)
            if k == "def":
                v = self.def_value(b, pf.path)
            elif k == "deco":  # @d class C: a class d returns in C's place, if it returns one
                v = self.eval(pf, b[1], b[2])
                if v is None or not all(x[0] == "class" for x in _alternatives(v)):
                    continue
            elif k == "import":
                self.flags |= 2
                v = self.import_value(pf, b[1], b[2])
            elif k == "var":
                v = typed = None
                if b[1] is not None:
                    fl = self.flags
                    v = typed = self.type_value(pf, b[3], b[1])
                    if v is not None and v[0] == "iinst" and b[2] is not None:
                        v = None  # an interface-typed value: what is assigned says more, if known
                        self.flags = fl
                if v is None and b[2] is not None:
                    e0 = b[2]
                    while e0[0] == "prop":
                        e0 = e0[1]
                    if e0[0] == "require" or e0[0] == "import":
                        self.flags |= 2  # const x = require(...) / const { x } = require(...): an import
                    elif b[2][0] != "defat":
                        self.flags |= 4  # a value flowing through a variable: inferred
                    v = self.eval_as(False, pf, b[3], b[2])
                if v is None:
                    v = typed
            else:
                v = None
            if v is not None and v[0] == "null":
                continue
            if v is None:  # one assignment we cannot name: the variable could hold anything
                ok = False
                break
            result = v if result is None else _union([result, v])  # several known: one of them
        if not ok:
            result = None
        return result

    @staticmethod
    def def_value(d: tuple, path: str):
        kind = d[2]
        if kind == "func":
            return ("func", d[1], path)
        if kind == "class":
            return ("class", d[1], path)
        if kind == "ns":
            return ("ns", d[1], path)
        return ("obj", d[1], path)

    def import_value(self, pf: ParsedFile, spec: str, name: str):
        r = self.resolve_spec(spec, pf.path)
        if r is None:
            return None
        if r[0] == "ext":
            return ("ext", spec if name in ("*", "default") else f"{spec}.{name}")
        if name == "*":
            return ("mod", r[1])
        return self.export_value(r[1], name)

    def export_value(self, path: str, name: str):
        return self.memoized(("x", path, name, self.tctx), 0, self._export_value, path, name)

    def _export_value(self, path: str, name: str):
        pf = self.file(path)
        result = None
        if pf is not None:
            foreign = pf is not self.pf
            if foreign:
                self.read(pf, ("x", name))
            e = pf.exports.get(name)
            if e is not None:
                k = e[0]
                if k == "local":
                    result = self.lookup(pf, 0, e[1]) if e[1] else None
                elif k == "import":
                    result = self.import_value(pf, e[1], e[2])
                elif k == "expr":
                    result = self.eval(pf, e[2], e[1]) if e[1] is not None else None
                elif k == "defat":
                    d = pf.defs_at.get(e[1])
                    result = self.def_value(d, pf.path) if d is not None else None
            elif name != "default":
                if foreign:
                    self.read(pf, ("st",))
                for spec in pf.stars:
                    result = self.import_value(pf, spec, name)
                    if result is not None:
                        break
        self.flags |= 2  # reached through an export: an import
        return result

    # -- expressions ----------------------------------------------------------------------------
    def eval(self, pf: ParsedFile, scope: int, e: tuple | None, depth: int = 0):
        if e is None or depth > 200:
            return None
        k = e[0]
        if k == "id":
            return self.lookup(pf, scope, e[1])
        if k == "prop":
            base = self.eval(pf, scope, e[1], depth + 1)
            if base is None:
                return None
            return self.member(base, e[2])
        if k == "call":
            fn = self.eval(pf, scope, e[1], depth + 1)
            if fn is None:
                return None
            if len(e) > 2 and fn[0] == "ext" and fn[1] in WRAPPER_CALLEES:
                return self.eval(pf, scope, e[2], depth + 1)
            res = self.call_result(fn)
            if res is not None and res[0] == "inst" and e[1][0] == "prop" and self.returns_new_this(fn):
                # `Sub.create()` with an inherited `static create() { return new this(); }`
                recv = self.eval(pf, scope, e[1][1], depth + 1)
                if recv is not None and recv[0] == "class":
                    return ("inst", recv[1], recv[2])
            return res
        if k == "new":
            c = self.eval(pf, scope, e[1], depth + 1)
            if c is None:
                return None
            if c[0] == "uni":  # one of several classes (`@d class C` with d returning a class)
                return _union([("inst", x[1], x[2]) if x[0] == "class" else None for x in c[1]], all_known=True)
            if c[0] == "class":
                return ("inst", c[1], c[2])
            if c[0] == "ext":
                return ("extinst", c[1])
            if c[0] == "func":  # new F() with F.prototype.m = ...: an instance of F's prototype
                _pf, info = self.class_info(c[1], c[2])
                return ("inst", c[1], c[2]) if info is not None else None
            return None
        if k == "this":
            if pf is not self.pf:
                self.read(pf, ("th", pf.scope_key[scope]))
            this = pf.scope_this[scope]
            if this is None:
                return None
            if this[0] == "type":
                return self.type_value(pf, scope, this[1])
            self.flags |= 1
            if this[0] == "scls":  # a static method's `this`: the class (`new this()`)
                return ("class", this[1], pf.path)
            return ("inst", this[1], pf.path) if this[0] == "cls" else ("obj", this[1], pf.path)
        if k == "super":
            if pf is not self.pf:
                self.read(pf, ("th", pf.scope_key[scope]))
            this = pf.scope_this[scope]
            if this is None or (this[0] != "cls" and this[0] != "scls"):
                return None
            self.flags |= 8
            return self.base_of(this[1], pf.path)
        if k == "defat":
            d = pf.defs_at.get(e[1])
            return self.def_value(d, pf.path) if d is not None else None
        if k == "require":
            r = self.resolve_spec(e[1], pf.path)
            if r is None:
                return None
            if r[0] == "ext":
                return ("ext", e[1])
            target = self.file_read(r[1], ("cjs",))
            if target is not None and target.cjs_whole:
                return self.export_value(r[1], "default")
            return ("mod", r[1])
        if k == "either":  # `c ? a : b`, `a ?? b`, `a || b`: one of them (a null one drops out)
            vals = [self.eval(pf, scope, x, depth + 1) for x in e[1:]]
            return _union([v for v in vals if v is None or v[0] != "null"], all_known=True)
        if k == "elem":  # items[i] / for (x of items) / items.map(x => ...) with items: T[]
            r = e[1]
            if r is not None and r[0] == "then":  # p.then(v => ...): a Promise<T> is typed T
                v = self.eval(pf, scope, r[1], depth + 1)
                if v is not None:
                    self.flags |= 4
                return v
            while r is not None and r[0] == "call" and r[1] is not None and r[1][0] == "prop" and r[1][2] in _SAME_ELEMENTS:
                r = r[1][1]  # items.filter(...).map(x => ...): the same elements
            v = self.eval(pf, scope, r, depth + 1)
            if v is not None and v[0] == "arr":
                self.flags |= 4
                return v[1]
            if v is not None and (v[0] == "alit" or v[0] == "uni"):
                return self.element(v, None, depth)
            if v is not None and (v[0] == "inst" or v[0] == "obj"):  # an iterable of ours: what its
                it = self.iterator(v)  # [Symbol.iterator] yields (a generator method)
                if it is not None and it[1] is not None and it[1][0] == "arr":
                    return it[1][1]
            return None
        if k == "at":  # pair[1] / const [a, b] = pair: that element of an array literal
            v = self.eval(pf, scope, e[1], depth + 1)
            if v is None:
                return None
            if v[0] == "arr":
                self.flags |= 4
                return v[1]
            return self.element(v, e[2], depth)
        if k == "alit":  # an array literal: its elements are evaluated where it was written
            return ("alit", pf.path, scope, e[1])
        if k == "snap":  # [p, q] = [q, p]: the values q had before (its first bindings)
            if pf is not self.pf:
                self.read(pf, ("lk", pf.scope_key[e[2]], e[1]))
            bl = pf.bindings[e[2]].get(e[1])
            if not bl:
                return None
            return self.memoized(("snap", pf.path, e[2], e[1], e[3], self.tctx), 0, self._eval_bindings, pf, bl[: e[3]])
        if k == "also":  # an object member assigned again (`state.handler = f`): what is known of both
            vals = [self.eval(pf, scope, x, depth + 1) for x in e[1:]]
            return _union([v for v in vals if v is not None and v[0] != "null"])
        if k == "in":  # a member added to an object literal from another scope: evaluated there
            return self.eval(pf, e[1], e[2], depth + 1)
        if k == "from":  # [x, ...rest] = xs / xs.slice(1): the elements from a position on
            return self.sliced(pf, scope, e, depth)
        if k == "import":  # await import("./x"): the namespace
            self.flags |= 2
            return self.import_value(pf, e[1], "*")
        if k == "type":
            return self.type_value(pf, scope, e[1])
        if k == "null":
            return ("null",)
        if k == "olit":  # an object literal argument: its members are evaluated where it was written
            return ("olit", pf.path, scope, e[1])
        return None

    def entries(self, a: tuple, depth: int) -> list:
        """The elements of array-literal value ``a`` in order: ``(path, scope, expr)`` each (expr
        None: a hole or an expression not encoded), where a spread of a known literal is put in
        place (``[...head, c]``) and a spread of anything else is ``('...', path, scope, expr)``:
        positions after it are unknown. ``('alit', None, None, entries)`` (a slice) holds them."""
        if a[1] is None:
            return list(a[3])
        out: list = []
        path, scope = a[1], a[2]
        pf = None
        for x in a[3]:
            if x is not None and x[0] == "...":
                inner = None
                if x[1] is not None and depth < 16:
                    pf = pf or self.file(path)
                    inner = self.eval(pf, scope, x[1], depth + 1) if pf is not None else None
                if inner is not None and inner[0] == "alit":
                    out.extend(self.entries(inner, depth + 1))
                else:
                    out.append(("...", path, scope, x[1]))
            else:
                out.append((path, scope, x))
        return out

    def element(self, v: tuple, pos: int | None, depth: int):
        """Element ``pos`` (None: any element) of the array literal(s) ``v`` may be; None when
        not known (a position after a spread of unknown length, a value that is not an array
        literal)."""
        found = []
        for a in _alternatives(v):
            if a[0] != "alit":
                return None
            elems = self.entries(a, depth)
            if pos is not None:
                if any(len(x) == 4 for x in elems[: pos + 1]) or pos >= len(elems):
                    return None
                elems = elems[pos : pos + 1]
            for x in elems:
                if len(x) == 4:  # a spread of an array of unknown length: any of its elements
                    path, scope, ex = x[1], x[2], ("elem", x[3]) if x[3] is not None else None
                else:
                    path, scope, ex = x
                pf = self.file(path) if ex is not None else None
                found.append(self.eval(pf, scope, ex, depth + 1) if pf is not None else None)
        return _union(found, all_known=pos is not None)

    def sliced(self, pf: ParsedFile, scope: int, e: tuple, depth: int):
        """``('from', xs, start, end, is_slice)``: the elements of the array literal(s) ``xs`` may
        be from ``start`` (to ``end``), as a literal; an array typed ``T[]`` stays one; a
        ``slice`` of anything else is the call it is (a class's own ``slice``)."""
        v = self.eval(pf, scope, e[1], depth + 1)
        if v is not None and v[0] == "arr":
            return v
        start, end = e[2], e[3]
        out: list = []
        for a in _alternatives(v):
            if a[0] != "alit":
                out = []
                break
            elems = self.entries(a, depth)
            if any(len(x) == 4 for x in elems[: start if end is None else max(start, end)]):
                out = []
                break
            out.append(("alit", None, None, tuple(elems[start:end])))
        if out:
            return _union(out)
        if e[4]:
            return self.eval(pf, scope, ("call", ("prop", e[1], "slice")), depth + 1)
        return None

    def iterator(self, v: tuple):
        """(method, result) of the ``[Symbol.iterator]`` method of value ``v`` (an instance or
        an object of ours), or None."""
        fs = _funcs(self.member(v, ITERATOR)) if v[0] in ("inst", "obj") else []
        return (fs[0], self.call_result(fs[0])) if fs else None

    def argument(self, pf: ParsedFile, scope: int, args: tuple, i: int):
        """Argument ``i`` of a call recorded with argument expressions ``args``
        (``pf.call_args``), spreads of known literals put in place (``f(...[a, b])``)."""
        if any(x is not None and x[0] == "..." for x in args[: i + 1]):
            return self.element(("alit", pf.path, scope, args), i, 0)
        return self.eval(pf, scope, args[i])

    def eval_as(self, types: bool, pf: ParsedFile, scope: int, e: tuple | None):
        """``eval`` of a type expression (``types``: names may denote interfaces) or of a value
        expression (names never denote interfaces)."""
        if self.tctx is types:
            return self.eval(pf, scope, e)
        self.tctx = types
        try:
            return self.eval(pf, scope, e)
        finally:
            self.tctx = not types

    def type_value(self, pf: ParsedFile, scope: int, t: tuple):
        if t[0] == "union":  # `A | B`: a value of one of them
            return _union([self.type_value(pf, scope, m) for m in t[1]], all_known=True)
        if t[0] == "array":  # elements of a type we may not know: still an array (``run_site``, "cb")
            return ("arr", self.type_value(pf, scope, t[1]) if t[1] is not None else None)
        if t[0] == "typeof":
            v = self.eval_as(False, pf, scope, t[1])
            return v if v is not None and v[0] != "null" else None
        v = self.eval_as(True, pf, scope, t)
        if v is None:
            return None
        if v[0] == "class":
            self.flags |= 4
            return ("inst", v[1], v[2])
        if v[0] == "iface":
            self.flags |= 4
            return ("iinst", v[1], v[2])
        if v[0] == "ext":
            return ("extinst", v[1])
        return None

    def member(self, base: tuple, name: str):
        k = base[0]
        if k == "uni":
            return _union([self.member(b, name) for b in base[1]])
        if k == "mod":
            return self.export_value(base[1], name)
        if k == "ext":
            return ("ext", f"{base[1]}.{name}")
        if k == "builtin":
            path = f"{base[1]}.{name}"
            if path.count(".") >= 2 or base[1] == "process.env":
                # window.location.href / process.env.X: data, not API; callable but not looked into
                return ("extm", f"<builtin>.{path}")
            return ("builtin", path)
        if k == "ns":
            pf = self.file_read(base[2], ("ns", base[1], name))
            if pf is None:
                return None
            for scope in pf.namespaces.get(base[1], ()):
                bl = pf.bindings[scope].get(name)
                if bl is not None:
                    return self.eval_bindings(pf, scope, name, bl)
            return None
        if k == "extinst":
            return ("extm", f"{base[1]}.{name}")
        if k == "cjsmodule":
            return ("mod", base[1]) if name == "exports" else None
        if k == "obj":
            pf = self.file_read(base[2], ("o", base[1]))
            if pf is None:
                return None
            o = pf.objects.get(base[1])
            if o is None:
                return None
            e = o[1].get(name)
            if e is None:
                sp = o[1].get(SPREADS) if name != SPREADS else None
                if sp is None:
                    return None
                # { ...a } / Object.assign(o, a): a member of a source (the last one that has it)
                return self.memoized(("o", base[2], base[1], name), 4, self.spread_member, pf, o[0], sp[1], name)
            # the member's own expression is not evaluated at this call site (emit off)
            return self.memoized(("o", base[2], base[1], name), 0 if e[0] == "defat" else 4, self.eval, pf, o[0], e)
        if k == "func":  # f.call(t, ...) / f.apply(t, args) call f; f.bind(t) makes a function calling f
            if name == "call" or name == "apply":
                return base
            return ("bind", base) if name == "bind" else None
        if k in ("inst", "class"):
            r = self.class_member(base[1], base[2], name, set())
            if name == "props" and k == "inst" and (r is None or r[0] == "extm" or r[0] == "iinst"):
                # a class component's this.props: what its elements pass
                p = self.class_props(base[1], base[2])
                if p is not None:
                    return p
            return r
        if k == "iinst":
            return self.interface_member(base[1], base[2], name, set())
        if k == "olit":
            e = next((x for key, x in base[3] if key == name), None)
            pf = self.file(base[1]) if e is not None else None
            return self.eval(pf, base[2], e) if pf is not None else None
        return None

    def decorated_method(self, pf: ParsedFile, fqn: str, entries: list):
        """Method ``fqn`` and the functions its decorators' calls return (``@bound`` returning a
        wrapper: a call through the method's name runs the wrapper)."""
        found = [("func", fqn, pf.path)]
        for d in entries:
            if d[0] == "deco":
                found.extend(_funcs(self.eval(pf, d[1], d[2])))
        return _union(found)

    def spread_member(self, pf: ParsedFile, scope: int, sources, name: str):
        """Member ``name`` of the last of ``sources`` (expressions in ``scope``; with scope -1,
        ``('mixin', scope, expr)`` entries) that has one."""
        for x in reversed(sources):
            v = self.eval(pf, x[1], x[2]) if scope < 0 else self.eval(pf, scope, x)
            if v is not None:
                m = self.member(v, name)
                if m is not None:
                    return m
        return None

    def interface_member(self, fqn: str, path: str, name: str, seen: set, recv: tuple[str, str] | None = None):
        """A member of a value typed by interface ``fqn``: a method signature is
        ``('ifm', interface, path, name, return type, declaring interface, its path)`` (the
        receiver's interface decides which implementations a call reaches, the declaring one
        where the return type is read); a property, a value of its type; else what the
        interfaces it extends say."""
        if (fqn, path) in seen or len(seen) > 50:
            return None
        seen.add((fqn, path))
        recv = recv or (fqn, path)
        pf, info = self.class_info(fqn, path)
        if info is None or not info.is_interface:
            return None
        for ent in info.members.get(name, ()):
            if ent[0] == "msig":
                return ("ifm", recv[0], recv[1], name, ent[1], fqn, path)
            if ent[0] == "field":
                return self.field_value(pf, fqn, name, [ent])
        for t in info.implements:
            b = self.eval_as(True, pf, info.scope, t)
            if b is not None and b[0] == "iface":
                r = self.interface_member(b[1], b[2], name, seen, recv)
                if r is not None:
                    return r
        return None

    def implementations(self, fqn: str, path: str, name: str) -> list[str]:
        """The methods called ``name`` that the internal classes implementing interface ``fqn``
        (directly, through an interface extending it, or as a subclass of an implementing class)
        find in their chains."""
        key = ("impl", fqn, path, name)
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        self.memo[key] = ([], 0)  # cycle guard
        saved_flags, saved_emit = self.flags, self.emit
        self.emit = False
        out: set[str] = set()
        for c, q in self.heritage_candidates(fqn):
            cpf, info = self.class_info(c, q)
            if info is None or not any(self.eval_as(True, cpf, info.scope, t) == ("iface", fqn, path) for t in info.implements):
                continue
            if info.is_interface:
                out.update(self.implementations(c, q, name))
            else:
                out |= self.chain_methods([(c, q), *self.subclasses(c, q)], name)
        self.flags, self.emit = saved_flags, saved_emit
        r = sorted(out)
        self.memo[key] = (r, 0)
        return r

    def class_info(self, fqn: str, path: str):
        pf = self.file_read(path, ("ci", fqn))  # the whole class: scope, extends, constructor, members
        if pf is None:
            return None, None
        return pf, pf.classes.get(fqn)

    def base_of(self, fqn: str, path: str):
        pf, info = self.class_info(fqn, path)
        if info is None or info.extends is None:
            return None
        key = ("base", path, fqn)
        if key in self.busy:
            return None
        self.busy.add(key)
        saved_flags, saved_emit = self.flags, self.emit
        self.emit = False
        v = self.eval(pf, info.scope, info.extends)
        if v is None and info.extends[0] == "id":  # (Base) => class extends Base: what is passed
            v = _union([x for x in _alternatives(self.passed(pf, info.scope, info.extends)) if x[0] == "class"])
        self.flags, self.emit = saved_flags, saved_emit
        self.busy.discard(key)
        if v is None or v[0] not in ("class", "ext", "builtin", "uni"):
            return None
        return v

    def class_member(self, fqn: str, path: str, name: str, seen: set, recv: tuple[str, str] | None = None):
        if (fqn, path) in seen or len(seen) > 50:
            return None
        seen.add((fqn, path))
        recv = recv or (fqn, path)
        pf, info = self.class_info(fqn, path)
        if info is None:
            return None
        entries = info.members.get(name)
        if entries:
            for ent in entries:
                if ent[0] == "method":
                    if any(d[0] == "deco" for d in entries):  # and what its decorators return
                        return self.memoized(("deco", path, fqn, name), 0, self.decorated_method, pf, ent[1], entries)
                    return ("func", ent[1], path)
            for ent in entries:
                if ent[0] == "msig":  # `abstract m()`: an override below the receiver's class runs
                    return ("absm", recv[0], recv[1], name, ent[1], fqn, path)
            for ent in entries:
                if ent[0] == "getter":
                    if self.emit:
                        self.add_edge(ent[1], "implicit", False)
                    return self.call_result(("func", ent[1], path))
            fields = [ent for ent in entries if ent[0] == "field" or ent[0] == "item"]
            if fields:
                return self.field_value(pf, fqn, name, fields)
            return None
        mixins = info.members.get(SPREADS) if name != SPREADS else None
        if mixins:  # Object.assign(C.prototype, mixin): the last mixin having it
            m = self.memoized(("mx", path, fqn, name), 4, self.spread_member, pf, -1, mixins, name)
            if m is not None:
                return m
        base = self.base_of(fqn, path)
        if base is None:
            return None
        if base[0] == "uni":  # class extends Base, with Base a parameter given several classes
            return _union([self.class_member(b[1], b[2], name, seen, recv) for b in base[1] if b[0] == "class"])
        if base[0] == "class":
            return self.class_member(base[1], base[2], name, seen, recv)
        if base[0] == "ext":
            return ("extm", f"{base[1]}.{name}")
        return ("extm", f"<builtin>.{base[1]}.{name}")

    def subclasses(self, fqn: str, path: str) -> list[tuple[str, str]]:
        """The internal classes whose ``extends`` chain reaches class ``fqn`` of ``path`` (not
        itself), sorted: found through the extended name (``TypeScriptIndex.subclass_files``)
        and confirmed by evaluating the ``extends`` expression."""
        key = ("sub", fqn, path)
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        self.memo[key] = ([], 0)  # cycle guard
        found: set[tuple[str, str]] = set()
        saved_flags, saved_emit = self.flags, self.emit
        self.emit = False
        for sub, q in self.heritage_candidates(fqn):
            if (sub, q) not in found and (sub, q) != (fqn, path) and self.base_of(sub, q) == ("class", fqn, path):
                found.add((sub, q))
                found.update(self.subclasses(sub, q))
        self.flags, self.emit = saved_flags, saved_emit
        found.discard((fqn, path))
        r = sorted(found)
        self.memo[key] = (r, 0)
        return r

    def heritage_candidates(self, fqn: str) -> list[tuple[str, str]]:
        """(class or interface, path) whose ``extends``/``implements`` names end like ``fqn``'s
        name: the only possible subclasses or implementations, for the caller to confirm. Records
        the ``<sub>NAME`` dependency, the files' answer and each file's ``sb`` read."""
        name = fqn.rsplit(".", 1)[-1]
        self.deps.add(SUB_PREFIX + name)
        files = self.sub_reads[name] = self.ix.subclass_files(name)
        out: list[tuple[str, str]] = []
        for q in files:
            qpf = self.file_read(q, ("sb", name))
            if qpf is not None:
                out.extend((c, q) for c in class_names_extended(qpf).get(name, ()))
        return out

    def overrides(self, fqn: str, path: str, name: str) -> list[str]:
        """The methods called ``name`` that the subclasses of class ``fqn`` find in their chains."""
        key = ("ovr", fqn, path, name)
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        saved_flags, saved_emit = self.flags, self.emit
        self.emit = False
        r = sorted(self.chain_methods(self.subclasses(fqn, path), name))
        self.flags, self.emit = saved_flags, saved_emit
        self.memo[key] = (r, 0)
        return r

    def chain_methods(self, classes: list[tuple[str, str]], name: str) -> set[str]:
        """The methods called ``name`` that each of ``classes`` finds in its own chain."""
        out: set[str] = set()
        for fqn, path in classes:
            for x in _funcs(self.class_member(fqn, path, name, set())):  # (with a decorator's wrapper)
                out.add(x[1])
        return out

    def setter_of(self, base: tuple, name: str):
        if base[0] not in ("inst", "class"):
            return None
        seen: set = set()
        fqn, path = base[1], base[2]
        while (fqn, path) not in seen and len(seen) < 50:
            seen.add((fqn, path))
            _pf, info = self.class_info(fqn, path)
            if info is None:
                return None
            entries = info.members.get(name)
            if entries:
                for ent in entries:
                    if ent[0] == "setter":
                        return ent[1]
                return None
            b = self.base_of(fqn, path)
            if b is None or b[0] != "class":
                return None
            fqn, path = b[1], b[2]
        return None

    def field_value(self, pf: ParsedFile, fqn: str, name: str, fields: list):
        return self.memoized(("f", pf.path, fqn, name), 4, self._field_value, pf, fields)

    def _field_value(self, pf: ParsedFile, fields: list):
        items = [ent for ent in fields if ent[0] == "item"]
        if items:  # this.listeners.push(cb): an array of (at least) the functions pushed
            fields = [ent for ent in fields if ent[0] != "item"]
            v = self._field_value(pf, fields) if fields else None
            if v is not None and v[0] == "alit":  # this.handlers = [a]; this.handlers.push(b)
                v = ("arr", self.element(v, None, 0))
            if v is not None and v[0] != "arr":
                return v
            found = [] if v is None or v[1] is None else [v[1]]
            for ent in items:
                x = self.eval(pf, ent[1], ent[2])
                if x is None and (ent[2][0] == "id" or ent[2][0] == "prop"):
                    x = self.passed(pf, ent[1], ent[2])
                found.extend(_funcs(x))
            return ("arr", _union(found)) if found else v
        result = None
        # a declared type wins; otherwise every assigned value must agree
        typed = None
        fl = self.flags
        for ent in fields:
            e = ent[2]
            if e is not None and e[0] == "type":
                result = self.eval(pf, ent[1], e)
                if result is not None:
                    break
        if result is not None and result[0] == "iinst" and any(ent[2] is not None and ent[2][0] != "type" for ent in fields):
            typed, result = result, None  # an interface type: the assigned values say more, if known
            self.flags = fl
        if result is None:
            for ent in fields:
                e = ent[2]
                if e is not None and e[0] == "type":
                    continue
                v = self.eval(pf, ent[1], e) if e is not None else None
                if v is None and e is not None and (e[0] == "id" or e[0] == "prop"):
                    # this.cb = cb: the functions the callers pass
                    v = _union(_funcs(self.passed(pf, ent[1], e)))
                if v is not None and v[0] == "null":
                    continue
                if v is None or (result is not None and v != result):
                    result = None
                    break
                result = v
        return result if result is not None else typed

    def call_result(self, fn: tuple):
        if fn[0] == "uni":
            return _union([self.call_result(f) for f in fn[1]])
        if fn[0] == "bind":  # f.bind(t): the bound function (calling bind does not call f)
            return fn[1]
        if fn[0] == "ifm" or fn[0] == "absm":  # a method signature: its declared return type
            pf, info = self.class_info(fn[5], fn[6])
            if info is None or fn[4] is None:
                return None
            self.flags |= 4
            return self.type_value(pf, info.scope, fn[4])
        if fn[0] != "func":
            return None
        key = ("r", fn[2], fn[1])
        pf = r = None
        if key not in self.memo and key not in self.busy:
            # a function with no file or no return info is not memoised (nor its flags)
            pf = self.file_read(fn[2], ("r", fn[1]))
            if pf is None:
                return None
            r = pf.returns.get(fn[1])
            if r is None:
                return None
        return self.memoized(key, 4, self._call_result, pf, r)

    def returns_new_this(self, fn: tuple) -> bool:
        """Function ``fn`` (a static method) returns ``new this(...)``."""
        if fn[0] != "func":
            return False
        fpf = self.file_read(fn[2], ("r", fn[1]))
        r = fpf.returns.get(fn[1]) if fpf is not None else None
        return r is not None and any(x is not None and x[0] == "new" and x[1] == ("this",) for x in r[1])

    def _call_result(self, pf: ParsedFile, r: tuple):
        scope, rets, ann = r
        result = typed = None
        if ann is not None:
            fl = self.flags
            result = self.type_value(pf, scope, ann)
            if result is not None and result[0] == "iinst" and rets:
                typed, result = result, None  # an interface type: the returned values say more, if known
                self.flags = fl
        if rets and any(e is not None and e[0] == "yield" for e in rets):
            # a generator: an iterator of the values it yields (as an array of them)
            vals = [self.eval(pf, scope, e[1]) for e in rets if e is not None and e[0] == "yield" and e[1] is not None]
            return ("arr", _union([v for v in vals if v is not None and v[0] != "null"]))
        if result is None and rets:
            for e in rets:
                v = self.eval(pf, scope, e)
                if v is not None and v[0] == "null":
                    continue
                if v is None:
                    result = None
                    break
                result = v if result is None else _union([result, v])  # returns of several known values
        if result is not None and result[0] == "uni":
            result = _union([x for x in result[1] if x[0] in _NAMED_RESULTS], all_known=True)
        if result is not None and result[0] not in _NAMED_RESULTS:
            result = None  # external / builtin values from a return are not named reliably
        return result if result is not None else typed

    # -- edges ----------------------------------------------------------------------------------
    def add_edge(self, callee: str, resolution: str, external: bool) -> None:
        key = (self.caller, callee)
        ent = self.edges.get(key)
        if ent is None:
            self.edges[key] = [resolution, {self.line}, external]
        else:
            ent[1].add(self.line)
            if _INDIRECT.get(resolution, 0) < _INDIRECT.get(ent[0], 0):
                ent[0] = resolution  # keep the most direct way the edge was found

    def how(self, default: str = "exact") -> str:
        f = self.flags
        if f & 4:
            return "inferred"
        if f & 8:
            return "super"
        if f & 1:
            return "self"
        if f & 2:
            return "import"
        return default

    def edge_to(self, v: tuple, resolution: str | None) -> None:
        k = v[0]
        if k == "uni":  # one of several: an edge to each
            for x in v[1]:
                self.edge_to(x, resolution)
            return
        if k == "func":
            self.add_edge(v[1], resolution or self.how(), False)
        elif k == "ifm":  # through an interface: each implementation it may reach
            for m in self.implementations(v[1], v[2], v[3]):
                self.add_edge(m, "subclass", False)
        elif k == "absm":  # an abstract method: each override below the receiver's class
            for m in self.overrides(v[1], v[2], v[3]):
                self.add_edge(m, "subclass", False)
        elif k == "ext" or (k == "extm" and not v[1].startswith("<builtin>.")):
            self.add_edge(v[1], resolution if resolution in ("jsx", "implicit", "constructor") else "external", True)
        elif k == "extm":
            self.add_edge(v[1], "builtin", True)
        elif k == "builtin":
            self.add_edge(f"<builtin>.{v[1]}", "builtin", True)

    def ctor_edge(self, cls: tuple, resolution: str = "constructor") -> None:
        """Edge to the constructor declared in the class or its internal base chain, if any."""
        seen: set = set()
        cur = cls
        while cur is not None and cur[0] == "class" and (cur[1], cur[2]) not in seen and len(seen) < 50:
            seen.add((cur[1], cur[2]))
            _pf, info = self.class_info(cur[1], cur[2])
            if info is None:
                return
            if info.has_ctor:
                self.add_edge(f"{cur[1]}.constructor", resolution, False)
                return
            cur = self.base_of(cur[1], cur[2])

    def param_path(self, pf: ParsedFile, scope: int, e: tuple, hop: int = 0) -> tuple[int, int, tuple[str, ...]] | None:
        """(index, function scope, member names) when expression ``e`` in ``scope`` of ``pf`` is a
        parameter of no known type (``cb``), a member of one (``opts.onDone``), or a name a
        destructuring parameter binds (``function f({ onDone })``); else None. Another file's
        lookups are recorded."""
        keys: list[str] = []
        while e[0] == "prop":
            keys.append(e[2])
            e = e[1]
        if e[0] != "id":
            return None
        name = e[1]
        if pf is not self.pf:
            self.read(pf, ("lk", pf.scope_key[scope], name))
        s = scope
        while s >= 0:
            bl = pf.bindings[s].get(name)
            if bl is not None:
                if len(bl) != 1:
                    return None
                b = bl[0]
                if b[0] == "param":
                    return (b[1], b[2], tuple(reversed(keys)))
                if b[0] == "var" and b[1] is None and b[2] is not None:  # { onDone }: ('prop', ('pval', i, s), 'onDone')
                    x = b[2]
                    while x[0] == "prop":
                        keys.append(x[2])
                        x = x[1]
                    if x[0] == "pval":
                        return (x[1], x[2], tuple(reversed(keys)))
                    if x[0] == "id" and hop < 2:  # const original = desc.value: a member of a parameter
                        r = self.param_path(pf, b[3], x, hop + 1)
                        if r is not None:
                            return (r[0], r[1], r[2] + tuple(reversed(keys)))
                return None
            s = pf.scope_parent[s]
        return None

    def passed(self, pf: ParsedFile, scope: int, e: tuple, hops: int = 0):
        """What the callers pass for ``e`` when it is a parameter path (``param_path``): the values
        given to the parameter, then their members along the path; None if not known."""
        p = self.param_path(pf, scope, e)
        if p is None:
            return None
        v = self.param_values(pf, p[1], p[0], hops)
        for k in p[2]:
            if v is None:
                return None
            v = self.member(v, k)
        return v

    def callers_of(self, name: str) -> tuple[str, ...]:
        """The files with calls whose callee ends with ``name`` passing arguments (recorded)."""
        self.deps.add(CALLS_PREFIX + name)
        files = self.call_reads[name] = self.ix.caller_files(name)
        return files

    def param_values(self, pf: ParsedFile, scope: int, i: int, hops: int = 0):
        """What parameter ``i`` of the function whose scope is ``scope`` is given: the functions
        the calls of it pass there (a callback: ``def run(cb) { cb() }`` with ``run(f)``), also
        through a caller's own parameter (``function go(g) { run(g) }``); None if none is known.

        Computed once per index state for all the files that ask (``TypeScriptIndex._pv_shared``):
        in a probe context that belongs to no file, so that every read it makes is recorded, and
        the asking file takes over those reads and dependencies with the value. A value resting on
        a cycle of such questions (one asked again while being computed: None there) depends on
        where the cycle was entered, so it is kept by the asking file only, never shared."""
        return self.shared_value(("pv", pf.path, scope, i, hops), "_param_values", pf, scope, i, hops)

    def class_props(self, fqn: str, path: str):
        """What ``this.props`` holds in class ``fqn`` (a class component whose ``props`` come from
        an external base): the props its elements pass (``<Button onPress={save} />``) and what
        ``new Button(...)`` is given; None if none is known. Shared as ``param_values``."""
        return self.shared_value(("cp", path, fqn), "_site_values", fqn, fqn.rsplit(".", 1)[-1], "class", 0, 0)

    def shared_value(self, key: tuple, method: str, *args):
        """``getattr(self, method)(*args)``, computed once per index state (``param_values``)."""
        hit = self.memo.get(key)
        if hit is not None:
            self.flags |= hit[1]
            return hit[0]
        ix = self.ix
        shared = ix._pv_shared.get(key)
        if shared is None:
            if key in ix._pv_busy:
                ix._pv_cut = True
                return None
            probe = _Ctx(ix, _PROBE)
            outer_cut, ix._pv_cut = ix._pv_cut, False
            ix._pv_busy.add(key)
            try:
                v = getattr(probe, method)(*args)
            finally:
                ix._pv_busy.discard(key)
            cut = ix._pv_cut
            ix._pv_cut = outer_cut or cut
            shared = (v, probe.flags | 4, probe.reads, probe.deps, probe.call_reads, probe.sub_reads)
            if not cut:
                ix._pv_shared[key] = shared
        v, fl, reads, deps, call_reads, sub_reads = shared
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
        self.memo[key] = (v, fl)
        self.flags |= fl
        return v

    def _param_values(self, pf: ParsedFile, scope: int, i: int, hops: int):
        fqn = pf.scope_fqn[scope]
        name = fqn.rsplit(".", 1)[-1]
        if fqn == pf.module:
            return None
        if name.startswith("<"):  # an anonymous function is called by no name: called at once
            how = self.called_at_once(pf, scope, fqn)
            return self._site_values(fqn, CALLED_AT_ONCE, "func", i, hops, how) if how is not None else None
        want = "func"
        if name == "constructor" and fqn.count(".") >= 2:  # new C(...): C's constructor
            fqn = fqn.rsplit(".", 1)[0]
            name = fqn.rsplit(".", 1)[-1]
            want = "class"
        named = self._site_values(fqn, name, want, i, hops)
        how = self.called_at_once(pf, scope, fqn) if want == "func" else None
        if how is not None:  # also make()(x), an IIFE
            return _union([named, self._site_values(fqn, CALLED_AT_ONCE, "func", i, hops, how)])
        return named

    def called_at_once(self, pf: ParsedFile, scope: int, fqn: str) -> tuple | None:
        """How function ``fqn`` (its scope ``scope`` in ``pf``) may be called by no name, as a
        filter of the calls to search (``_site_values``): ``('ret', name)`` when the function
        enclosing it, called ``name``, returns it (``make()(x)``: calls of a call of ``name``;
        any call of a call for an anonymous one), ``('iife', path, start)`` when it is an IIFE;
        else None (the calls of nameless callees are never searched for it: a search evaluates
        each of them)."""
        parent = pf.scope_parent[scope]
        if parent >= 0:
            outer = pf.scope_fqn[parent]
            r = self.file_read(pf.path, ("r", outer)).returns.get(outer) if outer != pf.module else None
            if r is not None:
                own = ("id", fqn.rsplit(".", 1)[-1])
                defs = pf.defs_at
                if any(x == own or (x is not None and x[0] == "defat" and defs.get(x[1], _NO_DEF)[1] == fqn) for x in r[1]):
                    return ("ret", outer.rsplit(".", 1)[-1])
        if pf is not self.pf:
            self.read(pf, ("cs", CALLED_AT_ONCE))
        iifes = pf.iifes
        if iifes is None:  # computed once per parse result: function fqn -> its offset
            iifes = pf.iifes = {
                pf.defs_at.get(site[1][1], _NO_DEF)[1]: site[1][1]
                for site in pf.call_args.get(CALLED_AT_ONCE, ())
                if site[1][0] == "defat"
            }
        start = iifes.get(fqn)
        return ("iife", pf.path, start) if start is not None else None

    def _site_values(self, fqn: str, name: str, want: str, i: int, hops: int, how: tuple | None = None):
        """What the calls of function (or class, ``want``) ``fqn`` named ``name`` pass as
        argument ``i``; for ``CALLED_AT_ONCE``, the calls ``how`` (``called_at_once``) admits."""
        sites = []
        paths = (how[1],) if how is not None and how[0] == "iife" else self.callers_of(name)
        for path in paths:
            cpf = self.file_read(path, ("cs", name))
            if cpf is not None:
                sites.extend((cpf, site) for site in cpf.call_args.get(name, ()) if ((len(site[2]) > i and site[2][i] is not None)
                             or any(x is not None and x[0] == "..." for x in site[2][: i + 1])) and (how is None or _admits(how, site[1])))
        if len(sites) > MAX_PARAM_SITES:
            return None  # a name called all over (`set`, `get`): each site would need its receiver's type
        found: list = []
        for cpf, (sc, e, args) in sites:
            c = self.eval(cpf, sc, e)
            if not any(x[0] == want and x[1] == fqn for x in _alternatives(c)):
                continue
            a = args[i] if len(args) > i else None
            v = self.argument(cpf, sc, args, i)
            if v is None and hops < MAX_PARAM_HOPS and a is not None and (a[0] == "id" or a[0] == "prop"):
                v = self.passed(cpf, sc, a, hops + 1)  # passed on from the caller's own parameter
            if v is not None:
                found.append(v)
        return _union(found)

    def is_promise(self, pf: ParsedFile, scope: int, r: tuple | None) -> bool:
        """Whether expression ``r`` is known to be a promise: ``new Promise(...)``, ``fetch(...)``,
        ``Promise.resolve``/``all``/... ``(...)``, a call of an async function of ours (or one
        declared to return ``Promise<...>``), or ``then``/``catch``/``finally`` of one."""
        while r is not None and r[0] == "call" and r[1] is not None and r[1][0] == "prop" and r[1][2] in _PROMISE_CHAIN:
            r = r[1][1]
        if r is None or (r[0] != "call" and r[0] != "new") or r[1] is None:
            return False
        v = self.eval(pf, scope, r[1])
        if v is None:
            return False
        if r[0] == "call" and v[0] == "func":  # a call of an async function of ours
            fpf = self.file_read(v[2], ("r", v[1]))
            return fpf is not None and v[1] in fpf.asyncs
        if v[0] != "builtin":
            return False
        return v[1] == "Promise" if r[0] == "new" else v[1] in _PROMISE_MAKERS

    def is_array(self, pf: ParsedFile, scope: int, r: tuple | None, method: str = "", depth: int = 0) -> bool:
        """Whether expression ``r`` is known to be an array: typed so (``T[]``, ``Array<T>``), an
        array literal, ``Object.keys``/``values``/``entries(...)``, ``Array.from``/``of(...)``,
        ``new Array(...)``, ``s.split(...)`` (of anything not ours), what ``filter``/``map``/
        ``slice``/``fill``/``flat``/... of an array returns, a variable only ever bound to one of
        these, or a parameter the callers pass arrays to. For ``method`` ``forEach``, also a
        ``new Set(...)`` / ``new Map(...)``."""
        while r is not None and r[0] == "call" and r[1] is not None and r[1][0] == "prop":
            name = r[1][2]
            if name in _SAME_ELEMENTS or name == "map" or name == "flatMap" or name in _ARRAY_RESULTS:
                r = r[1][1]  # items.filter(...).map(...): still an array, if items is one
                continue
            if name in _ARRAY_MAKER_NAMES:
                f = self.eval(pf, scope, r[1])
                if f is not None and f[0] == "builtin" and f[1] in _ARRAY_MAKERS:
                    return True
            if name == "split":  # "a,b".split(","): an array, unless split is a method of ours
                recv = self.eval(pf, scope, r[1][1])
                return recv is None or recv[0] in ("builtin", "null", "extm")
            break
        if r is None:
            return False
        if r[0] == "alit":
            return True
        if r[0] == "new":  # new Array(n), and for forEach new Set(...) / new Map(...)
            c = self.eval(pf, scope, r[1])
            return c is not None and c[0] == "builtin" and (
                c[1] == "Array" or (method == "forEach" and c[1] in _FOREACH_COLLECTIONS)
            )
        v = self.eval(pf, scope, r)
        if v is not None:
            return v[0] == "arr" or v[0] == "alit"
        if r[0] == "id" and depth < 4:  # const copy = Array.from(xs): what it is bound to
            bl, s = self.raw_bindings(pf, scope, r[1])
            if bl and all(b[0] == "var" and b[1] is None and b[2] is not None for b in bl):
                return all(self.is_array(pf, b[3], b[2], method, depth + 1) for b in bl)
        if r[0] == "id" or r[0] == "prop":  # a parameter: what the callers pass
            vals = _alternatives(self.passed(pf, scope, r))
            return bool(vals) and all(x[0] == "arr" or x[0] == "alit" for x in vals)
        return False

    def raw_bindings(self, pf: ParsedFile, scope: int, name: str) -> tuple[list | None, int]:
        """The bindings ``name`` finds from ``scope`` (recorded like ``lookup``) and their scope."""
        if pf is not self.pf:
            self.read(pf, ("lk", pf.scope_key[scope], name))
        s = scope
        while s >= 0:
            bl = pf.bindings[s].get(name)
            if bl is not None:
                return bl, s
            s = pf.scope_parent[s]
        return None, -1

    def run_site(self, scope: int, kind: str, expr: tuple, line: int) -> None:
        pf = self.pf
        self.caller = pf.scope_fqn[scope]
        self.line = line
        self.flags = 0
        self.emit = True
        if kind == "call":
            v = self.eval(pf, scope, expr)
            if v is not None:
                self.edge_to(v, None)
            elif expr[0] == "id" or expr[0] == "prop":  # cb(), opts.onDone(): what the callers pass
                for x in _funcs(self.passed(pf, scope, expr)):
                    self.add_edge(x[1], "inferred", False)
            if expr is not None and expr[0] == "prop" and expr[1] == ("this",):
                this = pf.scope_this[scope]
                if this is not None and this[0] == "cls":
                    for m in self.overrides(this[1], pf.path, expr[2]):
                        self.add_edge(m, "subclass", False)
        elif kind == "new":
            v = self.eval(pf, scope, expr)
            if v is None and (expr[0] == "id" or expr[0] == "prop"):  # new cls(): a class the callers pass
                for x in _alternatives(self.passed(pf, scope, expr)):
                    if x[0] == "class":
                        self.ctor_edge(x, "inferred")
                return
            if v is None:
                return
            for x in _alternatives(v):
                if x[0] == "class":
                    self.ctor_edge(x)
                elif x[0] in ("func", "ext", "builtin"):
                    self.edge_to(x, "constructor")
        elif kind == "super":
            this = pf.scope_this[scope]
            if this is None or this[0] != "cls":
                return
            b = self.base_of(this[1], pf.path)
            if b is None:
                return
            if b[0] == "class":
                self.ctor_edge(b, "super")
        elif kind == "jsx":
            v = self.eval(pf, scope, expr)
            if v is None:
                return
            if v[0] == "class":
                self.ctor_edge(v)
                for r in _funcs(self.class_member(v[1], v[2], "render", set())):
                    self.add_edge(r[1], "jsx", False)
            else:
                self.edge_to(v, "jsx")
        elif kind == "decorator":
            v = self.eval(pf, scope, expr)
            if v is not None:
                self.edge_to(v, "implicit")
        elif kind == "set":
            if expr[0] != "prop":
                return
            base = self.eval(pf, scope, expr[1])
            if base is not None:
                s = self.setter_of(base, expr[2])
                if s is not None:
                    self.add_edge(s, "implicit", False)
        elif kind == "get":
            self.eval(pf, scope, expr)
        elif kind == "iter":  # for (x of obj) / [...obj]: obj[Symbol.iterator]() and its next()
            for v in _alternatives(self.eval(pf, scope, expr)):
                it = self.iterator(v)
                if it is None:
                    continue
                self.add_edge(it[0][1], "implicit", False)
                for r in _alternatives(it[1]):
                    n = self.member(r, "next") if r[0] in ("inst", "obj") else None
                    if n is not None and n[0] == "func":
                        self.add_edge(n[1], "implicit", False)
        elif kind == "cb" or kind == "bcb" or kind == "pcb":
            # items.map(f) with items an array, setTimeout(f), new Promise(f), fetch(u).then(f):
            # f is called for us
            callee, cb = expr
            if kind == "cb":
                if not self.is_array(pf, scope, callee[1], callee[2]):
                    return
            elif kind == "pcb":
                if not self.is_promise(pf, scope, callee[1]):
                    return
            else:
                b = self.eval(pf, scope, callee)
                if b is None or b[0] != "builtin":  # a local named setTimeout: not the global
                    return
            for x in _funcs(self.eval(pf, scope, cb)):  # a builtin or external one passed is not an edge
                self.add_edge(x[1], "implicit", False)


class TypeScriptIndex:
    """LanguageIndex for .ts/.tsx/.mts/.cts/.js/.jsx/.mjs/.cjs plus tsconfig/jsconfig/package.json."""

    def __init__(self) -> None:
        self.files: dict[str, ParsedFile] = {}
        self.configs: dict[str, bytes] = {}
        self._config: ConfigModel | None = None
        self._facts: dict[str, FileFacts] = {}
        self._rdeps: dict[str, set[str]] = {}  # module name -> paths whose resolution consulted it
        # path -> the cross-module reads its resolution made: foreign path -> (ParsedFile, keys)
        self._reads: dict[str, dict[str, tuple[ParsedFile, set]]] = {}
        # (specifier, importing dir) -> (resolution, module names tried); valid for one file set
        # and config, so cleared by every update
        self._spec_cache: dict[tuple[str, str], tuple] = {}
        self._parsed: dict[tuple[str, str], ParsedFile] = {}  # (path, content hash), LRU order
        self._primed: dict[tuple[str, str], ParsedFile] = {}  # from a parse pool, for the next update
        self._subclassers: dict[str, set[str]] = {}  # extended name -> paths with such a class
        self._sub_reads: dict[str, dict[str, tuple[str, ...]]] = {}  # path -> subclass_files answers
        self._callers: dict[str, set[str]] = {}  # callee name -> paths with calls of it passing arguments
        # parameter values for the current file set (``_Ctx.param_values``), the keys being
        # computed, and whether a computation met one of them again (a cycle: not shared)
        self._pv_shared: dict[tuple, tuple] = {}
        self._pv_busy: set[tuple] = set()
        self._pv_cut = False
        self._call_reads: dict[str, dict[str, tuple[str, ...]]] = {}  # path -> caller_files answers
        self._caller_files: dict[str, tuple[str, ...]] = {}  # caller_files answers for the current file set
        # module names that more than one file has (for ``_compute``'s warning); None: not known
        # for the current file set (``_update`` resets it whenever the files change)
        self._shared_modules: set[str] | None = None
        self._subclass_files: dict[str, tuple[str, ...]] = {}  # subclass_files answers for the current file set

    # -- protocol -------------------------------------------------------------------------------
    def owns(self, path: str) -> bool:
        return is_source(path) or is_config(path)

    def paths(self) -> set[str]:
        return set(self.files)

    def parse_jobs(self, changed: Mapping[str, bytes | None]) -> list[ParseJob]:
        """The blobs of ``changed`` that ``update`` would parse (for a parse pool to do first)."""
        jobs: list[ParseJob] = []
        for path, data in changed.items():
            if data is None or not is_source(path):
                continue
            h = content_hash(data)
            old = self.files.get(path)
            if (old is None or old.content_hash != h) and (path, h) not in self._parsed:
                jobs.append(ParseJob("typescript", path, h, data))
        return jobs

    def prime(self, job: ParseJob, parsed: ParsedFile) -> None:
        """Accept a parse result computed elsewhere; the next ``update`` consumes it."""
        self._primed[(job.path, job.digest)] = parsed

    def subclass_files(self, name: str) -> tuple[str, ...]:
        """The files with a class whose ``extends`` expression ends with ``name`` (sorted)."""
        r = self._subclass_files.get(name)
        if r is None:
            r = self._subclass_files[name] = tuple(sorted(self._subclassers.get(name, ())))
        return r

    def caller_files(self, name: str) -> tuple[str, ...]:
        """The files with a call whose callee ends with ``name`` passing arguments (sorted)."""
        r = self._caller_files.get(name)
        if r is None:
            r = self._caller_files[name] = tuple(sorted(self._callers.get(name, ())))
        return r

    def facts(self, path: str) -> FileFacts | None:
        if path not in self.files:
            return None
        f = self._facts.get(path)
        if f is None:
            f = self._compute(path)
        return f

    def update(self, changed: Mapping[str, bytes | None]) -> set[str]:
        # parsing and resolving allocate many small, acyclic tuples and dicts: the cyclic
        # collector's passes over them (and over the index) cost ~20% and free almost nothing
        try:
            with gc_paused():
                return self._update(changed)
        finally:
            self._primed.clear()  # primed for this update only: memory stays bounded

    def _update(self, changed: Mapping[str, bytes | None]) -> set[str]:
        touched: set[str] = set()
        modules: set[str] = set()  # modules of added / deleted files: the file set changed
        edited: set[str] = set()  # paths present before and after with new content
        base_names: set[str] = set()  # names extended by classes of changed files (before and after)
        call_names: set[str] = set()  # names of the calls passing arguments in changed files (before and after)
        config_changed = False
        # what resolution reads from the configs before this change (compared below)
        old_view = resolution_view(self.config()) if any(is_config(p) for p in changed) else None
        for path, data in changed.items():
            if is_config(path):
                if data is None:
                    config_changed |= self.configs.pop(path, None) is not None
                elif self.configs.get(path) != data:
                    self.configs[path] = data
                    config_changed = True
                continue
            if not is_source(path):
                continue
            old = self.files.get(path)
            if data is None:
                if old is None:
                    continue
                del self.files[path]
            else:
                h = content_hash(data)
                if old is not None and old.content_hash == h:
                    continue  # same bytes: same facts
                self.files[path] = self._parse(path, data, h)
            if old is not None:
                names = set(class_names_extended(old))
                discard_from(self._subclassers, names, path)
                base_names |= names
                discard_from(self._callers, old.call_args, path)
                call_names.update(old.call_args)
            if data is not None:
                new = self.files[path]
                for n in class_names_extended(new):
                    self._subclassers.setdefault(n, set()).add(path)
                    base_names.add(n)
                for n in new.call_args:
                    self._callers.setdefault(n, set()).add(path)
                call_names.update(new.call_args)
            touched.add(path)
            if old is not None and data is not None:
                edited.add(path)
            else:
                modules.add(module_name(path))
        if config_changed:
            self._config = None
            if resolution_view(self.config()) == old_view:
                config_changed = False  # e.g. a version bump in package.json: no specifier resolves otherwise
        if touched or config_changed:
            self._spec_cache = {}
            self._pv_shared = {}
        if touched:
            self._shared_modules = None
            self._subclass_files = {}
            self._caller_files = {}
        affected = set(touched)
        if config_changed:
            # relative specifiers never consult the configs: only files with others re-resolve
            affected |= self._rdeps.get(CONFIG_DEP, set())
        # the files depending on what the changed sources define
        for m in modules:
            affected |= self._rdeps.get(m, set())
        # an edited file's dependents are re-resolved only when a read they made of it
        # answers differently now (interface pruning, resolve/typescript/reads.py)
        candidates: set[str] = set()
        for p in edited:
            candidates |= self._rdeps.get(module_name(p), set())
        candidates -= affected
        cache: dict = {}
        for d in sorted(candidates):
            if self._reads_changed(d, edited, cache):
                affected.add(d)
        # name-based searches whose answer (which files) changed: subclass dispatch (the files
        # holding the classes extending a name), parameter flow (the files calling a name)
        for names, prefix, answers, files_of in (
            (base_names, SUB_PREFIX, self._sub_reads, self.subclass_files),
            (call_names, CALLS_PREFIX, self._call_reads, self.caller_files),
        ):
            for n in names:
                for d in list(self._rdeps.get(prefix + n, ())):
                    if d not in affected and answers.get(d, {}).get(n) != files_of(n):
                        affected.add(d)
        for p in affected:
            self._drop(p)
        for p in sorted(affected):
            if p in self.files:
                self._compute(p)
        return affected

    # -- internals ------------------------------------------------------------------------------
    def config(self) -> ConfigModel:
        if self._config is None:
            self._config = build_config(self.configs)
        return self._config

    def _parse(self, path: str, data: bytes, h: str) -> ParsedFile:
        """A parse result is a function of (path, bytes): recent ones are kept, since history
        brings the same blobs back (reverts, merges of a branch that made the same change)."""
        cache = self._parsed
        pf = cache.pop((path, h), None)
        if pf is None:
            pf = self._primed.pop((path, h), None)
        if pf is None:
            pf = parse_file(path, data, h)
        cache[(path, h)] = pf  # most recent last
        if len(cache) > _PARSE_CACHE_SIZE:
            del cache[next(iter(cache))]
        return pf

    def _reads_changed(self, path: str, edited: set[str], cache: dict) -> bool:
        reads = self._reads.get(path)
        if reads is None:
            return path in self.files
        hit = [p for p in reads if p in edited]
        for p in hit:
            old, keys = reads[p]
            new = self.files.get(p)
            if new is None or not same_answers(old, new, keys, cache):
                return True
        for p in hit:  # same answers: the recorded reads now refer to the new version
            reads[p] = (self.files[p], reads[p][1])
        return False

    def _drop(self, path: str) -> None:
        self._reads.pop(path, None)
        self._sub_reads.pop(path, None)
        self._call_reads.pop(path, None)
        f = self._facts.pop(path, None)
        if f is not None:
            discard_from(self._rdeps, f.depends_on, path)

    def _compute(self, path: str) -> FileFacts:
        pf = self.files[path]
        ctx = _Ctx(self, pf)
        warnings = list(pf.warnings)
        for scope, kind, expr, line in pf.sites:
            try:
                ctx.run_site(scope, kind, expr, line)
            except RecursionError:  # pragma: no cover - depth limits make this unlikely
                warnings.append(f"{path}:{line}: resolution too deep, skipped")
        imports: dict[tuple, Import] = {}
        for spec, _line in pf.specs:
            r = ctx.resolve_spec(spec, path)
            if r is None:
                continue
            if r[0] == "file":
                if r[1] != path:
                    key = ("f", r[1])
                    if key not in imports:
                        imports[key] = make_import(path, r[1], "file")  # Import(file, target, target_kind)
            else:
                name = npm_package_name(spec)
                if name is not None:
                    key = ("p", name)
                    if key not in imports:
                        imports[key] = make_import(path, name, "package", "npm")
        inherits: list[Inherit] = []
        for fqn, info in pf.classes.items():
            if info.extends is None:
                continue
            b = ctx.base_of(fqn, path)
            if b is None or b[0] == "uni":  # a mixin's parameter given several classes: none of them
                continue
            if b[0] == "class":
                inherits.append(Inherit(child=fqn, parent=b[1]))
            elif b[0] == "ext":
                inherits.append(Inherit(child=fqn, parent=b[1], external=True))
            else:
                inherits.append(Inherit(child=fqn, parent=f"<builtin>.{b[1]}", external=True))
        calls = [
            make_call(caller, callee, res, CONFIDENCE.get(res, 1.0), tuple(sorted(lines)), ext)  # Call(...)
            for (caller, callee), (res, lines, ext) in sorted(ctx.edges.items())
        ]
        # files sharing this module name (a.ts + a/index.ts, a.ts + a.js) share FQNs: say so
        m = pf.module
        shared = self._shared_modules
        if shared is None:
            seen: set[str] = set()
            shared = self._shared_modules = set()
            for f in self.files.values():
                if f.module in seen:
                    shared.add(f.module)
                else:
                    seen.add(f.module)
        # every file of module m is one of these names (is_source: a source suffix)
        twins = sorted(
            q
            for q in [m + e for e in _EXT_TRY] + [m + "/index" + e for e in _EXT_TRY]
            if q != path and q in self.files
        ) if m in shared else ()
        if twins:
            warnings.append(f"{path}: module name {m!r} is shared with {', '.join(twins)}; their symbols collide")
        ctx.deps.add(m)
        deps = frozenset(ctx.deps)
        facts = FileFacts(
            path=path,
            language=pf.language,
            module=pf.module,
            content_hash=pf.content_hash,
            symbols=list(pf.symbols),
            calls=calls,
            imports=sorted(imports.values(), key=lambda i: (i.target_kind, i.target)),
            inherits=inherits,
            warnings=warnings,
            depends_on=deps,
        )
        self._facts[path] = facts
        self._reads[path] = ctx.reads
        if ctx.sub_reads:
            self._sub_reads[path] = ctx.sub_reads
        if ctx.call_reads:
            self._call_reads[path] = ctx.call_reads
        add_to(self._rdeps, deps, path)
        return facts
