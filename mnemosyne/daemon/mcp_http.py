"""The hook for serving MCP over streamable HTTP inside the daemon (``daemon run --mcp-port N``).

``check_bind(settings, host)`` applies the same rule as ``mnemosyne mcp --http`` (the MCP layer's
``require_safe_bind``): off loopback a bearer token (``settings.mcp_token``) is required; the
daemon calls it before it starts anything. ``build_asgi_app(settings, host)`` returns the ASGI app
whose ``/mcp`` path speaks streamable HTTP: the MCP layer's ``build_http_app`` (bearer token and
Origin guard included; it checks the bind again). This is the only place the daemon knows about
MCP; the daemon runs the app with uvicorn on its own event loop with the lifespan on (required by
the SDK).
"""

from __future__ import annotations

from typing import Any

from mnemosyne.config import Settings
from mnemosyne.errors import NotImplementedYet


def check_bind(settings: Settings, host: str) -> None:
    """``ConfigError`` when ``host`` is not loopback and no MCP token is configured."""
    from mnemosyne.mcp.http import require_safe_bind

    require_safe_bind(host, settings.mcp_token)


def build_asgi_app(settings: Settings, host: str = "127.0.0.1") -> Any:
    try:
        from mnemosyne.mcp.server import build_http_app
    except ImportError as err:
        raise NotImplementedYet(f"the MCP server is not available ({err})") from err
    return build_http_app(settings, host=host)
