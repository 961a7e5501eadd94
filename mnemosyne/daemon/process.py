"""Starting, stopping and finding the background daemon (the CLI side)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from mnemosyne.config import Settings
from mnemosyne.daemon import control
from mnemosyne.daemon.core import read_pid
from mnemosyne.daemon.paths import DaemonPaths
from mnemosyne.errors import MnemosyneError
from mnemosyne.procs import cmdline_contains, pid_alive


class DaemonError(MnemosyneError):
    """The daemon could not be started or stopped."""


def running_pid(paths: DaemonPaths) -> int | None:
    """The daemon's pid, or None (no pid file, process gone, or the pid was reused by another program)."""
    pid = read_pid(paths)
    if pid is None or not pid_alive(pid) or not _looks_like_daemon(pid):
        return None
    return pid


def _looks_like_daemon(pid: int) -> bool:
    return cmdline_contains(pid, b"mnemosyne")


def ping(paths: DaemonPaths, timeout: float = 2.0) -> dict[str, Any] | None:
    try:
        return control.request(paths.control_socket, "ping", timeout=timeout)
    except (control.ControlUnavailable, ValueError):
        return None


def start(settings: Settings, *, mcp_port: int | None = None, wait_s: float = 60.0,
          only: list[str] | None = None) -> int:
    """Start ``daemon run`` detached (new session); return its pid once the control socket answers."""
    paths = DaemonPaths.from_settings(settings)
    paths.ensure()
    pid = running_pid(paths)
    if pid is not None and ping(paths):
        return pid
    cmd = [sys.executable, "-m", "mnemosyne.daemon", "run", "--quiet"]
    if mcp_port is not None:
        cmd += ["--mcp-port", str(mcp_port)]
    for pattern in only or []:
        cmd += ["--workspace", pattern]
    env = dict(os.environ)
    env["MNEMOSYNE_HOME"] = str(paths.home)
    with open(paths.out_file, "ab") as out:
        proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True, close_fds=True, env=env, cwd="/",
        )
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        rc = proc.poll()
        if rc is not None:
            tail = _tail(paths.out_file, 5)
            raise DaemonError(f"daemon exited at start-up with code {rc}: {tail or 'see ' + str(paths.log_file)}")
        reply = ping(paths, timeout=1.0)
        if reply and reply.get("pid") == proc.pid:
            return proc.pid
        time.sleep(0.05)
    raise DaemonError(f"daemon (pid {proc.pid}) did not answer on {paths.control_socket} within {wait_s:.0f} s")


def stop(settings: Settings, timeout_s: float = 120.0) -> int | None:
    """SIGTERM the daemon and wait for it to exit. Returns the pid stopped, None if none ran."""
    paths = DaemonPaths.from_settings(settings)
    pid = running_pid(paths)
    if pid is None:
        return None
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout_s
    while pid_alive(pid):
        if time.monotonic() > deadline:
            raise DaemonError(f"daemon pid {pid} still running {timeout_s:.0f} s after SIGTERM")
        time.sleep(0.05)
    return pid


def _tail(path: Path, n: int) -> str:
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return ""
    return " | ".join(lines[-n:])


def tail_lines(path: Path, n: int) -> list[str]:
    """The last ``n`` lines of a (possibly large) file."""
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            block, data = 65536, b""
            pos = size
            while pos > 0 and data.count(b"\n") <= n:
                step = min(block, pos)
                pos -= step
                fh.seek(pos)
                data = fh.read(step) + data
    except FileNotFoundError:
        return []
    lines = data.decode("utf-8", errors="replace").splitlines()
    return lines[-n:] if n > 0 else []


def follow(path: Path, out: Any, poll_s: float = 0.25) -> None:
    """``tail -F``: keep printing new lines, reopening the file after rotation."""
    fh = None
    ino = None
    while True:
        if fh is None:
            try:
                fh = open(path, encoding="utf-8", errors="replace")  # noqa: SIM115
                ino = os.fstat(fh.fileno()).st_ino
                fh.seek(0, os.SEEK_END)
            except FileNotFoundError:
                time.sleep(poll_s)
                continue
        line = fh.readline()
        if line:
            out.write(line)
            out.flush()
            continue
        try:
            if os.stat(path).st_ino != ino:
                rest = fh.read()
                if rest:
                    out.write(rest)
                fh.close()
                fh = open(path, encoding="utf-8", errors="replace")  # noqa: SIM115
                ino = os.fstat(fh.fileno()).st_ino
                continue
        except FileNotFoundError:
            pass
        time.sleep(poll_s)
