"""CLI: `mnemosyne cypher`."""

from __future__ import annotations

import argparse

from mnemosyne.cli._placeholder import placeholder


def register(sub: argparse._SubParsersAction) -> None:
    placeholder(sub, "cypher", "run read-only Cypher")
