"""The daemon's database connection and its health (``DatabaseHealth``): one shared ``Database``,
opened on demand; a lost one is closed and retried with exponential back-off; after every (re)connect
the vector indexes are probed; the embedded FalkorDB is killed and restarted when it deadlocks.
"""

from __future__ import annotations

import contextlib
import fnmatch
import logging
import threading
import time
from typing import TYPE_CHECKING

from mnemosyne.daemon.queue import BACKFILL
from mnemosyne.daemon.state import DB_BACKOFF_MAX_S, DaemonState, is_db_error, short_error, to_dict
from mnemosyne.errors import DatabaseUnavailable

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database
    from mnemosyne.store.handles import GraphHandle

log = logging.getLogger("mnemosyne.daemon")


class DatabaseHealth(DaemonState):
    """The shared database connection, its back-off and health probes."""

    def _open_db(self) -> Database:
        if self._connect_fn is not None:
            return self._connect_fn(self.settings, start=True)
        from mnemosyne.store.connection import connect

        return connect(self.settings, start=True)

    def get_db(self, force: bool = False) -> Database:
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

    def db_failed(self, err: BaseException, db: Database | None = None) -> None:
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
        delay = min(DB_BACKOFF_MAX_S, 0.5 * 2 ** (self._db_failures - 1))
        self._db_retry_at = time.monotonic() + delay
        self.db_error = short_error(err)
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
                    log.warning("event=vector_health_failed workspace=%s error=%r", name, short_error(err))
                    continue
                if rebuilt:
                    log.warning("event=vector_health workspace=%s rebuilt=true", name)
                else:
                    log.debug("event=vector_health workspace=%s rebuilt=false", name)
        except Exception as err:  # noqa: BLE001 - database gone again: the next reconnect runs another pass
            log.debug("event=vector_health_skipped error=%r", short_error(err))
        finally:
            self._vector_check_lock.release()
        return out

    def db_backoff_remaining(self) -> float:
        if self.db_state != "down":
            return 0.0
        return max(0.0, self._db_retry_at - time.monotonic())

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

    def _resume_backfill(self, name: str, graph: GraphHandle) -> None:
        """Queue a back-fill for a workspace whose last one did not finish (``Meta.embed_pending``
        above 0: a killed daemon, an interrupted ``ingest``), so search stops falling back."""
        from mnemosyne.search.vectors import get_model_info

        if not self.settings.embed_on_ingest or self.queue.pending(name, BACKFILL):
            return
        if get_model_info(graph).pending > 0 and self._embeddings_enabled():
            self.queue.enqueue(name, BACKFILL, "unfinished back-fill")
            log.info("event=backfill_resumed workspace=%s", name)
