"""CLI: `mnemosyne ingest`."""

from __future__ import annotations

import argparse

from mnemosyne.cli._placeholder import placeholder


def register(sub: argparse._SubParsersAction) -> None:
    placeholder(sub, "ingest", "ingest a repository")
