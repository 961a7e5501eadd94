"""`daemon run --mcp-port N`: the MCP streamable-HTTP endpoint served on the daemon's event loop."""

from __future__ import annotations

import socket
from pathlib import Path

import anyio
import pytest

from .conftest import DaemonProc, daemon_env, wait_for

pytest.importorskip("mnemosyne.mcp.server")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_daemon_serves_mcp_over_http_and_still_stops_cleanly(settings, registry) -> None:
    from mcp import Client

    port = _free_port()
    d = DaemonProc(daemon_env(Path(settings.home)), ["--workspace", "d_*", "--mcp-port", str(port)]).start()
    try:
        wait_for(lambda: (d.status().get("mcp") or {}).get("url"), 20, what="MCP endpoint")

        async def tools() -> list[str]:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                return [t.name for t in (await client.list_tools()).tools]

        names = anyio.run(tools)
        assert names and "list_workspaces" in names
    finally:
        assert d.terminate(30) == 0  # SIGTERM still reaches the daemon while uvicorn serves
    assert not d.log_lines("Traceback")
