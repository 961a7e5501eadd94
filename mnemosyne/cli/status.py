"""CLI: `mnemosyne status`: is the database reachable, and how far each workspace is ingested
(ingested commit, the branch head now, commits behind, working-tree changes)."""

from __future__ import annotations

import argparse
import json

from mnemosyne.cli._args import add_json_arg
from mnemosyne.store.connection import connect


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "status",
        help="show database and workspace status",
        description="Database address and reachability, then every workspace with its state, last ingested "
        "commit, the tracked branch's head now, how many commits the index is behind it and how many files "
        "differ in the working tree. Starts the embedded database if needed. Exits non-zero (one line on "
        "stderr) when the database cannot be reached.",
    )
    add_json_arg(parser, "print a JSON object")
    parser.set_defaults(func=_status)


def _status(args: argparse.Namespace) -> int:
    from mnemosyne import query as Q

    with connect() as db:  # DatabaseUnavailable -> one line on stderr, exit 3 (cli.main)
        infos = {w.name: w for w in db.registry.list()}
        statuses = Q.list_workspaces_status(db)
        graphs = set(db.workspace_graphs())
        address, mode = db.address, "embedded" if db.embedded else "external"
        cannot_save = db.cannot_save
    if args.json:
        payload = {
            "database": {"address": address, "mode": mode, "reachable": True, "writable": not cannot_save},
            "workspaces": [
                {**(infos[s.name].model_dump() if s.name in infos else {}), **s.model_dump(),
                 "has_graph": s.name in graphs, "working_tree_dirty": bool(s.changed_files) if s.path_exists else None}
                for s in statuses
            ],  # fmt: skip
        }
        print(json.dumps(payload, indent=2, default=str))
        return 0
    print(f"database: {address} ({mode}), reachable")
    if cannot_save:
        print("database: cannot save to disk, so writes are refused (reads work); see `mnemosyne db status`")
    if not statuses:
        print("workspaces: none registered; add one with `mnemosyne workspace add PATH`")
        return 0
    print(f"workspaces: {len(statuses)}")
    print(format_status_table(statuses))
    for s in statuses:
        if s.error:
            print(f"  {s.name}: {s.error}")
        if s.history:
            print(f"  {s.name}: {s.history} (the head answers meanwhile)")
    return 0


def format_status_table(statuses: list) -> str:
    """Workspaces with ingestion and freshness as an aligned text table."""
    header = ("NAME", "BRANCH", "STATE", "INGESTED", "SEQ", "BRANCH HEAD", "BEHIND", "CHANGED", "PATH")
    rows = []
    for s in statuses:
        behind = "?" if s.commits_behind is None else str(s.commits_behind)
        if s.branch_head is None:
            behind = "-"
        rows.append((
            s.name,
            s.branch,
            s.state,
            (s.ingested_commit or "-")[:12],
            "-" if s.ingested_seq is None else str(s.ingested_seq),
            (s.branch_head or "-")[:12],
            behind,
            str(len(s.changed_files)) if s.path_exists else "-",
            s.path + ("" if s.path_exists else " (missing)"),
        ))  # fmt: skip
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return "\n".join("  ".join(c.ljust(widths[i]) for i, c in enumerate(r)).rstrip() for r in [header, *rows])
