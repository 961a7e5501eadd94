"""The read API: every historical question the CLI and the MCP server ask, gathered in one place.

Each function takes ``db`` (a ``Database``), a workspace (name, ``WorkspaceInfo``, or None for
the current directory's workspace) and, where it makes sense, ``at`` (a commit-ish) or
``as_of`` (a time). Timeline commits are answered from the graph with the named queries in
``cypher/``; other commits are answered by parsing their tree (``from_source=True``).

This module only re-exports; each operation family lives in its own module of the package:
``calls`` (calls, callers, call tree, call graph), ``symbols`` (a symbol, the files at a commit),
``names`` (what a name means; close matches; the unknown/ambiguous symbol errors), ``history``,
``diff``, ``impact``, ``dependencies``, ``status`` (workspaces' status, ingestion lag), on the
shared reading helpers of ``reading``.
"""

from mnemosyne.query.calls import call_tree, callers, callgraph_at, calls
from mnemosyne.query.core import resolve_at
from mnemosyne.query.dependencies import dependency_history, normalize_package
from mnemosyne.query.diff import diff_commits
from mnemosyne.query.history import symbol_history
from mnemosyne.query.impact import impact
from mnemosyne.query.names import AmbiguousSymbol, UnknownSymbol, find_symbols
from mnemosyne.query.status import ingestion_lag, list_workspaces_status
from mnemosyne.query.symbols import get_symbol, list_files

__all__ = [
    "AmbiguousSymbol", "UnknownSymbol", "call_tree", "callers", "callgraph_at", "calls", "dependency_history",
    "diff_commits", "find_symbols", "get_symbol", "impact", "ingestion_lag", "list_files", "list_workspaces_status",
    "normalize_package", "resolve_at", "symbol_history",
]  # fmt: skip
