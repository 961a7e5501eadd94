"""History rewritten (force-push, reset, amend, rebase) and head-only transitions."""

from __future__ import annotations

import pytest

from mnemosyne.ingest import ingest_workspace
from mnemosyne.timeline.edges import diff_edge_sets, graph_edges_at, snapshot_edges

from .conftest import assert_invariant, tree_snapshot


def _py(name: str, calls: list[str]) -> str:
    body = "".join(f"    {c}()\n" for c in calls) or "    pass\n"
    return f"def {name}():\n{body}"


def _history(repo, n: int) -> list[str]:
    hs = []
    for i in range(n):
        repo.write("app/core.py", "".join(_py(f"f{j}", [f"f{j - 1}"] if j else []) + "\n" for j in range(i + 1)))
        hs.append(repo.commit(f"step {i}"))
    return hs


def _counts(g) -> dict:
    rows = g.query(
        "MATCH ()-[e]->() WHERE e.valid_from_seq IS NOT NULL "
        "RETURN e.superseded_at IS NULL, count(e)"
    )
    return {bool(k): v for k, v in rows}


def test_force_push_supersedes_and_ingests_the_new_timeline(db, ws, make_repo):
    repo = make_repo()
    old = _history(repo, 6)
    info = ws(repo.path)
    ingest_workspace(db, info)
    g = db.graph(info.name)
    total_before = sum(_counts(g).values())

    repo.git("reset", "-q", "--hard", old[2])
    repo.write("app/other.py", "from app.core import f1\n\ndef z():\n    f1()\n")
    repo.commit("new 3")
    repo.write("app/core.py", _py("f0", []) + "\n" + _py("f1", ["f0"]) + "\n" + _py("f9", ["f1"]))
    new_head = repo.commit("new 4")

    res = ingest_workspace(db, info.name, verify=True)
    assert res.commits_ingested == 2 and res.superseded > 0
    assert any("rewritten" in w for w in res.warnings)
    assert assert_invariant(g, repo.path) == 5
    # nothing deleted: every old version is still there, superseded or believed
    counts = _counts(g)
    assert sum(counts.values()) >= total_before
    assert counts.get(False, 0) > 0
    commits = dict(g.query("MATCH (c:Commit) RETURN c.hash, c.seq"))
    assert commits[old[3]] is None and commits[old[5]] is None  # superseded commits keep old_seq
    assert commits[old[2]] == 2 and commits[new_head] == 4
    old_seq = dict(g.query("MATCH (c:Commit) WHERE c.superseded_at IS NOT NULL RETURN c.hash, c.old_seq"))
    assert old_seq[old[5]] == 5
    head = g.query("MATCH (:Branch {name: 'main'})-[:HEAD]->(c:Commit) RETURN c.hash")
    assert head == [[new_head]]
    # a fact that held before the fork and still holds keeps its original start
    rows = g.query(
        "MATCH (:Function {fully_qualified_name: 'app.core.f1'})-[e:CALLS]->(:Function {fully_qualified_name: 'app.core.f0'}) "
        "WHERE e.superseded_at IS NULL RETURN e.valid_from_seq, e.valid_to_seq"
    )
    assert rows == [[1, None]]
    assert ingest_workspace(db, info.name).commits_ingested == 0


def test_reset_to_older_commit_only_supersedes(db, ws, make_repo):
    repo = make_repo()
    old = _history(repo, 4)
    info = ws(repo.path)
    ingest_workspace(db, info)
    repo.git("reset", "-q", "--hard", old[1])
    res = ingest_workspace(db, info.name)
    assert res.commits_ingested == 0 and res.superseded > 0 and res.last_seq == 1
    assert_invariant(db.graph(info.name), repo.path)
    # and growing again from there
    repo.write("app/x.py", "def x():\n    pass\n")
    repo.commit("x")
    assert ingest_workspace(db, info.name).commits_ingested == 1
    assert_invariant(db.graph(info.name), repo.path)


