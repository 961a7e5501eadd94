"""The TypeScript language index: parsed files and configs of one tree -> FileFacts, incrementally.

``TypeScriptIndex`` keeps the parsed files (``mnemosyne.parse.typescript.ParsedFile``) and the
config files of one tree; ``update`` re-resolves the files a change affects and caches their
facts. The rules and the bookkeeping (facts, reverse dependencies, recorded reads, name searches)
are the shared incremental core's, ``mnemosyne/resolve/incremental.py``; TypeScript supplies the
read comparison (``reads.same_answers``) and adds the configs: a change in what module
resolution reads from them re-resolves the files depending on ``<config>``. How resolution
works, the conventions the corpus expects and every tag: docs/resolve-typescript.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from mnemosyne.facts import FileFacts, Import, Inherit
from mnemosyne.gcpause import gc_paused
from mnemosyne.hashing import content_hash
from mnemosyne.parse.pool import ParseJob
from mnemosyne.parse.typescript import (
    ParsedFile,
    class_names_extended,
    is_source,
    make_call,
    make_import,
    module_name,
    parse_file,
)
from mnemosyne.resolve.incremental import FactBook, NameIndex, Search
from mnemosyne.resolve.typescript.classes import es5_base
from mnemosyne.resolve.typescript.config import ConfigModel, build_config, resolution_view
from mnemosyne.resolve.typescript.context import Ctx
from mnemosyne.resolve.typescript.emit import CONFIDENCE
from mnemosyne.resolve.typescript.modules import EXT_TRY, SPEC_FILE, npm_package_name
from mnemosyne.resolve.typescript.reads import CALLS_PREFIX, CONFIG_DEP, SUB_PREFIX, same_answers
from mnemosyne.resolve.typescript.state import UNTAINTED
from mnemosyne.resolve.typescript.values import V_CLASS, V_EXT, V_UNI
from mnemosyne.sources import is_ts_config as is_config

_PARSE_CACHE_SIZE = 256  # recent parse results kept per index, by (path, content hash)
SUBCLASSES = Search(SUB_PREFIX)  # subclass_files answers, by extended name
CALLERS = Search(CALLS_PREFIX)  # caller_files answers, by callee name


def _same_answers_on(cache: dict) -> Callable[[ParsedFile, ParsedFile], Callable[[ParsedFile, set], set | None]]:
    """``RecordedReads.stale_readers``'s ``compare_for``: keys answering the same on the new version
    stay as they are (``cache``: the answers computed during one update, ``reads.same_answers``)."""

    def compare_for(_old: ParsedFile, new: ParsedFile) -> Callable[[ParsedFile, set], set | None]:
        def compare(seen: ParsedFile, keys: set) -> set | None:
            return keys if same_answers(seen, new, keys, cache) else None

        return compare

    return compare_for


class TypeScriptIndex:
    """LanguageIndex for .ts/.tsx/.mts/.cts/.js/.jsx/.mjs/.cjs plus tsconfig/jsconfig/package.json."""

    def __init__(self) -> None:
        self.files: dict[str, ParsedFile] = {}
        self.configs: dict[str, bytes] = {}
        self._config: ConfigModel | None = None
        # the resolved files' facts with what their resolution consulted (resolve/incremental.py)
        self._book: FactBook[ParsedFile, set] = FactBook((SUBCLASSES, CALLERS))
        # (specifier, importing dir) -> (resolution, module names tried); valid for one file set
        # and config, so cleared by every update
        self._spec_cache: dict[tuple[str, str], tuple] = {}
        self._parsed: dict[tuple[str, str], ParsedFile] = {}  # (path, content hash), LRU order
        self._primed: dict[tuple[str, str], ParsedFile] = {}  # from a parse pool, for the next update
        self._subclassers = NameIndex()  # extended name -> paths with such a class
        self._callers = NameIndex()  # callee name -> paths with calls of it passing arguments
        # parameter values for the current file set (``Ctx.param_values``), the keys being
        # computed, and whether a computation met one of them again (a cycle: not shared)
        self._pv_shared: dict[tuple, tuple] = {}
        self._pv_busy: set[tuple] = set()
        self._pv_cut = False
        # what probe contexts compute of ``SHARED_MEMO`` kinds (``CtxState.shared_memo``), and the keys being computed
        self._memo_shared: dict[tuple, tuple] = {}
        self._memo_busy: set[tuple] = set()
        # the frames this deep and deeper met a cycle or a memo entry whose reads they cannot know:
        # what they compute is not shared (``CtxState.taint``)
        self._memo_level = UNTAINTED
        # (path, callee name, position, rest) -> (parse result, its calls of the name that may pass
        # something there): ``Ctx._site_values``'s first filter, kept while the parse result is current
        self._passing: dict[tuple, tuple] = {}
        self._def_starts: dict[str, tuple] = {}  # path -> (parse result, function fqn -> its offset)
        # path -> (parse result, function offset -> the callee names of the calls it is an argument of)
        self._arg_callees: dict[str, tuple] = {}
        # module names that more than one file has (for ``_compute``'s warning); None: not known
        # for the current file set (``_update`` resets it whenever the files change)
        self._shared_modules: set[str] | None = None

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
        return self._subclassers.files(name)

    def caller_files(self, name: str) -> tuple[str, ...]:
        """The files with a call whose callee ends with ``name`` passing arguments (sorted)."""
        return self._callers.files(name)

    def facts(self, path: str) -> FileFacts | None:
        if path not in self.files:
            return None
        f = self._book.facts.get(path)
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
        edited: dict[str, ParsedFile] = {}  # paths present before and after with new content -> old parse
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
                extended = class_names_extended(old)
                self._subclassers.remove(path, extended)
                base_names.update(extended)
                self._callers.remove(path, old.call_args)
                call_names.update(old.call_args)
            if data is not None:
                new = self.files[path]
                extended = class_names_extended(new)
                self._subclassers.add(path, extended)
                base_names.update(extended)
                self._callers.add(path, new.call_args)
                call_names.update(new.call_args)
            touched.add(path)
            if old is not None and data is not None:
                edited[path] = old
            else:
                modules.add(module_name(path))
        if config_changed:
            self._config = None
            if resolution_view(self.config()) == old_view:
                config_changed = False  # e.g. a version bump in package.json: no specifier resolves otherwise
        if touched or config_changed:
            self._spec_cache = {}
            self._pv_shared = {}
            self._memo_shared = {}
            self._passing = {}
            self._def_starts = {}
            self._arg_callees = {}
        if touched:
            self._shared_modules = None
        book = self._book
        affected = set(touched)
        if config_changed:
            # relative specifiers never consult the configs: only files with others re-resolve
            affected |= book.dependents(CONFIG_DEP)
        # the files depending on what the changed sources define
        for m in modules:
            affected |= book.dependents(m)
        # an edited file's readers are re-resolved only when a read they made of it answers
        # differently now (interface pruning, resolve/typescript/reads.py)
        book.reads.stale_readers(edited, self.files, _same_answers_on({}), affected)
        # name-based searches whose answer (which files) changed: subclass dispatch (the files
        # holding the classes extending a name), parameter flow (the files calling a name)
        book.stale_searches(base_names, SUBCLASSES, self.subclass_files, affected)
        book.stale_searches(call_names, CALLERS, self.caller_files, affected)
        for p in affected:
            book.drop(p)
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

    def _compute(self, path: str) -> FileFacts:
        pf = self.files[path]
        ctx = Ctx(self, pf)
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
            if r[0] == SPEC_FILE:
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
            if info.extends is None or es5_base(info.extends):
                continue  # (an ES5 chain, F.prototype = Object.create(Base.prototype), is between functions)
            b = ctx.base_of(fqn, path)
            if b is None or b[0] == V_UNI:  # a mixin's parameter given several classes: none of them
                continue
            if b[0] == V_CLASS:
                inherits.append(Inherit(child=fqn, parent=b[1]))
            elif b[0] == V_EXT:
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
            for q in [m + e for e in EXT_TRY] + [m + "/index" + e for e in EXT_TRY]
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
        self._book.install(path, facts, ctx.reads, {SUBCLASSES: ctx.sub_reads, CALLERS: ctx.call_reads})
        return facts
