"""The daemon: one process serving every registered workspace.

Threads and loops:

- the asyncio main loop: control socket, signals, and (optionally) the MCP streamable-HTTP app;
- the watchdog Observer (``RepoWatcher``): ref changes and hook notes -> ``check_workspace``;
- an APScheduler ``BackgroundScheduler``: reconcile (also at start-up), DB health check, lag
  report, the 1 s spool poll (fallback when inotify is unavailable);
- the dispatcher thread: claims jobs from the persisted ``WorkQueue`` and runs them on a pool of
  ``settings.daemon_max_parallel`` threads (one job per workspace at a time).

Faults: a lost database keeps the queue, is logged once, and is retried with exponential
back-off (the embedded server is restarted if it is ours); SIGTERM sets the stop event (an ingest
abandons between commits), the interrupted job goes back to the queue, and the process exits 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import fcntl
import fnmatch
import logging
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from mnemosyne.config import Settings
from mnemosyne.daemon import control, spool
from mnemosyne.daemon.gitstate import GitProbeError, branch_head, commits_behind, git_paths, ref_state, tracked_ref
from mnemosyne.daemon.paths import DaemonPaths
from mnemosyne.daemon.queue import BACKFILL, INGEST, Job, WorkQueue
from mnemosyne.daemon.watcher import RepoWatcher
from mnemosyne.errors import DatabaseUnavailable, MnemosyneError, WorkspaceNotFound
from mnemosyne.procs import read_pid_file

log = logging.getLogger("mnemosyne.daemon")

_SKIP_STATES = {"paused", "disabled", "removed", "deleted"}
_BACKOFF_MAX_S = 60.0
# a repository that cannot be read (deleted, moved, unmounted): looked at again after this long,
# doubling up to the maximum; said once per outage, not at every 5 s poll
_REPO_RETRY_FIRST_S, _REPO_RETRY_MAX_S = 5.0, 300.0
_BUSY_FIRST_S, _BUSY_MAX_S = 2.0, 30.0  # another process holds the workspace's ingest lease
_RESULT_KEYS = ("mode", "commits_ingested", "files_parsed", "seconds", "superseded", "rolled_back", "last_seq",
                "message")


class AlreadyRunning(MnemosyneError):
    """Another daemon holds this data directory."""


class Deferred(Exception):
    """The job cannot run now: another process (a manual ``mnemosyne ingest``, a daemon on another
    machine sharing the FalkorDB) holds the workspace's ingest lease (``ingest.IngestBusy``).
    Not a failure: the job goes back to the queue with a back-off."""


# -- helpers ------------------------------------------------------------------------------------


def to_dict(obj: Any) -> dict[str, Any]:
    """IngestProgress / IngestResult / WorkspaceInfo -> plain dict, whatever they are made of."""
    if obj is None:
        return {}
    if isinstance(obj, dict):
        return dict(obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return dataclasses.asdict(obj)
    if hasattr(obj, "model_dump"):
        return obj.model_dump()
    if hasattr(obj, "_asdict"):
        return obj._asdict()
    if hasattr(obj, "__dict__"):
        return {k: v for k, v in vars(obj).items() if not k.startswith("_")}
    return {"value": str(obj)}


def is_db_error(err: BaseException) -> bool:
    """True for 'the database is not there' (retry later), as opposed to a bug or bad data."""
    import redis

    seen: set[int] = set()
    e: BaseException | None = err
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, (DatabaseUnavailable, redis.exceptions.ConnectionError, redis.exceptions.TimeoutError,
                          ConnectionError, TimeoutError)):
            return True
        text = str(e)
        if any(s in text for s in ("Connection refused", "Connection reset", "Broken pipe", "No such file or directory: '/",
                                   "Error 2 connecting", "Error 111 connecting", "MISCONF", "LOADING")):
            return True
        e = e.__cause__ or e.__context__
    return False


def _short(err: BaseException) -> str:
    return f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"[:300]


class _Ws:
    """What the daemon remembers about a workspace between registry reads."""

    def __init__(self, info: dict[str, Any]) -> None:
        self.info = info
        self.seen_head: str | None = None
        self.refs: dict[str, str] | None = None
        self.common_dir: str | None = None
        self.lag: dict[str, Any] = {}
        self.repo_error: str | None = None  # the last git probe failed (repository gone?)
        self.repo_failures = 0
        self.repo_retry_at = 0.0  # monotonic; polls before this skip the workspace

    @property
    def name(self) -> str:
        return str(self.info["name"])

    @property
    def path(self) -> str:
        return str(self.info["path"])

    @property
    def branch(self) -> str | None:
        return self.info.get("branch")


# -- the daemon ---------------------------------------------------------------------------------


class Daemon:
    def __init__(
        self,
        settings: Settings,
        *,
        mcp_port: int | None = None,
        mcp_host: str = "127.0.0.1",
        connect: Callable[..., Any] | None = None,
        only: list[str] | None = None,
    ) -> None:
        if mcp_port is not None:  # off loopback without a token: refuse before anything starts
            from mnemosyne.daemon.mcp_http import check_bind

            check_bind(settings, mcp_host)
        self.settings = settings
        self.only = [p for p in (only or []) if p]  # fnmatch patterns of workspace names to serve
        self.paths = DaemonPaths.from_settings(settings)
        self.paths.ensure()
        self.mcp_port, self.mcp_host = mcp_port, mcp_host
        self._connect_fn = connect
        self.stop_event = threading.Event()
        self.queue = WorkQueue(self.paths.queue_db)
        self.max_parallel = max(1, int(settings.daemon_max_parallel))
        self.pool = ThreadPoolExecutor(max_workers=self.max_parallel, thread_name_prefix="mnemo-job")
        self.watcher = RepoWatcher(self._on_refs_changed, self._on_spool)
        self.started_at = time.time()
        self.mcp_url: str | None = None
        self.mcp_error: str | None = None

        self._lock = threading.RLock()
        self._ws: dict[str, _Ws] = {}
        self._registry_loaded = False
        self._running: dict[int, dict[str, Any]] = {}
        self._recent: deque[dict[str, Any]] = deque(maxlen=20)

        self._db: Any = None
        self._db_lock = threading.Lock()
        self.db_state = "unknown"
        self.db_error: str | None = None
        self._db_failures = 0
        self._db_retry_at = 0.0
        self._db_down_since: float | None = None

        self._embedder: Any = None
        self._embedder_error: str | None = None
        self._embedder_lock = threading.Lock()
        self._vector_check_lock = threading.Lock()
        self._lock_fh: Any = None
        self._scheduler: Any = None
        self._hang_watch: Any = None  # store.embedded.HangWatch, made on first use
        self._loop: asyncio.AbstractEventLoop | None = None
        self._async_stop: asyncio.Event | None = None
        self._spool_lock = threading.Lock()
        self._uvicorn: Any = None
        self._reconcile_lock = threading.Lock()

    # == database ==============================================================================

    def _open_db(self) -> Any:
        if self._connect_fn is not None:
            return self._connect_fn(self.settings, start=True)
        from mnemosyne.store.connection import connect

        return connect(self.settings, start=True)

    def get_db(self, force: bool = False) -> Any:
        """The shared Database; raises DatabaseUnavailable (quickly) while backing off."""
        with self._db_lock:
            if self._db is not None:
                return self._db
            if not force and time.monotonic() < self._db_retry_at:
                raise DatabaseUnavailable(self.db_error or "database unavailable (backing off)")
            try:
                db = self._open_db()
            except Exception as err:
                self._mark_down_locked(err)
                raise DatabaseUnavailable(self.db_error or str(err)) from err
            self._db = db
            self._mark_up_locked()
            return db

    def db_failed(self, err: BaseException, db: Any = None) -> None:
        """``db``: the connection that failed; ignored if another thread already replaced it."""
        with self._db_lock:
            if db is not None and self._db is not None and self._db is not db:
                return
            self._mark_down_locked(err)

    def _mark_down_locked(self, err: BaseException) -> None:
        old, self._db = self._db, None
        if old is not None:
            with contextlib.suppress(Exception):
                old.close()
        self._db_failures += 1
        delay = min(_BACKOFF_MAX_S, 0.5 * 2 ** (self._db_failures - 1))
        self._db_retry_at = time.monotonic() + delay
        self.db_error = _short(err)
        if self.db_state != "down":
            self._db_down_since = time.time()
            log.warning(
                "event=db_unavailable error=%r action=retrying_with_backoff queued_work=kept", self.db_error
            )
        self.db_state = "down"
        self._wake()

    def _mark_up_locked(self) -> None:
        if self.db_state == "down":
            took = time.time() - (self._db_down_since or time.time())
            log.info("event=db_available down_for_s=%.1f attempts=%d", took, self._db_failures)
        elif self.db_state == "unknown":
            log.info("event=db_connected")
        self.db_state, self.db_error, self._db_failures, self._db_down_since = "up", None, 0, None
        self._db_retry_at = 0.0
        # (re)connected: the server may just have replayed its AOF, which can leave HNSW indexes
        # answering short or empty lists (measured on FalkorDB 4.x). Probe them off this thread.
        threading.Thread(target=self.check_vector_indexes, name="mnemo-vector-health", daemon=True).start()
        self._wake()

    def check_vector_indexes(self) -> dict[str, bool]:
        """``search.vectors.check_vector_health`` on every served workspace graph (a few k-NN
        probes; broken indexes are rebuilt), and a back-fill queued where the last one did not
        finish. Runs at start-up and after every reconnect, next to the job queue: ingestion never
        waits for it. Returns workspace -> rebuilt."""
        out: dict[str, bool] = {}
        if not self._vector_check_lock.acquire(blocking=False):
            return out  # a pass is already running
        try:
            from mnemosyne.search.vectors import check_vector_health

            db = self.get_db()
            names = [str(to_dict(i)["name"]) for i in db.registry.list()]
            if self.only:
                names = [n for n in names if any(fnmatch.fnmatchcase(n, p) for p in self.only)]
            for name in names:
                if self.stop_event.is_set():
                    break
                try:
                    g = db.graph(name)
                    if not g.exists():
                        continue
                    out[name] = rebuilt = bool(check_vector_health(g))
                    self._resume_backfill(name, g)
                except Exception as err:  # noqa: BLE001 - one workspace's trouble must not stop the pass
                    if is_db_error(err):
                        self.db_failed(err, db)
                        break
                    log.warning("event=vector_health_failed workspace=%s error=%r", name, _short(err))
                    continue
                if rebuilt:
                    log.warning("event=vector_health workspace=%s rebuilt=true", name)
                else:
                    log.debug("event=vector_health workspace=%s rebuilt=false", name)
        except Exception as err:  # noqa: BLE001 - database gone again: the next reconnect runs another pass
            log.debug("event=vector_health_skipped error=%r", _short(err))
        finally:
            self._vector_check_lock.release()
        return out

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
            log.debug("event=enrich_skipped error=%r", _short(err))
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
                out[name] = {"error": _short(err)}
                log.warning("event=enrich_failed workspace=%s error=%r", name, _short(err))
        return out

    def db_backoff_remaining(self) -> float:
        if self.db_state != "down":
            return 0.0
        return max(0.0, self._db_retry_at - time.monotonic())

    # == workspaces ============================================================================

    def refresh_workspaces(self, queued: list[str] | None = None) -> list[_Ws]:
        """Re-read the registry; watch new workspaces, unwatch removed ones (the new ones that
        got an ingest queued are appended to ``queued``)."""
        db = self.get_db()
        try:
            infos = [to_dict(i) for i in db.registry.list()]
            if self.only:
                infos = [i for i in infos if any(fnmatch.fnmatchcase(str(i["name"]), p) for p in self.only)]
        except Exception as err:
            if is_db_error(err):
                self.db_failed(err, db)
            raise
        new: list[str] = []
        with self._lock:
            names = set()
            for info in infos:
                name = str(info["name"])
                names.add(name)
                ws = self._ws.get(name)
                if ws is None:
                    ws = self._ws[name] = _Ws(info)
                    new.append(name)
                    log.info("event=workspace_added workspace=%s path=%r branch=%s", name, ws.path, ws.branch)
                else:
                    ws.info = info
            for gone in set(self._ws) - names:
                del self._ws[gone]
                self.watcher.remove(gone)
                log.info("event=workspace_removed workspace=%s", gone)
            self._registry_loaded = True
            current = list(self._ws.values())
        for ws in current:
            if ws.info.get("state") in _SKIP_STATES:
                self.watcher.remove(ws.name)
                continue
            if self.watcher.add(ws.name, ws.path) and ws.common_dir is None:
                with contextlib.suppress(GitProbeError):
                    ws.common_dir = os.path.realpath(git_paths(ws.path).common_dir)
        for name in new:  # registered while we run: look at it now, not at the next reconcile
            if self.check_workspace(name, "new workspace") is not None and queued is not None:
                queued.append(name)
        return current

    def _workspace(self, name: str) -> _Ws | None:
        with self._lock:
            return self._ws.get(name)

    def check_workspace(self, name: str, reason: str) -> Job | None:
        """The ref-state diff: queue an ingest when the tracked branch moved past what is indexed."""
        ws = self._workspace(name)
        if ws is None or ws.info.get("state") in _SKIP_STATES:
            return None
        if reason == "poll" and time.monotonic() < ws.repo_retry_at:
            return None  # the repository could not be read lately: backing off
        try:
            state = ref_state(ws.path)
            ref = tracked_ref(ws.branch)
            head = state.get(ref) if ref in state else branch_head(ws.path, ws.branch)
        except GitProbeError as err:
            self._repo_failed(ws, err)
            return None
        if ws.repo_error is not None:
            log.warning("event=repo_available workspace=%s path=%r after_failures=%d", name, ws.path,
                        ws.repo_failures)
            ws.repo_error, ws.repo_failures, ws.repo_retry_at = None, 0, 0.0
        if ws.refs is not None and log.isEnabledFor(logging.DEBUG):
            moved_refs = sorted(r for r in set(state) | set(ws.refs) if state.get(r) != ws.refs.get(r))
            log.debug("event=refs_diff workspace=%s moved=%s", name, ",".join(moved_refs) or "-")
        ws.refs = state
        if head is None:
            return None
        last = ws.info.get("last_ingested_commit")
        with contextlib.suppress(Exception):  # fresh value when the database is there
            if self.db_state == "up":
                last = to_dict(self.get_db().registry.get(name)).get("last_ingested_commit")
                ws.info["last_ingested_commit"] = last
        moved = head != ws.seen_head
        ws.seen_head = head
        if head == last:
            return None
        if not moved and self.queue.pending(name, INGEST):
            return None  # already covered by a queued or running job
        job, created = self.queue.enqueue(name, INGEST, reason)
        if created:
            log.info("event=queued workspace=%s job=%d reason=%s head=%s indexed=%s", name, job.id, reason,
                     head[:12], (last or "none")[:12])
        return job

    def _repo_failed(self, ws: _Ws, err: BaseException) -> None:
        """A git probe of the workspace failed: say so once, with what to do, then back off
        (polls skip it until ``repo_retry_at``; reconcile passes and hook notes still look)."""
        ws.repo_failures += 1
        delay = min(_REPO_RETRY_MAX_S, _REPO_RETRY_FIRST_S * 2 ** (ws.repo_failures - 1))
        ws.repo_retry_at = time.monotonic() + delay
        first = ws.repo_error is None
        ws.repo_error = " ".join(str(err).split())[:300]
        if first:
            gone = not os.path.isdir(ws.path)
            log.warning(
                "event=repo_unavailable workspace=%s path=%r error=%r retry=backoff_up_to_%.0fs hint=%r",
                ws.name, ws.path, ws.repo_error, _REPO_RETRY_MAX_S,
                (f"the repository {'is gone' if gone else 'cannot be read'}: restore it at {ws.path}, or run "
                 f"`mnemosyne workspace remove {ws.name}` (its graph is dropped too; --keep-graph keeps it)"),
            )
        else:
            log.debug("event=check_failed workspace=%s failures=%d next_in_s=%.0f error=%r", ws.name,
                      ws.repo_failures, delay, ws.repo_error)

    def _on_refs_changed(self, name: str) -> None:
        self.check_workspace(name, "refs")

    # == hook notes ===========================================================================

    def _on_spool(self) -> None:
        self.drain_spool()

    def poll_unwatched(self) -> None:
        """Workspaces the watcher could not watch (inotify limits, odd filesystems) are polled."""
        watched = self.watcher.watched()
        with self._lock:
            names = [n for n, ws in self._ws.items() if n not in watched and ws.info.get("state") not in _SKIP_STATES]
        for name in names:
            self.check_workspace(name, "poll")

    def drain_spool(self) -> int:
        """Turn hook notes into queue entries; a note is deleted only once handled."""
        if not self._spool_lock.acquire(blocking=False):
            return 0
        try:
            notes = spool.read_notes(self.paths.spool_dir)
            if not notes:
                return 0
            if not self._registry_loaded:
                try:
                    self.refresh_workspaces()
                except Exception:
                    return 0  # keep the notes until the registry can be read
            handled: list[spool.Note] = []
            targets: dict[str, str] = {}
            for note in notes:
                names = self._match_note(note)
                for n in names:
                    targets.setdefault(n, f"hook:{note.hook}")
                handled.append(note)
            for name, reason in targets.items():
                self.check_workspace(name, reason)
            spool.remove(handled)
            log.debug("event=spool_drained notes=%d workspaces=%s", len(handled), ",".join(targets) or "-")
            return len(handled)
        finally:
            self._spool_lock.release()

    def _match_note(self, note: spool.Note) -> list[str]:
        real = os.path.realpath(note.worktree) if note.worktree else ""
        with self._lock:
            wss = list(self._ws.values())
        hits = [ws.name for ws in wss if os.path.realpath(ws.path) == real]
        if hits:
            return hits
        common = None
        with contextlib.suppress(GitProbeError, OSError):
            if real and os.path.isdir(real):
                common = os.path.realpath(git_paths(real).common_dir)
        if common is None and note.git_dir:
            with contextlib.suppress(GitProbeError, OSError):
                common = os.path.realpath(git_paths(note.git_dir).common_dir)
        if common is None:
            return []
        return [ws.name for ws in wss if ws.common_dir == common]

    # == scheduled passes =====================================================================

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
                    log.error("event=reconcile_failed error=%r", _short(err))
                with self._lock:
                    wss = list(self._ws.values())
            for ws in wss:
                if ws.name not in queued and self.check_workspace(ws.name, reason) is not None:
                    queued.append(ws.name)
            self.report_lag()
            return {"workspaces": len(wss), "queued": queued}
        finally:
            self._reconcile_lock.release()

    def report_lag(self, only: str | None = None) -> None:
        with self._lock:
            wss = [ws for ws in self._ws.values() if only is None or ws.name == only]
        for ws in wss:
            try:
                head = branch_head(ws.path, ws.branch)
                last = ws.info.get("last_ingested_commit")
                behind, oldest = commits_behind(ws.path, last, head) if head and head != last else (0, None)
            except GitProbeError as err:
                ws.lag = {"error": str(err)}
                continue
            lag_s = round(time.time() - oldest, 1) if oldest else 0.0
            ws.lag = {"head": head, "indexed": last, "commits_behind": behind, "lag_s": lag_s, "at": time.time()}
            if behind and only is None:
                log.info("event=lag workspace=%s commits_behind=%d lag_s=%.0f", ws.name, behind, lag_s)

    def watch_embedded_db(self) -> bool:
        """Kill the embedded FalkorDB if it deadlocked (``HangWatch``: no answer and no CPU used
        for ``falkordb_hang_s``), rather than let the query in flight wait out its socket timeout;
        the next request starts it again. True when it did."""
        from mnemosyne.store.embedded import EmbeddedFalkorDB, HangWatch

        if self._hang_watch is None:
            self._hang_watch = HangWatch(EmbeddedFalkorDB(self.settings), self.settings.falkordb_hang_s)
        if not self._hang_watch.check():
            return False
        log.error("event=db_deadlocked action=killed_and_restarting no_answer_no_cpu_s=%.0f",
                  self.settings.falkordb_hang_s)
        self.db_failed(DatabaseUnavailable("embedded FalkorDB deadlocked (no answer, no CPU used); killed, "
                                           "starting it again"))
        return True

    def health_check(self) -> None:
        try:
            self.refresh_workspaces()  # a registry read doubles as the DB probe
        except Exception as err:
            if not is_db_error(err):
                log.error("event=health_failed error=%r", _short(err))

    # == jobs ==================================================================================

    def _wake(self) -> None:
        with self.queue.changed:
            self.queue.changed.notify_all()

    def _dispatch_loop(self) -> None:
        while not self.stop_event.is_set():
            job = None
            if self.db_backoff_remaining() <= 0:
                try:
                    job = self.queue.claim(self.max_parallel)
                except Exception as err:  # sqlite trouble: say so, try again shortly
                    log.error("event=queue_error error=%r", _short(err))
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
            self.queue.retry_later(job.id, delay, _short(err))
            log.info("event=job_deferred job=%d workspace=%s delay_s=%.0f reason=%r", job.id, job.workspace, delay,
                     str(err))
        except WorkspaceNotFound as err:
            self.queue.fail(job.id, _short(err))
            self._remember(job, "failed", error=_short(err))
            log.warning("event=job_failed job=%d workspace=%s error=%r", job.id, job.workspace, _short(err))
        except Exception as err:
            if self.stop_event.is_set() and not is_db_error(err):
                self.queue.retry_later(job.id, 0.0, "interrupted by shutdown")
                return
            if is_db_error(err):
                self.db_failed(err, db)
                delay = min(_BACKOFF_MAX_S, 0.5 * 2 ** min(job.attempts, 10))
                self.queue.retry_later(job.id, delay, _short(err))
                log.debug("event=job_retry job=%d workspace=%s delay_s=%.1f", job.id, job.workspace, delay)
                return
            self.queue.fail(job.id, _short(err))
            self._remember(job, "failed", error=_short(err))
            log.error("event=job_failed job=%d kind=%s workspace=%s error=%r", job.id, job.kind, job.workspace,
                      _short(err), exc_info=True)
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

    def _ingest(self, db: Any, job: Job) -> dict[str, Any] | None:
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

    def _embeddings_enabled(self) -> bool:
        provider = str(self.settings.embeddings_provider or "").strip().lower()
        if provider in ("none", "off", "disabled", "") or self._embedder_error:
            return False
        try:
            import mnemosyne.search.backfill  # noqa: F401
            import mnemosyne.search.embedders  # noqa: F401
        except ImportError:
            return False
        return True

    def _resume_backfill(self, name: str, graph: Any) -> None:
        """Queue a back-fill for a workspace whose last one did not finish (``Meta.embed_pending``
        above 0: a killed daemon, an interrupted ``ingest``), so search stops falling back."""
        from mnemosyne.search.vectors import get_model_info

        if not self.settings.embed_on_ingest or self.queue.pending(name, BACKFILL):
            return
        if get_model_info(graph).pending > 0 and self._embeddings_enabled():
            self.queue.enqueue(name, BACKFILL, "unfinished back-fill")
            log.info("event=backfill_resumed workspace=%s", name)

    def _backfill(self, db: Any, job: Job) -> dict[str, Any] | None:
        from mnemosyne.search.backfill import backfill
        from mnemosyne.search.embedders import get_embedder

        with self._embedder_lock:  # loaded once per daemon, whichever back-fill comes first
            if self._embedder is None and self._embedder_error is None:
                try:
                    self._embedder = get_embedder(self.settings)
                except Exception as err:
                    if is_db_error(err):
                        raise
                    self._embedder_error = _short(err)
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

    # == status / control =====================================================================

    def status(self) -> dict[str, Any]:
        with self._lock:
            running = [dict(r) for r in self._running.values()]
            recent = list(self._recent)
            wss = list(self._ws.values())
        if not recent:
            recent = [j.to_dict() for j in self.queue.jobs(state="done", limit=10)]
        watched = self.watcher.watched()
        workspaces = []
        for ws in wss:
            workspaces.append({
                "name": ws.name, "path": ws.path, "branch": ws.branch, "state": ws.info.get("state"),
                "last_ingested_commit": ws.info.get("last_ingested_commit"),
                "watched": ws.name in watched, "watch_error": self.watcher.errors.get(ws.name),
                "repo_error": ws.repo_error,
                **{k: v for k, v in ws.lag.items() if k in ("head", "commits_behind", "lag_s", "error")},
            })
        return {
            "ok": True,
            "pid": os.getpid(),
            "home": str(self.paths.home),
            "started_at": self.started_at,
            "uptime_s": round(time.time() - self.started_at, 1),
            "db": {"state": self.db_state, "error": self.db_error},
            "queue": self.queue.counts(),
            "queued": [j.to_dict() for j in self.queue.jobs(state="queued", limit=50)],
            "running": running,
            "recent": recent[:10],
            "failed": [j.to_dict() for j in self.queue.jobs(state="failed", limit=5)],
            "workspaces": workspaces,
            "max_parallel": self.max_parallel,
            "only": self.only,
            "mcp": {"url": self.mcp_url, "error": self.mcp_error},
            "spool_pending": len(spool.read_notes(self.paths.spool_dir, limit=1000)),
        }

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        cmd = req.get("cmd")
        if cmd == "ping":
            return {"ok": True, "pid": os.getpid()}
        if cmd == "status":
            return self.status()
        if cmd == "reconcile":
            return {"ok": True, **self.reconcile("request")}
        if cmd == "notify":
            spool.write_note(self.paths.spool_dir, "notify", str(req.get("path", "")))
            return {"ok": True, "drained": self.drain_spool()}
        if cmd == "enqueue":
            name = str(req["workspace"])
            if self.only and not any(fnmatch.fnmatchcase(name, p) for p in self.only):
                return {"ok": False, "error": f"this daemon only serves {', '.join(self.only)}"}
            job, created = self.queue.enqueue(name, str(req.get("kind", INGEST)), str(req.get("reason", "request")))
            return {"ok": True, "job": job.to_dict(), "created": created}
        if cmd == "stop":
            self.request_stop("control socket")
            return {"ok": True, "stopping": True}
        return {"ok": False, "error": f"unknown command {cmd!r}"}

    def request_stop(self, why: str = "signal") -> None:
        if not self.stop_event.is_set():
            log.info("event=stopping reason=%r running_jobs=%d", why, len(self._running))
        self.stop_event.set()
        self._wake()
        if self._loop is not None and self._async_stop is not None:
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._async_stop.set)

    # == lifecycle ============================================================================

    def _acquire_lock(self) -> None:
        fh = open(self.paths.lock_file, "a+")  # noqa: SIM115 - held for the daemon's lifetime
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.close()
            pid = read_pid(self.paths)
            raise AlreadyRunning(f"a daemon already runs for {self.paths.home} (pid {pid})") from None
        self._lock_fh = fh
        tmp = self.paths.pid_file.with_suffix(".tmp")
        tmp.write_text(f"{os.getpid()}\n")
        os.replace(tmp, self.paths.pid_file)

    def _release_lock(self) -> None:
        with contextlib.suppress(OSError):
            if read_pid(self.paths) == os.getpid():
                self.paths.pid_file.unlink()
        if self._lock_fh is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._lock_fh, fcntl.LOCK_UN)
            self._lock_fh.close()
            self._lock_fh = None

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
            log.error("event=scheduled_job_error job=%s error=%r", event.job_id, _short(event.exception))

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

    def run(self) -> int:
        """Run in the foreground until SIGTERM/SIGINT or a ``stop`` command; returns the exit code."""
        self._acquire_lock()
        try:
            log.info("event=start pid=%d home=%r max_parallel=%d reconcile_s=%d health_s=%d workspaces=%s",
                     os.getpid(), str(self.paths.home), self.max_parallel, self.settings.reconcile_interval_s,
                     self.settings.health_interval_s, ",".join(self.only) or "all")
            n = self.queue.recover()
            if n:
                log.info("event=recovered jobs=%d", n)
            self.watcher.start()
            self.watcher.watch_spool(self.paths.spool_dir)
            with contextlib.suppress(DatabaseUnavailable):
                self.get_db(force=True)  # starts the embedded FalkorDB if needed
            dispatcher = threading.Thread(target=self._dispatch_loop, name="mnemo-dispatch", daemon=True)
            dispatcher.start()
            self._start_scheduler()
            asyncio.run(self._main())
            self.stop_event.set()
            self._wake()
            dispatcher.join(timeout=10)
            if self._scheduler is not None:
                self._scheduler.shutdown(wait=False)
            self.pool.shutdown(wait=True)  # running ingests abandon between commits
            self.watcher.stop()
            log.info("event=stopped queued=%d", self.queue.counts().get("queued", 0))
            return 0
        finally:
            with contextlib.suppress(Exception):
                self.paths.control_socket.unlink(missing_ok=True)
            with contextlib.suppress(Exception):
                self.queue.close()
            with contextlib.suppress(Exception):
                if self._db is not None:
                    self._db.close()
            self._release_lock()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._async_stop = asyncio.Event()
        for sig, why in ((signal.SIGTERM, "SIGTERM"), (signal.SIGINT, "SIGINT")):
            self._loop.add_signal_handler(sig, self.request_stop, why)
        self._loop.add_signal_handler(signal.SIGHUP, lambda: threading.Thread(
            target=self.reconcile, kwargs={"reason": "SIGHUP"}, daemon=True).start())
        if self.stop_event.is_set():
            return
        server = await control.serve(self.paths.control_socket, self.handle)
        log.info("event=listening control_socket=%r", str(self.paths.control_socket))
        mcp_task = None
        if self.mcp_port is not None:
            mcp_task = asyncio.create_task(self._serve_mcp(self.mcp_port, self.mcp_host))
        try:
            await self._async_stop.wait()
        finally:
            server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), 2)
            if mcp_task is not None:
                if self._uvicorn is not None:
                    self._uvicorn.should_exit = True  # graceful: runs the app's lifespan shutdown
                try:
                    await asyncio.wait_for(asyncio.shield(mcp_task), 5)
                except BaseException:
                    mcp_task.cancel()
                    with contextlib.suppress(BaseException):
                        await mcp_task

    async def _serve_mcp(self, port: int, host: str) -> None:
        """The MCP streamable-HTTP endpoint on this event loop (lifespan must run, brief §3)."""
        try:
            from mnemosyne.daemon.mcp_http import build_asgi_app

            app = build_asgi_app(self.settings, host=host)
        except Exception as err:
            self.mcp_error = _short(err)
            log.error("event=mcp_unavailable error=%r", self.mcp_error)
            return
        import uvicorn

        server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on",
                                               log_config=None))
        # The daemon owns SIGTERM/SIGINT (uvicorn would otherwise take them over while it serves).
        server.capture_signals = contextlib.nullcontext  # type: ignore[method-assign]
        self._uvicorn = server
        self.mcp_url = f"http://{host}:{port}/mcp"
        log.info("event=mcp_listening url=%s", self.mcp_url)
        try:
            await server.serve()
        except SystemExit:  # uvicorn exits the process when it cannot bind; we only lose MCP
            pass
        if not self.stop_event.is_set():  # e.g. the port is taken: say so, keep the daemon running
            self.mcp_error = f"MCP HTTP server on {host}:{port} stopped (port in use? see the log)"
            self.mcp_url = None
            log.error("event=mcp_stopped host=%s port=%d", host, port)


def _kv(d: dict[str, Any]) -> str:
    def fmt(k: str, v: Any) -> str:
        if k in ("from", "to") and isinstance(v, str):
            v = v[:12]
        return f"{k}={v!r}" if isinstance(v, str) and " " in v else f"{k}={v}"

    return " ".join(fmt(k, v) for k, v in d.items() if v is not None and k not in ("duration_s", "message"))


def _utcnow() -> Any:
    from datetime import UTC, datetime

    return datetime.now(UTC)


def read_pid(paths: DaemonPaths) -> int | None:
    return read_pid_file(paths.pid_file)


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
