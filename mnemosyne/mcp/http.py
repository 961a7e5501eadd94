"""A small ASGI guard in front of the MCP HTTP endpoint: bearer token and Origin checks.

- ``Authorization: Bearer <token>`` is required when a token is configured (``--token`` or
  ``settings.mcp_token``); compared in constant time. 401 otherwise.
- ``Origin`` (sent by browsers) must be a loopback origin (``http(s)://localhost|127.0.0.1|[::1]``
  on any port) or one of the configured extra origins (``MNEMOSYNE_MCP_ALLOWED_ORIGINS``,
  comma-separated, or ``allowed_origins``). 403 otherwise: a web page cannot drive the server
  (DNS rebinding). A request without ``Origin`` (CLI clients, agents) is allowed.
Lifespan and other non-HTTP scopes pass through untouched (the SDK's lifespan must run).
"""

from __future__ import annotations

import hmac
import ipaddress
import json
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from mnemosyne.errors import ConfigError

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1", "[::1]")


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1); False for anything else,
    including ``0.0.0.0``/``::`` (every interface) and names that might resolve elsewhere."""
    h = (host or "").strip().strip("[]")
    if h == "localhost":
        return True
    try:
        return ipaddress.ip_address(h).is_loopback
    except ValueError:
        return False


def require_safe_bind(host: str, token: str | None) -> None:
    """The one rule for every MCP HTTP endpoint (``mnemosyne mcp --http`` and ``daemon run
    --mcp-port``): off loopback, a bearer token is required. Raises ``ConfigError`` otherwise."""
    if not is_loopback(host) and not token:
        raise ConfigError(f"refusing to serve MCP on {host} without a token: set MNEMOSYNE_MCP_TOKEN (or pass "
                          "--token to `mnemosyne mcp`), or bind to 127.0.0.1")  # fmt: skip


def configured_origins(extra: Iterable[str] | None = None) -> list[str]:
    """Origins allowed besides localhost: settings.mcp_allowed_origins plus ``extra``."""
    from mnemosyne.config import get_settings

    conf = [o.strip().rstrip("/") for o in get_settings().mcp_allowed_origins.split(",") if o.strip()]
    return [*conf, *(o.rstrip("/") for o in (extra or []))]


def origin_allowed(origin: str | None, allowed: Iterable[str] = ()) -> bool:
    if not origin:
        return True
    origin = origin.rstrip("/")
    if origin in set(allowed) or "*" in set(allowed):
        return True
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and (parts.hostname or "") in LOOPBACK_HOSTS


class GuardMiddleware:
    def __init__(self, app: ASGIApp, token: str | None = None, allowed_origins: Iterable[str] | None = None) -> None:
        self.app = app
        self.token = token or None
        self.allowed = configured_origins(allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if not origin_allowed(headers.get("origin"), self.allowed):
            await _deny(send, 403, "forbidden origin: only localhost origins may call this server "
                        "(configure more with MNEMOSYNE_MCP_ALLOWED_ORIGINS)")  # fmt: skip
            return
        if self.token is not None:
            auth = headers.get("authorization", "")
            scheme, _, value = auth.partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(value.strip().encode(), self.token.encode()):
                await _deny(send, 401, "missing or wrong bearer token", {"www-authenticate": 'Bearer realm="mnemosyne"'})
                return
        await self.app(scope, receive, send)


async def _deny(send: Send, status: int, message: str, extra: dict[str, str] | None = None) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    headers += [(k.encode(), v.encode()) for k, v in (extra or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
