"""The hook for serving MCP over streamable HTTP inside the daemon (``daemon run --mcp-port N``).

``build_asgi_app(settings)`` returns an ASGI app whose ``/mcp`` path speaks streamable HTTP. It
wraps the MCP engineer's ``mnemosyne.mcp.server.build_server`` and is the only place the daemon
knows about MCP; the daemon runs the app with uvicorn on its own event loop (lifespan on).
"""

from __future__ import annotations

from typing import Any

from mnemosyne.config import Settings
from mnemosyne.errors import NotImplementedYet


def build_asgi_app(settings: Settings) -> Any:
    try:
        from mnemosyne.mcp.server import build_server
    except ImportError as err:
        raise NotImplementedYet(f"the MCP server is not available yet ({err})") from err
    server = build_server(settings=settings)
    if hasattr(server, "streamable_http_app"):
        return server.streamable_http_app(streamable_http_path="/mcp", json_response=True)
    return server  # already an ASGI app
