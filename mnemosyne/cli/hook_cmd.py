"""CLI: `mnemosyne hook`."""

from __future__ import annotations

import argparse

from mnemosyne.cli._placeholder import placeholder


def register(sub: argparse._SubParsersAction) -> None:
    placeholder(sub, "hook", "install git hooks")
