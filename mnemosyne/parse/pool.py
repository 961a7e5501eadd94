"""Parsing on several cores: the pure ``bytes -> ParsedFile`` step of both languages, spread over
``parse_workers`` processes for big batches (a whole tree, a large commit).

Why processes: parsing and the tree walk are Python code holding the GIL, so threads do not help.
Why the calling process parses too: with ``parse_workers=2`` on a 2-core machine, one helper
process plus the caller keeps both cores busy without a third process competing for them.
Results cross the process boundary by pickle (``ParsedFile`` is plain data); unpickling costs the
caller roughly a third of what parsing the same files would, so small batches stay in-process.

Helpers come from a ``forkserver`` (``spawn`` where there is none): forking a process that runs
threads (the daemon's scheduler, watcher and MCP server) is unsafe. One pool per worker count is
shared by the whole process and started on first use; a helper that dies makes that batch fall
back to in-process parsing, never a lost file. A helper exits by itself once the process that
owns the pool is gone (SIGKILL included); the forkserver and the resource tracker then follow,
as nothing holds their pipes any more.
"""

from __future__ import annotations

import atexit
import logging
import multiprocessing as mp
import os
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from mnemosyne.gcpause import gc_paused

log = logging.getLogger(__name__)

# below these a batch is parsed in-process: IPC and unpickling would cost more than they save
MIN_POOL_FILES = 8
MIN_POOL_BYTES = 256 * 1024
CHUNK_BYTES = 96 * 1024  # a task sent to a helper: about this much source


@dataclass(frozen=True, slots=True)
class ParseJob:
    """One blob to parse. ``language`` picks the parser; ``digest`` is its content hash."""

    language: str  # 'python' | 'typescript' (TypeScript, TSX and JavaScript by path suffix)
    path: str
    digest: str
    data: bytes


def parse_job(job: ParseJob) -> Any:
    """The parse result the language index would compute itself for this blob."""
    if job.language == "python":
        from mnemosyne.parse.python import parse_python

        return parse_python(job.data, job.digest)
    from mnemosyne.parse.typescript import parse_file

    return parse_file(job.path, job.data, job.digest)


def _parse_chunk(jobs: list[ParseJob]) -> list[Any]:
    with gc_paused():  # many small acyclic objects: the collector would only rescan them
        return [parse_job(j) for j in jobs]


