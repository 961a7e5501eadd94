"""The control socket: a Unix socket in the data dir speaking JSON lines.

Request: one JSON object per line, ``{"cmd": "status"}``; reply: one JSON object per line,
``{"ok": true, ...}`` or ``{"ok": false, "error": "..."}``. Commands: ``ping``, ``status``,
``reconcile``, ``enqueue`` (``workspace``, optional ``kind``), ``notify`` (``path``: same as a
hook note), ``stop``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

Handler = Callable[[dict[str, Any]], dict[str, Any]]


class ControlUnavailable(ConnectionError):
    """No daemon answers on the control socket."""


def request(sock_path: Path, cmd: str, timeout: float = 10.0, **args: Any) -> dict[str, Any]:
    """Send one command and wait for its reply (the CLI side)."""
    payload = json.dumps({"cmd": cmd, **args}).encode() + b"\n"
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    try:
        s.connect(str(sock_path))
        s.sendall(payload)
        buf = b""
        while not buf.endswith(b"\n"):
            chunk = s.recv(65536)
            if not chunk:
                break
            buf += chunk
    except (TimeoutError, FileNotFoundError, ConnectionRefusedError, OSError) as err:
        raise ControlUnavailable(f"no daemon on {sock_path} ({err})") from err
    finally:
        s.close()
    if not buf:
        raise ControlUnavailable(f"daemon on {sock_path} closed the connection")
    return json.loads(buf)


def poke(sock_path: Path, cmd: str = "reconcile", **args: Any) -> bool:
    """Fire-and-forget: send a command, do not wait for the reply. False if no daemon listens."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(0.2)
    try:
        s.connect(str(sock_path))
        s.sendall(json.dumps({"cmd": cmd, **args}).encode() + b"\n")
        return True
    except OSError:
        return False
    finally:
        s.close()


async def serve(sock_path: Path, handler: Handler) -> asyncio.AbstractServer:
    """Listen on ``sock_path``; ``handler`` runs in a worker thread (it may block on git/db)."""
    sock_path.unlink(missing_ok=True)
    sock_path.parent.mkdir(parents=True, exist_ok=True)

    async def on_client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                line = await reader.readline()
                if not line:
                    break
                try:
                    req = json.loads(line)
                    if not isinstance(req, dict):
                        raise ValueError("request must be a JSON object")
                    reply = await asyncio.to_thread(handler, req)
                except Exception as err:  # a bad request gets an error reply, never kills the daemon
                    reply = {"ok": False, "error": f"{type(err).__name__}: {err}"}
                writer.write(json.dumps(reply, default=str).encode() + b"\n")
                try:
                    await writer.drain()
                except (ConnectionError, OSError):
                    break
        finally:
            writer.close()

    server = await asyncio.start_unix_server(on_client, path=str(sock_path))
    sock_path.chmod(0o600)
    return server
