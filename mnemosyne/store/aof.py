"""Keeping a FalkorDB server's append-only file short enough to load quickly.

Redis rebuilds its data on start-up from the AOF: a base snapshot (RDB) and an incremental part
replayed command by command. FalkorDB replays each logged write query in full, and an index
whose ``CREATE INDEX`` sits in that incremental part is not usable during the replay, so every
later ``MATCH ... {key: ...}`` becomes a label scan: 1 s of writes after an index creation took
80 s to load, the AOF of a 30 s ingest of mypy's history more than 4 minutes. A rewrite
(``BGREWRITEAOF``, a forked child writing a snapshot) moves indexes and data into the base.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

import redis

log = logging.getLogger(__name__)


def incremental_bytes(data_dir: Path) -> int:
    """Bytes of the AOF's incremental parts in a data directory (what start-up replays), from
    its manifest. (``INFO persistence`` cannot tell: ``aof_base_size`` is the whole file's size
    when the last rewrite ended, writes made during the rewrite included.)"""
    d = data_dir / "appendonlydir"
    total = 0
    for manifest in d.glob("*.manifest"):
        for line in manifest.read_text(errors="replace").splitlines():
            parts = line.split()
            if "file" in parts and "type" in parts and parts[parts.index("type") + 1:][:1] == ["i"]:
                f = d / parts[parts.index("file") + 1]
                total += f.stat().st_size if f.exists() else 0
    return total


def rewriting(client: redis.Redis) -> bool:
    p = client.info("persistence")
    return bool(int(p.get("aof_rewrite_in_progress", 0)) or int(p.get("aof_rewrite_scheduled", 0)))


def wait_rewrite(client: redis.Redis, deadline: float) -> bool:
    """Wait for a running rewrite to end by ``deadline``; True when none runs."""
    while rewriting(client):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)
    return True


def rewrite_aof(client: redis.Redis, wait_s: float = 0.0) -> bool:
    """Start a ``BGREWRITEAOF`` when the server keeps an AOF; wait up to ``wait_s`` for it (and
    for one already running: redis refuses a second) to finish. False when nothing was started
    (no AOF, a rewrite still running, or the server refused, e.g. an ACL on an external server)."""
    deadline = time.monotonic() + wait_s
    try:
        if int(client.info("persistence").get("aof_enabled", 0)) != 1 or not wait_rewrite(client, deadline):
            return False
        client.execute_command("BGREWRITEAOF")
        wait_rewrite(client, deadline)
        return True
    except (redis.RedisError, OSError, ValueError, TypeError) as err:  # a cluster answers per node
        log.info("AOF rewrite not started: %s", err)
        return False
