"""HEAD first: a workspace without its history answers at its head at once, while the history is
built on the side and switched in when complete; questions at commits not built yet say so and are
answered from the source; a stopped or killed build resumes and ends in the graph a plain run makes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from mnemosyne.ingest import ingest_workspace
from mnemosyne.query import api
from mnemosyne.query import coordination as C
from mnemosyne.store.switch import side_graph

from .conftest import assert_invariant, canonical_dump
from .test_random_history import build_random_repo

VOLATILE = ("ingested_at", "updated_at", "added_at")


def _dump(g) -> list:
    return [x for x in canonical_dump(g, VOLATILE) if "Workspace" not in x[:2] and "Workspace" not in x[:3]]


def _history(repo, n: int) -> list[str]:
    hashes = []
    for i in range(n):
        repo.write("app.py", "".join(f"def f{j}():\n    return {j}\n\n" for j in range(i + 1)) + f"def main():\n    return f{i}()\n")
        hashes.append(repo.commit(f"step {i}"))
    return hashes


def test_head_answers_while_the_history_is_built(db, make_repo, ws):
    repo = make_repo()
    hashes = _history(repo, 12)
    info = ws(repo.path)
    seen: list[str] = []
    during: dict = {}

    def progress(p):
        seen.append(p.phase if p.stage != "history" else f"history:{p.phase}")
        if p.stage == "history" and p.phase == "ingesting" and p.done == 6 and not during:
            # mid-build: the head answers from the graph, an old commit from the source, saying why
            during["head"] = [e.callee for e in api.calls(db, info.name, "app.main").edges]
            old = api.calls(db, info.name, "app.main", at=hashes[2])
            during["old"] = (old.from_source, [e.callee for e in old.edges], old.at.describe())
            during["status"] = [s.history for s in api.list_workspaces_status(db) if s.name == info.name]
            # an agent writes a constraint meanwhile: it survives the switch
            C.add_constraint(db, info.name, "app.main", "no-touch", reason="frozen during the release", owner="agent-a")

    res = ingest_workspace(db, info, progress=progress, head_first=True)
    assert seen.index("head_ready") < seen.index("history:ingesting")
    assert res.head_ready_s is not None and res.commits_ingested == 12 and res.last_seq == 11
    assert during["head"] == ["app.f11"]
    from_source, callees, described = during["old"]
    assert from_source and callees == ["app.f2"] and "history being built" in described
    assert during["status"] and "history being built" in during["status"][0]
    g = db.graph(info.name)
    assert not side_graph(db, info.name).exists()
    assert assert_invariant(g, repo.path) == 12
    assert [c.reason for c in C.list_constraints(db, info.name)] == ["frozen during the release"]
    old = api.calls(db, info.name, "app.main", at=hashes[2])
    assert not old.from_source and [e.callee for e in old.edges] == ["app.f2"]
    assert db.registry.get(info.name).last_ingested_seq == 11
    assert [s.history for s in api.list_workspaces_status(db) if s.name == info.name] == [None]


@pytest.mark.slow
def test_stopped_build_resumes_and_equals_a_plain_run(db, make_repo, ws, tmp_path):
    repo = make_repo()
    build_random_repo(repo, seed=11, commits=30, docs=True)
    clone = tmp_path / "reference"
    subprocess.run(["git", "clone", "-q", "--branch", "main", str(repo.path), str(clone)], check=True)
    ref = ws(clone)
    ingest_workspace(db, ref, head_first=False)

    info = ws(repo.path)
    stop = threading.Event()

    def progress(p):
        if p.stage == "history" and p.phase == "ingesting" and p.done == 10:
            stop.set()

    res = ingest_workspace(db, info, progress=progress, stop=stop, head_first=True)
    assert res.stopped and side_graph(db, info.name).exists()
    assert any(s.history and "stopped" in s.history for s in api.list_workspaces_status(db) if s.name == info.name)
    res = ingest_workspace(db, info, head_first=True)
    assert not res.stopped and not side_graph(db, info.name).exists()
    assert _dump(db.graph(info.name)) == _dump(db.graph(ref.name))


@pytest.mark.slow
def test_sigkill_during_the_history_build_then_resume(db, make_repo, ws, tmp_path):
    repo = make_repo()
    build_random_repo(repo, seed=5, commits=60)
    clone = tmp_path / "reference"
    subprocess.run(["git", "clone", "-q", "--branch", "main", str(repo.path), str(clone)], check=True)
    ref = ws(clone)
    ingest_workspace(db, ref, head_first=False)
    info = ws(repo.path)
    env = {**os.environ, "MNEMOSYNE_HEAD_FIRST_MIN_COMMITS": "1", "MNEMOSYNE_HISTORY_WINDOW": "8"}
    side = side_graph(db, info.name)
    killed = 0
    for _ in range(2):
        p = subprocess.Popen([sys.executable, "-m", "mnemosyne.cli", "ingest", "--workspace", info.name, "--quiet", "--no-embed"],
                             env=env, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while p.poll() is None and time.monotonic() < deadline:
            m = side.query("MATCH (m:Meta) RETURN m.last_seq") if side.exists() else []
            if m and m[0][0] is not None and m[0][0] >= 15:
                break
            time.sleep(0.005)
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            killed += 1
        p.wait()
        # the head kept answering
        assert api.resolve_at(db, info.name).hash == repo.head()
    p = subprocess.run([sys.executable, "-m", "mnemosyne.cli", "ingest", "--workspace", info.name, "--quiet", "--no-embed"],
                       env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert killed >= 1, "the build finished before the first kill; make the history longer"
    assert not side.exists()
    assert _dump(db.graph(info.name)) == _dump(db.graph(ref.name))
