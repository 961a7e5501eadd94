"""Helpers for commands that a later milestone fills in."""

from __future__ import annotations

import argparse

from mnemosyne.errors import NotImplementedYet


def placeholder(sub: argparse._SubParsersAction, name: str, help_text: str) -> argparse.ArgumentParser:
    """A command that exists in --help but exits 2 with a clear message."""
    parser = sub.add_parser(name, help=f"{help_text} (not implemented yet)")
    parser.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)

    def run(args: argparse.Namespace) -> int:
        raise NotImplementedYet(f"'mnemosyne {name}' is not implemented yet")

    parser.set_defaults(func=run)
    return parser
