"""Ingest a workspace's history into its graph: the public entry point (docs/schema.md).

    result = ingest_workspace(db, "shop")                 # full first-parent history, resumable
    result = ingest_path(db, "/src/shop", name="shop")    # registers the workspace if needed

The timeline is the first-parent history of the tracked branch, seq 0.. from the root. Each commit
is one step: its changed blobs go into one long-lived :class:`~mnemosyne.extract.Extractor`,
whose ``update`` returns every path whose facts may differ (the changed ones and the files whose
resolution depended on them); their new edges are diffed against the previous ones
(:class:`~mnemosyne.timeline.state.FactState`) and only the difference is written. Progress is
committed per commit (``Meta`` written last), so a run can be killed at any point and resumed; a
second run over the same history changes nothing.

Modes and special cases (tested in tests/history):
- empty repository: nothing to do, ``IngestResult.message`` says so;
- shallow clone: the history that exists is ingested from the shallow boundary, with a warning;
- detached HEAD: the registered branch is tracked; with none, HEAD itself (branch name ``HEAD``);
- history rewritten (force-push, reset, amend, rebase): from the fork point on, commits and
  versions are superseded (never deleted) and the new commits ingested;
- ``head_only``: only the branch head, as seq 0 with its whole tree. Re-running ``--head-only``
  later appends the new head as the next seq (one step from the previous head). Running without
  ``--head-only`` on a head-only workspace supersedes the head-only snapshot and ingests the full
  history from the root. ``--head-only`` on a workspace that already has full history is ignored
  (a normal incremental run, with a warning), so its timeline stays first-parent exact;
- a graph built by another version of the extraction (``FACTS_VERSION``, e.g. after an upgrade
  that improved the resolver), or a run with ``rebuild``: every version is superseded and the
  whole history ingested again, so the graph equals a fresh parse at every commit with the code
  that runs now, and what was believed before stays answerable in transaction time;
- submodules (gitlinks) are skipped with a warning; Git LFS pointers are skipped by the
  Extractor with a warning; symlinks are not source files.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from mnemosyne import vocabulary as V
from mnemosyne.errors import MnemosyneError, RevisionNotFound
from mnemosyne.extract import FACTS_VERSION, Extractor
from mnemosyne.facts import FileFacts
from mnemosyne.gcpause import gc_paused
from mnemosyne.git.repo import SYMLINK_MODE, CommitInfo, FileChange, GitRepo
from mnemosyne.parse.pool import shared_pool
from mnemosyne.search.doc_store import DocState, apply_docs, catch_up_docs, default_token_counter, match_mentions
from mnemosyne.search.docs import is_doc_path
from mnemosyne.search.text import search_text
from mnemosyne.store.identity_writer import record_identity
from mnemosyne.store.versions import NodeRows, VersionStore, now_s
from mnemosyne.store.window import VersionWindow
from mnemosyne.timeline.edges import (
    PACKAGES_OWNER,
    EdgeKey,
    file_edges,
    package_edges,
    package_key,
    pv_key,
    tp_key,
)
from mnemosyne.timeline.state import FactState

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database
    from mnemosyne.store.graph import Graph
    from mnemosyne.store.registry import WorkspaceInfo

log = logging.getLogger(__name__)

MODE_FULL = "full"
MODE_HEAD_ONLY = "head_only"
MAX_WARNINGS = 500


class IngestProgress(BaseModel):
    workspace: str
    phase: str  # preparing | rollback | superseding | loading | ingesting | done
    done: int = 0  # commits applied in this run
    total: int = 0  # commits to apply in this run
    seq: int | None = None
    commit: str | None = None
    files_parsed: int = 0
    elapsed_s: float = 0.0
    rate: float = 0.0  # commits per second
    eta_s: float | None = None
    stage: str = ""  # HEAD first: "history" while the history is built behind the answering head


class IngestResult(BaseModel):
    workspace: str
    branch: str
    mode: str = MODE_FULL
    commits_ingested: int = 0
    files_parsed: int = 0
    seconds: float = 0.0
    warnings: list[str] = Field(default_factory=list)
    superseded: int = 0  # commits + versions superseded by a history rewrite
    rolled_back: int = 0  # versions of a half-written commit removed before resuming
    head: str | None = None
    last_seq: int | None = None
    stopped: bool = False  # the stop event interrupted the run (safe; run again to continue)
    message: str = ""
    since: str | None = Field(default=None, description="first commit of the history window (None: the root)")
    head_ready_s: float | None = Field(default=None, description="HEAD first: seconds until the head snapshot "
                                       "answered, while the history was built behind it")
    state_reused: bool = False  # the previous run's in-memory state was reused (no tree re-parse)
    timings: dict[str, float] = Field(
        default_factory=dict,
        description="seconds spent per phase: git (blob reads), parse (Extractor.update), resolve "
        "(Extractor.facts), diff (fact keys and node rows), write (graph queries), docs (documentation "
        "parse and writes)",
    )


# In-memory state kept between runs in one process (the daemon ingests one commit at a time):
# the extractor and fact state at the last ingested commit, so the next run need not re-parse the
# whole tree. Reused only when the graph's Meta still points at that exact commit and seq.
STATE_CACHE_SIZE = 2
_STATE_CACHE: OrderedDict[tuple[str, str, str], dict[str, Any]] = OrderedDict()
_STATE_LOCK = threading.Lock()


def clear_state_cache() -> None:
    with _STATE_LOCK:
        _STATE_CACHE.clear()


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


class _Warnings:
    def __init__(self) -> None:
        self.items: list[str] = []
        self._seen: set[str] = set()

    def add(self, msg: str) -> None:
        if msg not in self._seen:
            self._seen.add(msg)
            if len(self.items) < MAX_WARNINGS:
                self.items.append(msg)
            log.info("ingest warning: %s", msg)


class _ReadAhead:
    """Commits of the git log stream with their changed files read. With ``parse_workers`` > 1 it
    reads up to MAX_COMMITS / MAX_BYTES ahead and has the parse pool parse those files while the
    current commit is resolved and written; without a pool it reads one commit at a time."""

    MAX_COMMITS = 32
    MAX_BYTES = 8_000_000

    def __init__(self, run: _Run, commits: Iterator[CommitInfo], total: int) -> None:
        self.run = run
        self.commits = commits
        self.enabled = run.extractor.parse_workers > 1 and total > 1  # a lone commit: no one to overlap with
        self.buf: deque[tuple[CommitInfo, dict[str, bytes | None], int]] = deque()
        self.bytes = 0

    def _read_one(self) -> bool:
        c = next(self.commits, None)
        if c is None:
            return False
        t = time.perf_counter()
        files = self.run.changed_files(c.changes)
        self.run.timings["git"] += time.perf_counter() - t
        size = sum(len(d) for d in files.values() if d is not None)
        self.buf.append((c, files, size))
        self.bytes += size
        if self.enabled:
            self.run.extractor.prefetch(files)
        return True

    def __iter__(self) -> Iterator[tuple[CommitInfo, dict[str, bytes | None]]]:
        while self.buf or self._read_one():
            if self.enabled:
                while len(self.buf) <= self.MAX_COMMITS and self.bytes < self.MAX_BYTES and self._read_one():
                    pass
            c, files, size = self.buf.popleft()
            self.bytes -= size
            yield c, files


class _Run:
    """One ingestion run of one workspace (in-memory extractor + fact state)."""

    def __init__(self, db: Database, info: WorkspaceInfo, stop: threading.Event | None,
                 progress: Callable[[IngestProgress], None] | None, graph: Graph | None = None,
                 registry: bool = True) -> None:
        self.db = db
        self.info = info
        self.settings = db.settings
        self.graph = graph if graph is not None else db.graph(info.name)
        self.registry = registry  # False: a side graph, which the registry does not describe
        self.store = VersionStore(self.graph, self.settings.write_batch_size, workspace=info.name)
        self.window = VersionWindow(self.store, info.branch or "HEAD", self.settings.history_window)
        self.flushed: tuple[CommitInfo, int] | None = None  # the last commit written whole (Meta moved)
        self.repo = GitRepo(info.path)
        self.stop = stop
        self.progress_cb = progress
        self.warnings = _Warnings()
        self.extractor = Extractor(max_file_bytes=self.settings.max_file_bytes, parse_workers=self.settings.parse_workers,
                                   resolve_workers=self.settings.resolve_workers)
        pool = shared_pool(self.settings.parse_workers)
        if pool is not None:
            pool.start_in_background()  # ready by the time the first commits are read
        self.state = FactState()
        self.files_parsed = 0
        self.t0 = time.monotonic()
        self._submodules: set[str] = set()
        self._node_cache: dict[str, dict[tuple[str, str], dict]] = {}  # path -> node rows last written
        self._pkg_paths: list[str] = []
        self._known: set[tuple[str, str]] = set()  # (label, key) of nodes written by this run
        self._facts_cache: dict[str, FileFacts] = {}  # path -> facts last applied
        self.lock: _Lock | None = None
        self.state_at: str | None = None  # commit whose tree the in-memory state reflects
        self.reused_state = False
        self.rolled = False
        self.verify = False
        self.timings: dict[str, float] = {"git": 0.0, "parse": 0.0, "resolve": 0.0, "diff": 0.0, "write": 0.0,
                                          "docs": 0.0}
        self._counter: Callable[[str], int] | None = None
        # what documentation writes would otherwise read from the graph (no reads on the write path)
        self._docs = DocState()
        self._names: dict[str, dict[str, str]] = {}  # short name -> {fqn: label} of program symbols

    # --- helpers ---------------------------------------------------------------------------------
    def emit(self, phase: str, done: int = 0, total: int = 0, seq: int | None = None, commit: str | None = None) -> None:
        if self.progress_cb is None:
            return
        el = time.monotonic() - self.t0
        rate = done / el if el > 0 and done else 0.0
        eta = (total - done) / rate if rate > 0 else None
        self.progress_cb(
            IngestProgress(workspace=self.info.name, phase=phase, done=done, total=total, seq=seq,
                           commit=commit, files_parsed=self.files_parsed, elapsed_s=round(el, 3),
                           rate=round(rate, 3), eta_s=None if eta is None else round(eta, 1))
        )

    def _collect_extractor_warnings(self) -> None:
        for msg in self.extractor.warnings.values():
            self.warnings.add(msg)

    def _note_submodule(self, path: str) -> None:
        if path not in self._submodules:
            self._submodules.add(path)
            self.warnings.add(f"{path}: submodule (gitlink) not ingested; ingest it as its own workspace")

    # --- loading a tree into the extractor ---------------------------------------------------------
    _KEPT = ("extractor", "state", "_facts_cache", "_node_cache", "_pkg_paths", "_submodules", "_known", "_names")

    def _cache_key(self) -> tuple[str, str, str]:
        return (str(getattr(self.db, "address", "")), self.info.name, str(self.info.path))

    def restore_or_load(self, commit: str, seq: int, rolled_back: bool) -> None:
        """The state at ``commit``: from the process cache when it is exactly that, else parsed."""
        with _STATE_LOCK:
            kept = _STATE_CACHE.pop(self._cache_key(), None)
        if kept is not None and not rolled_back and kept["commit"] == commit and kept["seq"] == seq:
            for name in self._KEPT:
                setattr(self, name, kept[name])
            self.reused_state = True
        else:
            self.load_tree(commit)
        self.state_at = commit

    def keep_state(self, commit: str | None, seq: int) -> None:
        if commit is None or self.state_at != commit or STATE_CACHE_SIZE <= 0:
            return
        kept = {name: getattr(self, name) for name in self._KEPT}
        kept.update(commit=commit, seq=seq)
        with _STATE_LOCK:
            _STATE_CACHE[self._cache_key()] = kept
            _STATE_CACHE.move_to_end(self._cache_key())
            while len(_STATE_CACHE) > STATE_CACHE_SIZE:
                _STATE_CACHE.popitem(last=False)

    def load_tree(self, commit: str) -> None:
        """Rebuild the in-memory state from the full tree at ``commit`` (resume, head-only)."""
        entries, subs = self.repo.ls_tree(commit)
        for s in subs:
            self._note_submodule(s)
        files = {e.path: self.repo.read_blob(e.blob) for e in entries if self.extractor.owns(e.path)}
        affected = self.extractor.update(files)
        self._refresh_owners(affected | set(files), manifests_changed=True, nodes=None)
        self.state.discard_pending()
        self._collect_extractor_warnings()

    def verify_loaded_state(self) -> None:
        """Cross-check: the open versions in the graph equal the state recomputed from the tree."""
        graph_keys = self.store.open_edge_keys()
        mine = {(k.etype, *k.canonical()) for k in self.state.all_keys()}
        if graph_keys != mine:
            missing, extra = mine - graph_keys, graph_keys - mine
            raise MnemosyneError(
                f"resume check failed for workspace {self.info.name}: {len(missing)} open versions missing "
                f"from the graph, {len(extra)} unexpected (e.g. {sorted(missing or extra, key=repr)[:3]}); "
                "rebuild it with `mnemosyne ingest WORKSPACE --rebuild`"
            )

    # --- one commit --------------------------------------------------------------------------------
    def _refresh_owners(self, paths: set[str], manifests_changed: bool, nodes: NodeRows | None) -> dict[str, FileFacts]:
        """Re-key the facts of ``paths`` into the fact state; collect changed node rows. Returns
        the facts computed (each file is resolved once per commit)."""
        computed: dict[str, FileFacts] = {}
        t = time.perf_counter()
        self.extractor.resolve_ahead(sorted(paths))
        self.timings["resolve"] += time.perf_counter() - t
        for p in sorted(paths):
            t = time.perf_counter()
            try:
                ff = self.extractor.facts(p)
            except Exception as err:  # a resolver bug must not wedge ingestion on one file
                log.exception("facts of %s failed", p)
                self.warnings.add(f"{p}: could not be analysed ({type(err).__name__}: {err}); skipped")
                ff = None
            self.timings["resolve"] += time.perf_counter() - t
            if ff is None:
                self._index_names(self._facts_cache.pop(p, None), None)
                self.state.set_owner(p, None)
                continue
            computed[p] = ff
            prev_ff = self._facts_cache.get(p)
            if prev_ff == ff:
                continue  # affected but resolved to the same facts: nothing to diff or write
            self._index_names(prev_ff, ff)
            self._facts_cache[p] = ff
            self.state.set_owner(p, file_edges(ff))
            rows = _file_nodes(ff)
            if nodes is not None:
                before = self._node_cache.get(p, {})
                for key, row in rows.items():
                    prev = before.get(key)
                    if prev != row:
                        getattr(nodes, key[0]).append(_changed_props(prev, row))
                        if key[0] == "files" and self._pkg_paths:
                            _package_of(row["path"], self._pkg_paths, nodes)
            self._node_cache[p] = rows
        if manifests_changed:
            pk = self.extractor.package_facts()
            self.state.set_owner(PACKAGES_OWNER, package_edges(pk))
            self._pkg_paths = sorted((package_key(x.path) for x in pk.packages), key=len, reverse=True)
            if nodes is not None:
                for pkg in pk.packages:
                    nodes.packages.append({"path": package_key(pkg.path), "name": pkg.name, "eco": pkg.ecosystem,
                                           "manifest": pkg.manifest})
                for d in pk.dependencies:
                    nodes.third_party.append({"k": tp_key(d.ecosystem, d.name), "eco": d.ecosystem, "name": d.name})
                for lk in pk.locks:
                    nodes.package_versions.append({"k": pv_key(lk.ecosystem, lk.name, lk.version), "eco": lk.ecosystem,
                                                   "name": lk.name, "ver": lk.version,
                                                   "tk": tp_key(lk.ecosystem, lk.name)})
            for w in pk.warnings:
                self.warnings.add(w)
        return computed

    def _index_names(self, old: FileFacts | None, new: FileFacts | None) -> None:
        """Keep the short-name index of program symbols (documentation mentions) in step with a
        file's facts."""
        if old is not None:
            for sym in old.symbols:
                fqns = self._names.get(sym.name)
                if fqns is not None:
                    fqns.pop(sym.fqn, None)
                    if not fqns:
                        del self._names[sym.name]
        if new is not None:
            for sym in new.symbols:
                if sym.kind != "module":
                    self._names.setdefault(sym.name, {})[sym.fqn] = V.CLASS if sym.kind == "class" else V.FUNCTION

    def _mentions(self, names: list[str]) -> dict[str, tuple[str, str, str]]:
        """Documentation mentions resolved against the symbols at the commit being written."""
        short = {n.replace("/", ".").rsplit(".", 1)[-1] for n in names}
        cands = {k: [(label, fqn) for fqn, label in sorted(self._names[k].items())] for k in short if k in self._names}
        return match_mentions(cands, names)

    def changed_files(self, changes: list[FileChange]) -> dict[str, bytes | None]:
        """Changed owned paths (source files and documentation) -> new bytes (None = deleted).
        Deletions first: a path can be the source of one rename and the target of another in the
        same commit."""
        ext_owns = self.extractor.owns

        def owns(path: str) -> bool:
            return ext_owns(path) or is_doc_path(path)

        out: dict[str, bytes | None] = {}
        for ch in changes:
            if ch.is_submodule:
                self._note_submodule(ch.path)
                if ch.old_path:
                    self._note_submodule(ch.old_path)
            if ch.status == "R" and ch.old_path and owns(ch.old_path):
                out[ch.old_path] = None
            if ch.status == "D" and owns(ch.path):
                out[ch.path] = None
            if ch.status != "D" and owns(ch.path) and (ch.new_blob is None or ch.new_mode in (SYMLINK_MODE, "160000")):
                out[ch.path] = None  # became a symlink / submodule: no longer a source file
        for ch in changes:
            if ch.status == "D" or ch.new_blob is None or ch.new_mode in (SYMLINK_MODE, "160000"):
                continue
            if owns(ch.path):
                out[ch.path] = self.repo.read_blob(ch.new_blob)
        return out

    def apply(self, c: CommitInfo, seq: int, changed: dict[str, bytes | None]) -> None:
        """Write timeline commit ``seq``: ``changed`` maps the source and documentation paths it
        changed to their bytes (None = gone). Code versions, then documentation versions, then
        ``Meta`` (last, with ``docs_seq``), so a kill anywhere is rolled back as one commit."""
        from mnemosyne.deps import is_manifest

        tm = self.timings
        owns = self.extractor.owns
        files = {p: d for p, d in changed.items() if owns(p)}
        docs = {p: d for p, d in changed.items() if is_doc_path(p)}
        self.files_parsed += sum(1 for d in files.values() if d is not None)
        t = time.perf_counter()
        affected = self.extractor.update(files)
        tm["parse"] += time.perf_counter() - t
        nodes = NodeRows()
        manifests = any(is_manifest(p) for p in files)
        old_facts = {p: self._facts_cache.get(p) for p in files}  # identity: the changed files before
        t = time.perf_counter()
        resolve_before = tm["resolve"]
        # edge keys, rows and the fact state are many small long-lived objects: the cyclic
        # collector would rescan the whole index for them (mypy's first commit: diff 1.26 s)
        with gc_paused():
            computed = self._refresh_owners(affected | set(files), manifests, nodes)
            delta = self.state.take_delta()
            self._collect_extractor_warnings()
            _endpoint_nodes(delta.opened, computed, nodes, self._known)
        tm["diff"] += time.perf_counter() - t - (tm["resolve"] - resolve_before)
        now = now_s()
        st = self.store
        with gc_paused():  # (the rows: as above)
            self.window.add(c, seq, now, nodes, delta)  # Meta.in_progress_seq set at the window's first commit
        t = time.perf_counter()
        record_identity(st, c, seq, files, old_facts, computed, delta, self.repo.read_blob)  # renames, moves
        tm["identity"] = tm.get("identity", 0.0) + time.perf_counter() - t
        if docs:
            if not self._docs.loaded:
                t = time.perf_counter()
                st.flush()  # the open documentation versions are read once, after the queued writes
                tm["write"] += time.perf_counter() - t
            t = time.perf_counter()
            # queued behind Meta.in_progress_seq and this window's writes, in order
            apply_docs(self.graph, seq, c.hash, c.timestamp, docs, count_tokens=self._count_tokens(), ingested_at=now,
                       state=self._docs, mentions=self._mentions, writer=_QueuedWrites(st))
            tm["docs"] = tm.get("docs", 0.0) + time.perf_counter() - t
        if self.window.full():
            self.flush_window()

    def flush_window(self) -> None:
        """Write the commits applied since the last flush (store/window.py), ``Meta`` last."""
        t = time.perf_counter()
        with gc_paused():
            done = self.window.flush(mode=self.mode)
        self.timings["write"] += time.perf_counter() - t
        if done is not None:
            self.flushed = done

    def _count_tokens(self) -> Callable[[str], int]:
        if self._counter is None:
            self._counter = default_token_counter()
        return self._counter

    def catch_up_docs(self) -> None:
        """A graph ingested before ingestion wrote documentation (``Meta.docs_seq`` behind
        ``last_seq``): apply the missing commits' docs from git first, so every later commit
        continues from a complete documentation state."""
        t = time.perf_counter()
        rep = catch_up_docs(self.graph, str(self.info.path), count_tokens=self._count_tokens())
        if rep.commits:
            self.warnings.add(f"documentation caught up over {rep.commits} already ingested commits")
        self.timings["docs"] = self.timings.get("docs", 0.0) + time.perf_counter() - t

    # --- the run -----------------------------------------------------------------------------------
    def _start_over(self, res: IngestResult, now: int, warning: str, **meta: Any) -> None:
        """Stop believing every version and commit (kept, superseded) and reset the bookkeeping,
        so the history is ingested again from the root."""
        self.emit("superseding")
        res.superseded += self.store.supersede_from(0, now)
        self.store.set_meta(last_seq=None, last_commit=None, docs_seq=None, docs_commit=None, **meta)
        self.warnings.add(warning)

    def _window_start(self, since: str | None, timeline: list[str], meta: dict[str, Any]) -> int:
        """Index in ``timeline`` of the first commit of the history window. ``since``: a date, a
        revision on the timeline, or 'all'; None keeps the window the graph has (else the setting)."""
        if since is None:
            kept = meta.get("since_commit")
            if kept and meta.get("last_commit"):
                return timeline.index(kept) if kept in timeline else 0
            since = self.settings.history_since
        if since is None or since.strip().lower() in ("all", "root", ""):
            return 0
        return window_index(self.repo, timeline, since)

    def run(self, head_only: bool = False, rebuild: bool = False, since: str | None = None) -> IngestResult:
        info = self.info
        repo = self.repo
        self.branch_label = info.branch or "HEAD"
        res = IngestResult(workspace=info.name, branch=self.branch_label)
        self.emit("preparing")
        if repo.is_empty():
            res.message = f"{info.path} has no commits yet: nothing to ingest"
            res.seconds = round(time.monotonic() - self.t0, 3)
            return res
        rev = info.branch or "HEAD"
        try:
            head = repo.rev_parse(rev)
        except RevisionNotFound:
            raise RevisionNotFound(
                f"branch '{rev}' of workspace {info.name} does not exist in {info.path}; "
                f"fix it with `mnemosyne workspace update {info.name} --branch NAME`"
            ) from None
        if info.branch and not repo.branch_exists(info.branch) and repo.current_branch() is None:
            self.warnings.add(f"tracking '{info.branch}' (HEAD is detached)")
        if repo.current_branch() is None and not info.branch:
            self.warnings.add("detached HEAD and no registered branch: tracking the HEAD commit's history")
        shallow = repo.shallow_boundary()
        if shallow:
            self.warnings.add(
                f"{info.path} is a shallow clone: only the history present is ingested (seq 0 is the shallow "
                "boundary commit, with its whole tree); run `git fetch --unshallow` and re-ingest for full history"
            )
        res.head = head
        self.store.ensure_indexes()
        self.store.ensure_workspace_node(info.name, info.path, info.branch or None)
        meta = self.store.meta()
        self.rolled = meta.get("in_progress_seq") is not None
        if self.rolled:
            self.emit("rollback")
            res.rolled_back = self.store.rollback(int(meta["in_progress_seq"]))
            self.warnings.add(f"resumed after an interrupted run: rolled back half-written commit seq {meta['in_progress_seq']}")
        prev_mode = meta.get("mode") or MODE_FULL
        last_seq = meta.get("last_seq")
        last_commit = meta.get("last_commit")
        last_seq = int(last_seq) if last_seq is not None else -1
        now = now_s()

        boundary = meta.get("shallow_boundary")
        if last_commit and boundary and boundary not in shallow:
            # seq 0 was a shallow clone's boundary (its change: the whole tree) and the clone has
            # been deepened or made whole: derive the history again, with that commit's real changes
            self.store.drop_commit_changes(boundary)
            self._start_over(res, now, f"the shallow clone's boundary commit {boundary[:12]} has its history now "
                             "(`git fetch --unshallow`/`--deepen`): re-deriving the whole history; the previous "
                             "versions are kept as superseded", shallow_boundary=None)
            last_seq, last_commit = -1, None
        if last_commit and (rebuild or meta.get("facts_version") != FACTS_VERSION):
            # the graph's facts came from another extraction (an upgrade changed the resolver) or
            # a rebuild was asked for: stop believing all of it and derive the history again
            why = (
                "rebuilding the whole history as asked" if rebuild else
                f"the graph was built by another version of the extraction (facts version "
                f"{meta.get('facts_version', 1)}, now {FACTS_VERSION}): re-deriving the whole history"
            )
            self._start_over(res, now, why + "; the previous versions are kept as superseded (what was believed before)",
                             facts_version=FACTS_VERSION)
            last_seq, last_commit = -1, None
        elif not last_commit:
            self.store.set_meta(facts_version=FACTS_VERSION)

        if head_only and last_commit and prev_mode == MODE_FULL:
            self.warnings.add("--head-only ignored: this workspace has full history; ingesting new commits instead")
            head_only = False
        if not head_only and prev_mode == MODE_HEAD_ONLY and last_commit:
            self._start_over(res, now, "replaced the head-only snapshot with the full history", mode=MODE_FULL)
            last_seq, last_commit = -1, None
        self.mode = MODE_HEAD_ONLY if head_only else MODE_FULL

        if head_only:
            self.catch_up_docs()
            return self._run_head_only(res, head, last_seq, last_commit)

        timeline = repo.timeline_hashes(head)
        start = self._window_start(since, timeline, meta)
        kept = meta.get("since_commit") if last_commit else None
        if kept and kept in timeline and start > timeline.index(kept):
            self.warnings.add(
                f"--since {since} ignored: the graph's history already starts earlier, at {kept[:12]} "
                "(a window is extended back, never cut)"
            )
            start = timeline.index(kept)
        elif last_commit and (kept or None) != (timeline[start] if start else None):
            # the window moves back (or the graph's start left the timeline): build it again from
            # the new start; what was built is kept as superseded versions
            self._start_over(res, now, f"history window now starts at {timeline[start][:12]}: re-deriving the "
                             "history from there; the previous versions are kept as superseded")
            last_seq, last_commit = -1, None
        timeline = timeline[start:]
        self.store.set_meta(since_commit=timeline[0] if start else None)
        if start:
            res.since = timeline[0]
        if last_commit and not (last_seq < len(timeline) and timeline[last_seq] == last_commit):
            # history rewritten: find the fork point against the believed timeline in the graph
            self.emit("superseding")
            believed = self.store.timeline()
            fork = 0
            for s, h in believed:
                if s < len(timeline) and timeline[s] == h and s == fork:
                    fork += 1
                else:
                    break
            res.superseded += self.store.supersede_from(fork, now)
            last_seq = fork - 1
            last_commit = timeline[last_seq] if last_seq >= 0 else None
            docs_seq = meta.get("docs_seq")
            docs = {}
            if docs_seq is not None and int(docs_seq) > last_seq:  # doc versions from the fork on were superseded too
                docs = {"docs_seq": last_seq if last_seq >= 0 else None, "docs_commit": last_commit}
            self.store.set_meta(last_seq=last_seq if last_seq >= 0 else None, last_commit=last_commit, **docs)
            self.warnings.add(
                f"history of '{self.branch_label}' was rewritten: {res.superseded} commits/versions from seq {fork} "
                "on superseded (kept, no longer believed); ingesting the new commits"
            )
        if last_seq < 0 and timeline and timeline[0] in shallow:  # remembered: see above
            self.store.set_meta(shallow_boundary=timeline[0])
        self.catch_up_docs()
        todo = len(timeline) - (last_seq + 1)
        if todo <= 0:
            res.last_seq = last_seq if last_seq >= 0 else None
            res.message = f"up to date at {head[:12]} (seq {last_seq})"
            return self._finish(res, last_seq, last_commit)
        if last_seq >= 0:
            self.emit("loading", 0, todo, last_seq, last_commit)
            self.restore_or_load(last_commit, last_seq, self.rolled)
            if self.verify or self.rolled:  # after a rollback, always check
                self.verify_loaded_state()
        self._update_registry(state="ingesting")
        if start and last_seq < 0:
            # the window's first commit is seq 0 with its whole tree (as a shallow boundary is)
            self._apply_tree(timeline[0], 0, None)
            res.commits_ingested += 1
            last_seq, last_commit = 0, timeline[0]
            self.emit("ingesting", 1, todo, 0, last_commit)
            todo -= 1
            if todo <= 0:
                res.message = f"ingested {timeline[0][:12]} as the start of the history window (seq 0)"
                return self._finish(res, 0, last_commit)
        last_reg = time.monotonic()
        looped = 0
        stream = repo.iter_log(head, since=last_commit)  # parsed as git prints it: never all in memory
        ahead = _ReadAhead(self, stream, todo)
        # several commits: FalkorDB writes commit N while this thread resolves commit N+1
        with closing(stream), self.store.write_behind(enabled=todo > 1):
            for i, (c, files) in enumerate(ahead):
                if self.stop is not None and self.stop.is_set():
                    res.stopped = True
                    break
                seq = last_seq + 1 + i
                if seq >= len(timeline) or c.hash != timeline[seq]:
                    raise MnemosyneError(
                        "git log and rev-list disagree on the timeline (repository changed during ingestion?)"
                    )
                self.apply(c, seq, files)
                self.state_at = c.hash
                res.commits_ingested += 1
                looped += 1
                last_commit = c.hash
                self.emit("ingesting", i + 1, todo, seq, c.hash)
                if self.lock is not None:
                    self.lock.refresh()
                if time.monotonic() - last_reg > 2.0 and self.flushed is not None:
                    self.store.flush()  # the registry never runs ahead of the graph (written windows only)
                    self._update_registry(last_ingested_commit=self.flushed[0].hash, last_ingested_seq=self.flushed[1])
                    last_reg = time.monotonic()
            self.flush_window()  # the last (partial) window, also when stopped
            t = time.perf_counter()
            self.store.flush()
            self.timings["write"] += time.perf_counter() - t
        if not res.stopped and looped < todo:
            raise MnemosyneError(
                f"git log ended after {res.commits_ingested} of {todo} timeline commits "
                "(repository changed during ingestion?); run again to continue"
            )
        final_seq = last_seq + looped
        res.message = (
            f"stopped after {res.commits_ingested} of {todo} commits (run again to continue)"
            if res.stopped
            else f"ingested {res.commits_ingested} commits, now at {last_commit[:12]} (seq {final_seq})"
        )
        return self._finish(res, final_seq, last_commit)

    def _run_head_only(self, res: IngestResult, head: str, last_seq: int, last_commit: str | None) -> IngestResult:
        res.mode = MODE_HEAD_ONLY
        if last_commit == head:
            res.message = f"up to date at {head[:12]} (head-only, seq {last_seq})"
            return self._finish(res, last_seq, last_commit)
        if last_commit:
            self.restore_or_load(last_commit, last_seq, self.rolled)
        seq = last_seq + 1
        self.emit("ingesting", 0, 1, seq, head)
        self._apply_tree(head, seq, last_commit)
        res.commits_ingested = 1
        self.emit("ingesting", 1, 1, seq, head)
        res.message = f"ingested the head {head[:12]} only (seq {seq}); run without --head-only for full history"
        return self._finish(res, seq, head)

    def _apply_tree(self, commit: str, seq: int, prev: str | None) -> None:
        """Write ``commit`` as timeline position ``seq``, one step from the tree of ``prev`` (None:
        from nothing, its whole tree): a head-only snapshot, the first commit of a history window."""
        info = self.repo.log(commit, max_count=1)[0]
        entries, subs = self.repo.ls_tree(commit)
        for s in subs:
            self._note_submodule(s)
        owns = self.extractor.owns

        def wanted(path: str) -> bool:
            return owns(path) or is_doc_path(path)

        new = {e.path: e for e in entries if wanted(e.path)}
        old = {e.path: e for e in self.repo.ls_tree(prev)[0] if wanted(e.path)} if prev else {}
        files: dict[str, bytes | None] = {p: None for p in old if p not in new}
        for p, e in new.items():
            if p not in old or old[p].blob != e.blob:
                files[p] = self.repo.read_blob(e.blob)
        self.apply(info, seq, files)
        self.flush_window()
        self.state_at = commit

    def _finish(self, res: IngestResult, seq: int, commit: str | None) -> IngestResult:
        res.last_seq = seq if seq >= 0 else None
        res.files_parsed = self.files_parsed
        res.timings = {k: round(v, 3) for k, v in self.timings.items()}
        res.state_reused = self.reused_state
        res.warnings = list(self.warnings.items)
        res.seconds = round(time.monotonic() - self.t0, 3)
        self.keep_state(commit, seq)
        self._update_registry(
            last_ingested_commit=commit, last_ingested_seq=res.last_seq,
            state="stopped" if res.stopped else "ready",
        )
        self.emit("done", res.commits_ingested, res.commits_ingested, res.last_seq, commit)
        return res

    def _update_registry(self, **fields: Any) -> None:
        if not self.registry:
            return
        try:
            self.db.registry.update(self.info.name, **fields)
        except MnemosyneError as err:  # a workspace object not in the registry (tests, tools)
            log.debug("registry update skipped: %s", err)

    def close(self) -> None:
        self.repo.close()


