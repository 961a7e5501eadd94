"""The database going away in the middle of a history ingestion (writes queued behind the
resolver included): ingestion stops with ``DatabaseUnavailable``, and once the server is back
the next run rolls back the half-written commit and ends with the graph of an uninterrupted run."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from mnemosyne.config import Settings
from mnemosyne.errors import DatabaseUnavailable
from mnemosyne.ingest import ingest_workspace
from mnemosyne.store.connection import connect
from mnemosyne.store.embedded import EmbeddedFalkorDB
from mnemosyne.workspaces import add_workspace

from .conftest import assert_invariant, canonical_dump
from .test_random_history import build_random_repo

VOLATILE = ("ingested_at", "updated_at", "added_at")


@pytest.fixture
def own_settings():
    home = Path(tempfile.mkdtemp(prefix="mngo-", dir="/tmp"))
    s = Settings(home=home, falkordb_socket=home / "falkordb.sock", falkordb_url=None, embeddings_provider="none")
    try:
        yield s
    finally:
        EmbeddedFalkorDB(s).stop()
        shutil.rmtree(home, ignore_errors=True)


def _dump(g) -> list:
    return [x for x in canonical_dump(g, VOLATILE) if "Workspace" not in x[:2] and "Workspace" not in x[:3]]


@pytest.mark.slow
def test_server_stopped_mid_ingest_then_resumed(own_settings, make_repo, tmp_path):
    import subprocess

    repo = make_repo("away")
    build_random_repo(repo, seed=21, commits=40)
    clone = tmp_path / "reference"
    subprocess.run(["git", "clone", "-q", "--branch", "main", str(repo.path), str(clone)], check=True)
    server = EmbeddedFalkorDB(own_settings)
    server.start()
    with connect(own_settings) as db:
        ref = add_workspace(db.registry, "ref", clone, branch="main")
        ingest_workspace(db, ref)
        want = _dump(db.graph("ref"))

        info = add_workspace(db.registry, "away", repo.path, branch="main")

        def progress(p) -> None:
            if p.phase == "ingesting" and p.done == 15:
                server.stop()  # writes of the last commits may still be queued

        with pytest.raises(DatabaseUnavailable):
            ingest_workspace(db, info, progress=progress)
    server.start()
    with connect(own_settings) as db:
        g = db.graph("away")
        last = g.query("MATCH (m:Meta) RETURN m.last_seq")[0][0]
        assert last is None or last < 39
        res = ingest_workspace(db, "away")
        assert res.last_seq == 39
        assert _dump(g) == want
        assert_invariant(g, repo.path, seqs=[0, 14, 15, 16, 39])
