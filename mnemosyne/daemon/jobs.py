"""The daemon's jobs (``Jobs``): the dispatcher thread claims jobs from the persisted ``WorkQueue``
and runs them on the pool (one job per workspace at a time): an ingest, then the embedding back-fill;
a lost database puts the job back with back-off, a busy ingest lease defers it (``Deferred``), and
shutdown returns the interrupted job to the queue.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mnemosyne.daemon.gitstate import GitProbeError, branch_head
from mnemosyne.daemon.queue import BACKFILL, INGEST, Job
from mnemosyne.daemon.state import DB_BACKOFF_MAX_S, is_db_error, short_error, to_dict
from mnemosyne.daemon.tracking import Tracking
from mnemosyne.errors import WorkspaceNotFound

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database

log = logging.getLogger("mnemosyne.daemon")

_BUSY_FIRST_S, _BUSY_MAX_S = 2.0, 30.0  # another process holds the workspace's ingest lease
_RESULT_KEYS = ("mode", "commits_ingested", "files_parsed", "seconds", "superseded", "rolled_back", "last_seq",
                "message")


class Deferred(Exception):
    """The job cannot run now: another process (a manual ``mnemosyne ingest``, a daemon on another
    machine sharing the FalkorDB) holds the workspace's ingest lease (``ingest.IngestBusy``).
    Not a failure: the job goes back to the queue with a back-off."""


class Jobs(Tracking):
    """The dispatcher and the jobs it runs (ingest, embedding back-fill)."""

    def _dispatch_loop(self) -> None:
        while not self.stop_event.is_set():
            job = None
            if self.db_backoff_remaining() <= 0:
                try:
                    job = self.queue.claim(self.max_parallel)
                except Exception as err:  # sqlite trouble: say so, try again shortly
                    log.error("event=queue_error error=%r", short_error(err))
            if job is not None:
                with self._lock:
                    self._running[job.id] = {"job": job.id, "workspace": job.workspace, "kind": job.kind,
                                             "started_at": time.time(), "progress": None}
                self.pool.submit(self._run_job, job)
                continue
            timeout = 1.0
            nxt = self.queue.next_wakeup()
            if nxt is not None:
                timeout = min(timeout, max(0.05, nxt - time.time()))
            if self.db_state == "down":
                timeout = max(0.05, min(timeout, self.db_backoff_remaining() or timeout))
            with self.queue.changed:
                self.queue.changed.wait(timeout)

    def _run_job(self, job: Job) -> None:
        t0 = time.time()
        db = None
        try:
            db = self.get_db()
            if job.kind == INGEST:
                result = self._ingest(db, job)
            elif job.kind == BACKFILL:
                result = self._backfill(db, job)
            else:
                raise ValueError(f"unknown job kind {job.kind!r}")
            if result is None:  # interrupted by shutdown: back in the queue for the next start
                self.queue.retry_later(job.id, 0.0, "interrupted by shutdown")
                log.info("event=job_interrupted job=%d workspace=%s", job.id, job.workspace)
                return
            result["duration_s"] = round(time.time() - t0, 3)
            self.queue.finish(job.id, result)
            self._remember(job, "done", result=result)
            with contextlib.suppress(Exception):
                self.report_lag(job.workspace)
            log.info("event=job_done job=%d kind=%s workspace=%s duration_s=%.2f %s", job.id, job.kind,
                     job.workspace, time.time() - t0, _kv(result))
        except Deferred as err:
            delay = min(_BUSY_MAX_S, _BUSY_FIRST_S * 2 ** min(max(job.attempts - 1, 0), 5))
            self.queue.retry_later(job.id, delay, short_error(err))
            log.info("event=job_deferred job=%d workspace=%s delay_s=%.0f reason=%r", job.id, job.workspace, delay,
                     str(err))
        except WorkspaceNotFound as err:
            self.queue.fail(job.id, short_error(err))
            self._remember(job, "failed", error=short_error(err))
            log.warning("event=job_failed job=%d workspace=%s error=%r", job.id, job.workspace, short_error(err))
        except Exception as err:
            if self.stop_event.is_set() and not is_db_error(err):
                self.queue.retry_later(job.id, 0.0, "interrupted by shutdown")
                return
            if is_db_error(err):
                self.db_failed(err, db)
                delay = min(DB_BACKOFF_MAX_S, 0.5 * 2 ** min(job.attempts, 10))
                self.queue.retry_later(job.id, delay, short_error(err))
                log.debug("event=job_retry job=%d workspace=%s delay_s=%.1f", job.id, job.workspace, delay)
                return
            self.queue.fail(job.id, short_error(err))
            self._remember(job, "failed", error=short_error(err))
            log.error("event=job_failed job=%d kind=%s workspace=%s error=%r", job.id, job.kind, job.workspace,
                      short_error(err), exc_info=True)
        finally:
            with self._lock:
                self._running.pop(job.id, None)
            self._wake()

    def _progress_cb(self, job: Job) -> Callable[[Any], None]:
        last_write = [0.0]

        def cb(p: Any) -> None:
            d = to_dict(p)
            with self._lock:
                if job.id in self._running:
                    self._running[job.id]["progress"] = d
            now = time.monotonic()
            if now - last_write[0] > 0.5:
                last_write[0] = now
                with contextlib.suppress(Exception):
                    self.queue.set_progress(job.id, d)

        return cb

    def _ingest(self, db: Database, job: Job) -> dict[str, Any] | None:
        from mnemosyne.ingest import IngestBusy, ingest_workspace

        info = db.registry.get(job.workspace)
        before = to_dict(info).get("last_ingested_commit")
        try:
            # one writer per workspace: ingest_workspace holds the database lease
            # (mnemosyne:ingest-lock:<name>), which also covers other machines sharing the FalkorDB
            res = ingest_workspace(db, info, progress=self._progress_cb(job), stop=self.stop_event)
        except IngestBusy as err:
            raise Deferred(str(err)) from err
        after_info = to_dict(db.registry.get(job.workspace))
        after = after_info.get("last_ingested_commit")
        ws = self._workspace(job.workspace)
        if ws is not None:
            ws.info.update(after_info)
        if getattr(res, "stopped", False) and self.stop_event.is_set():
            return None
        if self.stop_event.is_set():
            head = None
            with contextlib.suppress(GitProbeError):
                head = branch_head(after_info.get("path") or to_dict(info)["path"], after_info.get("branch"))
            if head is not None and head != after:
                return None
        d = to_dict(res)
        result = {k: d[k] for k in _RESULT_KEYS if k in d}
        result.update({"from": before, "to": after})
        if d.get("warnings"):
            result["warnings"] = len(d["warnings"])
        if after != before and self.settings.embed_on_ingest and self._embeddings_enabled():
            self.queue.enqueue(job.workspace, BACKFILL, "after ingest")
        return result

    def _backfill(self, db: Database, job: Job) -> dict[str, Any] | None:
        from mnemosyne.search.backfill import backfill
        from mnemosyne.search.embedders import get_embedder

        with self._embedder_lock:  # loaded once per daemon, whichever back-fill comes first
            if self._embedder is None and self._embedder_error is None:
                try:
                    self._embedder = get_embedder(self.settings)
                except Exception as err:
                    if is_db_error(err):
                        raise
                    self._embedder_error = short_error(err)
                if self._embedder is None:
                    self._embedder_error = self._embedder_error or "no embedder configured"
                    log.warning("event=embeddings_disabled error=%r", self._embedder_error)
            if self._embedder is None:
                return {"skipped": self._embedder_error}
        info = db.registry.get(job.workspace)
        # Documentation is written by ingestion itself (per commit), so the post-ingest step is the
        # embedding back-fill alone. Called directly rather than through search.refresh_workspace,
        # which reports every error in its result: a lost database must raise here, so the job is
        # retried with back-off instead of being recorded as done.
        res = backfill(db, info, self._embedder, progress=_log_embed_progress())
        return {k: v for k, v in to_dict(res).items() if isinstance(v, (int, float, str, bool))}

    def _remember(self, job: Job, state: str, **extra: Any) -> None:
        with self._lock:
            self._recent.appendleft({"job": job.id, "workspace": job.workspace, "kind": job.kind, "state": state,
                                     "finished_at": time.time(), **extra})


def _kv(d: dict[str, Any]) -> str:
    def fmt(k: str, v: Any) -> str:
        if k in ("from", "to") and isinstance(v, str):
            v = v[:12]
        return f"{k}={v!r}" if isinstance(v, str) and " " in v else f"{k}={v}"

    return " ".join(fmt(k, v) for k, v in d.items() if v is not None and k not in ("duration_s", "message"))


def _log_embed_progress() -> Any:
    """A back-fill progress callback that logs count, rate and ETA at most every 10 s."""
    last = [0.0]

    def cb(p: Any) -> None:
        now = time.monotonic()
        if p.done == p.total or now - last[0] >= 10.0:
            last[0] = now
            log.info("event=embed_progress workspace=%s done=%d total=%d rate=%.1f eta_s=%s", p.workspace, p.done,
                     p.total, p.rate, None if p.eta_s is None else round(p.eta_s))
    return cb