class _QueuedWrites:
    """The store's ordered queue as a documentation writer (``doc_store.DocWriter``): writes run on
    the write-behind thread after the commit's code writes; no results come back."""

    def __init__(self, store: VersionStore) -> None:
        self.store = store

    def query(self, cypher: str, params: dict[str, Any] | None = None) -> list[list[Any]]:
        self.store.q(cypher, params or {})
        return []

    def write_batches(self, cypher: str, rows: list[dict[str, Any]], batch_size: int | None = None, *,
                      params: dict[str, Any] | None = None) -> dict[str, int]:
        size = max(1, batch_size or self.store.batch_size)
        for i in range(0, len(rows), size):
            self.store.q(cypher, {**(params or {}), "rows": rows[i : i + size]})
        return {}


def _file_nodes(ff: FileFacts) -> dict[tuple[str, str], dict]:
    """Node rows of one file's facts, keyed by (NodeRows attribute, key)."""
    rows: dict[tuple[str, str], dict] = {
        ("files", ff.path): {"path": ff.path, "p": {"language": ff.language, "module": ff.module,
                                                  "content_hash": ff.content_hash}},
    }
    for s in ff.symbols:
        # the one definition of search_text (the back-fill's refresh_search_text computes the same
        # value from the node's properties, so it never rewrites what ingestion wrote)
        sig = None if s.kind == "class" else (s.signature or "")
        props = {"name": s.name, "file": s.file, "docstring": s.docstring or "", "line_start": s.line_start,
                 "line_end": s.line_end, "external": False,
                 "search_text": search_text(s.fqn, s.name, sig, s.docstring or "", s.file)}
        if s.kind == "class":
            rows[("classes", s.fqn)] = {"k": s.fqn, "p": props}
        else:
            props.update(kind=s.kind, signature=s.signature or "", body_hash=s.body_hash or "")
            rows[("functions", s.fqn)] = {"k": s.fqn, "p": props}
    return rows


