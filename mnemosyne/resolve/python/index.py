"""``PythonIndex``: the parsed Python files of one tree, their modules and each file's facts
(resolved by ``resolver``). Which files an update re-resolves follows the rules of the shared
incremental core, ``mnemosyne/resolve/incremental.py``, which also keeps the facts with what each
resolution consulted; Python supplies the read comparison (``reads.reads_differ`` /
``rebase_keys``), the ``importers_calling`` filter over the call-name index and the relayout (a
``src/.../__init__.py`` added or deleted renames modules: every file is re-resolved)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from typing import Any

from mnemosyne.facts import FileFacts
from mnemosyne.gcpause import gc_paused
from mnemosyne.hashing import content_hash
from mnemosyne.indexmaps import discard_from
from mnemosyne.parse.pool import ParseJob
from mnemosyne.parse.python import ParsedFile, file_subclasses, parse_python
from mnemosyne.resolve.incremental import FactBook, NameIndex, Search, SharedReads
from mnemosyne.resolve.python.hierarchy import Hierarchy
from mnemosyne.resolve.python.modules import (
    CALLS_PREFIX,
    ROOT_PREFIX,
    STDLIB,
    STORES_PREFIX,
    SUB_PREFIX,
    SUFFIXES,
    _absolute,
    _strip_suffix,
    module_name,
    name_suffixes,
    pick_root,
    root_key,
)
from mnemosyne.resolve.python.reads import reads_differ, rebase_keys, same_numbering
from mnemosyne.resolve.python.resolver import SharedResolver, _FileResolver

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


def _store_names(pf: ParsedFile) -> set[str]:
    return set(pf.obj_stores)


def _is_src_init(path: str) -> bool:
    parts = path.split("/")
    return len(parts) >= 2 and parts[-1] in ("__init__.py", "__init__.pyi") and "src" in parts[:-1]


def _call_name(key: tuple[str, str]) -> str:
    return key[1]


IMPORTERS = Search(CALLS_PREFIX, name_of=_call_name)  # importers_calling answers, by (module, name)
SUBCLASSES = Search(SUB_PREFIX)  # subclass_files answers, by base name
STORES = Search(STORES_PREFIX)  # store_files answers, by attribute name


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
        self._by_suffix: dict[str, set[str]] = {}  # last 1..ROOT_DEPTH segments -> _packages keys (import_root)
        self._roots: dict[tuple[str, str], tuple[str | None, list[str]]] = {}  # import_root answers, per update
        # the resolved files' facts with what their resolution consulted (resolve/incremental.py)
        self._book: FactBook[ParsedFile, AbstractSet[tuple]] = FactBook((IMPORTERS, SUBCLASSES, STORES))
        self._callers = NameIndex()  # call/decorator last name -> paths with such a site
        self._imported: dict[str, frozenset[str]] = {}  # path -> absolute modules it imports
        self._importers_cache: dict[tuple[str, str], list[str]] = {}
        self._subclassers = NameIndex()  # base last name -> paths with a class naming such a base
        self._storers = NameIndex()  # attribute name -> paths storing onto it through an object (obj_stores)
        self._cost: dict[str, float] = {}  # path -> seconds its last resolution took
        self.hierarchy = Hierarchy(SharedResolver)  # MROs and subclasses shared by the files' resolutions

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
        store_names: set[str] = set()  # attributes changed files store onto through objects (before and after)
        modified: dict[str, ParsedFile] = {}  # path -> its parse result before this update
        relayout = False
        self._importers_cache.clear()
        self.hierarchy.clear()
        self._roots.clear()
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
                cn, bn, sn = self._remove(path)
                call_names |= cn
                base_names |= bn
                store_names |= sn
                relayout |= _is_src_init(path)
                continue
            h = content_hash(data)
            if self._hash.get(path) == h:
                continue
            pf = self._parse_cache.get(h)
            if pf is None:
                pf = parse_python(data, h)
                self._parse_cache[h] = pf
            is_new = path not in self._parsed
            if not is_new:
                old = self._parsed[path]
                modified.setdefault(path, old)
                mod = self._module_of[path]
                cn, bn, sn = self._remove(path, keep_module=True)
                call_names |= cn
                base_names |= bn
                store_names |= sn
            else:
                mod = ""
            self._hash[path] = h
            self._parsed[path] = pf
            cn, bn = _call_names(pf), _base_names(pf)
            self._callers.add(path, cn)
            call_names |= cn
            self._subclassers.add(path, bn)
            base_names |= bn
            sn = _store_names(pf)
            self._storers.add(path, sn)
            store_names |= sn
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
                for s in name_suffixes(m):  # import_root answers: a candidate appeared or disappeared
                    affected |= book.dependents(ROOT_PREFIX + s)
            # interface pruning: a reader of a modified file is affected only if one of its reads
            # now answers differently
            book.reads.stale_readers(modified, self._parsed, _rebased_reads, affected)
            # callback flow: which files a module's callback parameters are fed from
            book.stale_searches(call_names, IMPORTERS, self._importers_answer, affected)
            # subclass dispatch: which files hold the subclasses of a class of a given name
            book.stale_searches(base_names, SUBCLASSES, self.subclass_files, affected)
            # object stores: which files store onto an attribute of a given name
            book.stale_searches(store_names, STORES, self.store_files, affected)
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
                reads, ix_reads, sub_reads, os_reads = r.reads, r.ix_reads, r.sub_reads, r.os_reads
                shared = self._shared_records(r.shared)
                del r  # its memo tables die here, before the collector runs again
                self._install(path, f, reads, ix_reads, sub_reads, os_reads, shared)
            self._cost[path] = time.perf_counter() - t
        return f

    def _install(self, path: str, f: FileFacts, reads: Mapping[str, AbstractSet[tuple]],
                 ix_reads: Mapping[tuple[str, str], tuple[str, ...]], sub_reads: Mapping[str, tuple[str, ...]],
                 os_reads: Mapping[str, tuple[str, ...]],
                 shared: Iterable[SharedReads[ParsedFile, AbstractSet[tuple]]] = ()) -> None:
        """Record a file's facts with what its resolution read (for ``update``'s pruning): its own
        reads and the records of the shared answers it used."""
        parsed = self._parsed
        # the resolver's own sets, no copies: nothing else holds them
        self._book.install(path, f, {b: (parsed[b], ks) for b, ks in reads.items()},
                           {IMPORTERS: ix_reads, SUBCLASSES: sub_reads, STORES: os_reads}, shared)

    def _shared_records(self, used: Iterable[Any]) -> list[SharedReads[ParsedFile, AbstractSet[tuple]]]:
        """The reads of the shared answers a resolution used (``hierarchy.merge_used``), as the
        book keeps them: one record per answer, made the first time a file's record takes it."""
        out = []
        parsed = self._parsed
        for a in used:
            rec = a.record
            if rec is None:
                if not a.reads:
                    continue
                rec = a.record = SharedReads({b: (parsed[b], ks) for b, ks in a.reads.items()})
            out.append(rec)
        return out

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
        return (f, reads, book.answers(IMPORTERS, path), book.answers(SUBCLASSES, path), book.answers(STORES, path),
                self._cost.get(path, 0.0))

    def adopt_facts(self, path: str, payload: tuple) -> None:
        """Take ``export_facts``'s answer from a process that forked from this index in this state."""
        if path in self._book.facts or path not in self._parsed:
            return
        f, reads, ix_reads, sub_reads, os_reads, cost = payload
        self._install(path, f, reads, ix_reads, sub_reads, os_reads)
        self._cost[path] = cost

    # ------------------------------------------------------------------ internals
    def _remove(self, path: str, keep_module: bool = False) -> tuple[set[str], set[str], set[str]]:
        """Forget a file's content (and, unless ``keep_module``, its module); returns the
        call/decorator names its sites had, the names of its classes' bases and the attributes it
        stored onto through objects."""
        self._book.drop(path)
        if not keep_module:
            self._drop_module(path)
            self._cost.pop(path, None)
        self._imported.pop(path, None)
        pf = self._parsed.pop(path, None)
        self._hash.pop(path, None)
        names: set[str] = set()
        bases: set[str] = set()
        stores: set[str] = set()
        if pf is not None:
            names = _call_names(pf)
            self._callers.remove(path, names)
            bases = _base_names(pf)
            self._subclassers.remove(path, bases)
            stores = _store_names(pf)
            self._storers.remove(path, stores)
        return names, bases, stores

    def _add_module(self, path: str, mod: str) -> None:
        self._module_of[path] = mod
        self._mod_paths.setdefault(mod, set()).add(path)
        parts = mod.split(".")
        for i in range(1, len(parts) + 1):
            k = ".".join(parts[:i])
            n = self._packages.get(k, 0)
            if not n:
                self._flipped.add(k)
                for s in name_suffixes(k):
                    self._by_suffix.setdefault(s, set()).add(k)
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
                discard_from(self._by_suffix, name_suffixes(k), k)
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
                # an import of ``a.b`` may mean ``X.a.b`` (``import_root``): every tail of the
                # prefixes counts (more files than can call, never fewer: sites are evaluated)
                for j in range(1, i):
                    prefixes.add(".".join(parts[j:i]))
            r = [q for q in self._callers.files(name) if self.imported_modules(q) & prefixes]
            self._importers_cache[key] = r
        return r

    def subclass_files(self, name: str) -> tuple[str, ...]:
        """The files with a class one of whose bases is named ``name`` (sorted): the only places
        a subclass of a class called ``name`` can be defined (a module-level alias of the base,
        import or assignment, is indexed under the aliased name too, see ``file_subclasses``)."""
        return self._subclassers.files(name)

    def store_files(self, attr: str) -> tuple[str, ...]:
        """The files storing onto attribute ``attr`` of an object other than a method's own first
        parameter (sorted; ``ParsedFile.obj_stores``): the only places an object store of it can be."""
        return self._storers.files(attr)

    def _importers_answer(self, key: tuple[str, str]) -> tuple[str, ...]:
        """``importers_calling``'s answer as a resolution records it (``IMPORTERS``)."""
        return tuple(self.importers_calling(key[0], key[1]))

    def import_root(self, importer: str, mod: str) -> tuple[str | None, list[str]]:
        """The program's module an absolute import of ``mod`` means when ``mod``'s top package is
        neither the program's nor the standard library's (docs/resolve-python.md, deeper import
        roots: ``from app.models import User`` in ``backend/app/main.py`` is ``backend.app.models``);
        None when there is no such module or no single best one. ``importer`` is the importing
        module. A root that is itself a module (a package with ``__init__``) is no import root
        (``import jinja2`` in ``django/template/backends/jinja2.py`` is not that file), and the
        import's top ``a`` must be a module or a package with ``__init__`` there (a folder
        ``examples/celery/`` is not ``import celery``). Also returns the names consulted (the
        roots, ``root.a``): a resolution that asks depends on them and on
        ``ROOT_PREFIX + root_key(mod)``."""
        k = (importer, mod)
        r = self._roots.get(k)
        if r is None:
            r = self._roots[k] = self._import_root(importer, mod)
        return r

    def _import_root(self, importer: str, mod: str) -> tuple[str | None, list[str]]:
        top = mod.split(".", 1)[0]
        if not top or top in STDLIB or top in self._packages:
            return None, []
        key = root_key(mod)
        found = self._by_suffix.get(key)
        if not found:
            return None, []
        roots = sorted(c[: -len(key) - 1] for c in found)
        mods = self._mod_paths
        root = pick_root(importer, [r for r in roots if r not in mods and f"{r}.{top}" in mods])
        return (f"{root}.{mod}" if root is not None else None), roots + [f"{r}.{top}" for r in roots]

    def module_path(self, mod: str) -> str | None:
        paths = self._mod_paths.get(mod)
        if not paths:
            return None
        if len(paths) == 1:
            return next(iter(paths))
        # a package (__init__) wins over a same-named module; .py wins over .pyi
        return min(paths, key=lambda p: (p.endswith(".pyi"), not _strip_suffix(p).endswith("__init__"), p))