def code_stamp() -> str:
    """Digest of every source file of the parse package (sub-packages included) as on disk now."""
    import hashlib
    from pathlib import Path

    here = Path(__file__).parent
    h = hashlib.blake2b(digest_size=16)
    for path in sorted(here.rglob("*.py")):
        h.update(path.relative_to(here).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()


# Taken when this process imported the parsers (this module is imported with them). Helpers are
# new processes that import the code on disk when they start: after an upgrade in place, a
# long-running daemon's helpers would parse with other code than its resolvers expect.
_STAMP = code_stamp()


def _warm(_: int = 0) -> str:
    """Imports the parsers in a helper (once per helper when the pool starts); returns the
    helper's code stamp for the caller to compare with its own."""
    import mnemosyne.parse.python  # noqa: F401
    import mnemosyne.parse.typescript  # noqa: F401

    return _STAMP


def _helper_init(owner: int) -> None:
    """Runs first in each helper: leave once the process that owns the pool is gone (a SIGKILLed
    ingest), else the helper would wait forever on its task pipe and keep the forkserver and the
    resource tracker alive with it."""
    from mnemosyne.procs import exit_when_gone

    exit_when_gone(owner)


def _chunks(jobs: list[ParseJob]) -> list[list[ParseJob]]:
    """Largest files first, packed into tasks of about CHUNK_BYTES."""
    out: list[list[ParseJob]] = []
    cur: list[ParseJob] = []
    size = 0
    for j in sorted(jobs, key=lambda j: -len(j.data)):
        cur.append(j)
        size += len(j.data)
        if size >= CHUNK_BYTES:
            out.append(cur)
            cur, size = [], 0
    if cur:
        out.append(cur)
    return out


class ParsePool:
    """``workers - 1`` helper processes plus the caller, parsing one batch at a time."""

    def __init__(self, workers: int) -> None:
        if workers < 2:
            raise ValueError("a ParsePool needs parse_workers >= 2; use in-process parsing for 1")
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()  # one batch at a time: the pool is shared by the process

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            methods = mp.get_all_start_methods()
            ctx = mp.get_context("forkserver" if "forkserver" in methods else "spawn")
            self._executor = ProcessPoolExecutor(
                self.workers - 1, mp_context=ctx, initializer=_helper_init, initargs=(os.getpid(),)
            )
            # start the helpers now (imports included) rather than inside the first batch
            stamps = set(self._executor.map(_warm, range(self.workers - 1)))
            if stamps != {_STAMP}:
                self._reset()
                raise RuntimeError(
                    "the parser code on disk differs from the code this process runs (upgraded in place?); "
                    "restart the process to parse on several cores again"
                )
        return self._executor

    def start(self) -> None:
        """Start the helpers ahead of the first batch (a daemon does this at start-up)."""
        with self._lock:
            self._pool()

    def start_in_background(self) -> None:
        """Start the helpers on a thread (about 0.3 s of imports) while the caller reads git."""

        def run() -> None:
            try:
                self.start()
            except Exception as exc:  # noqa: BLE001 - the first batch says it again and parses in-process
                log.warning("parse pool did not start (%s)", exc)

        threading.Thread(target=run, name="mnemosyne-parse-pool-start", daemon=True).start()

    def parse(self, jobs: Iterable[ParseJob]) -> Iterator[tuple[ParseJob, Any]]:
        """Every job with its parse result, in no particular order."""
        jobs = list(jobs)
        if len(jobs) < MIN_POOL_FILES or sum(len(j.data) for j in jobs) < MIN_POOL_BYTES:
            for j in jobs:
                yield j, parse_job(j)
            return
        with self._lock:
            yield from self._parse_shared(jobs)

    def submit(self, jobs: list[ParseJob]) -> list[tuple[Future, list[ParseJob]]]:
        """Queue ``jobs`` on the helpers without waiting (parsing ahead of need, e.g. the next
        commits of a history). Empty when the helpers cannot be had: the caller parses itself."""
        if not jobs:
            return []
        with self._lock:
            try:
                ex = self._pool()
                return [(ex.submit(_parse_chunk, chunk), chunk) for chunk in _chunks(jobs)]
            except Exception as exc:  # noqa: BLE001 - no helpers: the caller parses when it needs them
                log.warning("parse pool unavailable (%s); parsing in-process", exc)
                self._reset()
                return []

    def _parse_shared(self, jobs: list[ParseJob]) -> Iterator[tuple[ParseJob, Any]]:
        try:
            ex = self._pool()
        except Exception as exc:  # noqa: BLE001 - no helpers: parse here, say why once
            log.warning("parse pool unavailable (%s); parsing in-process", exc)
            for j in jobs:
                yield j, parse_job(j)
            return
        pending = deque(_chunks(jobs))
        inflight: dict[Future, list[ParseJob]] = {}
        limit = 2 * (self.workers - 1)  # tasks queued per helper: keeps them busy, not hoarding
        broken = False  # after a failure the rest of the batch is parsed here
        while pending or inflight:
            while not broken and pending and len(inflight) < limit:
                chunk = pending.popleft()  # helpers take the big files
                try:
                    inflight[ex.submit(_parse_chunk, chunk)] = chunk
                except Exception as exc:  # noqa: BLE001 - broken pool: parse the rest here
                    log.warning("parse pool broken (%s); parsing in-process", exc)
                    self._reset()
                    pending.appendleft(chunk)
                    broken = True
            done: Iterable[Future]
            if pending:
                chunk = pending.pop()  # the caller takes the small ones from the other end
                yield from zip(chunk, _parse_chunk(chunk))
                done = [f for f in inflight if f.done()]
            elif inflight:
                done, _ = wait(list(inflight), return_when=FIRST_COMPLETED)
            else:
                done = []
            for f in done:
                chunk = inflight.pop(f)
                try:
                    results = f.result()
                except Exception as exc:  # noqa: BLE001 - a helper died: parse its share here
                    log.warning("parse helper failed (%s); parsing %d files in-process", exc, len(chunk))
                    if not broken:
                        self._reset()
                        broken = True
                    results = _parse_chunk(chunk)
                yield from zip(chunk, results)

    def _reset(self) -> None:
        ex, self._executor = self._executor, None
        if ex is not None:
            ex.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        with self._lock:
            self._reset()


_POOLS: dict[int, ParsePool] = {}
_POOLS_LOCK = threading.Lock()


def shared_pool(workers: int) -> ParsePool | None:
    """The process's pool for this many workers; None for ``workers <= 1`` (parse in-process)."""
    if workers <= 1:
        return None
    with _POOLS_LOCK:
        pool = _POOLS.get(workers)
        if pool is None:
            pool = _POOLS[workers] = ParsePool(workers)
        return pool


@atexit.register
def _close_all() -> None:
    for pool in list(_POOLS.values()):
        pool.close()
