"""The MCP server over real transports: a stdio subprocess (`python -m mnemosyne.cli mcp`) and
streamable HTTP served by uvicorn on a random loopback port, with the bearer token and Origin checks."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time

import httpx2
import pytest
import uvicorn
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

pytestmark = pytest.mark.anyio

TOKEN = "t0ken-for-tests"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- stdio -----------------------------------------------------------------------------------------


@pytest.mark.slow
async def test_stdio_session(settings, shop):
    """A real stdio session; run from inside the repository, the workspace comes from the cwd."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "mnemosyne.cli", "mcp"],
                                   env=dict(os.environ), cwd=shop.repo.path)  # fmt: skip
    t0 = time.perf_counter()
    async with Client(params) as c:
        tools = (await c.list_tools()).tools
        assert len(tools) == 21  # tests/mcp/test_mcp_tools.py TOOLS lists them
        handshake = time.perf_counter() - t0
        r = await c.call_tool("get_symbol", {"name_or_fqn": "shop.checkout.checkout"})
        assert not r.is_error, r.content[0].text
        assert r.structured_content["workspace"] == shop.name
        assert r.structured_content["symbol"]["source"]["untrusted"] is True
    assert handshake < 5.0  # includes starting the interpreter


@pytest.mark.slow
def test_stdio_stdout_is_only_jsonrpc(settings, shop):
    """Raw JSON-RPC over the pipes: every stdout line is a JSON-RPC message; logs go to stderr."""
    proc = subprocess.Popen([sys.executable, "-m", "mnemosyne.cli", "-v", "mcp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ), cwd=shop.repo.path)  # fmt: skip
    msgs = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get_calls", "arguments": {
            "fqn": "shop.checkout.checkout", "workspace": shop.name}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "run_cypher", "arguments": {
            "query": "CREATE (n:X)", "workspace": shop.name}}},
    ]  # fmt: skip
    lines: list[str] = []

    def read() -> None:
        for raw in proc.stdout:
            lines.append(raw.decode())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        proc.stdin.write("".join(json.dumps(m) + "\n" for m in msgs).encode())
        proc.stdin.flush()
        deadline = time.time() + 60
        def answered() -> set:
            ids = set()
            for ln in list(lines):
                try:
                    ids.add(json.loads(ln).get("id"))
                except ValueError:
                    pass
            return ids

        while time.time() < deadline and not {1, 2, 3} <= answered():
            time.sleep(0.05)
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
        reader.join(timeout=5)
        proc.stderr.close()
    parsed = [json.loads(ln) for ln in lines if ln.strip()]  # raises if anything else reached stdout
    assert all(p.get("jsonrpc") == "2.0" for p in parsed)
    by_id = {p.get("id"): p for p in parsed}
    assert by_id[1]["result"]["serverInfo"]["name"] == "mnemosyne"
    edges = by_id[2]["result"]["structuredContent"]["edges"]
    assert "shop.pricing.apply_tax" in {e["callee"] for e in edges}
    assert by_id[3]["result"]["isError"] is True


# --- HTTP ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def http_url(settings, shop):
    from mnemosyne.mcp.server import build_http_app

    port = free_port()
    app = build_http_app(settings, token=TOKEN, allowed_origins=["https://app.example.test"])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    th = threading.Thread(target=server.run, daemon=True)
    th.start()
    deadline = time.time() + 10
    while not server.started and time.time() < deadline:
        time.sleep(0.02)
    assert server.started
    yield f"http://127.0.0.1:{port}/mcp"
    server.should_exit = True
    th.join(timeout=10)


def http_client(url: str, headers: dict[str, str]) -> Client:
    return Client(streamable_http_client(url, http_client=httpx2.AsyncClient(headers=headers, timeout=30)))


async def test_http_session_with_token(http_url, shop):
    async with http_client(http_url, {"Authorization": f"Bearer {TOKEN}"}) as c:
        tools = (await c.list_tools()).tools  # (no database work: test_handshake_does_no_database_work)
        assert {t.name for t in tools} >= {"get_calls", "run_cypher", "impact"}
        fact = shop.facts["calls_removed"][0]
        r = await c.call_tool("get_calls", {"fqn": fact["caller"], "at": shop.step_hash(fact["present_at_step"]),
                                            "workspace": shop.name})  # fmt: skip
        assert not r.is_error
        assert fact["callee"] in {e["callee"] for e in r.structured_content["edges"]}
        assert r.structured_content["at"]["seq"] == shop.seq(fact["present_at_step"])


def _post(url: str, headers: dict[str, str]) -> httpx2.Response:
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}  # fmt: skip
    h = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream", **headers}
    with httpx2.Client(timeout=10) as c:
        return c.post(url, json=body, headers=h)


def test_http_token_and_origin_checks(http_url):
    auth = {"Authorization": f"Bearer {TOKEN}"}
    assert _post(http_url, {}).status_code == 401
    assert _post(http_url, {"Authorization": "Bearer wrong"}).status_code == 401
    assert _post(http_url, {**auth, "Origin": "http://evil.example.com"}).status_code == 403
    assert _post(http_url, {**auth, "Origin": "http://localhost:3000"}).status_code == 200
    assert _post(http_url, {**auth, "Origin": "https://app.example.test"}).status_code == 200
    ok = _post(http_url, auth)
    assert ok.status_code == 200 and ok.json()["result"]["serverInfo"]["name"] == "mnemosyne"


async def test_http_without_token_refused_by_client(http_url):
    with pytest.raises(ExceptionGroup) as refused:  # the client's task group re-raises the server's refusal
        async with http_client(http_url, {}) as c:
            await c.list_tools()
    assert refused.group_contains(MCPError)


def test_daemon_hook_builds_guarded_app(settings):
    """The daemon's mcp_http hook gets an app from build_server with the guard installed."""
    from mnemosyne.daemon.mcp_http import build_asgi_app

    app = build_asgi_app(settings.model_copy(update={"mcp_token": "x"}))
    assert any(m.cls.__name__ == "GuardMiddleware" for m in app.user_middleware)
