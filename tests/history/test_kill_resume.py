"""Kill-and-resume: `mnemosyne ingest` SIGKILLed at random points, then finished, gives the same
graph as an uninterrupted run (canonical dump of every node, edge and version, documentation
versions included, minus wall-clock properties)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import pytest

from mnemosyne.ingest import ingest_workspace

from .conftest import assert_docs_invariant, assert_invariant, canonical_dump
from .test_random_history import build_random_repo

VOLATILE = ("ingested_at", "updated_at", "added_at")


def _dump(g) -> list:
    return [x for x in canonical_dump(g, VOLATILE) if "Workspace" not in x[:2] and "Workspace" not in x[:3]]


def _cli(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "mnemosyne.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # windows of 8 commits (store/window.py): kills land inside windows and between them
        env={**os.environ, "MNEMOSYNE_HISTORY_WINDOW": "8"},
        start_new_session=True,
    )


@pytest.mark.slow
def test_sigkill_at_random_points_then_resume(db, ws, make_repo, tmp_path):
    repo = make_repo("killme")
    build_random_repo(repo, seed=7, commits=90, docs=True)  # docs too: the dump has their versions
    clone = tmp_path / "reference"
    subprocess.run(["git", "clone", "-q", "--branch", "main", str(repo.path), str(clone)], check=True)

    ref = ws(clone)
    ingest_workspace(db, ref)

    info = ws(repo.path)
    rnd = random.Random(1234)
    kills = 0
    states: list = []
    g = db.graph(info.name)
    for target in sorted(rnd.sample(range(5, 85), 5)):
        p = _cli("ingest", "--workspace", info.name, "--quiet", "--no-embed")
        deadline = time.monotonic() + 120
        while p.poll() is None and time.monotonic() < deadline:
            m = g.query("MATCH (m:Meta) RETURN m.last_seq") if g.exists() else []
            if m and m[0][0] is not None and m[0][0] >= target:
                break
            time.sleep(0.003)
        time.sleep(rnd.uniform(0, 0.03))  # land anywhere inside the next commit
        if p.poll() is not None:
            break
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        kills += 1
        m = g.query("MATCH (m:Meta) RETURN m.last_seq, m.in_progress_seq")
        states.append(m[0] if m else None)
    p = _cli("ingest", "--workspace", info.name, "--verify", "--no-embed")
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0, err.decode()
    assert kills >= 1, "ingestion finished before the first kill; make the repository bigger"
    print("states after each kill (last_seq, in_progress_seq):", states)
    # a kill inside a window leaves in_progress_seq at the window's first commit, right after the last written one
    assert all(ip is None or ip == last + 1 for last, ip in (s for s in states if s)), states
    meta = g.query("MATCH (m:Meta) RETURN m.last_seq, m.in_progress_seq")
    assert meta == [[89, None]]
    assert _dump(g) == _dump(db.graph(ref.name))
    assert_invariant(g, repo.path, seqs=[0, 30, 60, 89])
    assert_docs_invariant(g, repo.path, seqs=[0, 30, 60, 89])


def test_stop_event_stops_between_commits(db, ws, make_repo):
    import threading

    repo = make_repo()
    build_random_repo(repo, seed=3, commits=12)
    info = ws(repo.path)
    stop = threading.Event()
    seen = []

    def progress(p):
        seen.append(p)
        if p.phase == "ingesting" and p.done == 5:
            stop.set()

    res = ingest_workspace(db, info, progress=progress, stop=stop)
    assert res.stopped and res.commits_ingested == 5 and res.last_seq == 4
    assert db.graph(info.name).query("MATCH (m:Meta) RETURN m.in_progress_seq") == [[None]]
    assert_invariant(db.graph(info.name), repo.path, seqs=[0, 4])
    res = ingest_workspace(db, info.name)
    assert res.commits_ingested == 7 and not res.stopped
    assert_invariant(db.graph(info.name), repo.path)
    assert seen[-1].phase == "done" and any(p.eta_s is not None for p in seen)
