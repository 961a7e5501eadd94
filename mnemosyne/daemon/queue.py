"""The persisted work queue (stdlib sqlite3 in ``<home>/queue/jobs.sqlite3``).

A job is ``(workspace, kind)`` with a state: ``queued`` -> ``running`` -> ``done`` | ``failed``.

- Dedup: at most one *queued* job per ``(workspace, kind)`` (a partial unique index); enqueueing
  again only merges the reason. A running job does not block a new queued one: a commit that lands
  during an ingest is picked up by the next run.
- Serialised per workspace: ``claim()`` never hands out a job for a workspace that has a running
  job (of any kind); different workspaces run in parallel up to the caller's limit.
- Survives restarts and crashes: every transition is committed at once (WAL journal); at start-up
  ``recover()`` turns jobs left ``running`` by a dead daemon back into ``queued``.
- Retry: ``retry_later()`` puts a job back with a ``not_before`` time (exponential back-off is the
  caller's policy) without counting it as failed.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, cast

INGEST = "ingest"
BACKFILL = "backfill"

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace   TEXT NOT NULL,
    kind        TEXT NOT NULL,
    state       TEXT NOT NULL,
    reason      TEXT NOT NULL DEFAULT '',
    created_at  REAL NOT NULL,
    started_at  REAL,
    finished_at REAL,
    not_before  REAL NOT NULL DEFAULT 0,
    attempts    INTEGER NOT NULL DEFAULT 0,
    progress    TEXT,
    result      TEXT,
    error       TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS one_queued_per_ws ON jobs(workspace, kind) WHERE state = 'queued';
CREATE INDEX IF NOT EXISTS jobs_state ON jobs(state, not_before, id);
"""

_KEEP_FINISHED = 50  # finished jobs kept per workspace for `daemon status`


@dataclass
class Job:
    id: int
    workspace: str
    kind: str
    state: str
    reason: str
    created_at: float
    started_at: float | None = None
    finished_at: float | None = None
    not_before: float = 0.0
    attempts: int = 0
    progress: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("extra")
        return d


def _row_to_job(row: sqlite3.Row) -> Job:
    d = dict(row)
    for key in ("progress", "result"):
        d[key] = json.loads(d[key]) if d[key] else None
    return Job(**d)


