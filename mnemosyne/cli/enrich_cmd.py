"""CLI: `mnemosyne enrich`: LLM summaries and risk notes per function (``mnemosyne.enrich``)."""

from __future__ import annotations

import argparse
import json
import sys

from mnemosyne.cli._args import add_json_arg, add_workspace_arg
from mnemosyne.config import get_settings
from mnemosyne.errors import ConfigError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("enrich", help="ask an LLM for a summary and a risk note per function (off by default)",
                       description="Summaries and risk notes from a chat model (OpenAI or any OpenAI-compatible "
                       "server), stored as insights of mnemosyne-enrich: batched, capped by "
                       "enrich_max_tokens_per_run, and never sent twice for one body. Needs MNEMOSYNE_ENRICH_MODEL "
                       "(docs/operations.md).")  # fmt: skip
    what = p.add_mutually_exclusive_group()
    what.add_argument("--only", metavar="FQN", help="one function or method")
    what.add_argument("--changed-since", metavar="REV", help="functions whose definition changed after REV")
    p.add_argument("--limit", type=int, help="send at most N functions to the model")
    add_workspace_arg(p)
    add_json_arg(p)
    p.set_defaults(func=_enrich)


def _enrich(args: argparse.Namespace) -> int:
    from mnemosyne.enrich import enrich, not_configured_message
    from mnemosyne.store.connection import connect
    from mnemosyne.workspaces import resolve_workspace

    settings = get_settings()
    if not settings.enrich_model:
        raise ConfigError(not_configured_message())

    def progress(r) -> None:  # noqa: ANN001
        print(f"enrich: {r.sent + r.from_cache}/{r.candidates - r.up_to_date} function(s), {r.requests} request(s), "
              f"{r.tokens:,} tokens, {len(r.failed)} failed", file=sys.stderr)  # fmt: skip

    with connect() as db:
        ws = resolve_workspace(db, args.workspace)
        rep = enrich(db, ws, settings, only=args.only, changed_since=args.changed_since, limit=args.limit,
                     progress=None if args.json else progress)  # fmt: skip
    if args.json:
        print(json.dumps(rep.as_dict(), indent=2))
    else:
        print(f"{rep.workspace}: {rep.candidates} function(s); {rep.up_to_date} already summarised, "
              f"{rep.from_cache} from the cache, {rep.sent} sent in {rep.requests} request(s) ({rep.tokens:,} tokens), "
              f"{rep.written} written, {len(rep.failed)} failed" + (f", {rep.remaining} left" if rep.remaining else "")
              + (" (token cap reached: enrich_max_tokens_per_run)" if rep.stopped_by_cap else ""))  # fmt: skip
        for fqn, why in sorted(rep.failed.items())[:20]:
            print(f"  failed {fqn}: {why}")
    return 1 if rep.failed else 0
