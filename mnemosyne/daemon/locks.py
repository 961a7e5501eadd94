"""Per-workspace ingestion lock shared by every process on this data directory.

Two ingestions of one workspace at the same time (the daemon and a manual ``mnemosyne ingest``)
interleave their writes and leave duplicate versions behind. Whoever ingests takes
``workspace_lock(home, name)`` first: an ``flock`` on ``<home>/locks/ingest-<name>.lock``, released
by the kernel if the holder dies. The daemon takes it without blocking and, when it is busy,
puts the job back in the queue for 2 s later.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path


class WorkspaceBusy(RuntimeError):
    """Another process is ingesting this workspace."""


def lock_path(home: str | Path, name: str) -> Path:
    return Path(home) / "locks" / f"ingest-{name}.lock"


@contextlib.contextmanager
def workspace_lock(home: str | Path, name: str, timeout: float | None = None) -> Iterator[None]:
    """Hold the workspace's ingestion lock. ``timeout=None`` waits forever, ``0`` fails at once
    (``WorkspaceBusy``), otherwise waits up to ``timeout`` seconds."""
    path = lock_path(home, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | (0 if deadline is None else fcntl.LOCK_NB))
                break
            except BlockingIOError:
                if deadline is not None and time.monotonic() >= deadline:
                    raise WorkspaceBusy(f"workspace {name!r} is being ingested by another process") from None
                time.sleep(0.1)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
