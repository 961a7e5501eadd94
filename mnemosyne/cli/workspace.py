"""CLI: `mnemosyne workspace add|list|remove`: the registered repositories."""

from __future__ import annotations

import argparse
import datetime as dt
import json
from pathlib import Path

from mnemosyne.cli._args import add_json_arg
from mnemosyne.errors import ConfigError
from mnemosyne.git.locate import repo_root
from mnemosyne.store.connection import connect
from mnemosyne.store.registry import WorkspaceInfo
from mnemosyne.workspaces import add_workspace, check_branch, tell_daemon


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "workspace",
        help="manage registered workspaces (git repositories)",
        description="A workspace is one git repository (a monorepo counts as one) with its own graph.",
    )
    actions = parser.add_subparsers(dest="workspace_command", metavar="ACTION")

    add = actions.add_parser("add", help="register a git repository")
    add.add_argument("path", metavar="PATH", help="the repository (any folder inside it)")
    add.add_argument("--name", help="workspace name (default: the repository folder's name)")
    add.add_argument("--branch", help="branch to track (default: the current branch, else origin's HEAD)")
    add.set_defaults(func=_add)

    upd = actions.add_parser("update", help="change a workspace's tracked branch or repository path")
    upd.add_argument("name", metavar="NAME", help="workspace name")
    upd.add_argument("--branch", help="branch to track from now on (must exist)")
    upd.add_argument("--path", help="the repository's new location (any folder inside it)")
    upd.set_defaults(func=_update)

    lst = actions.add_parser("list", help="list registered workspaces")
    add_json_arg(lst, "print a JSON list")
    lst.set_defaults(func=_list)

    rm = actions.add_parser("remove", help="unregister a workspace and drop its graph")
    rm.add_argument("name", metavar="NAME", help="workspace name")
    rm.add_argument("--keep-graph", action="store_true", help="keep the graph ws_NAME in the database")
    rm.set_defaults(func=_remove)

    parser.set_defaults(func=lambda args: (parser.print_help(), 2)[1])


def default_name(path: str | Path) -> str:
    """The repository folder's name, made a valid workspace name."""
    raw = repo_root(path).name
    cleaned = "".join(c if c.isalnum() or c in "_.-" else "-" for c in raw).strip("-")
    return cleaned or "workspace"


def _add(args: argparse.Namespace) -> int:
    name = args.name or default_name(args.path)
    with connect() as db:
        info = add_workspace(db.registry, name, args.path, branch=args.branch)
    print(f"added workspace {info.name!r}: {info.path} (branch {info.branch})")
    told = tell_daemon()
    if told == "no daemon is running":
        print(f"next: mnemosyne ingest --workspace {info.name}  (or start the daemon: mnemosyne daemon start)")
    else:
        print(told)
    return 0


def _update(args: argparse.Namespace) -> int:
    if not args.branch and not args.path:
        raise ConfigError("nothing to update: pass --branch NAME and/or --path PATH")
    with connect() as db:
        info = db.registry.get(args.name)
        fields: dict[str, str] = {}
        root = Path(info.path)
        if args.path:
            root = repo_root(args.path)
            fields["path"] = str(root)
        if args.branch:
            check_branch(root, args.branch)
            fields["branch"] = args.branch
        info = db.registry.update(args.name, **fields)
    print(f"updated workspace {info.name!r}: {info.path} (branch {info.branch})")
    told = tell_daemon()
    print(f"next: mnemosyne ingest --workspace {info.name}" if told == "no daemon is running" else told)
    return 0


def _when(epoch: int | None) -> str:
    if not epoch:
        return "-"
    return dt.datetime.fromtimestamp(epoch, tz=dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def format_table(workspaces: list[WorkspaceInfo]) -> str:
    """Workspaces as an aligned text table."""
    header = ("NAME", "BRANCH", "STATE", "LAST COMMIT", "SEQ", "UPDATED", "PATH")
    rows = [
        (
            w.name,
            w.branch,
            w.state,
            (w.last_ingested_commit or "-")[:12],
            "-" if w.last_ingested_seq is None else str(w.last_ingested_seq),
            _when(w.updated_at),
            w.path,
        )
        for w in workspaces
    ]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(r)).rstrip() for r in [header, *rows]]
    return "\n".join(lines)


def _list(args: argparse.Namespace) -> int:
    with connect() as db:
        workspaces = db.registry.list()
    if args.json:
        print(json.dumps([w.model_dump() for w in workspaces], indent=2))
    elif not workspaces:
        print("no workspaces registered; add one with `mnemosyne workspace add PATH`")
    else:
        print(format_table(workspaces))
    return 0


def _remove(args: argparse.Namespace) -> int:
    with connect() as db:
        info = db.registry.remove(args.name, drop_graph=not args.keep_graph)
    kept = f" (graph {info.graph_key} kept)" if args.keep_graph else ""
    print(f"removed workspace {info.name!r}{kept}")
    return 0
