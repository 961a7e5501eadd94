"""Resolving a batch of files on two cores: a forked copy of the index resolves part of them.

Why fork: resolution reads the whole index (every file's parse results), which a helper
process would otherwise have to receive or rebuild; a forked child shares it copy-on-write, in
the state the parent is in, so what it computes is exactly what the parent would (a file's
resolution depends on the index state only, never on which other files were resolved before).
The child sends back each file's facts with what its resolution read (``export_facts``), the
parent installs them (``adopt_facts``) while resolving its own share.

Why it is safe in a process that runs threads (ingestion's read-ahead and write-behind, the
daemon): the child runs only pure-Python resolution, pickles the results into a pipe and leaves
with ``os._exit`` (no atexit handlers, no inherited buffers flushed, no inherited socket used).
CPython re-initialises the GIL, the import lock and the logging locks after a fork. Should the
child still die or hang, the parent kills it after a deadline and resolves those files itself:
slower, never different.

Used when the caller allows two cores (``resolve_workers``, by default 2 on a multi-core machine:
the child lives only while a big batch is resolved, so an idle daemon holds no second process),
on Linux, for batches estimated at ``MIN_FORK_SECONDS`` or more (below that the fork, the
copy-on-write faults and the pickling cost more than they save).
"""

from __future__ import annotations

import logging
import os
import pickle
import select
import signal
import sys
import time
import warnings
from collections.abc import Callable, Iterable
from typing import Protocol, TypeVar

from mnemosyne.gcpause import gc_paused
from mnemosyne.procs import die_with_parent

log = logging.getLogger(__name__)
T = TypeVar("T")

MIN_FORK_SECONDS = 0.25  # estimated resolution time of a batch below which it stays in-process
# the child's share counts this much more: it pickles what it found and the parent unpickles it
# (mypy's history: 0.03-0.05 s each for a 0.6 s share; its resolution itself was as fast as the
# parent's, copy-on-write faults included)
CHILD_SLOWDOWN = 1.1
CHILD_SLACK_SECONDS = 30.0  # how much longer than the estimate the parent waits for the child


class ForkableIndex(Protocol):
    def unresolved_costs(self, paths: Iterable[str]) -> dict[str, float]: ...

    def facts(self, path: str) -> object: ...

    def export_facts(self, path: str) -> tuple | None: ...

    def adopt_facts(self, path: str, payload: tuple) -> None: ...


def can_fork() -> bool:
    return sys.platform.startswith("linux") and hasattr(os, "fork")


def split_by_cost(costs: dict[str, float], slowdown: float = CHILD_SLOWDOWN) -> tuple[list[str], list[str]]:
    """Two shares that should finish together: the caller's and the child's, whose estimates
    count ``slowdown`` times (longest first, each to the share that would end first)."""
    a: list[str] = []
    b: list[str] = []
    ta = tb = 0.0
    for p, c in sorted(costs.items(), key=lambda kv: (-kv[1], kv[0])):
        if ta + c <= tb + c * slowdown:
            a.append(p)
            ta += c
        else:
            b.append(p)
            tb += c * slowdown
    return a, b


def resolve_on_two_cores(index: ForkableIndex, paths: Iterable[str]) -> int:
    """Compute the facts of ``paths`` not computed yet, a share of them in a forked child.
    Returns how many files the child resolved (0: all done, or left, in this process)."""
    costs = index.unresolved_costs(paths)
    if len(costs) < 2 or sum(costs.values()) < MIN_FORK_SECONDS or not can_fork():
        return 0
    mine, theirs = split_by_cost(costs)
    r, w = os.pipe()
    parent = os.getpid()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # 3.12+: "multi-threaded, use of fork()"
            pid = os.fork()
    except OSError as err:
        os.close(r)
        os.close(w)
        log.warning("could not fork to resolve on a second core (%s); resolving in-process", err)
        return 0
    if pid == 0:  # the child: resolve, send, leave without any cleanup of the parent's state
        code = 1
        try:
            for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
                signal.signal(sig, signal.SIG_DFL)  # not the parent's handlers (a daemon's shutdown)
            die_with_parent(parent)  # a SIGKILLed parent: no one will read what it computes
            _prefer_me_for_oom()
            os.close(r)
            with gc_paused():
                out = [(p, _quietly(index.export_facts, p)) for p in theirs]
                data = pickle.dumps(out, protocol=pickle.HIGHEST_PROTOCOL)
            view = memoryview(data)
            while view:
                view = view[os.write(w, view):]
            code = 0
        except BaseException:  # noqa: BLE001 - nothing may escape a forked child
            pass
        os._exit(code)
    os.close(w)
    deadline = time.monotonic() + CHILD_SLACK_SECONDS + 10 * sum(costs[p] for p in theirs)
    try:
        for p in mine:
            _quietly(index.facts, p)
        chunks = _read_all(r, deadline)
    finally:
        os.close(r)
        _reap(pid)
    if chunks is None:
        log.warning("the resolver's second process did not answer in time; resolving its %d files in-process",
                    len(theirs))
        return 0
    try:
        with gc_paused():
            got = pickle.loads(b"".join(chunks))
    except Exception as err:  # noqa: BLE001 - the child died mid-way: its share is resolved here
        log.warning("the resolver's second process failed (%s); resolving its %d files in-process",
                    type(err).__name__, len(theirs))
        return 0
    for p, payload in got:
        if payload is not None:
            index.adopt_facts(p, payload)
    log.debug("resolved %d of %d files on a second process", len(got), len(costs))
    return len(got)


def _prefer_me_for_oom() -> None:
    """Short of memory, the kernel should kill this child, which costs only time, rather than
    the parent: its copy-on-write pages grow as it touches the index (reference counts)."""
    try:
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write("1000")
    except OSError:
        pass


def _quietly(f: Callable[[str], T], path: str) -> T | None:
    """``f(path)``, or None if it raised: the caller's own ``facts`` call, later, meets the same
    error and reports it (ingestion warns and skips the file)."""
    try:
        return f(path)
    except Exception:  # noqa: BLE001
        return None


def _read_all(fd: int, deadline: float) -> list[bytes] | None:
    """Everything written to the pipe until the child closes it; None past ``deadline``."""
    chunks: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            return None
        b = os.read(fd, 1 << 20)
        if not b:
            return chunks
        chunks.append(b)


def _reap(pid: int) -> None:
    """Wait for the child; kill it first if it is still there (it hung, or we gave up on it)."""
    done, _ = os.waitpid(pid, os.WNOHANG)
    if done == 0:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
