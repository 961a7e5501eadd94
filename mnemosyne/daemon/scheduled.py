"""The daemon's scheduled passes (``Scheduled``) and the APScheduler that runs them: reconcile (also
at start-up), the database health check, the lag report, the 1 s spool poll, the poll of unwatched
workspaces, enrichment on a timer, and the embedded FalkorDB's deadlock watch.
"""

from __future__ import annotations

import fnmatch
import logging
from typing import Any

from mnemosyne.daemon.state import is_db_error, short_error, to_dict
from mnemosyne.daemon.tracking import Tracking

log = logging.getLogger("mnemosyne.daemon")


class Scheduled(Tracking):
    """The passes run on a timer, and the scheduler that runs them."""

    def reconcile(self, reason: str = "reconcile") -> dict[str, Any]:
        """Each workspace's branch head vs its last ingested commit; queue the ones behind."""
        if not self._reconcile_lock.acquire(blocking=False):
            return {"skipped": "already running"}
        try:
            queued: list[str] = []
            try:
                wss = self.refresh_workspaces(queued)
            except Exception as err:
                if not is_db_error(err):
                    log.error("event=reconcile_failed error=%r", short_error(err))
                with self._lock:
                    wss = list(self._ws.values())
            for ws in wss:
                if ws.name not in queued and self.check_workspace(ws.name, reason) is not None:
                    queued.append(ws.name)
            self.report_lag()
            return {"workspaces": len(wss), "queued": queued}
        finally:
            self._reconcile_lock.release()

    def health_check(self) -> None:
        try:
            self.refresh_workspaces()  # a registry read doubles as the DB probe
        except Exception as err:
            if not is_db_error(err):
                log.error("event=health_failed error=%r", short_error(err))

    def enrich_pass(self) -> dict[str, Any]:
        """``mnemosyne.enrich.enrich`` on every served, ingested workspace (the ``enrich_interval_s``
        timer): on a scheduler thread, so ingestion jobs never wait for it; each run is bounded by
        ``enrich_max_tokens_per_run``. Returns workspace -> report (or error)."""
        from mnemosyne.enrich import enrich

        out: dict[str, Any] = {}
        try:
            db = self.get_db()
            names = [str(to_dict(i)["name"]) for i in db.registry.list() if to_dict(i).get("last_ingested_commit")]
        except Exception as err:  # noqa: BLE001 - database down: the next pass tries again
            log.debug("event=enrich_skipped error=%r", short_error(err))
            return out
        for name in names:
            if self.stop_event.is_set() or (self.only and not any(fnmatch.fnmatchcase(name, p) for p in self.only)):
                continue
            try:
                rep = enrich(db, name, self.settings)
                out[name] = rep.as_dict()
                log.info("event=enrich workspace=%s sent=%d written=%d failed=%d tokens=%d capped=%s", name,
                         rep.sent, rep.written, len(rep.failed), rep.tokens, rep.stopped_by_cap)  # fmt: skip
            except Exception as err:  # noqa: BLE001 - one workspace's trouble must not stop the pass
                out[name] = {"error": short_error(err)}
                log.warning("event=enrich_failed workspace=%s error=%r", name, short_error(err))
        return out

    def _start_scheduler(self) -> None:
        from apscheduler.events import EVENT_JOB_ERROR
        from apscheduler.executors.pool import ThreadPoolExecutor as APThreadPool
        from apscheduler.schedulers.background import BackgroundScheduler

        sched = BackgroundScheduler(
            executors={"default": APThreadPool(max_workers=4)},
            job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": 60},
            timezone="UTC",
        )

        def on_error(event: Any) -> None:
            log.error("event=scheduled_job_error job=%s error=%r", event.job_id, short_error(event.exception))

        sched.add_listener(on_error, EVENT_JOB_ERROR)
        now = _utcnow()
        s = self.settings
        sched.add_job(self.reconcile, "interval", seconds=max(5, s.reconcile_interval_s), id="reconcile",
                      next_run_time=now, replace_existing=True, kwargs={"reason": "reconcile"})
        sched.add_job(self.health_check, "interval", seconds=max(1, s.health_interval_s), id="health",
                      replace_existing=True)
        sched.add_job(self.report_lag, "interval", seconds=max(5, s.health_interval_s), id="lag",
                      replace_existing=True)
        sched.add_job(self.drain_spool, "interval", seconds=1, id="spool", next_run_time=now,
                      replace_existing=True)
        sched.add_job(self.poll_unwatched, "interval", seconds=5, id="poll-unwatched", replace_existing=True)
        if s.enrich_interval_s > 0 and s.enrich_model:  # LLM summaries on a timer, beside the ingestion jobs
            sched.add_job(self.enrich_pass, "interval", seconds=max(60, s.enrich_interval_s), id="enrich",
                          replace_existing=True)
        if not s.falkordb_url and self._connect_fn is None:  # our own embedded server
            sched.add_job(self.watch_embedded_db, "interval", seconds=max(1.0, min(5.0, s.falkordb_hang_s / 3)),
                          id="db-watch", replace_existing=True)
        sched.start()
        self._scheduler = sched


def _utcnow() -> Any:
    from datetime import UTC, datetime

    return datetime.now(UTC)


