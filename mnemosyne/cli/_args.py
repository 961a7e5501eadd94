"""Arguments several commands share, defined once."""

from __future__ import annotations

import argparse
from typing import Any

WORKSPACE_HELP = "workspace (default: from the current directory)"


def add_workspace_arg(p: argparse.ArgumentParser, help: str = WORKSPACE_HELP, **kwargs: Any) -> None:  # noqa: A002
    """``--workspace/-w NAME``: which workspace the command means (``mnemosyne.workspaces``)."""
    p.add_argument("--workspace", "-w", metavar="NAME", help=help, **kwargs)


def add_json_arg(p: argparse.ArgumentParser, help: str = "print the result as JSON") -> None:  # noqa: A002
    """``--json``: print the result as JSON instead of text."""
    p.add_argument("--json", action="store_true", help=help)
