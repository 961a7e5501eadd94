"""Which workspaces the daemon serves and when each needs an ingest (``Tracking``): the registry
re-read (watching new workspaces, unwatching removed ones), the ref-state check that queues an ingest,
the back-off for a repository that cannot be read, hook notes from the spool, polling of unwatched
workspaces, and each workspace's lag.
"""

from __future__ import annotations

import contextlib
import fnmatch
import logging
import os
import time

from mnemosyne.daemon import spool
from mnemosyne.daemon.dbhealth import DatabaseHealth
from mnemosyne.daemon.gitstate import GitProbeError, branch_head, commits_behind, git_paths, ref_state, tracked_ref
from mnemosyne.daemon.queue import INGEST, Job
from mnemosyne.daemon.state import WorkspaceState, is_db_error, to_dict

log = logging.getLogger("mnemosyne.daemon")

_SKIP_STATES = {"paused", "disabled", "removed", "deleted"}
# a repository that cannot be read (deleted, moved, unmounted): looked at again after this long,
# doubling up to the maximum; said once per outage, not at every 5 s poll
_REPO_RETRY_FIRST_S, _REPO_RETRY_MAX_S = 5.0, 300.0


class Tracking(DatabaseHealth):
    """The served workspaces, their ref state and hook notes: what to queue, and when."""

    def refresh_workspaces(self, queued: list[str] | None = None) -> list[WorkspaceState]:
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
                    ws = self._ws[name] = WorkspaceState(info)
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

    def _workspace(self, name: str) -> WorkspaceState | None:
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

    def _repo_failed(self, ws: WorkspaceState, err: BaseException) -> None:
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

