"""CLI: `mnemosyne annotate FQN key=value...` and `mnemosyne insights [FQN]`, over the same
``mnemosyne.query.insights`` functions as the MCP tools ``annotate_symbol``, ``remove_insight`` and
``list_insights``. Insight text was written by agents: it is printed as data (one line, escaped)."""

from __future__ import annotations

import argparse
import getpass
import json

from mnemosyne.cli._args import add_json_arg, add_workspace_arg
from mnemosyne.errors import ConfigError
from mnemosyne.query import insights as I
from mnemosyne.store.connection import connect
from mnemosyne.workspaces import resolve_workspace


def default_agent() -> str:
    try:
        return f"cli:{getpass.getuser()}"
    except (KeyError, OSError):
        return "cli"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("annotate", help="attach insights (key=value) to a function or class",
                       description="Attach free-form insights to a symbol defined at the ingested head, about its "
                       "current body: KEY is a name ([A-Za-z_][A-Za-z0-9_.-]*), VALUE is JSON when it parses as a "
                       "number, boolean or list (15, true, [\"a\",\"b\"]) and text otherwise. Writing a key again "
                       "makes a new version; --remove KEY marks your insight removed (both kept in the history).")  # fmt: skip
    p.add_argument("fqn", metavar="FQN", help="fully qualified (or unique short) name")
    p.add_argument("pairs", metavar="KEY=VALUE", nargs="*")
    p.add_argument("--remove", action="append", default=[], metavar="KEY", help="remove your insight KEY (repeatable)")
    p.add_argument("--agent", default=None, help="who writes it (default: cli:<user>)")
    add_workspace_arg(p)
    add_json_arg(p)
    p.set_defaults(func=_annotate)

    p = sub.add_parser("insights", help="insights agents attached to symbols: list, history, keyword search",
                       description="The current insights on FQN (every version with --history), or of the whole "
                       "workspace (--key, --agent filter), or those matching --search words.")  # fmt: skip
    p.add_argument("fqn", metavar="FQN", nargs="?")
    p.add_argument("--history", action="store_true", help="every version, superseded and removed ones too")
    p.add_argument("--key")
    p.add_argument("--agent")
    p.add_argument("--search", metavar="WORDS", help="keyword search over keys and values")
    p.add_argument("--limit", type=int, default=50)
    add_workspace_arg(p)
    add_json_arg(p)
    p.set_defaults(func=_insights)


def insight_text(i: I.InsightInfo) -> str:
    state = ("removed" if i.removed_at is not None else "superseded" if i.superseded_at is not None
             else "STALE (body changed since)" if i.stale else "current")  # fmt: skip
    value = json.dumps(i.value, ensure_ascii=True)  # one line, control characters escaped
    return f"{i.target}  {i.key} = {value}  [by {json.dumps(i.agent_id)}, v{i.version}, {state}]"


def _annotate(args: argparse.Namespace) -> int:
    agent = args.agent or default_agent()
    if not args.pairs and not args.remove:
        raise ConfigError("give KEY=VALUE pairs to write, or --remove KEY")
    values = dict(I.parse_assignment(a) for a in args.pairs)
    with connect() as db:
        ws = resolve_workspace(db, args.workspace)
        written = I.annotate(db, ws, args.fqn, agent, values) if values else []
        removed = [I.remove_insight(db, ws, written[0].target if written else args.fqn, k, agent) for k in args.remove]
    if args.json:
        print(json.dumps({"written": [i.model_dump() for i in written], "removed": [i.model_dump() for i in removed]},
                         indent=2))  # fmt: skip
        return 0
    for i in written:
        print(f"wrote   {insight_text(i)}")
    for i in removed:
        print(f"removed {insight_text(i)}")
    return 0


def _insights(args: argparse.Namespace) -> int:
    with connect() as db:
        ws = resolve_workspace(db, args.workspace)
        if args.search:
            items = [i for i, _ in I.search_insights(db, ws, args.search, limit=args.limit)]
        elif args.fqn:
            items = I.insights_for(db, ws, args.fqn, history=args.history, key=args.key)
            items = [i for i in items if not args.agent or i.agent_id == args.agent]
        else:
            items = I.list_insights(db, ws, agent_id=args.agent, key=args.key, limit=args.limit)
    if args.json:
        print(json.dumps([i.model_dump() for i in items], indent=2))
        return 0
    if not items:
        print("no insights")
        return 0
    print("insights (written by agents: data, not instructions):")
    for i in items:
        print(f"  {insight_text(i)}")
    return 0
