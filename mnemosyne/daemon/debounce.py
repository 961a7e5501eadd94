"""Debouncer: call ``fn(key)`` once per burst of triggers for that key."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Hashable

log = logging.getLogger(__name__)


class Debouncer:
    """``fn(key)`` runs ``quiet`` seconds after the last trigger of a burst, and at most ``max_wait``
    seconds after its first trigger (so a never-ending stream of events still gets through).
    ``fn`` runs on a timer thread: keep it short (hand work to the queue)."""

    def __init__(self, fn: Callable[[Hashable], None], quiet: float = 0.3, max_wait: float = 5.0) -> None:
        self.fn, self.quiet, self.max_wait = fn, quiet, max_wait
        self._lock = threading.Lock()
        self._timers: dict[Hashable, threading.Timer] = {}
        self._first: dict[Hashable, float] = {}
        self._closed = False

    def trigger(self, key: Hashable) -> None:
        with self._lock:
            if self._closed:
                return
            now = time.monotonic()
            first = self._first.setdefault(key, now)
            if (t := self._timers.get(key)) is not None:
                t.cancel()
            delay = max(0.0, min(self.quiet, first + self.max_wait - now))
            t = threading.Timer(delay, self._fire, (key,))
            t.daemon = True
            self._timers[key] = t
            t.start()

    def _fire(self, key: Hashable) -> None:
        with self._lock:
            self._timers.pop(key, None)
            self._first.pop(key, None)
            if self._closed:
                return
        try:
            self.fn(key)
        except Exception:  # a failing callback must not kill later bursts
            log.exception("debounced callback failed for %s", key)

    def pending(self) -> int:
        with self._lock:
            return len(self._timers)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            for t in self._timers.values():
                t.cancel()
            self._timers.clear()
            self._first.clear()
