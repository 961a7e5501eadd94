"""``PythonIndex``: the parsed Python files of one tree, their modules, the reverse maps that
decide which files an update re-resolves, and each file's facts (resolved by ``resolver``)."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from contextlib import contextmanager

from mnemosyne.facts import FileFacts
from mnemosyne.gcpause import gc_paused
from mnemosyne.hashing import content_hash
from mnemosyne.indexmaps import add_to, discard_from
from mnemosyne.parse.pool import ParseJob
from mnemosyne.parse.python import ParsedFile, file_subclasses, parse_python
from mnemosyne.resolve.python.modules import CALLS_PREFIX, SUB_PREFIX, SUFFIXES, _absolute, _strip_suffix, module_name
from mnemosyne.resolve.python.reads import reads_differ, rebase_keys, same_numbering
from mnemosyne.resolve.python.resolver import _FileResolver

# resolution time per line of a file never measured (.py, .pyi): mypy 18 / 2.2 us, Django 4.5 us, sympy's polys 5.3 us
SECONDS_PER_LINE = {False: 8e-6, True: 2e-6}
# interpreter frames resolution may need: bounds.MAX_DEPTH levels of ~10 frames, and the caller's
RECURSION_ROOM = 6000


@contextmanager
def _recursion_room() -> Iterator[None]:
    """Resolution recurses about ten Python frames per ``bounds.MAX_DEPTH`` level, so the interpreter's
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


def _call_names(pf: ParsedFile) -> set[str]:
    return set(pf.sites_by_name) | set(pf.decos_by_name)


def _base_names(pf: ParsedFile) -> set[str]:
    return set(file_subclasses(pf))


