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
