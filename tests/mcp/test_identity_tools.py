"""MCP tools follow the recorded renames and moves (a real MCP client session on a real history)."""

from __future__ import annotations

import uuid

import pytest
from history.conftest import Repo
from history.test_identity import _renamed_history
from mcp import Client

from mnemosyne.ingest import ingest_workspace
from mnemosyne.workspaces import add_workspace

pytestmark = pytest.mark.anyio


async def test_mcp_tools_follow_renames_and_moves(server, db, tmp_path):
    repo = Repo(tmp_path / "renamed")
    hs = _renamed_history(repo)
    name = f"ren_{uuid.uuid4().hex[:8]}"
    info = add_workspace(db.registry, name, repo.path, branch="main")
    try:
        ingest_workspace(db, info)
        async with Client(server) as c:
            r = await c.call_tool("get_calls", {"fqn": "pkg.shapes.Polygon.describe", "at": hs["intro"],
                                                "workspace": name})
            assert r.structured_content["name_at_commit"] == "pkg.shapes.Shape.describe"
            assert "pkg.shapes.Shape.area" in [e["callee"] for e in r.structured_content["edges"]]
            assert "renamed or moved since" in r.content[0].text
            r = await c.call_tool("symbol_history", {"fqn": "pkg.io.load_rows", "workspace": name})
            kinds = [e["kind"] for e in r.structured_content["events"] if not e["kind"].startswith("calls_")]
            assert kinds == ["appeared", "renamed", "signature_changed", "body_changed", "formatting_only"], kinds
            r = await c.call_tool("diff_commits", {"rev_a": hs["intro"], "rev_b": hs["format"], "workspace": name})
            renamed = {(ch["details"]["old_fqn"], ch["name"]) for ch in r.structured_content["changes"]
                       if ch["change"] == "renamed"}
            assert ("pkg.io._load_rows", "pkg.io.load_rows") in renamed
            r = await c.call_tool("impact", {"target": "pkg.shapes.Polygon.area", "at": hs["intro"], "workspace": name})
            assert "was named `pkg.shapes.Shape.area`" in r.content[0].text
    finally:
        db.registry.remove(name)


async def test_mcp_diff_lists_a_moved_file_once(server, db, tmp_path):
    from history.test_diff_moves import _history

    repo = Repo(tmp_path / "moved")
    first, second = _history(repo)
    name = f"mov_{uuid.uuid4().hex[:8]}"
    info = add_workspace(db.registry, name, repo.path, branch="main")
    try:
        ingest_workspace(db, info)
        async with Client(server) as c:
            r = await c.call_tool("diff_commits", {"rev_a": first, "rev_b": second, "workspace": name})
            changes = r.structured_content["changes"]
            moved = {(ch["details"]["old_file"], ch["name"]) for ch in changes if ch["change"] == "moved"}
            assert ("pkg/core.py", "src/pkg/core.py") in moved and len(moved) == 3
            assert "pkg.core.helper" not in {ch["name"] for ch in changes if ch["category"] == "symbol"}
            totals = r.structured_content["totals"]
            assert totals["files_moved"] == 3 and totals["symbols_moved_with_file"] == 6
            assert totals["imports_added"] == 1 and "imports_removed" not in totals
            assert totals["files_added"] == 1 and totals["symbols_with_whole_file"] == 2
            assert "pkg.extra.shout" not in {ch["name"] for ch in changes}
            assert "> file `src/pkg/core.py` (from `pkg/core.py`, 4 symbols with it)" in r.content[0].text
    finally:
        db.registry.remove(name)