def _changed_props(prev: dict | None, row: dict) -> dict:
    """The node row to write over ``prev`` (what this run last wrote for the node): only the
    properties that changed (``SET n += r.p``), so a function moved by an edit above it sends its
    line range, not its docstring and search text again."""
    if prev is None:
        return row
    old = prev["p"]
    return {**row, "p": {k: v for k, v in row["p"].items() if old.get(k) != v}}


def _endpoint_nodes(opened: list[tuple[EdgeKey, dict]], computed: dict[str, FileFacts], nodes: NodeRows,
                    known: set[tuple[str, str]]) -> None:
    """Make sure both ends of every new version exist (external callees and bases, packages).
    ``known``: nodes this run already wrote (nodes are never deleted), updated here."""
    known.update((V.FUNCTION, r["k"]) for r in nodes.functions)
    known.update((V.CLASS, r["k"]) for r in nodes.classes)
    known.update((V.FILE, r["path"]) for r in nodes.files)
    external: set[str] = set()
    for ff in computed.values():
        external.update(c.callee for c in ff.calls if c.external)
        external.update(i.parent for i in ff.inherits if i.external)
    for k, _ in opened:
        for label, key in ((k.src_label, k.src), (k.dst_label, k.dst)):
            if (label, key) in known:
                continue
            known.add((label, key))
            if label == V.FUNCTION:
                nodes.ext_functions.append({"k": key, "name": key.rsplit(".", 1)[-1], "ext": key in external})
            elif label == V.CLASS:
                nodes.ext_classes.append({"k": key, "name": key.rsplit(".", 1)[-1], "ext": key in external})
            elif label == V.THIRD_PARTY_PACKAGE:
                eco, _, name = key.partition(":")
                nodes.third_party.append({"k": key, "eco": eco, "name": name})
            elif label == V.FILE:
                nodes.ensure_files.append({"path": key})


