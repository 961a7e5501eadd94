"""The commit stream of one ingestion run read ahead (``ReadAhead``): each commit of the git log
with its changed files read, parsed by the parse pool ahead of the commit being resolved and written."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mnemosyne.git.repo import CommitInfo
    from mnemosyne.ingest_run import _Run


class ReadAhead:
    """Commits of the git log stream with their changed files read. With ``parse_workers`` > 1 it
    reads up to MAX_COMMITS / MAX_BYTES ahead and has the parse pool parse those files while the
    current commit is resolved and written; without a pool it reads one commit at a time."""

    MAX_COMMITS = 32
    MAX_BYTES = 8_000_000

    def __init__(self, run: _Run, commits: Iterator[CommitInfo], total: int) -> None:
        self.run = run
        self.commits = commits
        self.enabled = run.extractor.parse_workers > 1 and total > 1  # a lone commit: no one to overlap with
        self.buf: deque[tuple[CommitInfo, dict[str, bytes | None], int]] = deque()
        self.bytes = 0

    def _read_one(self) -> bool:
        c = next(self.commits, None)
        if c is None:
            return False
        t = time.perf_counter()
        files = self.run.changed_files(c.changes)
        self.run.timings["git"] += time.perf_counter() - t
        size = sum(len(d) for d in files.values() if d is not None)
        self.buf.append((c, files, size))
        self.bytes += size
        if self.enabled:
            self.run.extractor.prefetch(files)
        return True

    def __iter__(self) -> Iterator[tuple[CommitInfo, dict[str, bytes | None]]]:
        while self.buf or self._read_one():
            if self.enabled:
                while len(self.buf) <= self.MAX_COMMITS and self.bytes < self.MAX_BYTES and self._read_one():
                    pass
            c, files, size = self.buf.popleft()
            self.bytes -= size
            yield c, files
