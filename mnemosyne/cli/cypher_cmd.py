"""CLI: `mnemosyne cypher QUERY`: read-only Cypher against a workspace graph."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from mnemosyne.cli._args import add_json_arg, add_workspace_arg
from mnemosyne.errors import ConfigError
from mnemosyne.store import named_queries
from mnemosyne.store.connection import connect
from mnemosyne.store.readonly import run_readonly
from mnemosyne.workspaces import resolve_workspace


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "cypher",
        help="run read-only Cypher on a workspace graph",
        description="Run a read-only Cypher query (GRAPH.RO_QUERY; CREATE/MERGE/SET/DELETE and LOAD CSV "
        "are refused) with the read-only timeout and row cap from the settings. QUERY may also be "
        "@NAME to run cypher/NAME.cypher.",
    )
    parser.add_argument("query", metavar="QUERY", nargs="?", help="Cypher text, or @NAME for a named query")
    parser.add_argument(
        "--param", "-p", action="append", default=[], metavar="KEY=VALUE",
        help="query parameter $KEY; VALUE is parsed as JSON when possible, else taken as a string",
    )  # fmt: skip
    add_workspace_arg(parser)
    add_json_arg(parser, "print {columns, rows, truncated, row_count} as JSON")
    parser.add_argument("--timeout-ms", type=int, help="query timeout (default: readonly_timeout_ms)")
    parser.add_argument("--max-rows", type=int, help="row cap (default: readonly_max_rows)")
    parser.add_argument("--list", action="store_true", help="list the named queries and their parameters")
    parser.set_defaults(func=_run)


def parse_params(pairs: list[str]) -> dict[str, Any]:
    """``k=v`` pairs; values parsed as JSON when possible (``3``, ``true``, ``[1,2]``), else strings."""
    params: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--param {pair!r}: expected KEY=VALUE")
        try:
            params[key.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            params[key.strip()] = raw
    return params


def _list_named() -> int:
    descriptions = named_queries.descriptions()
    for name, params in named_queries.list_queries().items():
        args = " ".join(f"${p}" for p in params)
        first = descriptions.get(name, "").splitlines()
        print(f"{name:<28} {args:<30} {first[0] if first else ''}".rstrip())
    return 0


def _cell(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _run(args: argparse.Namespace) -> int:
    if args.list:
        return _list_named()
    if not args.query:
        raise ConfigError("give a Cypher QUERY (or --list to see the named queries)")
    query = named_queries.load(args.query[1:]) if args.query.startswith("@") else args.query
    params = parse_params(args.param)
    with connect() as db:
        ws = resolve_workspace(db, args.workspace)
        graph = db.graph(ws.name)
        result = run_readonly(graph, query, params, timeout_ms=args.timeout_ms, max_rows=args.max_rows)
        if not result.columns and not graph.exists():
            print(f"(workspace {ws.name!r} has no graph yet: run `mnemosyne ingest --workspace {ws.name}`)",
                  file=sys.stderr)
    if args.json:
        print(json.dumps(result.model_dump(), indent=2, ensure_ascii=False))
        return 0
    print("\t".join(result.columns))
    for row in result.rows:
        print("\t".join(_cell(v) for v in row))
    if result.truncated:
        print(f"... more rows not shown: capped at {len(result.rows)} (use LIMIT/SKIP or --max-rows)", file=sys.stderr)
    return 0
