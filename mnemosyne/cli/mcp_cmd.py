"""CLI: `mnemosyne mcp`: serve the MCP tools over stdio (default) or streamable HTTP.

stdio: stdout carries JSON-RPC only (the SDK points fd 1 at stderr while serving; logs go to
stderr). HTTP: ``http://HOST:PORT/mcp`` on loopback by default, with an optional bearer token
(``--token`` or ``MNEMOSYNE_MCP_TOKEN``) and an Origin check (localhost origins, plus
``--allow-origin`` / ``MNEMOSYNE_MCP_ALLOWED_ORIGINS``).
"""

from __future__ import annotations

import argparse
import logging
import sys

from mnemosyne.config import get_settings

DEFAULT_PORT = 8765


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "mcp",
        help="serve the MCP tools (stdio, or --http)",
        description="Serve Mnemosyne's MCP tools, resources and prompts. Default: stdio (for agents that launch "
        "the server). With --http: streamable HTTP at http://HOST:PORT/mcp.",
    )
    parser.add_argument("--http", action="store_true", help="serve streamable HTTP instead of stdio")
    parser.add_argument("--host", default="127.0.0.1", help="HTTP bind address (default 127.0.0.1, loopback only)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"HTTP port (default {DEFAULT_PORT}; 0 = any)")
    parser.add_argument("--token", help="bearer token required on HTTP (default: settings.mcp_token)")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                        help="extra allowed Origin for browser clients (repeatable); localhost is always allowed")  # fmt: skip
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    settings = get_settings()
    logging.basicConfig(level=getattr(logging, str(settings.log_level).upper(), logging.INFO), stream=sys.stderr)
    if not args.http:
        from mnemosyne.mcp.server import build_server

        build_server(settings).run("stdio")
        return 0
    import uvicorn

    from mnemosyne.mcp.server import build_http_app

    token = args.token if args.token is not None else settings.mcp_token
    app = build_http_app(settings, token=token, host=args.host, allowed_origins=args.allow_origin)
    print(f"mnemosyne: MCP on http://{args.host}:{args.port}/mcp" + (" (bearer token required)" if token else ""),
          file=sys.stderr)  # fmt: skip
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", lifespan="on")
    return 0
