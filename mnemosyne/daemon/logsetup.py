"""Structured (key=value) logging for the daemon: a rotating file in ``<home>/logs/daemon.log``."""

from __future__ import annotations

import logging
import logging.handlers
import sys
import time
from pathlib import Path


class KeyValueFormatter(logging.Formatter):
    """``ts=2026-01-01T12:00:00Z level=INFO logger=mnemosyne.daemon event=... key=value``.

    Messages written as ``event=x key=value`` stay machine-readable; free text is quoted as
    ``msg="..."``. A traceback (only for unexpected errors) follows on indented lines."""

    converter = staticmethod(time.gmtime)

    def format(self, record: logging.LogRecord) -> str:
        msg = record.getMessage()
        if not msg.startswith("event="):
            msg = "msg=" + _quote(msg)
        ts = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z"
        line = f"ts={ts} level={record.levelname} logger={record.name} {msg}"
        if record.exc_info:
            tb = self.formatException(record.exc_info)
            line += "\n" + "\n".join("    " + t for t in tb.splitlines())
        return line


def _quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def setup(log_file: Path, level: str = "INFO", stderr: bool = True) -> None:
    """Configure the root logger (called by ``daemon run`` only: library code never does)."""
    log_file.parent.mkdir(parents=True, exist_ok=True)
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
    fmt = KeyValueFormatter()
    fh = logging.handlers.RotatingFileHandler(log_file, maxBytes=5_000_000, backupCount=3, encoding="utf-8")
    fh.setFormatter(fmt)
    root.addHandler(fh)
    if stderr:
        sh = logging.StreamHandler(sys.stderr)
        sh.setFormatter(fmt)
        root.addHandler(sh)
    root.setLevel(getattr(logging, str(level).upper(), logging.INFO))
    # Third-party chatter stays out of the daemon log unless it is a problem.
    for noisy in ("watchdog", "urllib3", "httpx", "uvicorn.access", "git"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    # "skipped: maximum number of running instances reached" repeats every tick while a pass waits
    # on an unreachable database; the daemon logs the outage once itself.
    logging.getLogger("apscheduler").setLevel(logging.ERROR)
