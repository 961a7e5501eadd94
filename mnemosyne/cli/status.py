"""CLI: `mnemosyne status`: is the database reachable, and how far each workspace is ingested."""

from __future__ import annotations

import argparse
import json

from mnemosyne.cli.workspace import format_table
from mnemosyne.store.connection import connect


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "status",
        help="show database and workspace status",
        description="Database address and reachability, then every workspace with its last ingested "
        "commit and state. Starts the embedded database if needed. Exits non-zero (one line on "
        "stderr) when the database cannot be reached.",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON object")
    parser.set_defaults(func=_status)


def _status(args: argparse.Namespace) -> int:
    with connect() as db:  # DatabaseUnavailable -> one line on stderr, exit 3 (cli.main)
        workspaces = db.registry.list()
        graphs = set(db.workspace_graphs())
        address, mode = db.address, "embedded" if db.embedded else "external"
    if args.json:
        payload = {
            "database": {"address": address, "mode": mode, "reachable": True},
            "workspaces": [{**w.model_dump(), "has_graph": w.name in graphs} for w in workspaces],
        }
        print(json.dumps(payload, indent=2))
        return 0
    print(f"database: {address} ({mode}), reachable")
    if not workspaces:
        print("workspaces: none registered; add one with `mnemosyne workspace add PATH`")
    else:
        print(f"workspaces: {len(workspaces)}")
        print(format_table(workspaces))
    return 0
