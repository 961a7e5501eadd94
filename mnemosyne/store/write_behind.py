"""Write-behind: a workspace writer's queries run on one background thread, in submission order.

Why: during history ingestion the main thread resolves commit N+1 while FalkorDB (another
process, another core) executes commit N's writes; without this the two take turns. Order is
what keeps a kill safe: each commit's queries start with ``Meta.in_progress_seq`` and end with
``Meta.last_seq``, and they reach the server in exactly that order, so a process killed with
writes still queued leaves the same states a synchronous writer can leave (a rolled-back
half-commit, never a gap).

A failed query stops the thread from running anything after it (later queries would build on a
write that did not happen); the error is raised to the submitting thread on its next call.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from mnemosyne.gcpause import gc_paused

_STOP = object()


class WriteBehind:
    """Runs ``execute(cypher, params)`` for submitted queries on one thread, in order."""

    def __init__(self, execute: Callable[[str, dict], Any], max_pending: int = 256) -> None:
        self._execute = execute
        self._queue: queue.Queue = queue.Queue(maxsize=max(1, max_pending))  # backpressure
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._loop, name="mnemosyne-write-behind", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            try:
                if item is _STOP:
                    return
                if self._error is None:
                    with gc_paused():  # the client builds each query's text from many small strings
                        self._execute(*item)
            except BaseException as err:  # noqa: BLE001 - handed to the submitting thread
                self._error = err
            finally:
                self._queue.task_done()

    def _raise(self) -> None:
        if self._error is not None:
            err, self._error = self._error, None
            raise err

    def submit(self, cypher: str, params: dict) -> None:
        """Queue one write (blocks while ``max_pending`` are queued); raises an earlier failure."""
        self._raise()
        self._queue.put((cypher, params))

    def flush(self) -> None:
        """Wait until every queued write has run; raise the first failure, if any."""
        self._queue.join()
        self._raise()

    def close(self, discard_error: bool = False) -> None:
        """Flush, then stop the thread. ``discard_error`` when already unwinding from another one."""
        try:
            self.flush()
        except BaseException:
            if not discard_error:
                raise
        finally:
            self._queue.put(_STOP)
            self._thread.join()
