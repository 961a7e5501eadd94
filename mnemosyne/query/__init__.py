"""The ONE read API of Mnemosyne: the CLI and the MCP server both call these functions.

Every function takes ``db`` (``mnemosyne.store.connection.Database``), a workspace (name,
``WorkspaceInfo``, or None for the current directory's workspace) and, for questions at a
commit, ``at`` (commit-ish: hash, short hash, branch, tag, ``HEAD~2``) or ``as_of`` (epoch
seconds or ISO time). Results are pydantic models (``mnemosyne.query.models``). See
docs/queries.md for the named Cypher queries behind them and how time works.
"""

from mnemosyne.query import models as _models
from mnemosyne.query.calls import call_tree, callers, callgraph_at, calls
from mnemosyne.query.core import WorkspaceNotIngested, parse_time, resolve_at, snapshot
from mnemosyne.query.dependencies import dependency_history, normalize_package
from mnemosyne.query.diff import diff_commits
from mnemosyne.query.history import symbol_history
from mnemosyne.query.impact import impact
from mnemosyne.query.models import *  # noqa: F403 - the result models (models.__all__)
from mnemosyne.query.names import AmbiguousSymbol, UnknownSymbol, find_symbols
from mnemosyne.query.status import ingestion_lag, list_workspaces_status
from mnemosyne.query.symbols import get_symbol, list_files

__all__ = [
    "AmbiguousSymbol", "UnknownSymbol", "WorkspaceNotIngested", "call_tree", "callers", "callgraph_at", "calls", "dependency_history",
    "diff_commits", "find_symbols", "get_symbol", "impact", "ingestion_lag", "list_files", "list_workspaces_status",
    "normalize_package", "parse_time", "resolve_at", "snapshot", "symbol_history",
    *_models.__all__,
]  # fmt: skip
