"""Daemon test helpers: real git repositories, a real daemon process, polling with timeouts."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from mnemosyne.daemon import control
from mnemosyne.daemon.paths import DaemonPaths

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Tess Ter", "GIT_AUTHOR_EMAIL": "tess@example.com",
    "GIT_COMMITTER_NAME": "Tess Ter", "GIT_COMMITTER_EMAIL": "tess@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def wait_for(pred: Callable[[], Any], timeout: float = 20.0, interval: float = 0.05, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        last = pred()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what} (last: {last!r})")


class Repo:
    """A real repository in a temp dir; ``commit()`` makes a real commit touching a Python file."""

    def __init__(self, path: Path, branch: str = "main") -> None:
        self.path = path
        self.n = 0
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", branch)
        self.git("config", "commit.gpgsign", "false")
        self.commit("initial")

    def git(self, *args: str, check: bool = True, env: dict[str, str] | None = None) -> str:
        e = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        e.update(GIT_ENV)
        e["HOME"] = str(self.path.parent)  # no user config
        e.update(env or {})
        proc = subprocess.run(["git", "-C", str(self.path), *args], capture_output=True, text=True, env=e)
        if check and proc.returncode != 0:
            raise AssertionError(f"git {' '.join(args)} failed: {proc.stderr}")
        return proc.stdout

    def commit(self, message: str | None = None) -> str:
        self.n += 1
        mod = self.path / "pkg" / f"m{self.n % 5}.py"
        mod.parent.mkdir(exist_ok=True)
        (mod.parent / "__init__.py").touch()
        body = mod.read_text() if mod.exists() else ""
        body += f"\ndef f{self.n}(x):\n    return helper(x) + {self.n}\n\n\ndef helper(x):\n    return x\n" if not body else \
            f"\ndef f{self.n}(x):\n    return helper(x) + {self.n}\n"
        mod.write_text(body)
        self.git("add", "-A")
        self.git("commit", "-q", "--no-verify", "-m", message or f"change {self.n}")
        return self.head()

    def head(self) -> str:
        return self.git("rev-parse", "HEAD").strip()

    def many_commits(self, count: int) -> str:
        """``count`` commits at once through git fast-import (fast), each adding a function."""
        parent = self.head()
        branch = self.git("symbolic-ref", "HEAD").strip()
        lines = []
        ts = int(time.time()) - count
        for i in range(count):
            self.n += 1
            content = f"def g{self.n}(x):\n    return x + {self.n}\n\n\ndef h{self.n}():\n    return g{self.n}(1)\n"
            data = content.encode()
            lines.append(f"commit {branch}\ncommitter Tess Ter <tess@example.com> {ts + i} +0000\n")
            msg = f"bulk {self.n}".encode()
            lines.append(f"data {len(msg)}\n{msg.decode()}\n")
            if i == 0:
                lines.append(f"from {parent}\n")
            lines.append(f"M 100644 inline pkg/bulk{self.n % 40}.py\ndata {len(data)}\n{content}\n")
        stream = "".join(lines).encode()
        e = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        subprocess.run(["git", "-C", str(self.path), "fast-import", "--quiet"], input=stream, check=True, env=e)
        self.git("reset", "-q", "--hard", branch)
        return self.head()


class DaemonProc:
    """``python -m mnemosyne.daemon run`` as a real subprocess with the given environment."""

    def __init__(self, env: dict[str, str], args: list[str] | None = None) -> None:
        self.env = env
        self.args = args or []
        self.paths = DaemonPaths(Path(env["MNEMOSYNE_HOME"]).resolve())
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30.0) -> DaemonProc:
        self.paths.log_dir.mkdir(parents=True, exist_ok=True)
        out = open(self.paths.log_dir / "test-daemon.out", "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mnemosyne.daemon", "run", "--quiet", *self.args],
            env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )
        out.close()
        wait_for(lambda: self.alive_and_answering(), timeout, what="daemon to answer")
        return self

    def alive_and_answering(self) -> bool:
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise AssertionError(f"daemon exited with {self.proc.returncode}: {self.output()[-2000:]}")
        try:
            return control.request(self.paths.control_socket, "ping", timeout=1.0).get("pid") == self.proc.pid
        except control.ControlUnavailable:
            return False

    def request(self, cmd: str, **kw: Any) -> dict[str, Any]:
        return control.request(self.paths.control_socket, cmd, timeout=30.0, **kw)

    def status(self) -> dict[str, Any]:
        return self.request("status")

    def terminate(self, timeout: float = 60.0) -> int:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def output(self) -> str:
        try:
            return (self.paths.log_dir / "test-daemon.out").read_text() + self.paths.log_file.read_text()
        except OSError:
            return ""

    def log_lines(self, needle: str) -> list[str]:
        try:
            return [ln for ln in self.paths.log_file.read_text().splitlines() if needle in ln]
        except FileNotFoundError:
            return []


def daemon_env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update({
        "MNEMOSYNE_HOME": str(home),
        "MNEMOSYNE_EMBEDDINGS_PROVIDER": "none",
        "MNEMOSYNE_RECONCILE_INTERVAL_S": "300",
        "MNEMOSYNE_HEALTH_INTERVAL_S": "2",
        "MNEMOSYNE_LOG_LEVEL": "DEBUG",
    })
    env.update(extra)
    return env


def indexed_commit(db: Any, workspace: str) -> str | None:
    """Meta.last_commit of the workspace graph (what a query would answer as HEAD)."""
    try:
        rows = db.graph(workspace).ro_query("MATCH (m:Meta {key: 'ingest'}) RETURN m.last_commit")
    except Exception:
        return None
    return rows[0][0] if rows else None


def commit_node(db: Any, workspace: str, sha: str) -> Any:
    rows = db.graph(workspace).ro_query("MATCH (c:Commit {hash: $h}) RETURN c.seq, c.message", {"h": sha})
    return rows[0] if rows else None


@pytest.fixture
def make_repo(tmp_path: Path) -> Callable[..., Repo]:
    def make(name: str = "repo", branch: str = "main") -> Repo:
        return Repo(tmp_path / name, branch)

    return make


@pytest.fixture
def daemon(settings: Any, registry: Any) -> Iterator[Callable[..., DaemonProc]]:
    """Factory for a daemon on the session's home (the session FalkorDB); stopped afterwards."""
    started: list[DaemonProc] = []

    def start(**extra: str) -> DaemonProc:
        # only this module's workspaces (d_*): leftovers of other test areas in the session
        # registry must not be ingested by our daemon
        d = DaemonProc(daemon_env(Path(settings.home), **extra), ["--workspace", "d_*"]).start()
        started.append(d)
        return d

    yield start
    for d in started:
        try:
            d.terminate(30)
        except Exception:
            d.kill()
    # the queue and spool are per home: leave the next test a clean slate
    paths = DaemonPaths(Path(settings.home).resolve())
    for f in (paths.queue_db, Path(str(paths.queue_db) + "-wal"), Path(str(paths.queue_db) + "-shm")):
        f.unlink(missing_ok=True)
    for f in paths.spool_dir.glob("*"):
        f.unlink(missing_ok=True)


def dump(obj: Any) -> str:
    return json.dumps(obj, indent=1, default=str)[:3000]