def test_amend_and_rebase(db, ws, make_repo):
    repo = make_repo()
    _history(repo, 3)
    info = ws(repo.path)
    ingest_workspace(db, info)
    repo.write("app/core.py", _py("only", []))
    repo.git("add", "-A")
    repo.git("commit", "-q", "--amend", "-m", "amended", env={"GIT_COMMITTER_DATE": "@1700009999 +0000"})
    res = ingest_workspace(db, info.name, verify=True)
    assert res.commits_ingested == 1 and res.last_seq == 2
    assert_invariant(db.graph(info.name), repo.path)
    # whole history replaced (different root): everything superseded, new history from seq 0
    repo.git("checkout", "-q", "--orphan", "tmp")
    repo.git("rm", "-q", "-rf", ".")
    repo.write("lib/a.py", _py("a", ["b"]) + "\n" + _py("b", []))
    repo.commit("new root")
    repo.git("branch", "-q", "-f", "main", "tmp")
    repo.git("checkout", "-q", "main")
    res = ingest_workspace(db, info.name, verify=True)
    assert res.commits_ingested == 1 and res.last_seq == 0
    assert_invariant(db.graph(info.name), repo.path)


def test_head_only_then_head_only_then_full(db, ws, make_repo):
    repo = make_repo()
    _history(repo, 4)
    info = ws(repo.path)
    res = ingest_workspace(db, info, head_only=True)
    assert res.mode == "head_only" and res.commits_ingested == 1 and res.last_seq == 0
    g = db.graph(info.name)
    assert not diff_edge_sets(snapshot_edges(tree_snapshot(repo.path, repo.head())), graph_edges_at(g, 0))
    assert ingest_workspace(db, info.name, head_only=True).commits_ingested == 0
    repo.write("app/more.py", "from app.core import f0\n\ndef m():\n    f0()\n")
    repo.commit("more")
    res = ingest_workspace(db, info.name, head_only=True)
    assert res.last_seq == 1
    assert not diff_edge_sets(snapshot_edges(tree_snapshot(repo.path, repo.head())), graph_edges_at(g, 1))
    # a full run replaces the head-only snapshot by the whole history
    res = ingest_workspace(db, info.name)
    assert res.commits_ingested == 5 and res.superseded > 0 and res.mode == "full"
    assert assert_invariant(g, repo.path) == 5
    # --head-only on a full-history workspace is a normal incremental run
    repo.write("app/last.py", "def last():\n    pass\n")
    repo.commit("last")
    res = ingest_workspace(db, info.name, head_only=True)
    assert res.mode == "full" and res.commits_ingested == 1 and any("ignored" in w for w in res.warnings)
    assert assert_invariant(g, repo.path) == 6


@pytest.mark.slow
def test_in_process_state_is_reused_only_when_exact(db, ws, make_repo):
    from mnemosyne.ingest import clear_state_cache

    repo = make_repo()
    _history(repo, 3)
    info = ws(repo.path)
    ingest_workspace(db, info)
    repo.write("app/n.py", "from app.core import f0\n\ndef n():\n    f0()\n")
    repo.commit("n")
    res = ingest_workspace(db, info.name, verify=True)
    assert res.state_reused and res.commits_ingested == 1
    # the graph moved on behind our back (another process ingested): the kept state is not used
    import os
    import subprocess
    import sys

    repo.write("app/n.py", "def n():\n    pass\n")
    repo.commit("n2")
    subprocess.run([sys.executable, "-m", "mnemosyne.cli", "ingest", "-w", info.name, "-q"], check=True,
                   env={**os.environ, "MNEMOSYNE_EMBED_ON_INGEST": "false"}, capture_output=True)
    repo.write("app/n.py", "def n3():\n    pass\n")
    repo.commit("n3")
    res = ingest_workspace(db, info.name, verify=True)
    assert not res.state_reused and res.commits_ingested == 1
    clear_state_cache()
    repo.write("app/n.py", "def n5():\n    pass\n")
    repo.commit("n5")
    assert not ingest_workspace(db, info.name).state_reused
    repo.git("reset", "-q", "--hard", "HEAD~1")
    repo.write("app/n.py", "def n4():\n    pass\n")
    repo.commit("n4")
    res = ingest_workspace(db, info.name, verify=True)
    assert not res.state_reused and res.superseded > 0
    assert_invariant(db.graph(info.name), repo.path)
