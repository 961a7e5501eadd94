"""Process probes shared by the embedded database (store) and the daemon: pid files, liveness,
and a guard against recycled pids. Linux reads procfs; elsewhere ``kill(pid, 0)`` is trusted."""

from __future__ import annotations

import os
from pathlib import Path


def read_pid_file(path: Path) -> int | None:
    """The pid written in ``path``; None when the file is missing, unreadable or not a number."""
    try:
        text = path.read_text().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def pid_alive(pid: int) -> bool:
    """True for a live process; a zombie (exited, not yet reaped) counts as gone."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True  # no procfs (macOS): trust kill(0)
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def cpu_ticks(pid: int) -> int | None:
    """CPU time process ``pid`` has used (user + system, clock ticks, all its threads); None
    without procfs (macOS) or once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()
    except OSError:
        return None
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat(5))


def cmdline_contains(pid: int, needle: bytes) -> bool:
    """Whether process ``pid``'s command line contains ``needle`` (a recycled pid belongs to another
    program). Without procfs (macOS) it cannot tell and says yes."""
    if not Path("/proc/self/cmdline").exists():
        return True
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return needle in cmdline


# -- helpers that must not outlive the process that started them ------------------------------
# A SIGKILLed ingest cannot clean up: its parse helper would wait forever on a pipe it also holds
# itself, and with it the forkserver and resource tracker it keeps alive (3 processes, ~65 MB per
# kill, re-parented to pid 1). Each helper therefore watches its owner and leaves when it is gone.

_PR_SET_PDEATHSIG = 1  # prctl(2)


def die_with_parent(expected_parent: int) -> None:
    """In a forked child: be SIGKILLed when the thread that forked it exits (Linux
    ``PR_SET_PDEATHSIG``), and leave at once if the parent is already gone. Only for a child
    whose forking thread waits for it; elsewhere a no-op."""
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != expected_parent:  # died before the prctl took effect
        os._exit(1)


def exit_when_gone(owner: int) -> None:
    """Start a daemon thread that ends this process (``os._exit``) once process ``owner`` exits.
    Uses a pidfd (readable when the process ends; immune to pid reuse) where Linux has one,
    else polls once a second. Call it early in a helper process, while ``owner`` is alive."""
    import threading

    if not pid_alive(owner):
        os._exit(1)

    def watch() -> None:
        import select
        import time

        fd = None
        try:
            fd = os.pidfd_open(owner)
        except (AttributeError, OSError):
            pass
        if fd is not None:
            select.select([fd], [], [])
        else:
            while pid_alive(owner):
                time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="mnemosyne-owner-watch", daemon=True).start()
