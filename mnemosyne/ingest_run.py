"""One ingestion run of one workspace: the in-memory extractor and fact state, commit by commit
(the engine behind ``mnemosyne.ingest.ingest_workspace``; see that module for the behaviour).

Over 600 lines for one reason: ``_Run`` is one state machine (rollback, supersession, windows,
head-only, the history window, state reuse) whose steps share its state; what is not a step of it
lives beside it: ``ingest_rows`` (node rows, documentation writes), ``ingest_models`` (progress,
result), ``ingest_lease`` (the one-writer lease), ``ingest_readahead`` (the commit stream read ahead)."""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from contextlib import closing
from typing import TYPE_CHECKING, Any

from mnemosyne import vocabulary as V
from mnemosyne.errors import MnemosyneError, RevisionNotFound
from mnemosyne.extract import FACTS_VERSION, Extractor
from mnemosyne.facts import FileFacts
from mnemosyne.gcpause import gc_paused
from mnemosyne.git.repo import SYMLINK_MODE, CommitInfo, FileChange, GitRepo
from mnemosyne.ingest_lease import _Lock
from mnemosyne.ingest_models import MODE_FULL, MODE_HEAD_ONLY, IngestProgress, IngestResult, _Warnings
from mnemosyne.ingest_readahead import ReadAhead
from mnemosyne.ingest_rows import (
    _changed_props,
    _endpoint_nodes,
    _file_nodes,
    _package_of,
    _QueuedWrites,
    window_index,
)
from mnemosyne.parse.pool import shared_pool
from mnemosyne.search.doc_store import DocState, apply_docs, catch_up_docs, default_token_counter, match_mentions
from mnemosyne.search.docs import is_doc_path
from mnemosyne.store.identity_writer import record_identity
from mnemosyne.store.versions import NodeRows, VersionStore, now_s
from mnemosyne.store.window import VersionWindow
from mnemosyne.timeline.edges import (
    PACKAGES_OWNER,
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

STATE_CACHE_SIZE = 2
_STATE_CACHE: OrderedDict[tuple[str, str, str], dict[str, Any]] = OrderedDict()
_STATE_LOCK = threading.Lock()


def clear_state_cache() -> None:
    with _STATE_LOCK:
        _STATE_CACHE.clear()


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

    def _collect_extractor_warnings(self, paths: set[str] | None = None) -> None:
        """The extractor's reasons for skipping files (binary, too big, LFS pointers): all of them
        after loading a whole tree, else only for ``paths`` (a commit's changed files), so an
        unchanged skipped file is not reported again by every incremental run."""
        for path, msg in self.extractor.warnings.items():
            if paths is None or path in paths:
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
            if ff.warnings and (prev_ff is None or prev_ff.warnings != ff.warnings):
                for w in ff.warnings:  # a syntax error that drops code is said, once per change
                    self.warnings.add(w)
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
            self._collect_extractor_warnings(set(files))
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
        since_commit = timeline[0] if start else None
        if meta.get("since_commit") != since_commit:  # written when the window changes, not every run
            self.store.set_meta(since_commit=since_commit)
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
            assert last_commit is not None  # a seq >= 0 was read with its commit
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
        ahead = ReadAhead(self, stream, todo)
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
            else f"ingested {res.commits_ingested} commits, now at {(last_commit or '')[:12]} (seq {final_seq})"
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