def _package_of(path: str, pkg_paths: list[str], nodes: NodeRows) -> None:
    for pp in pkg_paths:  # longest first
        if pp == "." or path.startswith(pp.rstrip("/") + "/"):
            nodes.package_files.append({"pkg": pp, "path": path})
            return


def window_index(repo: GitRepo, timeline: list[str], since: str) -> int:
    """Index in ``timeline`` (first-parent hashes, root first) where a history window given by
    ``since`` starts: the first commit at or after a date (YYYY-MM-DD, ISO time, epoch seconds),
    or a revision that is on the timeline."""
    from mnemosyne.errors import ConfigError
    from mnemosyne.query.core import parse_time

    text = since.strip()
    when: int | None = None
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}([T ].*)?|\d{9,}", text):
        try:
            when = parse_time(text)
        except MnemosyneError:
            when = None
    if when is not None:
        stamped = repo.git.rev_list("--first-parent", "--reverse", "--timestamp", timeline[-1]).split("\n")
        times = {h: int(t) for t, _, h in (line.partition(" ") for line in stamped if line.strip())}
        for i, h in enumerate(timeline):
            if times.get(h, 0) >= when:
                return i
        return len(timeline) - 1  # nothing that recent: the window is the head alone
    try:
        commit = repo.rev_parse(text)
    except RevisionNotFound:
        raise ConfigError(f"--since {since!r} is neither a date (YYYY-MM-DD) nor a revision of this repository") from None
    if commit not in timeline:
        raise ConfigError(
            f"--since {since!r} ({commit[:12]}) is not on the first-parent history of the tracked branch; "
            "give a commit of that history or a date"
        )
    return timeline.index(commit)


