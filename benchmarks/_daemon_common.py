"""Shared helpers of the daemon benchmarks: a throw-away data dir with its own embedded FalkorDB,
a real repository, and the daemon as a real subprocess."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mnemosyne.config import Settings  # noqa: E402
from mnemosyne.daemon import control  # noqa: E402
from mnemosyne.daemon.paths import DaemonPaths  # noqa: E402
from mnemosyne.store.embedded import EmbeddedFalkorDB  # noqa: E402

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "bench@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_ENV)
    env["HOME"] = str(home)
    return env


class Sandbox:
    """``<tmp>/home`` (MNEMOSYNE_HOME, short path for the socket) and ``<tmp>/repo``."""

    def __init__(self, embeddings: str = "none") -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="mnb-", dir="/tmp"))
        self.home = self.tmp / "h"
        self.repo = self.tmp / "repo"
        self.settings = Settings(home=self.home, falkordb_socket=self.home / "falkordb.sock",
                                 embeddings_provider=embeddings)
        self.paths = DaemonPaths(self.home.resolve())
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "MNEMOSYNE_"))}
        self.env.update({"MNEMOSYNE_HOME": str(self.home), "MNEMOSYNE_FALKORDB_SOCKET": str(self.home / "falkordb.sock"),
                         "MNEMOSYNE_EMBEDDINGS_PROVIDER": embeddings, "MNEMOSYNE_LOG_LEVEL": "INFO"})
        self.proc: subprocess.Popen[bytes] | None = None
        self.n = 0

    # -- repository -------------------------------------------------------------------------

    def git(self, *args: str, cwd: Path | None = None) -> str:
        return subprocess.run(["git", "-C", str(cwd or self.repo), *args], check=True, capture_output=True,
                              text=True, env=git_env(self.tmp)).stdout

    def init_repo(self) -> None:
        self.repo.mkdir(parents=True)
        self.git("init", "-q", "-b", "main")
        self.commit()

    def commit(self) -> str:
        self.n += 1
        p = self.repo / "pkg" / f"mod{self.n % 20}.py"
        p.parent.mkdir(exist_ok=True)
        (p.parent / "__init__.py").touch()
        p.write_text(f"def helper(x):\n    return x\n\n\ndef f{self.n}(x):\n    return helper(x) + {self.n}\n")
        self.git("add", "-A")
        self.git("commit", "-q", "-m", f"change {self.n}")
        return self.head()

    def bulk_commits(self, count: int) -> str:
        """``count`` commits through git fast-import (the daemon sees one ref move)."""
        parent = self.head()
        ts = int(time.time())
        parts = []
        for i in range(count):
            self.n += 1
            content = (f"def helper(x):\n    return x\n\n\ndef g{self.n}(x):\n    return helper(x) + {self.n}\n"
                       f"\n\nclass C{self.n % 7}:\n    def m(self):\n        return g{self.n}(1)\n")
            msg = f"bulk {self.n}"
            parts.append(f"commit refs/heads/main\ncommitter Bench <bench@example.com> {ts} +0000\n"
                         f"data {len(msg)}\n{msg}\n" + (f"from {parent}\n" if i == 0 else "")
                         + f"M 100644 inline pkg/bulk{self.n % 50}.py\ndata {len(content.encode())}\n{content}\n")
        subprocess.run(["git", "-C", str(self.repo), "fast-import", "--quiet"], input="".join(parts).encode(),
                       check=True, env=git_env(self.tmp))
        self.git("reset", "-q", "--hard", "main")
        return self.head()

    def head(self) -> str:
        return self.git("rev-parse", "HEAD").strip()

    # -- database and daemon ---------------------------------------------------------------

    def db(self) -> Any:
        from mnemosyne.store.connection import connect

        return connect(self.settings, start=True)

    def start_daemon(self) -> int:
        self.paths.ensure()
        out = open(self.paths.log_dir / "bench.out", "ab")  # noqa: SIM115
        self.proc = subprocess.Popen([sys.executable, "-m", "mnemosyne.daemon", "run", "--quiet"], env=self.env,
                                     stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daemon exited: see {self.paths.log_dir}")
            try:
                if control.request(self.paths.control_socket, "ping", timeout=1).get("pid") == self.proc.pid:
                    return self.proc.pid
            except control.ControlUnavailable:
                pass
            time.sleep(0.05)
        raise RuntimeError("daemon did not answer")

    def stop_daemon(self) -> int | None:
        if self.proc is None or self.proc.poll() is not None:
            return None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(120)

    def close(self) -> None:
        try:
            self.stop_daemon()
        finally:
            EmbeddedFalkorDB(self.settings).stop()
            shutil.rmtree(self.tmp, ignore_errors=True)


def indexed_commit(db: Any, ws: str) -> str | None:
    try:
        rows = db.graph(ws).ro_query("MATCH (m:Meta {key: 'ingest'}) RETURN m.last_commit")
    except Exception:
        return None
    return rows[0][0] if rows else None


def wait_indexed(db: Any, ws: str, sha: str, timeout: float = 120.0, interval: float = 0.005) -> float:
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        if indexed_commit(db, ws) == sha:
            return time.perf_counter() - t0
        time.sleep(interval)
    raise TimeoutError(f"{sha[:12]} not indexed after {timeout:.0f} s")


def rss_kb(pid: int) -> int:
    """Resident set size of a process (VmRSS, kB; 0 if unknown)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    try:  # macOS: ps
        return int(subprocess.run(["ps", "-o", "rss=", "-p", str(pid)], capture_output=True, text=True).stdout.strip())
    except (ValueError, OSError):
        return 0


def percentile(values: list[float], p: float) -> float:
    s = sorted(values)
    if not s:
        return float("nan")
    k = (len(s) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)
