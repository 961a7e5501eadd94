"""CLI: historical questions (`calls`, `callers`, `history`, `diff`, `deps`, `lag`)."""

from __future__ import annotations

import argparse

from mnemosyne.cli._placeholder import placeholder


def register(sub: argparse._SubParsersAction) -> None:
    placeholder(sub, "calls", "what a function calls at a commit")
    placeholder(sub, "callers", "who calls a function at a commit")
    placeholder(sub, "history", "a symbol's history")
    placeholder(sub, "diff", "what changed between two commits")
    placeholder(sub, "deps", "dependency history")
    placeholder(sub, "lag", "ingestion lag")
