"""Documentation is ingested per timeline commit, like the code: the Section versions holding at
every commit equal a fresh ``docs`` parse of that commit's tree, through adds, edits, renames,
deletes, a half-written commit, a history rewrite and head-only snapshots."""

from __future__ import annotations

import threading

import pytest

from mnemosyne.git import GitRepo
from mnemosyne.ingest import ingest_workspace
from mnemosyne.search.doc_store import apply_docs
from mnemosyne.timeline.edges import graph_edges_at

from .conftest import (
    assert_docs_invariant,
    assert_invariant,
    canonical_dump,
    docs_at,
    docs_of_tree,
)
from .test_random_history import build_random_repo

VOLATILE = ("ingested_at", "updated_at", "added_at")

GUIDE = "Guide\n=====\n\nIntro to `area` and friends.\n\nUsage\n-----\n\nCall ``area(2)``::\n\n    area(2)\n"


def _history(repo) -> list[str]:
    hashes = []
    repo.write("geo.py", "def area(r):\n    return 3 * r * r\n")
    repo.write("README.md", "# Geo\n\nComputes `area`.\n")
    hashes.append(repo.commit("add readme"))
    repo.write("README.md", "# Geo\n\nComputes `area`.\n\n## Install\n\npip install geo\n")
    repo.write("docs/guide.rst", GUIDE)
    hashes.append(repo.commit("edit readme, add guide"))
    repo.mv("docs/guide.rst", "docs/manual.rst")  # pure rename
    hashes.append(repo.commit("rename guide"))
    repo.mv("docs/manual.rst", "docs/handbook.rst")
    repo.write("docs/handbook.rst", GUIDE.replace("friends", "neighbours"))  # rename + edit
    repo.write("geo.py", "def area(r):\n    return 3 * r * r\n\n\ndef perimeter(r):\n    return 6 * r\n")
    hashes.append(repo.commit("rename and edit handbook, add perimeter"))
    repo.rm("README.md")
    hashes.append(repo.commit("delete readme"))
    repo.write("README.md", "# Geo\n\nComputes `area`.\n")  # back: new versions, same Section nodes
    repo.write("notes.txt", "not documentation")
    hashes.append(repo.commit("readme is back"))
    repo.write("geo.py", "def area(r):\n    return 3.14 * r * r\n")
    hashes.append(repo.commit("code only"))
    repo.rm("docs")
    hashes.append(repo.commit("drop docs folder"))
    return hashes


def _dump(g) -> list:
    return [x for x in canonical_dump(g, VOLATILE) if "Workspace" not in x[:2] and "Workspace" not in x[:3]]


def test_docs_at_every_commit_equal_a_fresh_parse(db, ws, make_repo):
    repo = make_repo()
    hashes = _history(repo)
    info = ws(repo.path)
    res = ingest_workspace(db, info)
    assert res.commits_ingested == len(hashes)
    g = db.graph(info.name)
    assert assert_docs_invariant(g, repo.path) == len(hashes)
    assert_invariant(g, repo.path)  # the code invariant ignores the doc edges
    assert set(graph_edges_at(g, 0)) == {"CALLS", "IMPORTS", "INHERITS_FROM", "DEFINES", "DEPENDS_ON", "LOCKS_VERSION"}
    assert sorted(docs_at(g, 3)) == ["<next>", "README.md", "docs/handbook.rst"]
    assert sorted(docs_at(g, 4)) == ["<next>", "docs/handbook.rst"]
    # a mention resolved against the code at that commit
    assert g.ro_query("MATCH (:Section {doc: 'README.md'})-[:MENTIONS]->(f:Function) RETURN DISTINCT f.fully_qualified_name") \
        == [["geo.area"]]
    meta = g.ro_query("MATCH (m:Meta) RETURN m.last_seq, m.docs_seq, m.docs_commit")[0]
    assert meta == [len(hashes) - 1, len(hashes) - 1, hashes[-1]]
    before = _dump(g)
    assert ingest_workspace(db, info).commits_ingested == 0
    assert _dump(g) == before


