"""`workspace add/update` and `init` as a user runs them: the branch is checked, a running daemon is
told at once over its control socket (not at its next periodic check), and `init` writes each
client's MCP configuration. Real daemon, real repositories, the session FalkorDB."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import indexed_commit, wait_for


def mn(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mnemosyne.cli", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, cwd=cwd, timeout=120, check=False)  # fmt: skip


@pytest.mark.slow
def test_workspace_add_tells_the_running_daemon(daemon, registry, db, make_repo) -> None:
    # periodic checks far away: only the control-socket request can make this quick
    daemon(MNEMOSYNE_HEALTH_INTERVAL_S="600", MNEMOSYNE_RECONCILE_INTERVAL_S="600")
    repo = make_repo("told")
    t0 = time.monotonic()
    p = mn("workspace", "add", str(repo.path), "--name", "d_told")
    assert p.returncode == 0, p.stderr
    assert "the daemon queued d_told" in p.stdout, p.stdout
    wait_for(lambda: indexed_commit(db, "d_told") == repo.head(), 30, what="ingest after workspace add")
    assert time.monotonic() - t0 < 30


@pytest.mark.slow
def test_workspace_add_refuses_a_missing_branch_and_update_exists(registry, make_repo) -> None:
    repo = make_repo("branches")
    repo.git("branch", "dev")
    p = mn("workspace", "add", str(repo.path), "--name", "d_br", "--branch", "nosuch")
    assert p.returncode == 1 and p.stderr.startswith("mnemosyne: branch 'nosuch' does not exist in ")
    assert "its branches: dev, main" in p.stderr and registry.find("d_br") is None
    assert mn("workspace", "add", str(repo.path), "--name", "d_br", "--branch", "dev").returncode == 0
    p = mn("workspace", "update", "d_br", "--branch", "nosuch")
    assert p.returncode == 1 and "branch 'nosuch' does not exist" in p.stderr
    p = mn("workspace", "update", "d_br", "--branch", "main")
    assert p.returncode == 0 and registry.get("d_br").branch == "main", p.stderr
    assert mn("workspace", "update", "d_br").returncode == 1


@pytest.mark.slow
@pytest.mark.parametrize("agent,rel,key,typed", [
    ("claude-code", ".mcp.json", "mcpServers", True),
    ("cursor", ".cursor/mcp.json", "mcpServers", False),
    ("vscode", ".vscode/mcp.json", "servers", True),
    ("claude-desktop", "xdg/Claude/claude_desktop_config.json", "mcpServers", False),
])  # fmt: skip
def test_init_writes_each_clients_config(agent, rel, key, typed, registry, make_repo, settings, tmp_path) -> None:
    repo = make_repo(f"init-{agent}")
    target = (tmp_path / rel) if agent == "claude-desktop" else (repo.path / rel)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps({key: {"other": {"command": "x"}}, "keep": 1}))  # merged, not replaced
    env = {"XDG_CONFIG_HOME": str(tmp_path / "xdg"), "MNEMOSYNE_EMBED_ON_INGEST": "false"}  # not a search test
    p = mn("init", str(repo.path), "--agent", agent, "--write", "--no-daemon", "--name", f"d_init_{agent[:6]}",
           env=env)  # fmt: skip
    assert p.returncode == 0, p.stderr
    assert "registered workspace" in p.stderr and "ingested: ingested the head" in p.stderr
    data = json.loads(target.read_text())
    assert data["keep"] == 1 and data[key]["other"] == {"command": "x"}
    entry = data[key]["mnemosyne"]
    assert ("type" in entry) == typed and entry.get("type", "stdio") == "stdio"
    assert Path(entry["command"]).is_absolute() and os.access(entry["command"], os.X_OK)
    assert entry["args"][-1] == "mcp" and entry["env"] == {"MNEMOSYNE_HOME": str(Path(settings.home).absolute())}
    # again: nothing registered twice, nothing ingested again, the config printed when not --write
    again = mn("init", str(repo.path), "--agent", agent, "--no-daemon", env=env)
    assert again.returncode == 0 and "already ingested" in again.stderr
    assert json.loads(again.stdout)[key]["mnemosyne"] == entry


@pytest.mark.slow
def test_init_refuses_a_config_that_is_not_json(registry, make_repo) -> None:
    repo = make_repo("init-bad")
    (repo.path / ".mcp.json").write_text("{ not json")
    p = mn("init", str(repo.path), "--write", "--no-daemon", "--name", "d_init_bad")
    assert p.returncode == 1 and "is not valid JSON" in p.stderr and "Traceback" not in p.stderr
    assert (repo.path / ".mcp.json").read_text() == "{ not json"