def _workspace_info(db: Database, workspace: WorkspaceInfo | str) -> WorkspaceInfo:
    if isinstance(workspace, str):
        return db.registry.get(workspace)
    return workspace


def ingest_workspace(
    db: Database,
    workspace: WorkspaceInfo | str,
    *,
    head_only: bool = False,
    progress: Callable[[IngestProgress], None] | None = None,
    stop: threading.Event | None = None,
    verify: bool = False,
    rebuild: bool = False,
    since: str | None = None,
    head_first: bool | None = None,
) -> IngestResult:
    """Bring the workspace graph up to the head of its tracked branch (see the module doc).

    ``stop`` is checked between commits: when set, the run ends after the current commit with
    ``stopped=True`` and everything written is consistent. ``verify`` cross-checks, on resume,
    that the graph's open versions equal the state recomputed from the tree (slower).
    ``rebuild`` supersedes every version and ingests the whole history again (also done
    unasked when the graph was built with another ``FACTS_VERSION``). ``since`` (a date, a
    revision on the timeline, or 'all') starts the timeline there: that commit is seq 0 with its whole
    tree; a later run with an earlier ``since`` extends the window back (rebuilt from the new start,
    the previous versions kept as superseded), one with a later ``since`` changes nothing.
    ``head_first`` (default: the ``head_first`` setting): a workspace without its full history
    answers at its head first, and its history is built on the side and switched in when complete
    (``_ingest_head_first``).
    """
    info = _workspace_info(db, workspace)
    lock = _Lock(db, info.name)
    lock.acquire()
    try:
        if head_first is not False and not head_only and not rebuild and _wants_head_first(db, info, head_first):
            return _ingest_head_first(db, info, lock, progress, stop, verify, since)
        return _one_run(db, info, lock, progress, stop, verify, head_only=head_only, rebuild=rebuild, since=since)
    finally:
        lock.release()


