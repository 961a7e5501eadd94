"""One writer per workspace: the ingestion lease in the database (mnemosyne.ingest)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from mnemosyne.errors import MnemosyneError

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database

log = logging.getLogger(__name__)

class IngestBusy(MnemosyneError):
    """Another live process is ingesting the same workspace."""


_LIVE_LEASES: set[str] = set()  # lease values held by runs of this process


class _Lock:
    """A per-workspace lease in the database (``SET key value NX PX``), so two ingesters (daemon
    and CLI, say) never write one graph at once. A lease left by a dead process on this host is
    taken over at once; any other lease expires ``ttl_ms`` after its last refresh."""

    def __init__(self, db: Database, workspace: str, ttl_ms: int = 120_000) -> None:
        import os
        import socket
        import uuid

        self.db = db
        self.key = f"mnemosyne:ingest-lock:{workspace}"
        self.host = socket.gethostname()
        self.value = f"{self.host}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.ttl = ttl_ms
        self.workspace = workspace

    def _cmd(self, *args: Any) -> Any:
        return self.db.execute(*args)

    def _set(self, mode: str) -> bool:
        """``SET key value NX|XX PX ttl``; when it takes, this process holds the lease."""
        if self._cmd("SET", self.key, self.value, mode, "PX", self.ttl):
            _LIVE_LEASES.add(self.value)
            return True
        return False

    def acquire(self) -> None:
        import os

        if self._set("NX"):
            return
        holder = self._cmd("GET", self.key)
        holder = holder.decode() if isinstance(holder, bytes) else holder
        if holder:
            host, _, rest = holder.partition(":")
            pid = rest.partition(":")[0]
            alive = True
            if host == self.host and pid.isdigit():
                if int(pid) == os.getpid():
                    # ours: live only if a run in this process still holds it (a run that lost the
                    # database could not delete its lease; the daemon must not wait out the TTL)
                    alive = holder in _LIVE_LEASES
                else:
                    try:
                        os.kill(int(pid), 0)
                    except ProcessLookupError:
                        alive = False
                    except PermissionError:
                        alive = True
            if not alive and self._set("XX"):
                return
        if holder is None and self._set("NX"):
            return
        raise IngestBusy(
            f"workspace {self.workspace!r} is being ingested by another process ({holder}); "
            "wait for it to finish (or stop the daemon) and run again"
        )

    def refresh(self) -> None:
        self._cmd("PEXPIRE", self.key, self.ttl)

    def release(self) -> None:
        _LIVE_LEASES.discard(self.value)
        try:
            cur = self._cmd("GET", self.key)
            cur = cur.decode() if isinstance(cur, bytes) else cur
            if cur == self.value:
                self._cmd("DEL", self.key)
        except MnemosyneError:  # the database went away: the lease expires by itself
            pass
