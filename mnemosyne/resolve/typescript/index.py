"""The TypeScript language index: parsed files and configs of one tree -> FileFacts, incrementally.

``TypeScriptIndex`` keeps the parsed files (``mnemosyne.parse.typescript.ParsedFile``) and the
config files of one tree; ``update`` re-resolves the files a change affects (the files that
depend on an added or deleted module, on a changed config, on a name-based search whose answer
changed, or whose recorded reads of an edited file answer differently: ``reads.py``) and caches
their facts. How resolution works, the conventions the corpus expects and every tag:
docs/resolve-typescript.md.
"""

from __future__ import annotations

from collections.abc import Mapping

from mnemosyne.facts import FileFacts, Import, Inherit
from mnemosyne.gcpause import gc_paused
from mnemosyne.hashing import content_hash
from mnemosyne.indexmaps import add_to, discard_from
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
from mnemosyne.resolve.typescript.config import ConfigModel, build_config, is_config, resolution_view
from mnemosyne.resolve.typescript.context import Ctx
from mnemosyne.resolve.typescript.emit import CONFIDENCE
from mnemosyne.resolve.typescript.modules import EXT_TRY, SPEC_FILE, npm_package_name
from mnemosyne.resolve.typescript.reads import CALLS_PREFIX, CONFIG_DEP, SUB_PREFIX, same_answers
from mnemosyne.resolve.typescript.values import V_CLASS, V_EXT, V_UNI

_PARSE_CACHE_SIZE = 256  # recent parse results kept per index, by (path, content hash)


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
        # parameter values for the current file set (``Ctx.param_values``), the keys being
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
            if info.extends is None:
                continue
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
        self._facts[path] = facts
        self._reads[path] = ctx.reads
        if ctx.sub_reads:
            self._sub_reads[path] = ctx.sub_reads
        if ctx.call_reads:
            self._call_reads[path] = ctx.call_reads
        add_to(self._rdeps, deps, path)
        return facts
