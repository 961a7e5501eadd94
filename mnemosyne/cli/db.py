"""CLI: `mnemosyne db start|stop|status`: the embedded FalkorDB server (or the external one)."""

from __future__ import annotations

import argparse
import json

from mnemosyne.cli._args import add_json_arg
from mnemosyne.config import get_settings
from mnemosyne.errors import DatabaseUnavailable
from mnemosyne.store.connection import connect
from mnemosyne.store.embedded import EmbeddedFalkorDB


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "db",
        help="manage the database (start/stop/status of the embedded FalkorDB)",
        description="Manage the FalkorDB server. Without MNEMOSYNE_FALKORDB_URL, Mnemosyne runs an "
        "embedded server under MNEMOSYNE_HOME; commands that need it start it on demand.",
    )
    actions = parser.add_subparsers(dest="db_command", metavar="ACTION")
    start = actions.add_parser("start", help="start the embedded server (no-op if it runs)")
    start.set_defaults(func=_start)
    stop = actions.add_parser("stop", help="stop the embedded server (data is flushed to disk)")
    stop.set_defaults(func=_stop)
    status = actions.add_parser("status", help="show whether the database runs; exit 1 if not")
    add_json_arg(status, "print a JSON object")
    status.set_defaults(func=_status)
    parser.set_defaults(func=lambda args: (parser.print_help(), 2)[1])


def _start(args: argparse.Namespace) -> int:
    settings = get_settings()
    if settings.falkordb_url:
        db = connect(settings)  # raises DatabaseUnavailable with the address when unreachable
        db.close()
        print(f"using the external FalkorDB at {db.address} (MNEMOSYNE_FALKORDB_URL); nothing to start")
        return 0
    server = EmbeddedFalkorDB(settings)
    already = server.is_running()
    pid = server.start()
    verb = "already running" if already else "started"
    print(f"FalkorDB {verb}: pid {pid}, socket {server.socket}, data {server.data_dir}")
    return 0


def _stop(args: argparse.Namespace) -> int:
    settings = get_settings()
    if settings.falkordb_url:
        print(f"the database is external ({settings.falkordb_url}); Mnemosyne does not stop it")
        return 0
    server = EmbeddedFalkorDB(settings)
    if server.stop():
        print("FalkorDB stopped")
    else:
        print("FalkorDB was not running")
    return 0


def _status(args: argparse.Namespace) -> int:
    settings = get_settings()
    if settings.falkordb_url:
        info = _external_status()
    else:
        info = EmbeddedFalkorDB(settings).status()
        info["mode"] = "embedded"
    if args.json:
        print(json.dumps(info, indent=2, sort_keys=True))
    else:
        _print_status(info)
    return 0 if info.get("running") else 1


def _external_status() -> dict:
    settings = get_settings()
    info: dict = {"mode": "external", "address": settings.falkordb_url, "running": False}
    try:
        db = connect(settings)
    except DatabaseUnavailable as err:
        info["error"] = str(err)
        return info
    try:
        info["address"] = db.address
        info["running"] = True
        info["graphs"] = db.list_graphs()
        mem = db.info("memory")
        info["used_memory"] = mem.get("used_memory")
        info["used_memory_human"] = mem.get("used_memory_human")
        info["redis_version"] = db.info("server").get("redis_version")
    finally:
        db.close()
    return info


def _print_status(info: dict) -> None:
    state = "running" if info.get("running") else "not running"
    print(f"FalkorDB ({info.get('mode')}): {state}")
    rows = [
        ("address", info.get("address")),
        ("pid", info.get("pid")),
        ("data", info.get("data_dir")),
        ("log", info.get("log_file")),
        ("memory", info.get("used_memory_human")),
        ("version", info.get("redis_version")),
    ]
    for key, value in rows:
        if value is not None:
            print(f"  {key:<8} {value}")
    if info.get("running"):
        graphs = info.get("graphs") or []
        print(f"  {'graphs':<8} {', '.join(graphs) if graphs else '(none)'}")
    if info.get("error"):
        print(f"  {'error':<8} {info['error']}")
    if not info.get("running") and info.get("mode") == "embedded":
        print("  start it with `mnemosyne db start` (any command that needs it also starts it)")
