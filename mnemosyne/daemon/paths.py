"""Where the daemon keeps its files under the data directory (``settings.home``).

- ``daemon.pid``            pid of the running daemon (with ``daemon.lock`` held by it: one per home)
- ``daemon.sock``           control socket (JSON lines); a short ``/tmp`` path when the home is deep
- ``queue/jobs.sqlite3``    the persisted work queue
- ``queue/spool/``          notes dropped by git hooks (one small file per event), drained by the daemon
- ``logs/daemon.log``       structured log (rotating); ``logs/daemon.out`` stdout/stderr of ``daemon start``
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from mnemosyne.config import Settings, usable_home

_SUN_PATH_MAX = 100  # AF_UNIX sun_path is 104 (macOS) / 108 (Linux) bytes; keep a margin


@dataclass(frozen=True)
class DaemonPaths:
    home: Path

    @classmethod
    def from_settings(cls, settings: Settings) -> DaemonPaths:
        return cls(Path(settings.home).expanduser().resolve())

    @property
    def pid_file(self) -> Path:
        return self.home / "daemon.pid"

    @property
    def lock_file(self) -> Path:
        return self.home / "daemon.lock"

    @property
    def control_socket(self) -> Path:
        p = self.home / "daemon.sock"
        if len(os.fsencode(str(p))) <= _SUN_PATH_MAX:
            return p
        digest = hashlib.sha1(str(self.home).encode()).hexdigest()[:12]
        return Path("/tmp") / f"mnemosyne-daemon-{digest}.sock"

    @property
    def queue_dir(self) -> Path:
        return self.home / "queue"

    @property
    def queue_db(self) -> Path:
        return self.queue_dir / "jobs.sqlite3"

    @property
    def spool_dir(self) -> Path:
        return self.queue_dir / "spool"

    @property
    def log_dir(self) -> Path:
        return self.home / "logs"

    @property
    def log_file(self) -> Path:
        return self.log_dir / "daemon.log"

    @property
    def out_file(self) -> Path:
        return self.log_dir / "daemon.out"

    def ensure(self) -> None:
        usable_home(self.home)  # ConfigError (one line) when it cannot be written
        for d in (self.queue_dir, self.spool_dir, self.log_dir):
            d.mkdir(parents=True, exist_ok=True)
