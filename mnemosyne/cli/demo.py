"""CLI: `mnemosyne demo`."""

from __future__ import annotations

import argparse

from mnemosyne.cli._placeholder import placeholder


def register(sub: argparse._SubParsersAction) -> None:
    placeholder(sub, "demo", "build a sample repo, ingest it and answer a question")
