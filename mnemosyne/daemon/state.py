"""The daemon's shared state (``DaemonState``: settings, queue, watcher, pool, locks, what is known
about each workspace and the database) and the small helpers every concern of the daemon uses:
``to_dict``, ``is_db_error`` (a lost database, as opposed to a bug), ``short_error``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from mnemosyne.config import Settings
from mnemosyne.daemon.paths import DaemonPaths
from mnemosyne.daemon.queue import WorkQueue
from mnemosyne.daemon.watcher import RepoWatcher
from mnemosyne.errors import StoreError

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database


DB_BACKOFF_MAX_S = 60.0


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
    """True for 'the database is not there' (retry later), as opposed to a bug or bad data: a
    ``StoreError`` that says so (``DatabaseUnavailable``, ``CannotSave``: the store turns every
    redis/FalkorDB exception into one, store/db_errors.py) anywhere in the chain of causes, or a
    bare socket error (``ConnectionError``, ``TimeoutError``)."""
    seen: set[int] = set()
    e: BaseException | None = err
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, StoreError) and e.retry_later:
            return True
        if isinstance(e, (ConnectionError, TimeoutError)):
            return True
        e = e.__cause__ or e.__context__
    return False


def short_error(err: BaseException) -> str:
    return f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"[:300]


class WorkspaceState:
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


class DaemonState:
    """The daemon's state, made once in ``__init__``; the concerns (``dbhealth``, ``tracking``,
    ``jobs``, ``scheduled``) are classes deriving from it, and ``core.Daemon`` joins them."""

    def __init__(
        self,
        settings: Settings,
        *,
        mcp_port: int | None = None,
        mcp_host: str = "127.0.0.1",
        connect: Callable[..., Database] | None = None,
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
        self._ws: dict[str, WorkspaceState] = {}
        self._registry_loaded = False
        self._running: dict[int, dict[str, Any]] = {}
        self._recent: deque[dict[str, Any]] = deque(maxlen=20)

        self._db: Database | None = None
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

    def _wake(self) -> None:
        """Wake the dispatcher (a job finished, the database came back or went, stopping)."""
        with self.queue.changed:
            self.queue.changed.notify_all()


    def _embeddings_enabled(self) -> bool:
        """Whether an embedding provider is configured and importable (ingest and health checks queue back-fills)."""
        provider = str(self.settings.embeddings_provider or "").strip().lower()
        if provider in ("none", "off", "disabled", "") or self._embedder_error:
            return False
        try:
            import mnemosyne.search.backfill  # noqa: F401
            import mnemosyne.search.embedders  # noqa: F401
        except ImportError:
            return False
        return True

    # the watcher's callbacks, made in __init__ before the concern that answers them: ``Tracking``
    def _on_refs_changed(self, name: str) -> None:
        raise NotImplementedError

    def _on_spool(self) -> None:
        raise NotImplementedError