def test_half_written_commit_is_rolled_back_with_its_docs(db, ws, make_repo, tmp_path):
    import subprocess

    repo = make_repo()
    hashes = _history(repo)
    clone = tmp_path / "reference"
    subprocess.run(["git", "clone", "-q", "--branch", "main", str(repo.path), str(clone)], check=True)
    ref = ws(clone)
    ingest_workspace(db, ref)
    info = ws(repo.path)
    stop = threading.Event()

    def progress(p):
        if p.phase == "ingesting" and p.done == 1:
            stop.set()

    assert ingest_workspace(db, info, progress=progress, stop=stop).last_seq == 0
    g = db.graph(info.name)
    # killed after commit 1's documentation was written, before Meta moved
    g.query("MATCH (m:Meta) SET m.in_progress_seq = 1")
    apply_docs(g, 1, hashes[1], 1, {"README.md": b"# Geo\n\nhalf-written\n", "docs/guide.rst": GUIDE.encode()})
    res = ingest_workspace(db, info)
    assert res.rolled_back >= 3 and res.commits_ingested == len(hashes) - 1
    assert_docs_invariant(g, repo.path)
    # same graph as an uninterrupted run, but for the half-written Section node (nodes are never
    # deleted; it is in no document at any commit)
    ref_dump, dump = _dump(db.graph(ref.name)), _dump(g)
    assert [x for x in ref_dump if x not in dump] == []
    extra = [x for x in dump if x not in ref_dump]
    assert len(extra) == 1 and all(x[0] == "node" and x[1] == "Section" and "half-written" in repr(x) for x in extra), extra


def test_history_rewrite_supersedes_doc_versions(db, ws, make_repo):
    repo = make_repo()
    hashes = _history(repo)
    info = ws(repo.path)
    ingest_workspace(db, info)
    g = db.graph(info.name)
    repo.git("reset", "-q", "--hard", hashes[2])
    repo.write("README.md", "# Geo\n\nRewritten.\n")
    repo.commit("rewritten readme")
    res = ingest_workspace(db, info)
    assert res.superseded > 0 and res.commits_ingested == 1
    assert assert_docs_invariant(g, repo.path) == 4
    # the superseded versions are kept, not believed
    n = g.ro_query("MATCH ()-[e:HAS_SECTION]->() WHERE e.superseded_at IS NOT NULL RETURN count(e)")[0][0]
    assert n > 0
    assert g.ro_query("MATCH (m:Meta) RETURN m.docs_seq")[0][0] == 3


def test_head_only_snapshots_carry_the_whole_doc_tree(db, ws, make_repo):
    repo = make_repo()
    hashes = _history(repo)
    repo.git("reset", "-q", "--hard", hashes[3])
    info = ws(repo.path)
    ingest_workspace(db, info, head_only=True)
    g = db.graph(info.name)
    assert sorted(docs_at(g, 0)) == ["<next>", "README.md", "docs/handbook.rst"]
    repo.git("reset", "-q", "--hard", hashes[5])
    ingest_workspace(db, info, head_only=True)  # seq 1: one step from the previous head
    with GitRepo(repo.path) as r:  # (the timeline of main is the full history: compare by hand)
        for seq, h in ((0, hashes[3]), (1, hashes[5])):
            entries, _ = r.ls_tree(h)
            files = {e.path: r.read_blob(e.blob) for e in entries if e.path.endswith((".md", ".rst"))}
            assert docs_at(g, seq) == docs_of_tree(files)
    # then the full history replaces the snapshots, docs included
    ingest_workspace(db, info)
    assert_docs_invariant(g, repo.path)


@pytest.mark.slow
def test_random_doc_history(db, ws, make_repo):
    repo = make_repo()
    build_random_repo(repo, seed=11, commits=40, docs=True)
    info = ws(repo.path)
    ingest_workspace(db, info)
    g = db.graph(info.name)
    assert assert_docs_invariant(g, repo.path) == 40
    assert_invariant(g, repo.path, seqs=[0, 20, 39])
