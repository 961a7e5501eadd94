"""The daemon's parts without a daemon: queue, debouncer, ignore rules, working tree, watcher, spool."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from mnemosyne.daemon import spool
from mnemosyne.daemon.debounce import Debouncer
from mnemosyne.daemon.gitstate import IgnoreRules, git_paths, ref_state, working_tree_changes
from mnemosyne.daemon.queue import BACKFILL, DONE, FAILED, INGEST, QUEUED, RUNNING, WorkQueue
from mnemosyne.daemon.watcher import RepoWatcher

from .conftest import wait_for


def test_queue_dedups_serialises_per_workspace_and_runs_workspaces_in_parallel(tmp_path: Path) -> None:
    q = WorkQueue(tmp_path / "q.sqlite3")
    a1, created = q.enqueue("a", INGEST, "refs")
    assert created
    a2, created = q.enqueue("a", INGEST, "hook:post-commit")
    assert not created and a2.id == a1.id
    assert q.get(a1.id).reason == "refs, hook:post-commit"
    q.enqueue("b", INGEST, "refs")
    first = q.claim(max_running=2)
    assert first is not None and first.workspace == "a" and first.state == RUNNING
    # a commit during the run queues one more job for "a", which must wait for the running one
    a3, created = q.enqueue("a", INGEST, "refs")
    assert created
    second = q.claim(max_running=2)
    assert second is not None and second.workspace == "b"
    assert q.claim(max_running=3) is None  # "a" busy, "b" busy
    q.finish(first.id, {"commits_ingested": 1})
    third = q.claim(max_running=2)
    assert third is not None and third.id == a3.id
    q.fail(second.id, "boom")
    assert q.get(second.id).state == FAILED and q.get(first.id).state == DONE
    assert q.counts() == {QUEUED: 0, RUNNING: 1, DONE: 1, FAILED: 1}


def test_queue_survives_a_crash_and_retries_with_backoff(tmp_path: Path) -> None:
    q = WorkQueue(tmp_path / "q.sqlite3")
    q.enqueue("a", INGEST, "refs")
    job = q.claim(1)
    assert job is not None
    q.close()  # the daemon dies with the job running
    q2 = WorkQueue(tmp_path / "q.sqlite3")
    assert q2.recover() == 1
    again = q2.claim(1)
    assert again is not None and again.id == job.id and again.attempts == 2
    q2.retry_later(again.id, 30.0, "db down")
    assert q2.claim(1) is None  # backing off
    assert q2.claim(1, now=time.time() + 31) is not None
    # backfill jobs are a separate kind; ingest goes first
    q2.enqueue("c", BACKFILL, "after ingest")
    q2.enqueue("d", INGEST, "refs")
    assert q2.claim(5).workspace == "d"


@pytest.mark.slow
def test_debouncer_gives_one_call_per_burst_and_honours_max_wait() -> None:
    calls: list[tuple[str, float]] = []
    d = Debouncer(lambda k: calls.append((str(k), time.monotonic())), quiet=0.15, max_wait=0.6)
    for _ in range(10):
        d.trigger("a")
        time.sleep(0.01)
    d.trigger("b")
    wait_for(lambda: len(calls) >= 2, 3)
    time.sleep(0.3)
    assert sorted(k for k, _ in calls) == ["a", "b"]
    calls.clear()
    start = time.monotonic()
    end = start + 1.0
    while time.monotonic() < end:  # a never-ending stream still fires every max_wait
        d.trigger("c")
        time.sleep(0.05)
    d.close()
    assert calls and calls[0][1] - start < 0.9


def test_ignore_rules_follow_gitignore_syntax() -> None:
    r = IgnoreRules(["# comment", "*.log", "build/", "/generated", "docs/**/*.md", "!keep.log", "vendor"])
    assert r.ignored("a.log") and r.ignored("x/y/a.log")
    assert not r.ignored("keep.log")
    assert r.ignored("build/x.py") and r.ignored("src/build/x.py") and not r.ignored("build")
    assert r.ignored("generated/a.py") and not r.ignored("src/generated/a.py")
    assert r.ignored("docs/a/b.md") and not r.ignored("docs/a/b.py")
    assert r.ignored("vendor/lib.py") and r.ignored("a/vendor")
    assert not r.ignored("src/app.py")


def test_working_tree_changes_honours_gitignore_and_mnemosyneignore(make_repo) -> None:
    repo = make_repo("wt repo")  # a path with a space
    assert working_tree_changes(repo.path) == []
    (repo.path / ".gitignore").write_text("*.tmp\n")
    (repo.path / ".mnemosyneignore").write_text("scratch/\n*.md\n")
    (repo.path / "pkg" / "m1.py").write_text("def changed():\n    pass\n")
    (repo.path / "new.py").write_text("x = 1\n")
    (repo.path / "junk.tmp").write_text("x")
    (repo.path / "scratch").mkdir()
    (repo.path / "scratch" / "s.py").write_text("x")
    (repo.path / "README.md").write_text("x")
    got = working_tree_changes(repo.path)
    assert got == [".gitignore", ".mnemosyneignore", "new.py", "pkg/m1.py"]
    first = repo.git("rev-list", "--max-parents=0", "HEAD").strip()
    repo.git("checkout", "-q", "--", "pkg/m1.py")
    repo.commit("more")
    # against an older indexed commit, committed changes count too
    assert "pkg/m2.py" in working_tree_changes(repo.path, base=first)


@pytest.mark.slow
def test_watcher_sees_commits_in_repos_and_linked_worktrees_once_per_burst(make_repo, tmp_path: Path) -> None:
    repo = make_repo("watched repo")
    other = make_repo("other")
    wt = tmp_path / "linked wt"
    repo.git("worktree", "add", "-q", "-b", "feature", str(wt))
    hits: list[str] = []
    spools: list[int] = []
    w = RepoWatcher(hits.append, lambda: spools.append(1), quiet=0.2)
    w.start()
    try:
        assert w.add("main", repo.path) and w.add("wt", wt) and w.add("other", other.path)
        gp = git_paths(wt)
        assert gp.git_dir != gp.common_dir
        w.watch_spool(tmp_path / "spool")
        for _ in range(3):
            repo.commit()
        wait_for(lambda: "main" in hits, 5, what="main event")
        time.sleep(0.5)
        assert "other" not in hits
        # the linked worktree shares refs/: both workspaces of that repository get a trigger
        hits.clear()
        (wt / "w.py").write_text("def w():\n    pass\n")
        subprocess_git(wt, "add", "w.py")
        subprocess_git(wt, "commit", "-q", "-m", "in worktree")
        wait_for(lambda: "wt" in hits, 5, what="worktree event")
        assert ref_state(wt)["refs/heads/feature"] == subprocess_git(wt, "rev-parse", "HEAD").strip()
        # a pure working-tree edit is not an event
        hits.clear()
        (repo.path / "pkg" / "m1.py").write_text("edited")
        time.sleep(0.6)
        assert hits == []
        spool.write_note(tmp_path / "spool", "post-commit", str(repo.path))
        wait_for(lambda: spools, 3, what="spool event")
        w.remove("other")
        assert "other" not in w.watched()
    finally:
        w.stop()


def subprocess_git(path: Path, *args: str) -> str:
    import os
    import subprocess

    from .conftest import GIT_ENV

    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")} | GIT_ENV
    return subprocess.run(["git", "-C", str(path), *args], check=True, capture_output=True, text=True, env=env).stdout


def test_spool_notes_are_atomic_and_ignored_while_half_written(tmp_path: Path) -> None:
    d = tmp_path / "spool"
    threads = [threading.Thread(target=spool.write_note, args=(d, "post-commit", f"/r{i}")) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    (d / ".half-written").write_text("post-com")
    notes = spool.read_notes(d)
    assert len(notes) == 20 and {n.worktree for n in notes} == {f"/r{i}" for i in range(20)}
    spool.remove(notes)
    assert spool.read_notes(d) == []
