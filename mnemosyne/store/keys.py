"""The FalkorDB keys of the graphs: a workspace's (``ws_<name>``), its history built on the side,
the registry's. A leaf module: the connection, the registry and the switch all name graphs by it."""

from __future__ import annotations

import re

from mnemosyne.errors import ConfigError
from mnemosyne.limits import MAX_WORKSPACE_NAME

WORKSPACE_PREFIX = "ws_"
REGISTRY_GRAPH = "mnemosyne_registry"
WORKSPACE_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")
SIDE_SUFFIX = "__history"  # a workspace's history built on the side, then switched in (store/switch.py)


def graph_key(workspace_name: str) -> str:
    """The FalkorDB key of a workspace graph: ``ws_<name>``."""
    if len(workspace_name or "") > MAX_WORKSPACE_NAME:
        raise ConfigError(f"invalid workspace name {workspace_name[:40]!r}…: at most {MAX_WORKSPACE_NAME} characters "
                          f"(this one has {len(workspace_name):,})")  # fmt: skip
    if not WORKSPACE_NAME.match(workspace_name or ""):
        raise ConfigError(
            f"invalid workspace name {workspace_name!r}: use letters, digits, '_', '.' and '-' only"
        )
    return WORKSPACE_PREFIX + workspace_name
