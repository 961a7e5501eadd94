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
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mnemosyne.errors import MnemosyneError, RevisionNotFound
from mnemosyne.git.repo import GitRepo
from mnemosyne.ingest_lease import IngestBusy, _Lock
from mnemosyne.ingest_models import MODE_FULL, MODE_HEAD_ONLY, IngestProgress, IngestResult
from mnemosyne.ingest_run import _Run, clear_state_cache
from mnemosyne.store.versions import VersionStore

# the public names of ingestion (the run, its lease and its models live in ingest_run, ingest_lease,
# ingest_models, ingest_rows)
__all__ = ["MODE_FULL", "MODE_HEAD_ONLY", "IngestBusy", "IngestProgress", "IngestResult", "clear_state_cache",
           "ingest_path", "ingest_workspace"]

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database
    from mnemosyne.store.graph import Graph
    from mnemosyne.store.registry import WorkspaceInfo

log = logging.getLogger(__name__)


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
    from mnemosyne.store.switch import side_graph

    if not forced and not db.settings.head_first:
        return False
    meta = VersionStore(db.graph(info.name)).meta()
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
    if branch is not None:
        from mnemosyne.workspaces import check_branch

        check_branch(root, branch)  # before registering: a branch that does not exist registers nothing
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