def _is_src_init(path: str) -> bool:
    parts = path.split("/")
    return len(parts) >= 2 and parts[-1] in ("__init__.py", "__init__.pyi") and "src" in parts[:-1]


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
        self._facts: dict[str, FileFacts] = {}
        self._rdeps: dict[str, set[str]] = {}  # module -> paths whose cached facts depend on it
        self._callers: dict[str, set[str]] = {}  # call/decorator last name -> paths with such a site
        self._imported: dict[str, frozenset[str]] = {}  # path -> absolute modules it imports
        self._importers_cache: dict[tuple[str, str], list[str]] = {}
        # interface pruning: what each resolved file read from other files' parse data
        self._reads: dict[str, dict[str, tuple[ParsedFile, AbstractSet[tuple]]]] = {}  # path -> other path -> (its parse, read keys)
        self._readers: dict[str, set[str]] = {}  # other path -> paths whose facts read it
        self._ix_reads: dict[str, dict[tuple[str, str], tuple[str, ...]]] = {}  # importers_calling answers
        self._subclassers: dict[str, set[str]] = {}  # base last name -> paths with a class naming such a base
        self._sub_reads: dict[str, dict[str, tuple[str, ...]]] = {}  # path -> subclass_files answers
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
        """Changed files are re-resolved. Other files are re-resolved when a module they looked
        up appeared or disappeared (``depends_on``, coarse), when a changed file no longer answers
        one of the reads their resolution made of its parse data the same way (interface
        pruning: a body-only edit answers every read the same), or when the files another module
        passes callbacks from (``importers_calling``) changed."""
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
            for name in _call_names(pf):
                self._callers.setdefault(name, set()).add(path)
                call_names.add(name)
            for name in _base_names(pf):
                self._subclassers.setdefault(name, set()).add(path)
                base_names.add(name)
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
            self._facts.clear()
            self._rdeps.clear()
            self._imported.clear()
            self._reads.clear()
            self._readers.clear()
            self._ix_reads.clear()
            self._sub_reads.clear()
        else:
            # a module name's answers (``is_internal``, ``mod_path``) change only for the modules
            # themselves and for the package prefixes that appeared or disappeared with them; a
            # reader of a package that stays is not affected by a new submodule it did not name
            # (naming it recorded the submodule: ``module_attr`` asks ``is_internal`` of it)
            mods = changed_mods | self._flipped
            for m in mods:
                affected |= self._rdeps.get(m, set())
            # interface pruning: a reader of a modified file is affected only if one of its reads
            # now answers differently
            for b, old in modified.items():
                if b not in self._parsed:
                    continue
                new = self._parsed[b]
                alike = same_numbering(old, new)
                for a in list(self._readers.get(b, ())):
                    if a in affected:
                        continue
                    on, keys = self._reads[a][b]
                    same = alike if on is old else same_numbering(on, new)
                    if reads_differ(on, new, keys, same):
                        affected.add(a)
                    else:  # the same answers: the keys now refer to the new version
                        self._reads[a][b] = (new, rebase_keys(on, new, keys, same))
            # callback flow: which files a module's callback parameters are fed from
            for name in call_names:
                for a in list(self._rdeps.get(CALLS_PREFIX + name, ())):
                    if a in affected:
                        continue
                    answers = self._ix_reads.get(a, {})
                    if any(
                        nm == name and self.importers_calling(m, nm) != list(r) for (m, nm), r in answers.items()
                    ):
                        affected.add(a)
            # subclass dispatch: which files hold the subclasses of a class of a given name
            for name in base_names:
                for a in list(self._rdeps.get(SUB_PREFIX + name, ())):
                    if a not in affected and self._sub_reads.get(a, {}).get(name) != self.subclass_files(name):
                        affected.add(a)
            affected |= set(self._parsed) - set(self._facts)  # never resolved since: may differ
            for p in affected:
                self._invalidate(p)
        # keep the parse cache bounded to what is present (plus a little history)
        if len(self._parse_cache) > 2 * len(self._parsed) + 256:
            live = set(self._hash.values())
            self._parse_cache = {h: v for h, v in self._parse_cache.items() if h in live}
        return affected

    def facts(self, path: str) -> FileFacts | None:
        if path not in self._parsed:
            return None
        f = self._facts.get(path)
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
        self._facts[path] = f
        add_to(self._rdeps, f.depends_on, path)
        if reads:
            parsed = self._parsed
            # the resolver's own sets, no copies: nothing else holds them
            self._reads[path] = {b: (parsed[b], ks) for b, ks in reads.items()}
            add_to(self._readers, reads, path)
        if ix_reads:
            self._ix_reads[path] = ix_reads
        if sub_reads:
            self._sub_reads[path] = sub_reads

    # ------------------------------------------------------------------ resolving elsewhere (resolve/forked.py)
    def unresolved_costs(self, paths: Iterable[str]) -> dict[str, float]:
        """Paths among ``paths`` whose facts are not computed, with an estimate of the seconds
        that takes: the last time it was measured, else from the file's length."""
        out: dict[str, float] = {}
        for p in paths:
            pf = self._parsed.get(p)
            if pf is not None and p not in self._facts:
                out[p] = self._cost.get(p, pf.line_count * SECONDS_PER_LINE[p.endswith(".pyi")])
        return out

    def export_facts(self, path: str) -> tuple | None:
        """A file's facts with what ``_install`` records, as plain data (another process resolved it)."""
        f = self.facts(path)
        if f is None:
            return None
        reads = {b: ks for b, (_pf, ks) in self._reads.get(path, {}).items()}
        return f, reads, self._ix_reads.get(path, {}), self._sub_reads.get(path, {}), self._cost.get(path, 0.0)

    def adopt_facts(self, path: str, payload: tuple) -> None:
        """Take ``export_facts``'s answer from a process that forked from this index in this state."""
        if path in self._facts or path not in self._parsed:
            return
        f, reads, ix_reads, sub_reads, cost = payload
        self._install(path, f, reads, ix_reads, sub_reads)
        self._cost[path] = cost

    # ------------------------------------------------------------------ internals
    def _invalidate(self, path: str) -> None:
        f = self._facts.pop(path, None)
        if f is not None:
            discard_from(self._rdeps, f.depends_on, path)
        reads = self._reads.pop(path, None)
        if reads:
            discard_from(self._readers, reads, path)
        self._ix_reads.pop(path, None)
        self._sub_reads.pop(path, None)

    def _remove(self, path: str, keep_module: bool = False) -> tuple[set[str], set[str]]:
        """Forget a file's content (and, unless ``keep_module``, its module); returns the
        call/decorator names its sites had and the names of its classes' bases."""
        self._invalidate(path)
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
            discard_from(self._callers, names, path)
            bases = _base_names(pf)
            discard_from(self._subclassers, bases, path)
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
            r = [q for q in sorted(self._callers.get(name, ())) if self.imported_modules(q) & prefixes]
            self._importers_cache[key] = r
        return r

    def subclass_files(self, name: str) -> tuple[str, ...]:
        """The files with a class one of whose bases is named ``name`` (sorted): the only places
        a subclass of a class called ``name`` can be defined (a module-level alias of the base,
        import or assignment, is indexed under the aliased name too, see ``file_subclasses``)."""
        return tuple(sorted(self._subclassers.get(name, ())))

    def module_path(self, mod: str) -> str | None:
        paths = self._mod_paths.get(mod)
        if not paths:
            return None
        if len(paths) == 1:
            return next(iter(paths))
        # a package (__init__) wins over a same-named module; .py wins over .pyi
        return min(paths, key=lambda p: (p.endswith(".pyi"), not _strip_suffix(p).endswith("__init__"), p))

