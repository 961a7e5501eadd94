"""The hook for serving MCP over streamable HTTP inside the daemon (``daemon run --mcp-port N``).

``build_asgi_app(settings, host)`` returns the ASGI app whose ``/mcp`` path speaks streamable
HTTP: the MCP layer's ``build_http_app`` (bearer token from ``settings.mcp_token`` and the Origin
guard included), or, failing that, ``build_server(...).streamable_http_app(...)``. This is the only
place the daemon knows about MCP; the daemon runs the app with uvicorn on its own event loop with
the lifespan on (required by the SDK).
"""

from __future__ import annotations

from typing import Any

from mnemosyne.config import Settings
from mnemosyne.errors import NotImplementedYet


def build_asgi_app(settings: Settings, host: str = "127.0.0.1") -> Any:
    try:
        from mnemosyne.mcp import server as mcp_server
    except ImportError as err:
        raise NotImplementedYet(f"the MCP server is not available ({err})") from err
    if hasattr(mcp_server, "build_http_app"):
        return mcp_server.build_http_app(settings, host=host)
    if hasattr(mcp_server, "build_server"):
        server = mcp_server.build_server(settings)
        return server.streamable_http_app(streamable_http_path="/mcp", json_response=True)
    raise NotImplementedYet("mnemosyne.mcp.server has neither build_http_app nor build_server")
