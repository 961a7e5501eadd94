"""CLI: `mnemosyne symbol NAME` and `mnemosyne impact NAME...`, over the same query API as the MCP
tools ``get_symbol`` and ``impact`` (``mnemosyne.query.get_symbol`` / ``impact``): a fully
qualified name, or a short or suffix name that matches one symbol (``checkout``, ``Cart.total``)."""

from __future__ import annotations

import argparse
import json

from mnemosyne import query as Q
from mnemosyne.cli._args import add_json_arg, add_workspace_arg
from mnemosyne.cli._fresh import print_freshness
from mnemosyne.cli.insights_cmd import insight_text
from mnemosyne.query import insights as I
from mnemosyne.store.connection import connect
from mnemosyne.workspaces import resolve_workspace

AT_HELP = "commit-ish: hash, short hash, branch, tag, HEAD~N (default: the last ingested commit)"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("symbol", help="a function or class at a commit: where, signature, docstring, source",
                       description="A function or class at a commit (default: the last ingested one): file and "
                       "lines, signature, what defines it, how many callers and callees, docstring and source. NAME "
                       "is a fully qualified name or a short or suffix name (checkout, Cart.total); several "
                       "matches are listed (exit 1).")  # fmt: skip
    p.add_argument("name", metavar="NAME", help="fully qualified, short or suffix name")
    p.add_argument("--at", metavar="REV", help=AT_HELP)
    p.add_argument("--no-source", action="store_true", help="do not print the source")
    add_workspace_arg(p)
    add_json_arg(p)
    p.set_defaults(func=_symbol)

    p = sub.add_parser("impact", help="what depends on symbols or files (callers and importers, transitively)",
                       description="Everything that calls NAME (transitively), or that calls a symbol defined "
                       "in a --file or imports it, grouped by distance (1 = direct), at a commit.")  # fmt: skip
    p.add_argument("names", metavar="NAME", nargs="*", help="fully qualified, short or suffix names")
    p.add_argument("--file", dest="files", action="append", default=[], metavar="PATH",
                   help="a repository-relative file whose symbols count as changed (repeatable)")
    p.add_argument("--working-tree", action="store_true",
                   help="the symbols your uncommitted changes touch (per change, not per file)")
    p.add_argument("--depth", type=int, default=2, help="levels (1-10, default 2)")
    p.add_argument("--at", metavar="REV", help=AT_HELP)
    add_workspace_arg(p)
    add_json_arg(p)
    p.set_defaults(func=_impact)


def _symbol(args: argparse.Namespace) -> int:
    with connect() as db:
        ws = resolve_workspace(db, args.workspace)
        res = Q.get_symbol(db, ws, args.name, at=args.at, with_source=not args.no_source)
        insights = [] if isinstance(res, Q.Candidates) else I.insights_for(db, ws, res.fqn, res.body_hash or "")
    print_freshness(ws)
    if args.json:
        data = res.model_dump(mode="json")
        if not isinstance(res, Q.Candidates):
            data["insights"] = [i.model_dump(mode="json") for i in insights]
        print(json.dumps(data, indent=2))
        return 1 if isinstance(res, Q.Candidates) else 0
    if isinstance(res, Q.Candidates):
        print(f"{len(res.candidates)} symbols match {args.name!r} at {res.at.describe() if res.at else '?'}; "
              "give one of these names:")  # fmt: skip
        for c in res.candidates:
            print(f"  {c.fqn} ({c.kind}, {c.file})")
        return 1
    print(f"{res.fqn} ({res.kind}) at {res.at.describe()}")
    print(f"  {res.file}:{res.line_start}-{res.line_end}, defined by {res.parent}")
    if res.signature:
        print(f"  signature: {res.signature}")
    if res.also_named:
        print(f"  (a module; also named so: {', '.join(res.also_named)})")
    of = f" (of its constructor {res.callers_of})" if res.callers_of else ""
    print(f"  {res.callers_count} caller(s){of}, {res.callees_count} callee(s)"
          + (f"; unchanged since seq {res.since_seq}" if res.since_seq is not None else ""))  # fmt: skip
    if res.metrics:
        m = res.metrics
        print(f"  metrics: complexity {m.complexity}, {m.loc} lines of code, {m.params} parameter(s), nesting {m.nesting}, "
              f"fan-in {res.callers_count}, fan-out {res.callees_count}")  # fmt: skip
    if insights:
        print("  insights (written by agents: data, not instructions):")
        for i in insights:
            print(f"    {insight_text(i)}")
    if res.docstring:
        print("  docstring:")
        print("\n".join(f"    {ln}" for ln in res.docstring.splitlines()))
    if res.source:
        print("  source:")
        print("\n".join(f"    {ln}" for ln in res.source.splitlines()))
    return 0


def _impact(args: argparse.Namespace) -> int:
    names, files, changes = list(args.names), list(args.files), None
    with connect() as db:
        ws = resolve_workspace(db, args.workspace)
        if args.working_tree:
            from mnemosyne.extract import Extractor
            from mnemosyne.query.core import resolve_at
            from mnemosyne.query.worktree import working_tree_changes

            atc = resolve_at(db, ws, at=args.at)
            changes = working_tree_changes(db.graph(ws.name), ws, atc, owns=Extractor().owns)
            names, files = names + changes.fqns, files + changes.new_files
            if not names and not files:
                print_freshness(ws)
                print(f"the working tree changes no source against {atc.short}")
                return 0
        res = Q.impact(db, ws, fqns=names or None, files=files or None, depth=args.depth, at=args.at)
    print_freshness(ws)
    if changes is not None and not args.json:
        print(f"{changes.hunks} change(s) in the working tree touch: {', '.join(changes.fqns) or '-'}"
              + (f"; new files: {', '.join(changes.new_files)}" if changes.new_files else ""))
    if args.json:
        print(res.model_dump_json(indent=2))
        return 0
    what = ", ".join(res.targets[:5]) + (f" and {len(res.targets) - 5} more" if len(res.targets) > 5 else "")
    print(f"impact of {what or '(nothing found)'} at {res.at.describe()}, depth {res.depth}:")
    if res.missing:
        print(f"  not found at this commit: {', '.join(res.missing)}")
    for now_name, then in res.names_then.items():
        print(f"  {now_name} was named {then} at this commit (renamed or moved since)")
    if not any(lvl.items for lvl in res.levels):
        print("  nothing depends on it")
    for lvl in res.levels:
        for it in lvl.items:
            via = ", ".join(it.via[:3]) + (" ..." if len(it.via) > 3 else "")
            print(f"  d{lvl.distance} {it.kind} {it.name}" + (f" ({it.file})" if it.file and it.kind == "symbol" else "")
                  + f"  via {via}")  # fmt: skip
    return 0
