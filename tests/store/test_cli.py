"""The store's CLI commands end to end, each in a fresh process against the session server."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from mnemosyne.config import Settings
from mnemosyne.store.connection import Database
from mnemosyne.workspaces import add_workspace

from .helpers import make_git_repo, run_cli


@pytest.mark.slow
def test_db_status(settings: Settings) -> None:
    proc = run_cli("db", "status")
    assert proc.returncode == 0, proc.stderr
    assert "running" in proc.stdout and str(settings.socket_path) in proc.stdout
    info = json.loads(run_cli("db", "status", "--json").stdout)
    assert info["running"] is True and info["pid"] > 0


def test_db_status_not_running() -> None:
    home = Path("/tmp") / f"mnx-{uuid.uuid4().hex[:10]}"
    proc = run_cli("db", "status", env={"MNEMOSYNE_HOME": str(home)})
    assert proc.returncode == 1 and "not running" in proc.stdout
    assert not home.exists() or not (home / "falkordb.pid").exists()


@pytest.mark.slow
def test_workspace_add_list_remove(db: Database, tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "cli-repo")
    proc = run_cli("workspace", "add", str(repo))
    assert proc.returncode == 0, proc.stderr
    assert "cli-repo" in proc.stdout
    listing = run_cli("workspace", "list")
    assert listing.returncode == 0
    assert listing.stdout.splitlines()[0].split()[:3] == ["NAME", "BRANCH", "STATE"]
    assert any(line.split()[:3] == ["cli-repo", "main", "registered"] for line in listing.stdout.splitlines())
    dup = run_cli("workspace", "add", str(repo))
    assert dup.returncode != 0 and "already exists" in dup.stderr
    db.graph("cli-repo").query("CREATE (:File {path: 'app.py'})")
    removed = run_cli("workspace", "remove", "cli-repo", "--keep-graph")
    assert removed.returncode == 0, removed.stderr
    assert "ws_cli-repo" in db.list_graphs()
    db.graph("cli-repo").delete()
    missing = run_cli("workspace", "remove", "cli-repo")
    assert missing.returncode != 0 and "no workspace 'cli-repo'" in missing.stderr


@pytest.mark.slow
def test_cypher_reads_and_refuses_writes(db: Database, tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "cy")
    add_workspace(db.registry, "cy", repo)
    try:
        g = db.graph("cy")
        g.query("UNWIND range(1, 3) AS i CREATE (:File {path: 'f' + toString(i)})")
        ok = run_cli("cypher", "MATCH (f:File) WHERE f.path <> $skip RETURN f.path ORDER BY f.path",
                     "--param", "skip=f2", "--json", cwd=repo)  # fmt: skip
        assert ok.returncode == 0, ok.stderr
        out = json.loads(ok.stdout)
        assert out["columns"] == ["f.path"] and out["rows"] == [["f1"], ["f3"]]
        typed = run_cli("cypher", "RETURN $n + 1, $s", "-p", "n=41", "-p", "s=hello", "--workspace", "cy")
        assert typed.returncode == 0 and typed.stdout.splitlines()[1].split("\t") == ["42", "hello"]
        refused = run_cli("cypher", "CREATE (n)", "--workspace", "cy")
        assert refused.returncode != 0
        assert "read-only: CREATE/MERGE/SET/DELETE are not allowed" in refused.stderr
        assert g.ro_query("MATCH (n) RETURN count(n)") == [[3]]
    finally:
        db.registry.remove("cy")


def test_status_lists_workspaces(db: Database, tmp_path: Path) -> None:
    add_workspace(db.registry, "st", make_git_repo(tmp_path / "st"))
    try:
        db.registry.update("st", last_ingested_commit="0123456789abcdef", last_ingested_seq=7, state="ready")
        proc = run_cli("status")
        assert proc.returncode == 0, proc.stderr
        assert "reachable" in proc.stdout
        line = next(line for line in proc.stdout.splitlines() if line.startswith("st "))
        assert "ready" in line and "0123456789ab" in line and " 7 " in line
    finally:
        db.registry.remove("st")


def test_status_with_unreachable_database() -> None:
    proc = run_cli("status", env={"MNEMOSYNE_FALKORDB_URL": "redis://127.0.0.1:1"})
    assert proc.returncode != 0
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "redis://127.0.0.1:1" in lines[0] and "MNEMOSYNE_FALKORDB_URL" in lines[0]
