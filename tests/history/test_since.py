"""A history window: ``--since DATE|REV`` starts the timeline at a later commit (its whole tree as
seq 0), the graph equals a fresh parse at every commit of the window, an earlier ``--since``
extends it back, and a later one never cuts what is built."""

from __future__ import annotations

import pytest

from mnemosyne.errors import ConfigError
from mnemosyne.ingest import ingest_workspace
from mnemosyne.query import api
from tests.history.conftest import assert_invariant


def _history(make_repo):
    repo = make_repo()
    hashes = []
    for i in range(6):
        repo.write("app.py", "".join(f"def f{j}():\n    return {j}\n\n" for j in range(i + 1)) + f"def main():\n    return f{i}()\n")
        repo.write(f"m{i}.py", f"from app import f{i}\n\ndef g{i}():\n    return f{i}()\n")
        hashes.append(repo.commit(f"step {i}", when=1_700_000_000 + 86_400 * i))
    return repo, hashes


def _timeline(g) -> list[str]:
    return [h for _, h in sorted(g.query("MATCH (c:Commit) WHERE c.seq IS NOT NULL RETURN c.seq, c.hash"))]


def test_since_a_revision_then_extended_back(db, make_repo, ws):
    repo, hashes = _history(make_repo)
    info = ws(repo.path)
    res = ingest_workspace(db, info, since=hashes[3])
    assert res.commits_ingested == 3 and res.since == hashes[3]
    g = db.graph(info.name)
    assert _timeline(g) == hashes[3:]
    # the window's first commit carries its whole tree: m0..m3 exist at seq 0
    with_window = [(s, h) for s, h in enumerate(hashes[3:])]
    for _seq, h in with_window:
        assert {e.caller for e in api.callers(db, info.name, "app.f0", at=h).edges} >= {"m0.g0"}
    # the graph equals a fresh parse of each commit of the window
    from mnemosyne.extract import extract_tree
    from mnemosyne.git import GitRepo
    from mnemosyne.timeline.edges import diff_edge_sets, graph_edges_at, snapshot_edges

    with GitRepo(repo.path) as r:
        for seq, h in with_window:
            files, _ = r.read_tree_files(h)
            assert not diff_edge_sets(snapshot_edges(extract_tree(files.items())), graph_edges_at(g, seq))
    # a commit before the window is answered from the source, not from the graph
    old = api.calls(db, info.name, "app.main", at=hashes[1])
    assert old.from_source and [e.callee for e in old.edges] == ["app.f1"]
    # a later --since cuts nothing
    res = ingest_workspace(db, info, since=hashes[4])
    assert res.commits_ingested == 0 and any("ignored" in w for w in res.warnings)
    assert _timeline(g) == hashes[3:]
    # a run without --since keeps the window
    res = ingest_workspace(db, info)
    assert res.commits_ingested == 0 and _timeline(g) == hashes[3:]
    # an earlier one extends it back to the root: the whole history, equal to a fresh parse
    res = ingest_workspace(db, info, since="all")
    assert res.commits_ingested == 6
    assert _timeline(g) == hashes
    assert assert_invariant(g, repo.path) == 6


def test_since_a_date_and_new_commits(db, make_repo, ws):
    repo, hashes = _history(make_repo)
    info = ws(repo.path)
    res = ingest_workspace(db, info, since="2023-11-17")  # day 2 of the history (1_700_000_000 = 2023-11-14)
    g = db.graph(info.name)
    assert _timeline(g) == hashes[3:]
    assert res.since == hashes[3]
    repo.write("app.py", "def main():\n    return 1\n")
    new = repo.commit("later", when=1_700_000_000 + 86_400 * 9)
    res = ingest_workspace(db, info)
    assert res.commits_ingested == 1 and _timeline(g) == [*hashes[3:], new]
    assert api.calls(db, info.name, "app.main").edges == []


def test_since_errors(db, make_repo, ws):
    repo, hashes = _history(make_repo)
    info = ws(repo.path)
    with pytest.raises(ConfigError, match="neither a date"):
        ingest_workspace(db, info, since="no-such-rev")
    repo.git("checkout", "-q", "-b", "side", hashes[2])
    repo.write("side.py", "x = 1\n")
    side = repo.commit("side")
    repo.git("checkout", "-q", "main")
    with pytest.raises(ConfigError, match="not on the first-parent history"):
        ingest_workspace(db, info, since=side)