def _one_run(db: Database, info: WorkspaceInfo, lock: _Lock, progress: Callable[[IngestProgress], None] | None,
             stop: threading.Event | None, verify: bool, graph: Graph | None = None, registry: bool = True,
             **kw: Any) -> IngestResult:
    run = _Run(db, info, stop, progress, graph=graph, registry=registry)
    run.verify = verify
    run.lock = lock
    try:
        return run.run(**kw)
    except BaseException:
        run._update_registry(state="error")
        raise
    finally:
        run.close()


def _wants_head_first(db: Database, info: WorkspaceInfo, forced: bool | None) -> bool:
    """The workspace has no full history yet (never ingested, a head-only snapshot, or a history
    build under way) and its history is long enough for the head to be worth answering first:
    ``head_first_min_commits`` first-parent commits (a short history is built whole sooner than
    the head snapshot it would wait for); ``forced``: any history of more than one commit."""
    from mnemosyne.store.switch import meta_of, side_graph

    if not forced and not db.settings.head_first:
        return False
    meta = meta_of(db.graph(info.name))
    if meta.get("last_commit") and (meta.get("mode") or MODE_FULL) == MODE_FULL:
        return False
    if side_graph(db, info.name).exists():
        return True  # a build to finish
    with GitRepo(info.path) as repo:
        if repo.is_empty():
            return False
        try:
            head = repo.rev_parse(info.branch or "HEAD")
        except RevisionNotFound:
            return False  # the plain run says what is wrong
        count = int(repo.git.rev_list("--first-parent", "--count", head).strip() or 0)
    return count > (1 if forced else max(1, db.settings.head_first_min_commits))


