"""Source tree -> facts: the orchestrator over the language indexes and the manifest readers.

Pure: bytes in, facts out, no database and no git. The timeline feeds it the files that changed
between two commits; ``callgraph --from-source`` feeds it a whole tree once.

The contract every language index keeps (and its tests check): after any sequence of
``update`` calls, ``facts(p)`` for every path equals what a fresh index given the same final
files returns. ``update`` returns every source path whose facts may differ, which includes the
changed paths, deleted ones, and files whose resolution depended on a changed module.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future
from typing import Protocol, runtime_checkable

from mnemosyne.facts import FileFacts, PackageFacts, Snapshot
from mnemosyne.gcpause import gc_paused
from mnemosyne.parse.pool import ParseJob, shared_pool
from mnemosyne.sources import is_python_source, is_ts_input

# What the extraction produces for given sources. Bump it with any change that makes the facts of
# the same files differ (a resolver improvement, a new kind of edge, a naming fix); the recorded
# digest in tests/extract_py/test_facts_version.py catches an unbumped change. A graph ingested
# with another version is re-derived on the next ingest: its versions are superseded (kept, no
# longer believed) and the history is ingested again (``mnemosyne.ingest``).
FACTS_VERSION = 37

LFS_POINTER_PREFIX = b"version https://git-lfs.github.com/spec/"
MAX_READY = 20_000  # prefetched parse results kept while not yet asked for

log = logging.getLogger(__name__)


@runtime_checkable
class LanguageIndex(Protocol):
    """Parsed files of one language family plus what is needed to resolve them."""

    def owns(self, path: str) -> bool:
        """True for the source files and the config files (tsconfig.json, ...) it reads."""

    def update(self, changed: Mapping[str, bytes | None]) -> set[str]:
        """Apply changed files (None = deleted); return the source paths whose facts may differ."""

    def facts(self, path: str) -> FileFacts | None:
        """Resolved facts of a source file present in the tree, else None."""

    def paths(self) -> set[str]:
        """The source paths currently present."""


class ParallelParsing(Protocol):
    """Optional part of a LanguageIndex: lets ``Extractor`` parse a batch on several cores first.

    ``parse_jobs(changed)`` lists the blobs ``update(changed)`` would parse; ``prime(job, result)``
    hands over a result computed elsewhere, which the next ``update`` uses instead of parsing."""

    def parse_jobs(self, changed: Mapping[str, bytes | None]) -> list[ParseJob]: ...

    def prime(self, job: ParseJob, parsed: object) -> None: ...


#: JavaScript a build wrote rather than a person: its names are one letter and it repeats the
#: repository's own code (axios commits dist/axios.min.js beside lib/; a Django project its
#: static/js/jquery.min.js), so its symbols are noise in every answer and search
MINIFIED_SUFFIXES = (".js", ".mjs", ".cjs")
#: GitHub linguist's test for minified JavaScript: more than 110 bytes a line on average
MINIFIED_LINE_BYTES = 110


def skip_reason(path: str, data: bytes, max_bytes: int) -> str | None:
    """Why a file with a source extension is not parsed, or None to parse it."""
    if len(data) > max_bytes:
        return f"{path}: skipped, {len(data)} bytes is over the {max_bytes}-byte limit (MNEMOSYNE_MAX_FILE_BYTES)"
    if data.startswith(LFS_POINTER_PREFIX):
        return f"{path}: skipped, Git LFS pointer file (content not in the repository)"
    if b"\x00" in data[:8192]:
        return f"{path}: skipped, binary content (NUL bytes) under a source extension"
    if path.endswith(MINIFIED_SUFFIXES):
        base = path.rsplit("/", 1)[-1]
        if ".min." in base or len(data) > MINIFIED_LINE_BYTES * (data.count(b"\n") + 1):
            return f"{path}: skipped, minified JavaScript (a build's output, not source)"
    return None


class DeferredIndex:
    """A language index built when its first file arrives, routed by ``owns`` (a path test of
    ``mnemosyne.sources``) until then: a tree of one language never imports the other's parser
    and resolver. Measured (callgrind, vite 6.0.0, no bytecode cache): 0.53 G of 11.29 G
    instructions went to importing the Python pipeline a TypeScript-only tree never uses."""

    def __init__(self, owns: Callable[[str], bool], build: Callable[[], LanguageIndex]) -> None:
        self._owns = owns
        self._build = build
        self._index: LanguageIndex | None = None

    @property
    def built(self) -> bool:
        """Whether a file of its language has arrived (the real index exists)."""
        return self._index is not None

    @property
    def index(self) -> LanguageIndex:
        """The real index, built on first use."""
        if self._index is None:
            self._index = self._build()
        return self._index

    def owns(self, path: str) -> bool:
        return self._owns(path)

    def update(self, changed: Mapping[str, bytes | None]) -> set[str]:
        if self._index is None and not changed:
            return set()
        return self.index.update(changed)

    def facts(self, path: str) -> FileFacts | None:
        return None if self._index is None else self._index.facts(path)

    def paths(self) -> set[str]:
        return set() if self._index is None else self._index.paths()


def _python_index() -> LanguageIndex:
    from mnemosyne.resolve.python import PythonIndex

    return PythonIndex()


def _typescript_index() -> LanguageIndex:
    from mnemosyne.resolve.typescript import TypeScriptIndex

    return TypeScriptIndex()


def default_indexes() -> list[LanguageIndex]:
    return [DeferredIndex(is_python_source, _python_index), DeferredIndex(is_ts_input, _typescript_index)]


def real_index(ix: LanguageIndex) -> LanguageIndex:
    """``ix`` itself, or the index a ``DeferredIndex`` builds (its optional parts: parse_jobs,
    prime, export_facts)."""
    return ix.index if isinstance(ix, DeferredIndex) else ix


class Extractor:
    """Holds one tree's files (incrementally updated) and answers its facts.

    ``parse_workers`` > 1 parses big batches (a whole tree, a large commit) on that many processes
    (parse/pool.py) before resolving them here; ``resolve_workers`` > 1 resolves big batches on two
    cores (resolve/forked.py). Results are identical to serial work."""

    def __init__(
        self,
        indexes: list[LanguageIndex] | None = None,
        max_file_bytes: int = 2_000_000,
        parse_workers: int = 1,
        resolve_workers: int = 1,
    ) -> None:
        self.indexes = indexes if indexes is not None else default_indexes()
        self.max_file_bytes = max_file_bytes
        self.parse_workers = parse_workers
        self.resolve_workers = resolve_workers
        # parsing ahead (``prefetch``): chunks queued on the pool, and results not yet consumed
        self._inflight: list[tuple[Future, list[tuple[int, ParseJob]]]] = []
        self._ready: dict[tuple[int, str, str], object] = {}  # (index no., path, digest) -> result
        self.warnings: dict[str, str] = {}  # path -> why it was skipped
        self._manifests: dict[str, bytes] = {}
        self._packages: PackageFacts | None = PackageFacts()

    def owns(self, path: str) -> bool:
        from mnemosyne.deps import is_manifest

        return is_manifest(path) or any(ix.owns(path) for ix in self.indexes)

    def update(self, changed: Mapping[str, bytes | None]) -> set[str]:
        """Apply a batch of changed files; returns source paths whose facts may have changed."""
        from mnemosyne.deps import is_manifest

        for path, data in changed.items():
            if is_manifest(path):
                if data is None:
                    self._manifests.pop(path, None)
                else:
                    self._manifests[path] = data
                self._packages = None
        per_index = self._route(changed, record=True)
        self._parse_ahead(per_index)
        affected: set[str] = set()
        for ix, batch in zip(self.indexes, per_index):
            if batch:
                affected |= ix.update(batch)
        return affected

    def _route(self, changed: Mapping[str, bytes | None], record: bool) -> list[dict[str, bytes | None]]:
        """``changed`` per index that owns each path; a blob that is not parsed (too big, binary,
        an LFS pointer) becomes None: absent, it yields no facts. ``record``: note why in
        ``warnings`` (and forget the reason of paths that are now fine or gone)."""
        per_index: list[dict[str, bytes | None]] = [{} for _ in self.indexes]
        for path, data in changed.items():
            reason = None if data is None else skip_reason(path, data, self.max_file_bytes)
            if record:
                if reason is None:
                    self.warnings.pop(path, None)
                else:
                    self.warnings[path] = reason
            if reason is not None:
                data = None
            for i, ix in enumerate(self.indexes):
                if ix.owns(path):
                    per_index[i][path] = data
        return per_index

    def _jobs(self, per_index: list[dict[str, bytes | None]]) -> list[tuple[int, ParseJob]]:
        out: list[tuple[int, ParseJob]] = []
        for i, (ix, batch) in enumerate(zip(self.indexes, per_index)):
            if not batch:
                continue
            ix = real_index(ix)
            if hasattr(ix, "parse_jobs") and hasattr(ix, "prime"):
                out.extend((i, job) for job in ix.parse_jobs(batch))
        return out

    def prefetch(self, changed: Mapping[str, bytes | None]) -> None:
        """Start parsing blobs a later ``update`` will need on the pool's helpers, without waiting
        (ingestion parses the next commits while it resolves and writes this one). A no-op
        without a pool; results are used only if they match what ``update`` gets."""
        pool = shared_pool(self.parse_workers)
        if pool is None:
            return
        jobs = self._jobs(self._route(changed, record=False))
        owner = {id(job): i for i, job in jobs}
        for fut, chunk in pool.submit([job for _, job in jobs]):
            self._inflight.append((fut, [(owner[id(job)], job) for job in chunk]))

    def _collect(self, needed: set[tuple[int, str, str]]) -> None:
        """Move finished prefetches into ``_ready``; wait for the ones holding a needed blob."""
        still: list[tuple[Future, list[tuple[int, ParseJob]]]] = []
        for fut, chunk in self._inflight:
            if not fut.done() and not any((i, j.path, j.digest) in needed for i, j in chunk):
                still.append((fut, chunk))
                continue
            try:
                results = fut.result()
            except Exception as exc:  # noqa: BLE001 - a helper died: update parses these itself
                log.warning("parsing ahead failed (%s); parsing in-process", exc)
                continue
            for (i, job), parsed in zip(chunk, results):
                self._ready[(i, job.path, job.digest)] = parsed
        self._inflight = still
        if len(self._ready) > MAX_READY:  # prefetched but never asked for (history moved on)
            self._ready = {k: v for k, v in self._ready.items() if k in needed}

    def _parse_ahead(self, per_index: list[dict[str, bytes | None]]) -> None:
        """With a parse pool, parse every index's new blobs on all workers (or take them from
        ``prefetch``) and prime the indexes with the results."""
        pool = shared_pool(self.parse_workers)
        if pool is None:
            return
        jobs = self._jobs(per_index)
        if not jobs:
            return
        with gc_paused():  # results are many small acyclic objects
            if self._inflight or self._ready:
                self._collect({(i, j.path, j.digest) for i, j in jobs})
                rest: list[tuple[int, ParseJob]] = []
                for i, job in jobs:
                    parsed = self._ready.pop((i, job.path, job.digest), None)
                    if parsed is None:
                        rest.append((i, job))
                    else:
                        real_index(self.indexes[i]).prime(job, parsed)  # type: ignore[attr-defined]
                jobs = rest
            owner = {id(job): i for i, job in jobs}
            for job, parsed in pool.parse([job for _, job in jobs]):
                real_index(self.indexes[owner[id(job)]]).prime(job, parsed)  # type: ignore[attr-defined]

    def resolve_ahead(self, paths: Iterable[str]) -> None:
        """With ``resolve_workers`` > 1, compute the facts of a big batch on two cores
        (resolve/forked.py); ``facts`` then answers from them. A no-op otherwise."""
        if self.resolve_workers < 2:
            return
        from mnemosyne.resolve.forked import resolve_on_two_cores

        paths = list(paths)
        for ix in self.indexes:
            mine = [p for p in paths if ix.owns(p)]
            if not mine or isinstance(ix, DeferredIndex) and not ix.built:
                continue
            ix = real_index(ix)
            if hasattr(ix, "export_facts"):
                resolve_on_two_cores(ix, mine)  # type: ignore[arg-type]

    def facts(self, path: str) -> FileFacts | None:
        for ix in self.indexes:
            if ix.owns(path):
                f = ix.facts(path)
                if f is not None:
                    return f
        return None

    def paths(self) -> set[str]:
        out: set[str] = set()
        for ix in self.indexes:
            out |= ix.paths()
        return out

    def package_facts(self) -> PackageFacts:
        if self._packages is None:
            from mnemosyne.deps import extract_packages

            self._packages = extract_packages(self._manifests)
        return self._packages

    def snapshot(self) -> Snapshot:
        paths = sorted(self.paths())
        self.resolve_ahead(paths)
        files = {p: f for p in paths if (f := self.facts(p)) is not None}
        warnings = sorted(self.warnings.values())
        for f in files.values():
            warnings.extend(f.warnings)
        pk = self.package_facts()
        return Snapshot(files=files, packages=pk, warnings=warnings + pk.warnings)


def extract_tree(
    files: Iterable[tuple[str, bytes]], max_file_bytes: int = 2_000_000, parse_workers: int = 1,
    resolve_workers: int = 1,
) -> Snapshot:
    """Facts of a whole tree in one go (``callgraph --from-source``, the invariant checker)."""
    ex = Extractor(max_file_bytes=max_file_bytes, parse_workers=parse_workers, resolve_workers=resolve_workers)
    ex.update({p: d for p, d in files if ex.owns(p)})
    return ex.snapshot()
