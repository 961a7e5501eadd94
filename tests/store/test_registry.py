"""Workspace registry round trip and workspace resolution."""

from __future__ import annotations

from pathlib import Path

import pytest

from mnemosyne.errors import ConfigError, WorkspaceAmbiguous, WorkspaceNotFound
from mnemosyne.store.connection import Database
from mnemosyne.store.registry import WorkspaceRegistry
from mnemosyne.workspaces import add_workspace, resolve_workspace

from .helpers import make_git_repo


def test_round_trip(registry: WorkspaceRegistry, db: Database, tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "alpha", branch="trunk")
    info = add_workspace(registry, "alpha", repo / ".")
    assert info.name == "alpha" and info.path == str(repo.resolve()) and info.branch == "trunk"
    assert info.state == "registered" and info.last_ingested_commit is None and info.added_at > 0
    assert registry.get("alpha") == info
    assert "alpha" in [w.name for w in registry.list()]

    db.graph("alpha").query("CREATE (:File {path: 'app.py'})")
    updated = registry.update("alpha", last_ingested_commit="abc123", last_ingested_seq=4, state="ready")
    assert (updated.last_ingested_commit, updated.last_ingested_seq, updated.state) == ("abc123", 4, "ready")
    assert registry.get("alpha").last_ingested_seq == 4
    assert registry.update("alpha", last_ingested_seq=None).last_ingested_seq is None

    with pytest.raises(ConfigError, match="already exists"):
        add_workspace(registry, "alpha", repo)
    with pytest.raises(WorkspaceNotFound, match="alpha"):
        registry.get("alpah")

    registry.remove("alpha")
    assert "alpha" not in [w.name for w in registry.list()] and "ws_alpha" not in db.list_graphs()


def test_remove_keep_graph(registry: WorkspaceRegistry, db: Database, tmp_path: Path) -> None:
    add_workspace(registry, "kept", make_git_repo(tmp_path / "kept"))
    db.graph("kept").query("CREATE (:File {path: 'x'})")
    registry.remove("kept", drop_graph=False)
    assert "ws_kept" in db.list_graphs()
    db.graph("kept").delete()


def test_add_rejects_non_git(registry: WorkspaceRegistry, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not inside a git repository"):
        add_workspace(registry, "nogit", tmp_path)
    with pytest.raises(ConfigError, match="invalid workspace name"):
        add_workspace(registry, "bad name", tmp_path)


def test_resolve_workspace(registry: WorkspaceRegistry, db: Database, tmp_path: Path) -> None:
    alone = not registry.list()  # other tests of the session may have left workspaces
    if alone:
        with pytest.raises(WorkspaceNotFound, match="workspace add"):
            resolve_workspace(db, None, cwd=tmp_path)
    one = make_git_repo(tmp_path / "one")
    add_workspace(registry, "one", one)
    if alone:
        assert resolve_workspace(db, None, cwd=tmp_path).name == "one"  # the only one
    two = make_git_repo(tmp_path / "two")
    add_workspace(registry, "two", two)
    (two / "pkg").mkdir()
    assert resolve_workspace(db, None, cwd=two / "pkg").name == "two"  # contains the cwd
    assert resolve_workspace(db, "one", cwd=two).name == "one"  # explicit name wins
    with pytest.raises(WorkspaceAmbiguous, match="one.*two"):
        resolve_workspace(db, None, cwd=tmp_path)
