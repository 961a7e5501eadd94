"""MCP: ``as_of_ingest`` on get_calls / get_symbol after a rewritten history, and the server-side
latency stats (``mnemosyne://stats`` and ``ingestion_status.server_stats``). Real git repo, real
ingester, real in-memory MCP client."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest
from mcp import Client

from mnemosyne.ingest import ingest_path

pytestmark = pytest.mark.anyio


def _git(repo: Path, *args: str, when: int | None = None) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "T",
           "GIT_COMMITTER_EMAIL": "t@x"}  # fmt: skip
    if when is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"@{when} +0000"
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, env=env,
                          check=True).stdout.strip()  # fmt: skip


def _commit(repo: Path, rel: str, body: str, msg: str, when: int) -> str:
    (repo / rel).write_text(body)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", msg, when=when)
    return _git(repo, "rev-parse", "HEAD")


OLD = "def g():\n    return 1\n\n\ndef h():\n    return 2\n\n\ndef f():\n    return g() + h()\n"
NEW = OLD.replace("return g() + h()", "return g()")


@pytest.fixture(scope="module")
def rewritten(db):
    root = Path(tempfile.mkdtemp(prefix="mcptt-", dir="/tmp"))
    name = f"mtt_{uuid.uuid4().hex[:8]}"
    repo = root / "repo"
    repo.mkdir()
    try:
        _git(repo, "init", "-q", "-b", "main")
        c0 = _commit(repo, "b.py", "def b():\n    return 0\n", "base", 1_700_000_000)
        old = _commit(repo, "a.py", OLD, "f calls g and h", 1_700_000_060)
        ingest_path(db, repo, name=name, branch="main")
        t = int(time.time())
        while int(time.time()) <= t:
            time.sleep(0.05)
        _git(repo, "reset", "-q", "--hard", c0)
        new = _commit(repo, "a.py", NEW, "f calls g only", 1_700_000_120)
        ingest_path(db, repo, name=name, branch="main")
        yield {"name": name, "old": old, "new": new, "t": t}
    finally:
        if db.registry.find(name) is not None:
            db.registry.remove(name, drop_graph=True)
        shutil.rmtree(root, ignore_errors=True)


async def test_get_calls_and_get_symbol_as_of_ingest(server, rewritten):
    rw = rewritten
    async with Client(server) as c:
        then = await c.call_tool("get_calls", {"fqn": "a.f", "at": rw["old"][:10], "as_of_ingest": str(rw["t"]),
                                               "workspace": rw["name"]})  # fmt: skip
        assert not then.is_error, then.content[0].text
        sc = then.structured_content
        assert {e["callee"] for e in sc["edges"]} == {"a.g", "a.h"}
        assert sc["at"]["seq"] == 1 and not sc["at"]["from_source"] and sc["at"]["as_of_ingest"] == rw["t"]
        assert sc["at"]["superseded_at"] and "as believed at" in then.content[0].text
        plain = await c.call_tool("get_calls", {"fqn": "a.f", "at": rw["old"][:10], "workspace": rw["name"]})
        assert plain.structured_content["at"]["from_source"] and plain.structured_content["at"]["seq"] is None
        now = await c.call_tool("get_calls", {"fqn": "a.f", "workspace": rw["name"]})
        assert {e["callee"] for e in now.structured_content["edges"]} == {"a.g"}
        sym = await c.call_tool("get_symbol", {"name_or_fqn": "a.f", "as_of_ingest": str(rw["t"]),
                                               "workspace": rw["name"]})  # fmt: skip
        assert not sym.is_error, sym.content[0].text
        s = sym.structured_content
        assert s["at"]["hash"] == rw["old"] and s["symbol"]["callees_count"] == 2
        assert "return g() + h()" in s["symbol"]["source"]["text"]
        early = await c.call_tool("get_symbol", {"name_or_fqn": "a.f", "as_of_ingest": "2001-01-01",
                                                 "workspace": rw["name"]})  # fmt: skip
        assert early.is_error and "had been ingested" in early.content[0].text


async def test_server_side_stats(server, shop):
    async with Client(server) as c:
        for _ in range(3):
            r = await c.call_tool("get_symbol", {"name_or_fqn": "shop.checkout.checkout", "workspace": shop.name})
            assert not r.is_error
        await c.call_tool("get_symbol", {"name_or_fqn": "shop.nope.nothing", "workspace": shop.name})
        stats = json.loads((await c.read_resource("mnemosyne://stats")).contents[0].text)
        gs = stats["tools"]["get_symbol"]
        assert gs["count"] >= 4 and gs["errors"] >= 1 and 0 < gs["p50_ms"] <= gs["p95_ms"] <= gs["max_ms"]
        st = await c.call_tool("ingestion_status", {})
        assert st.structured_content["server_stats"]["get_symbol"]["count"] >= 4
        assert "server-side latency" in st.content[0].text
