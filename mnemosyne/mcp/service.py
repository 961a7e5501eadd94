"""Shared state of one MCP server: settings, the database (opened lazily on the first call, never
during the MCP handshake), the workspace and commit a call is about, the freshness cache, the
execution slots and the server-side timings. The tools themselves are ``mnemosyne/mcp/tools/``.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import TYPE_CHECKING, Any

from mnemosyne import limits as L
from mnemosyne import query as Q
from mnemosyne.config import Settings, get_settings
from mnemosyne.limits import MAX_MESSAGE_CHARS
from mnemosyne.mcp import models as M
from mnemosyne.mcp.tools.common import code, untrusted
from mnemosyne.query.core import iso, workspace_info
from mnemosyne.query.freshness import compute_freshness, freshness_notes
from mnemosyne.query.models import AtCommit

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database
    from mnemosyne.store.registry import WorkspaceInfo

FRESHNESS_TTL_S = 2.0


# --- server-side timing ---------------------------------------------------------------------------


class ToolStats:
    """Server-side durations of each tool (the last ``keep`` calls per tool), recorded in process
    around the tool's logic and its serialisation (no transport), and the time each call waited for
    an execution slot before (``wait``). Thread-safe."""

    def __init__(self, keep: int = 5000) -> None:
        self.keep = keep
        self._lock = threading.Lock()
        self._ms: dict[str, deque[float]] = {}
        self._wait: dict[str, deque[float]] = {}
        self._count: dict[str, int] = {}
        self._errors: dict[str, int] = {}

    def record(self, tool: str, ms: float, error: bool = False, wait_ms: float = 0.0) -> None:
        with self._lock:
            d = self._ms.get(tool)
            if d is None:
                d = self._ms[tool] = deque(maxlen=self.keep)
                self._wait[tool] = deque(maxlen=self.keep)
            d.append(ms)
            self._wait[tool].append(wait_ms)
            self._count[tool] = self._count.get(tool, 0) + 1
            if error:
                self._errors[tool] = self._errors.get(tool, 0) + 1

    def snapshot(self) -> dict[str, M.ToolTiming]:
        with self._lock:
            data = {k: (sorted(v), sorted(self._wait[k]), self._count.get(k, 0), self._errors.get(k, 0))
                    for k, v in self._ms.items()}  # fmt: skip
        out = {}
        for tool, (v, w, count, errors) in sorted(data.items()):
            out[tool] = M.ToolTiming(count=count, errors=errors, p50_ms=round(_pct(v, 50), 2),
                                     p95_ms=round(_pct(v, 95), 2), max_ms=round(v[-1], 2),
                                     mean_ms=round(sum(v) / len(v), 2), wait_p50_ms=round(_pct(w, 50), 2),
                                     wait_p95_ms=round(_pct(w, 95), 2))  # fmt: skip
        return out

    def reset(self) -> None:
        with self._lock:
            self._ms.clear()
            self._wait.clear()
            self._count.clear()
            self._errors.clear()


def _pct(sorted_values: list[float], p: float) -> float:
    """Nearest-rank percentile of an already sorted, non-empty list."""
    i = min(len(sorted_values) - 1, max(0, int(round(p / 100 * (len(sorted_values) - 1)))))
    return sorted_values[i]


# --- the service ---------------------------------------------------------------------------------


class McpService:
    """Shared state of one MCP server: settings, a lazily opened database, small caches."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or get_settings()
        self._db: Database | None = None
        self._db_lock = threading.Lock()
        self._fresh: dict[str, tuple[float, M.Freshness]] = {}
        self._fresh_lock = threading.Lock()
        self._fresh_busy: dict[str, threading.Lock] = {}
        self.stats = ToolStats()
        # tools executing at once: more callers wait for a slot instead of all sharing the GIL
        self.slots = threading.BoundedSemaphore(self.settings.mcp_tool_slots)
        # run_cypher calls executing at once: taken before a tool slot, so agents' heavy queries queue
        # among themselves and never hold every slot (nor every FalkorDB thread) against the other tools
        self.cypher_slots = threading.BoundedSemaphore(self.settings.mcp_cypher_slots)

    # -- plumbing ---------------------------------------------------------------------------------

    @property
    def db(self) -> Database:
        if self._db is None:
            with self._db_lock:
                if self._db is None:
                    from mnemosyne.store.connection import connect

                    self._db = connect(self.settings)
        return self._db

    def close(self) -> None:
        with self._db_lock:
            if self._db is not None:
                try:
                    self._db.close()
                finally:
                    self._db = None

    def info(self, workspace: str | None) -> WorkspaceInfo:
        return workspace_info(self.db, workspace or None)

    def head(self, info: WorkspaceInfo) -> AtCommit:
        return Q.resolve_at(self.db, info)

    def at(self, info: WorkspaceInfo, at: str | None, as_of_ingest: str | int | None = None) -> AtCommit:
        L.check_key(at, "at (commit-ish)")
        if at is not None and not str(at).strip():
            at = None
        if as_of_ingest is not None and not str(as_of_ingest).strip():
            as_of_ingest = None
        return Q.resolve_at(self.db, info, at=at, as_of_ingest=as_of_ingest)

    @staticmethod
    def commit_ref(atc: AtCommit) -> M.CommitRef:
        return M.CommitRef(
            **atc.model_dump(include=set(Q.CommitPosition.model_fields)), behind_ingested_head=atc.behind_head,
            subject=untrusted(atc.message, f"commit message of {atc.short}", MAX_MESSAGE_CHARS),
        )  # fmt: skip

    def freshness(self, info: WorkspaceInfo, atc: AtCommit | None = None) -> M.Freshness:
        """Branch head, commits behind and working-tree state of a workspace (git), cached for
        ``FRESHNESS_TTL_S`` per workspace and computed by one caller at a time (the others wait
        for its answer instead of starting the same git processes)."""
        with self._fresh_lock:
            hit = self._fresh.get(info.name)
            if hit and time.monotonic() - hit[0] < FRESHNESS_TTL_S:
                return hit[1]
            busy = self._fresh_busy.setdefault(info.name, threading.Lock())
        with busy:
            with self._fresh_lock:
                hit = self._fresh.get(info.name)
                if hit and time.monotonic() - hit[0] < FRESHNESS_TTL_S:
                    return hit[1]
            return self._compute_freshness(info, atc)

    def _compute_freshness(self, info: WorkspaceInfo, atc: AtCommit | None) -> M.Freshness:
        now = time.monotonic()
        ingested = atc.head_hash if atc is not None else info.last_ingested_commit
        seq = atc.head_seq if atc is not None else info.last_ingested_seq
        fr = compute_freshness(info, ingested, seq)
        with self._fresh_lock:
            self._fresh[info.name] = (now, fr)
        return fr

    def queue_ingest(self, name: str) -> str:
        """Ask the daemon to ingest ``name``; the sentence to show either way."""
        from mnemosyne.daemon import control
        from mnemosyne.daemon.paths import DaemonPaths

        sock = DaemonPaths.from_settings(self.settings).control_socket
        try:
            reply = control.request(sock, "enqueue", timeout=3.0, workspace=name, reason="mcp: workspace not ingested")
        except control.ControlUnavailable:
            return (f"No daemon is running to ingest it: run `mnemosyne ingest --workspace {name}` "
                    "(or start the daemon: `mnemosyne daemon start`), then ask again.")  # fmt: skip
        if reply.get("ok"):
            job = reply.get("job") or {}
            return (f"It has been queued for ingestion by the daemon (job {job.get('id')}); check progress with "
                    "the `ingestion_status` tool and ask again when it is done.")  # fmt: skip
        return f"The daemon refused to queue it ({reply.get('error')}); run `mnemosyne ingest --workspace {name}`."

    # -- what every answer starts with ------------------------------------------------------------

    @staticmethod
    def header(workspace: str, at: M.CommitRef | None, fr: M.Freshness | None) -> str:
        parts = [f"**workspace** {code(workspace)}"]
        if at is not None:
            where = f"seq {at.seq}" if at.on_timeline else "not on the timeline, answered from source"
            if at.on_timeline:
                where += ", the ingested head" if not at.behind_ingested_head else f", {at.behind_ingested_head} commit(s) before the ingested head"
            if at.as_of_ingest is not None:
                where += f", as believed at {iso(at.as_of_ingest)}"
                if at.superseded_at is not None:
                    where += f"; superseded at {iso(at.superseded_at)} (history rewritten)"
            parts.append(f"**at** `{at.short}` ({where})")
        lines = [" · ".join(parts)]
        if fr is not None:
            notes = freshness_notes(fr, code)
            if notes:
                lines.append("; ".join(notes))
        return "\n".join(lines) + "\n\n"

    def resolve(self, workspace: str | None, at: str | None = None, as_of_ingest: str | int | None = None
                ) -> tuple[WorkspaceInfo, AtCommit, M.CommitRef, M.Freshness]:  # fmt: skip
        """The workspace of a call, the commit it asks about, that commit as answers show it, and
        how fresh the index is."""
        info = self.info(workspace)
        atc = self.at(info, at, as_of_ingest)
        return info, atc, self.commit_ref(atc), self.freshness(info, atc)

    def workspaces_status(self) -> list[Any]:
        """``Q.list_workspaces_status`` (git per workspace), cached for ``FRESHNESS_TTL_S``."""
        with self._fresh_lock:
            hit = self._fresh.get("\0workspaces")
            if hit and time.monotonic() - hit[0] < FRESHNESS_TTL_S:
                return hit[1]  # type: ignore[return-value]
        now = time.monotonic()
        out = Q.list_workspaces_status(self.db)
        with self._fresh_lock:
            self._fresh["\0workspaces"] = (now, out)  # type: ignore[assignment]
        return out
