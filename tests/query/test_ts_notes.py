"""The read API on the TypeScript sample (ts_notes): calls at commits, history, dependencies, a
feature-branch commit from source."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from pathlib import Path

import pytest

from mnemosyne import query as Q
from mnemosyne.errors import SymbolNotFound
from mnemosyne.ingest import ingest_path
from mnemosyne.samples import build_sample_repo


@pytest.fixture(scope="module")
def notes(db):
    root = Path(tempfile.mkdtemp(prefix="mnq-ts-", dir="/tmp"))
    name = f"qnotes_{uuid.uuid4().hex[:8]}"
    try:
        repo = build_sample_repo("ts_notes", root / "ts_notes")
        ingest_path(db, repo.path, name=name, branch="main")
        yield db, name, repo
    finally:
        if db.registry.find(name) is not None:
            db.registry.remove(name, drop_graph=True)
        shutil.rmtree(root, ignore_errors=True)


def test_ts_calls_removed(notes):
    db, name, repo = notes
    for fact in repo.facts["calls_removed"]:
        present = Q.calls(db, name, fact["caller"], at=repo.hash_at(fact["present_at_step"]))
        assert fact["callee"] in {e.callee for e in present.edges}, fact
        try:
            absent = Q.calls(db, name, fact["caller"], at=repo.hash_at(fact["absent_at_step"]))
            assert fact["callee"] not in {e.callee for e in absent.edges}, fact
        except SymbolNotFound:
            pass  # the caller itself is gone at that commit


def test_ts_history_and_merge(notes):
    db, name, repo = notes
    fact = repo.facts["functions_removed_and_readded"][0]
    h = Q.symbol_history(db, name, fact["fqn"])
    kinds = {e.kind: e.commit for e in h.events}
    assert kinds["removed"] == repo.hash_at(fact["absent_at_step"])
    assert kinds["re-added"] == repo.hash_at(fact["readded_at_step"])
    merge = repo.facts["calls_added_by_merge"][0]
    branch = Q.calls(db, name, merge["caller"], at=repo.hash_at(merge["committed_at_step"]))
    assert branch.from_source and merge["callee"] in {e.callee for e in branch.edges}
    merged = Q.calls(db, name, merge["caller"], at=repo.hash_at(merge["on_timeline_at_step"]))
    assert not merged.from_source and merge["callee"] in {e.callee for e in merged.edges}


def test_ts_dependency_history(notes):
    db, name, repo = notes
    fact = repo.facts["dependencies"][0]
    r = Q.dependency_history(db, name, fact["name"])
    by = {(e.kind, e.relation): e for e in r.events}
    assert by[("added", "depends")].commit == repo.hash_at(fact["added_at_step"])
    assert by[("added", "depends")].spec == fact["specs"]["package.json"][0]
    assert by[("version_changed", "locks")].version == fact["locked"]["package-lock.json"][1]
    assert by[("removed", "depends")].commit == repo.hash_at(fact["removed_at_step"])
