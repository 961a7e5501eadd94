"""The README's "Use it on your repository" quickstart, run literally on a sample repository with a
fresh MNEMOSYNE_HOME (its own embedded FalkorDB and daemon) and HOME, so `~/code/myrepo` is the
sample built there. Then the MCP configuration that step 5 wrote is used as an agent would use
it: a real stdio MCP session started from that configuration's command, args and env."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from mnemosyne.samples import build_sample_repo

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent


def quickstart() -> list[str]:
    """The commands of the README's quickstart block (the one after the quickstart marker)."""
    text = (ROOT / "README.md").read_text()
    m = re.search(r"<!-- quickstart:[^>]*-->\s*```bash\n(.*?)```", text, re.S)
    assert m, "README.md has no quickstart block"
    return [ln for ln in m.group(1).splitlines() if ln.strip()]


def demo_install() -> str:
    text = (ROOT / "README.md").read_text()
    m = re.search(r"## Run the demo\s*```bash\n(.*?)\n```", text, re.S)
    assert m
    return m.group(1).split(" && .venv/bin/mnemosyne")[0]


def test_quickstart_is_five_commands_and_installs_from_the_checkout():
    cmds = quickstart()
    assert len(cmds) <= 5
    # step 1 is the demo's own install (it is what `bash .ci/run` and the demo do); the test runs in
    # the environment it made instead of installing again
    assert cmds[0] == demo_install()
    assert not any(re.search(r"pip install mnemosyne\b", c) for c in cmds)  # the PyPI name is another project


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.slow
@pytest.mark.anyio  # about 15 s
async def test_readme_quickstart_runs_on_a_sample(tmp_path_factory):
    home = Path(tmp_path_factory.mktemp("qs-home", numbered=True))  # HOME: ~/code/myrepo lives here
    data = Path(tmp_path_factory.mktemp("qs-data", numbered=True))  # MNEMOSYNE_HOME, fresh
    repo = home / "code" / "myrepo"
    build_sample_repo("python_shop", repo)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MNEMOSYNE_", "GIT_"))}
    env.update({"HOME": str(home), "MNEMOSYNE_HOME": str(data), "MNEMOSYNE_EMBEDDINGS_PROVIDER": "none"})

    def run(cmd: str) -> subprocess.CompletedProcess[str]:
        cmd = cmd.replace(".venv/bin/", shlex.quote(str(VENV_BIN)) + "/")  # the environment step 1 made
        return subprocess.run(["bash", "-c", cmd], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)

    outs = []
    try:
        for cmd in quickstart()[1:]:
            p = run(cmd)
            assert p.returncode == 0, f"{cmd}\n{p.stdout}\n{p.stderr}"
            outs.append(p)
        ingest, ask, daemon, init = outs
        assert "myrepo:" in ingest.stdout and "commit" in ingest.stdout
        # `main` is the short name of shop.cli.main, which its own module calls (`if __name__ == ...`)
        assert ask.stdout.startswith("callers of shop.cli.main at ")
        assert "  <- shop.cli  [exact" in ask.stdout
        assert "[myrepo] index up to date with main; working tree clean" in ask.stderr
        assert "daemon started" in daemon.stdout
        assert "daemon running" in init.stderr and "already ingested" in init.stderr

        config = json.loads((repo / ".mcp.json").read_text())
        entry = config["mcpServers"]["mnemosyne"]
        assert Path(entry["command"]).is_absolute() and os.access(entry["command"], os.X_OK)
        assert entry["args"] == ["mcp"] and entry["env"] == {"MNEMOSYNE_HOME": str(data)}

        # the agent: launches exactly that, from the repository, with only PATH and HOME of its own
        agent_env = {"PATH": "/usr/bin:/bin", "HOME": str(home), **entry["env"]}
        params = StdioServerParameters(command=entry["command"], args=entry["args"], env=agent_env, cwd=repo)
        async with Client(params) as c:
            r = await c.call_tool("get_symbol", {"name_or_fqn": "checkout"})
            assert not r.is_error, r.content[0].text
            assert r.structured_content["workspace"] == "myrepo"
            assert r.structured_content["symbol"]["fqn"] == "shop.checkout.checkout"
    finally:
        run(".venv/bin/mnemosyne daemon stop")
        run(".venv/bin/mnemosyne db stop")
