"""Randomized histories (seeded): add/remove/rename functions, classes, files, imports and calls in
Python and TypeScript; the invariant must hold at every commit."""

from __future__ import annotations

import os

import pytest

from mnemosyne.ingest import ingest_workspace

from .conftest import assert_invariant, canonical_dump
from .randgen import DocHistory, History

SEEDS = [int(s) for s in os.environ.get("MNEMOSYNE_RANDOM_SEEDS", "1,2,3,4,5,6").split(",")]
COMMITS = int(os.environ.get("MNEMOSYNE_RANDOM_COMMITS", "30"))


def build_random_repo(repo, seed: int, commits: int, docs: bool = False) -> None:
    """``docs``: documentation files evolve too (tests/history/test_docs_history.py)."""
    h = History(seed)
    d = DocHistory(seed) if docs else None
    current: dict[str, str] = {}
    for i in range(commits):
        msg = h.step() if i else "start"
        files = h.render()
        if d is not None:
            d.step(h.all_fns("py"))
            files.update(d.render())
        for p in set(current) - set(files):
            repo.rm(p)
        for p, text in files.items():
            if current.get(p) != text:
                repo.write(p, text)
        current = files
        repo.commit(f"{i}: {msg}", allow_empty=True)


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_random_history_invariant(db, ws, make_repo, seed):
    repo = make_repo(f"rand{seed}")
    build_random_repo(repo, seed, COMMITS)
    info = ws(repo.path)
    res = ingest_workspace(db, info)
    assert res.commits_ingested == COMMITS
    g = db.graph(info.name)
    assert assert_invariant(g, repo.path) == COMMITS
    before = canonical_dump(g, ("ingested_at", "updated_at"))
    assert ingest_workspace(db, info.name).commits_ingested == 0
    assert canonical_dump(g, ("ingested_at", "updated_at")) == before
