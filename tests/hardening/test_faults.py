"""Faults from the hardening issue (items 8-12): an unusable home or a server that cannot save,
a SIGKILLed multi-process ingest, file names that are not UTF-8, a shallow clone made whole, a
deleted repository under the daemon. Real processes, real git, the session's real FalkorDB."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "Tess Ter",
    "GIT_AUTHOR_EMAIL": "tess@example.com",
    "GIT_COMMITTER_NAME": "Tess Ter",
    "GIT_COMMITTER_EMAIL": "tess@example.com",
}


def git(cwd: Path, *args: str) -> str:
    out = subprocess.run(["git", *args], cwd=cwd, env={**os.environ, **GIT_ENV}, capture_output=True, check=True)
    return out.stdout.decode(errors="replace")


def commit_all(cwd: Path, message: str) -> str:
    git(cwd, "add", "-A", ".")
    git(cwd, "commit", "-q", "--no-verify", "-m", message)
    return git(cwd, "rev-parse", "HEAD").strip()


def new_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    git(path, "init", "-q", "--template=", "-b", "main", ".")
    return path


def cli(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mnemosyne.cli", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=timeout, check=False)


# -- 9: a SIGKILLed `ingest --workers 2` leaves no process behind ---------------------------------


def _session_members(sid: int) -> dict[int, str]:
    """Live processes of session ``sid`` (pid -> command line)."""
    out: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[-1].split()
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[3]) == sid:  # state, ppid, pgrp, session
            out[int(entry.name)] = cmd
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from procfs")
def test_sigkilled_parallel_ingest_leaves_no_helper(settings, tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "many")
    body = "\n".join(f"def f{i}(a):\n    return helper(a) + {i}\n" for i in range(250))
    for c in range(30):  # enough parsing that the helpers are busy when the kill comes
        for f in range(24):
            (repo / f"mod{f}.py").write_text(f"from util import helper\n# {c}\n{body}\n")
        (repo / "util.py").write_text(f"def helper(a):\n    return a * {c}\n")
        commit_all(repo, f"c{c}")
    p = subprocess.Popen([sys.executable, "-m", "mnemosyne.cli", "ingest", str(repo), "--workers", "2", "--quiet"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        seen: dict[int, str] = {}
        while time.monotonic() < deadline and p.poll() is None:
            seen = _session_members(p.pid)
            helpers = [pid for pid, cmd in seen.items() if "forkserver" in cmd]
            if len(helpers) >= 2:  # the forkserver and a parse helper forked from it
                break
            time.sleep(0.05)
        assert p.poll() is None, "ingestion ended before its helpers ran; make the repository bigger"
        assert any("resource_tracker" in cmd for cmd in seen.values()), seen
        time.sleep(0.5)  # inside a batch
        os.kill(p.pid, signal.SIGKILL)  # the ingest alone: its helpers must notice by themselves
        p.wait()
        deadline = time.monotonic() + 5
        while _session_members(p.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _session_members(p.pid) == {}, f"left behind: {_session_members(p.pid)}"
    finally:
        if _session_members(p.pid):
            os.killpg(p.pid, signal.SIGKILL)


# -- 12: a deleted repository under the daemon: said once, then backed off -----------------------


def test_daemon_backs_off_a_deleted_repository_and_says_once_what_to_do(settings, db, registry, tmp_path: Path,
                                                                         caplog) -> None:
    import logging
    import shutil
    import uuid

    from mnemosyne.daemon.core import Daemon
    from mnemosyne.store.connection import connect
    from mnemosyne.workspaces import add_workspace

    repo = new_repo(tmp_path / "doomed")
    (repo / "a.py").write_text("def f():\n    return 1\n")
    commit_all(repo, "one")
    name = f"doomed_{uuid.uuid4().hex[:8]}"
    add_workspace(registry, name, repo)
    shutil.rmtree(repo)  # deleted before the daemon looks: it cannot be watched, so it is polled

    own = settings.model_copy(update={"home": tmp_path / "home"})
    daemon = Daemon(own, connect=lambda s, start=True: connect(settings), only=[name])
    caplog.set_level(logging.DEBUG, logger="mnemosyne.daemon")
    try:
        daemon.refresh_workspaces()
        for _ in range(10):  # the scheduler's 5 s polls
            daemon.poll_unwatched()
        daemon.reconcile()  # an explicit pass looks again, quietly
        warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(warnings) == 1, warnings
        assert "event=repo_unavailable" in warnings[0] and f"mnemosyne workspace remove {name}" in warnings[0]
        assert "is gone" in warnings[0]
        probes = [r for r in caplog.records if "check_failed" in r.getMessage()]
        assert len(probes) == 1, "the polls did not back off"  # only the reconcile pass probed git again
        ws = next(w for w in daemon.status()["workspaces"] if w["name"] == name)
        assert ws["repo_error"]

        new_repo(repo)  # restored: the next pass finds it, says so, and queues its ingest
        (repo / "a.py").write_text("def f():\n    return 2\n")
        commit_all(repo, "back")
        out = daemon.reconcile()
        assert out["queued"] == [name]
        assert any("event=repo_available" in r.getMessage() for r in caplog.records)
        assert next(w for w in daemon.status()["workspaces"] if w["name"] == name)["repo_error"] is None
    finally:
        daemon.pool.shutdown(wait=False)
        daemon.queue.close()
