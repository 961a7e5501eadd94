"""The ``mnemosyne`` command line: thin over the query, ingest and store layers.

Each command group lives in its own module under ``mnemosyne.cli`` and exposes
``register(subparsers)``; a command sets ``func(args) -> int`` on its parser.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys

from mnemosyne import __version__
from mnemosyne.errors import MnemosyneError

# Command-group modules, in --help order. Each defines register(subparsers).
COMMAND_MODULES = (
    "init_cmd",
    "db",
    "workspace",
    "status",
    "cypher_cmd",
    "ingest_cmd",
    "callgraph_cmd",
    "history_cmds",
    "symbol_cmds",
    "insights_cmd",
    "enrich_cmd",
    "metrics_cmd",
    "search_cmd",
    "daemon_cmd",
    "hook_cmd",
    "mcp_cmd",
    "demo",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mnemosyne",
        description="Mnemosyne: a bitemporal code knowledge graph of your Git repositories.",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug details to stderr")
    parser.add_argument("--version", action="version", version=f"mnemosyne {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"mnemosyne.cli.{name}")
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
    )
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        code = int(func(args) or 0)
        sys.stdout.flush()
        return code
    except BrokenPipeError:  # `mnemosyne deps | head`: the reader left; no traceback, no second error
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except MnemosyneError as err:
        print(f"mnemosyne: {err}", file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        print("mnemosyne: interrupted", file=sys.stderr)
        return 130
    except OSError as err:  # a file or folder the command needed (the typed errors name most of them)
        logging.getLogger("mnemosyne").debug("command failed", exc_info=True)
        where = f" ({err.filename})" if getattr(err, "filename", None) else ""
        print(f"mnemosyne: {err.strerror or err}{where}; rerun with -v for details", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