class WorkQueue:
    """Thread-safe; one connection guarded by a lock (the daemon's traffic is tiny)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._conn = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None, timeout=30)
        self._conn.row_factory = sqlite3.Row
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.executescript(_SCHEMA)
        self.changed = threading.Condition(threading.Lock())

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def _notify(self) -> None:
        with self.changed:
            self.changed.notify_all()

    # -- transitions -------------------------------------------------------------------------

    def enqueue(self, workspace: str, kind: str = INGEST, reason: str = "") -> tuple[Job, bool]:
        """Queue a job unless one is already queued for ``(workspace, kind)``; (job, created)."""
        now = time.time()
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                row = self._conn.execute(
                    "SELECT * FROM jobs WHERE workspace=? AND kind=? AND state=?", (workspace, kind, QUEUED)
                ).fetchone()
                if row is not None:
                    job = _row_to_job(row)
                    if reason and reason not in job.reason.split(", "):
                        merged = f"{job.reason}, {reason}" if job.reason else reason
                        self._conn.execute("UPDATE jobs SET reason=? WHERE id=?", (merged[-500:], job.id))
                    self._conn.execute("COMMIT")
                    return job, False
                cur = self._conn.execute(
                    "INSERT INTO jobs(workspace, kind, state, reason, created_at) VALUES (?,?,?,?,?)",
                    (workspace, kind, QUEUED, reason, now),
                )
                job_id = cur.lastrowid
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
        self._notify()
        return self.get(int(cast(int, job_id))), True  # type: ignore[return-value]

    def claim(self, max_running: int, now: float | None = None) -> Job | None:
        """Mark the oldest runnable queued job running and return it (None: nothing to do now)."""
        now = time.time() if now is None else now
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                running = self._conn.execute("SELECT COUNT(*) FROM jobs WHERE state=?", (RUNNING,)).fetchone()[0]
                if running >= max_running:
                    self._conn.execute("COMMIT")
                    return None
                row = self._conn.execute(
                    """SELECT * FROM jobs j WHERE state=? AND not_before<=?
                       AND NOT EXISTS (SELECT 1 FROM jobs r WHERE r.state=? AND r.workspace=j.workspace)
                       ORDER BY CASE kind WHEN 'ingest' THEN 0 ELSE 1 END, id LIMIT 1""",
                    (QUEUED, now, RUNNING),
                ).fetchone()
                if row is None:
                    self._conn.execute("COMMIT")
                    return None
                self._conn.execute(
                    "UPDATE jobs SET state=?, started_at=?, attempts=attempts+1, progress=NULL, error=NULL WHERE id=?",
                    (RUNNING, now, row["id"]),
                )
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
        return self.get(int(row["id"]))

    def set_progress(self, job_id: int, progress: dict[str, Any]) -> None:
        with self._lock:
            self._conn.execute("UPDATE jobs SET progress=? WHERE id=?", (json.dumps(progress, default=str), job_id))

    def finish(self, job_id: int, result: dict[str, Any] | None = None) -> None:
        self._end(job_id, DONE, result=result)

    def fail(self, job_id: int, error: str) -> None:
        self._end(job_id, FAILED, error=error)

    def _end(self, job_id: int, state: str, result: dict[str, Any] | None = None, error: str | None = None) -> None:
        with self._lock:
            self._conn.execute(
                "UPDATE jobs SET state=?, finished_at=?, result=?, error=? WHERE id=?",
                (state, time.time(), json.dumps(result, default=str) if result is not None else None, error, job_id),
            )
            self._prune()
        self._notify()

    def retry_later(self, job_id: int, delay_s: float, error: str | None = None) -> None:
        """Put a running job back in the queue, runnable after ``delay_s`` (merges with a queued twin)."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                row = self._conn.execute("SELECT * FROM jobs WHERE id=?", (job_id,)).fetchone()
                if row is None:
                    self._conn.execute("COMMIT")
                    return
                twin = self._conn.execute(
                    "SELECT id FROM jobs WHERE workspace=? AND kind=? AND state=?", (row["workspace"], row["kind"], QUEUED)
                ).fetchone()
                if twin is not None:
                    # A newer queued job covers this one; keep its place but honour the back-off.
                    self._conn.execute(
                        "UPDATE jobs SET not_before=MAX(not_before, ?), attempts=MAX(attempts, ?), error=? WHERE id=?",
                        (time.time() + delay_s, row["attempts"], error, twin["id"]),
                    )
                    self._conn.execute("DELETE FROM jobs WHERE id=?", (job_id,))
                else:
                    self._conn.execute(
                        "UPDATE jobs SET state=?, not_before=?, started_at=NULL, error=? WHERE id=?",
                        (QUEUED, time.time() + delay_s, error, job_id),
                    )
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
        self._notify()

    def recover(self) -> int:
        """At start-up: jobs a dead daemon left ``running`` go back to ``queued``. Returns how many."""
        with self._lock:
            rows = self._conn.execute("SELECT id FROM jobs WHERE state=?", (RUNNING,)).fetchall()
        for row in rows:
            self.retry_later(int(row["id"]), 0.0, error="requeued after restart")
            with self._lock:
                self._conn.execute("UPDATE jobs SET not_before=0 WHERE id=? AND state=?", (row["id"], QUEUED))
        return len(rows)

    def _prune(self) -> None:
        self._conn.execute(
            """DELETE FROM jobs WHERE state IN ('done','failed') AND id NOT IN (
                   SELECT id FROM jobs f WHERE f.state IN ('done','failed') AND (
                       SELECT COUNT(*) FROM jobs g WHERE g.workspace=f.workspace
                       AND g.state IN ('done','failed') AND g.id>f.id) < ?)""",
            (_KEEP_FINISHED,),
        )

    # -- reads -------------------------------------------------------------------------------

    def get(self, job_id: int) -> Job | None:
        with self._lock:
            row = self._conn.execute("SELECT * FROM jobs WHERE id=?", (job_id,)).fetchone()
        return _row_to_job(row) if row else None

    def jobs(self, state: str | None = None, workspace: str | None = None, limit: int = 100) -> list[Job]:
        sql, args = "SELECT * FROM jobs WHERE 1=1", cast("list[str | int]", [])
        if state:
            sql += " AND state=?"
            args.append(state)
        if workspace:
            sql += " AND workspace=?"
            args.append(workspace)
        order = "ASC" if state in (QUEUED, RUNNING) else "DESC"
        sql += f" ORDER BY id {order} LIMIT ?"
        args.append(limit)
        with self._lock:
            return [_row_to_job(r) for r in self._conn.execute(sql, args).fetchall()]

    def pending(self, workspace: str, kind: str = INGEST) -> bool:
        """True when a queued or running job exists for the workspace."""
        with self._lock:
            row = self._conn.execute(
                "SELECT 1 FROM jobs WHERE workspace=? AND kind=? AND state IN (?,?) LIMIT 1",
                (workspace, kind, QUEUED, RUNNING),
            ).fetchone()
        return row is not None

    def counts(self) -> dict[str, int]:
        with self._lock:
            rows = self._conn.execute("SELECT state, COUNT(*) AS n FROM jobs GROUP BY state").fetchall()
        out = {QUEUED: 0, RUNNING: 0, DONE: 0, FAILED: 0}
        out.update({r["state"]: r["n"] for r in rows})
        return out

    def next_wakeup(self) -> float | None:
        """Earliest ``not_before`` among queued jobs (for the dispatcher's sleep)."""
        with self._lock:
            row = self._conn.execute("SELECT MIN(not_before) FROM jobs WHERE state=?", (QUEUED,)).fetchone()
        return row[0]
