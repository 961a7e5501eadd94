"""CLI: `mnemosyne metrics`: the most complex functions, complexity growth since a revision, hot
spots (``mnemosyne.query.metrics``); `mnemosyne symbol` shows one function's metrics at any commit."""

from __future__ import annotations

import argparse

from mnemosyne.cli._args import add_json_arg, add_workspace_arg
from mnemosyne.cli._fresh import print_freshness
from mnemosyne.query import metrics as QM
from mnemosyne.store.connection import connect
from mnemosyne.workspaces import resolve_workspace


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("metrics", help="code metrics: most complex functions, complexity growth, hot spots",
                       description="Functions and methods by cyclomatic complexity (or --sort loc, params, "
                       "nesting, fan_in, fan_out) at a commit; --grown-since REV: whose complexity grew the most "
                       "since REV; --hot-spots: complex and often changed (definition changes since --since REV, "
                       "default the whole ingested history).")  # fmt: skip
    view = p.add_mutually_exclusive_group()
    view.add_argument("--grown-since", metavar="REV")
    view.add_argument("--hot-spots", action="store_true")
    p.add_argument("--since", metavar="REV", help="with --hot-spots: count changes after REV")
    p.add_argument("--sort", default="complexity", choices=QM.ORDERS)
    p.add_argument("--at", metavar="REV", help="commit-ish (default: the last ingested commit)")
    p.add_argument("--limit", type=int, default=20)
    add_workspace_arg(p)
    add_json_arg(p)
    p.set_defaults(func=_metrics)


def _metrics(args: argparse.Namespace) -> int:
    with connect() as db:
        ws = resolve_workspace(db, args.workspace)
        if args.grown_since:
            res = QM.complexity_growth(db, ws, args.grown_since, at=args.at, limit=args.limit)
        elif args.hot_spots:
            res = QM.hot_spots(db, ws, since=args.since, at=args.at, limit=args.limit)
        else:
            res = QM.top_functions(db, ws, at=args.at, order=args.sort, limit=args.limit)
    print_freshness(ws)
    if args.json:
        print(res.model_dump_json(indent=2))
        return 0
    title = {"top": f"by {res.order}", "growth": f"complexity grown since {res.since.short if res.since else '?'}",
             "hotspots": "hot spots (complexity x changes" + (f" since {res.since.short})" if res.since else ")")}[res.view]
    print(f"{len(res.functions)} of {res.total} functions {title} at {res.at.describe()}:")
    for f in res.functions:
        extra = (f"  +{f.growth} (was {f.before})" if res.view == "growth" else
                 f"  {f.changes} change(s), score {f.score:g}" if res.view == "hotspots" else "")
        print(f"  cc {f.complexity:>3}  loc {f.loc:>4}  params {f.params}  nesting {f.nesting}  in {f.fan_in} out {f.fan_out}"
              f"  {f.fqn} ({f.file}){extra}")  # fmt: skip
    return 0
