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

``Daemon`` joins the concerns, each a class over the shared state of ``state.DaemonState``:
``dbhealth`` (the connection, back-off, health probes), ``tracking`` (workspaces, ref state, hook
notes, lag), ``jobs`` (the dispatcher and the jobs), ``scheduled`` (the timed passes and the
scheduler). This module holds what is left: the status, the control commands, the lifecycle.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import fnmatch
import logging
import os
import signal
import threading
import time
from typing import Any

from mnemosyne.daemon import control, spool
from mnemosyne.daemon.jobs import Jobs
from mnemosyne.daemon.paths import DaemonPaths
from mnemosyne.daemon.queue import INGEST
from mnemosyne.daemon.scheduled import Scheduled
from mnemosyne.daemon.state import short_error
from mnemosyne.errors import DatabaseUnavailable, MnemosyneError
from mnemosyne.procs import read_pid_file

log = logging.getLogger("mnemosyne.daemon")


class AlreadyRunning(MnemosyneError):
    """Another daemon holds this data directory."""


class Daemon(Jobs, Scheduled):
    """One process serving every registered workspace (see the module's docstring); its concerns
    are the classes it joins: ``dbhealth``, ``tracking``, ``jobs``, ``scheduled``."""

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
            self.mcp_error = short_error(err)
            log.error("event=mcp_unavailable error=%r", self.mcp_error)
            return
        import uvicorn

        server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on",
                                               log_config=None))
        # The daemon owns SIGTERM/SIGINT (uvicorn would otherwise take them over while it serves).
        server.capture_signals = contextlib.nullcontext  # type: ignore[method-assign, assignment]
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


def read_pid(paths: DaemonPaths) -> int | None:
    return read_pid_file(paths.pid_file)