def _ingest_head_first(db: Database, info: WorkspaceInfo, lock: _Lock,
                       progress: Callable[[IngestProgress], None] | None, stop: threading.Event | None,
                       verify: bool, since: str | None) -> IngestResult:
    """HEAD first (store/switch.py): the head snapshot into the workspace graph, answering at once;
    then the history into the side graph, switched in when complete. A stopped or killed build
    resumes where it was on the next run; until then questions at other commits are answered from
    the source, and ``Meta.history_build`` in the workspace graph says how far the build is."""
    from mnemosyne.store.switch import carry_over, side_graph, switch_in

    t0 = time.monotonic()
    main = db.graph(info.name)
    head = _one_run(db, info, lock, progress, stop, verify, head_only=True)
    head_ready = round(time.monotonic() - t0, 3)
    if progress is not None:
        progress(IngestProgress(workspace=info.name, phase="head_ready", seq=head.last_seq, commit=head.head,
                                elapsed_s=head_ready))
    main_store = VersionStore(main, workspace=info.name)
    main_store.set_meta(history_build="running", history_done=0, history_total=None, history_eta_s=None)
    last_note = [0.0]

    def building(p: IngestProgress) -> None:
        if p.phase == "ingesting" and time.monotonic() - last_note[0] > 2.0:
            last_note[0] = time.monotonic()
            main_store.set_meta(history_done=p.done, history_total=p.total, history_eta_s=p.eta_s)
        if progress is not None:
            progress(p.model_copy(update={"stage": "history"}))

    side = side_graph(db, info.name)
    res = _one_run(db, info, lock, building, stop, verify, graph=side, registry=False, since=since)
    res.head_ready_s = head_ready
    res.warnings = list(dict.fromkeys([*head.warnings, *res.warnings]))
    if res.stopped:
        main_store.set_meta(history_build="stopped")
        res.message = (f"the head {(head.head or '')[:12]} answers (after {head_ready:.1f}s); the history build "
                       f"stopped after {res.commits_ingested} commits: run again to continue")
        return res
    carry_over(main, side)
    switch_in(db, side, main)
    try:
        db.registry.update(info.name, last_ingested_commit=res.head, last_ingested_seq=res.last_seq, state="ready")
    except MnemosyneError as err:  # a workspace object not in the registry (tests, tools)
        log.debug("registry update skipped: %s", err)
    res.seconds = round(time.monotonic() - t0, 3)
    res.message = (f"the head answered after {head_ready:.1f}s; " + res.message +
                   f"; history switched in after {res.seconds:.1f}s")
    return res


def ingest_path(
    db: Database,
    path: str | Path,
    name: str | None = None,
    branch: str | None = None,
    **kwargs: Any,
) -> IngestResult:
    """Ingest the repository at ``path``, registering it as workspace ``name`` when needed
    (default name: the repository folder's name, made valid)."""
    from mnemosyne.git.locate import repo_root

    root = repo_root(path)
    reg = db.registry
    for w in reg.list():
        if Path(w.path) == root and (branch is None or w.branch == branch) and (name is None or w.name == name):
            return ingest_workspace(db, w, **kwargs)
    if name is None:
        name = re.sub(r"[^A-Za-z0-9_.-]+", "-", root.name).strip("-") or "workspace"
        taken = {w.name for w in reg.list()}
        base, i = name, 2
        while name in taken:
            name, i = f"{base}-{i}", i + 1
    if branch is None:
        from mnemosyne.errors import ConfigError
        from mnemosyne.git.locate import default_branch

        try:
            branch = default_branch(root)
        except ConfigError:
            # detached HEAD, no origin/HEAD: track HEAD itself (registry needs a non-empty name)
            branch = "HEAD"
    info = reg.add(name, root, branch=branch)
    return ingest_workspace(db, info, **kwargs)
