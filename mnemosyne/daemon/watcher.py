"""One watchdog ``Observer`` for every repository (one inotify instance in all).

Per workspace it watches only where refs live: the git dir non-recursively (``HEAD``,
``ORIG_HEAD``, ``packed-refs``), ``<common dir>/refs`` recursively, and the common dir
non-recursively when it differs (linked worktrees). Working trees are never watched (inotify
limits; ``working_tree_changes`` computes edits on demand). An event is only a trigger: it is
debounced per workspace, then the caller diffs ``git for-each-ref`` state.

It also watches the hooks' spool directory, so a note dropped by a git hook is seen at once.
If a watch cannot be added (inotify limits, odd filesystems) the periodic reconcile and the spool
poll still catch every change, just later; the failure is logged once per workspace.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import ObservedWatch

from mnemosyne.daemon.debounce import Debouncer
from mnemosyne.daemon.gitstate import GitPaths, git_paths

log = logging.getLogger(__name__)

_REF_FILES = {"HEAD", "ORIG_HEAD", "packed-refs", "FETCH_HEAD"}


@dataclass
class _Watched:
    name: str
    paths: GitPaths
    watches: list[tuple[str, bool]]


class RepoWatcher(FileSystemEventHandler):
    def __init__(
        self,
        on_refs_changed: Callable[[str], None],
        on_spool: Callable[[], None] | None = None,
        quiet: float = 0.3,
        max_wait: float = 3.0,
    ) -> None:
        super().__init__()
        self._on_spool = on_spool
        self._debouncer = Debouncer(lambda key: on_refs_changed(str(key)), quiet=quiet, max_wait=max_wait)
        self._spool_debouncer = Debouncer(lambda _k: on_spool and on_spool(), quiet=0.05, max_wait=0.5)
        self._observer = Observer()
        self._lock = threading.RLock()
        self._repos: dict[str, _Watched] = {}
        self._sched: dict[tuple[str, bool], tuple[ObservedWatch, int]] = {}
        self._spool_dir: str | None = None
        self.errors: dict[str, str] = {}

    # -- lifecycle ---------------------------------------------------------------------------

    def start(self) -> None:
        self._observer.start()

    def stop(self) -> None:
        self._debouncer.close()
        self._spool_debouncer.close()
        self._observer.stop()
        self._observer.join(timeout=5)

    # -- what is watched ---------------------------------------------------------------------

    def watched(self) -> dict[str, str]:
        with self._lock:
            return {name: str(w.paths.worktree) for name, w in self._repos.items()}

    def watch_spool(self, spool_dir: Path) -> None:
        spool_dir.mkdir(parents=True, exist_ok=True)
        self._spool_dir = os.path.realpath(spool_dir)
        self._schedule(self._spool_dir, recursive=False)

    def add(self, name: str, worktree: str | Path) -> bool:
        """Watch a workspace (idempotent; re-adds if its git paths changed). False if it failed."""
        try:
            gp = git_paths(worktree)
        except Exception as err:  # not a repository (any more): the daemon's check warns, with what to do
            self._report(name, f"cannot watch {worktree}: {err}", level=logging.INFO)
            return False
        gp = GitPaths(Path(os.path.realpath(gp.worktree)), Path(os.path.realpath(gp.git_dir)),
                      Path(os.path.realpath(gp.common_dir)))
        wanted = [(str(gp.git_dir), False), (str(gp.refs_dir), True)]
        if gp.common_dir != gp.git_dir:
            wanted.append((str(gp.common_dir), False))
        with self._lock:
            old = self._repos.get(name)
            if old is not None and old.paths == gp:
                return True
            if old is not None:
                self.remove(name)
            done: list[tuple[str, bool]] = []
            try:
                for path, recursive in wanted:
                    self._schedule(path, recursive)
                    done.append((path, recursive))
            except OSError as err:
                for w in done:
                    self._unschedule(*w)
                self._report(name, f"cannot watch {gp.worktree} ({err}); falling back to periodic reconcile")
                return False
            self._repos[name] = _Watched(name, gp, wanted)
            self.errors.pop(name, None)
        log.info("event=watch workspace=%s worktree=%s git_dir=%s", name, gp.worktree, gp.git_dir)
        return True

    def remove(self, name: str) -> None:
        with self._lock:
            w = self._repos.pop(name, None)
            if w is None:
                return
            for path, recursive in w.watches:
                self._unschedule(path, recursive)
        log.info("event=unwatch workspace=%s", name)

    def _report(self, name: str, message: str, level: int = logging.WARNING) -> None:
        if self.errors.get(name) != message:
            log.log(level, "event=watch_failed workspace=%s error=%r", name, message)
        self.errors[name] = message

    def _schedule(self, path: str, recursive: bool) -> None:
        key = (path, recursive)
        with self._lock:
            if key in self._sched:
                watch, n = self._sched[key]
                self._sched[key] = (watch, n + 1)
                return
            watch = self._observer.schedule(self, path, recursive=recursive)
            self._sched[key] = (watch, 1)

    def _unschedule(self, path: str, recursive: bool) -> None:
        key = (path, recursive)
        with self._lock:
            if key not in self._sched:
                return
            watch, n = self._sched[key]
            if n > 1:
                self._sched[key] = (watch, n - 1)
                return
            del self._sched[key]
            try:
                self._observer.unschedule(watch)
            except (KeyError, OSError):
                pass

    # -- events ------------------------------------------------------------------------------

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.is_directory or event.event_type not in ("created", "modified", "moved", "deleted", "closed"):
            return
        path = os.fsdecode(getattr(event, "dest_path", "") or event.src_path)
        parent, base = os.path.split(path)
        if self._spool_dir is not None and parent == self._spool_dir:
            if not base.startswith("."):
                self._spool_debouncer.trigger("spool")
            return
        if path.endswith(".lock"):  # git writes X.lock, then renames it onto X
            return
        for name in self.match(path):
            self._debouncer.trigger(name)

    def match(self, path: str) -> list[str]:
        """Workspaces for which a change at ``path`` may mean that refs moved."""
        parent, base = os.path.split(path)
        hits = []
        with self._lock:
            for name, w in self._repos.items():
                gp = w.paths
                refs = str(gp.refs_dir)
                if path.startswith(refs + os.sep):
                    hits.append(name)
                elif base in _REF_FILES and parent in (str(gp.git_dir), str(gp.common_dir)):
                    hits.append(name)
        return hits

    def trigger(self, name: str) -> None:
        """Feed a workspace through the same debounced path as a filesystem event."""
        self._debouncer.trigger(name)
