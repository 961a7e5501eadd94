"""Every MCP tool, in the order the server lists them."""

from __future__ import annotations

from typing import Any

from mnemosyne.mcp.tools.base import Tool
from mnemosyne.mcp.tools.calls import GetCalls
from mnemosyne.mcp.tools.coordination import AddConstraint, ListConstraints, ListLocks, LockSymbol, UnlockSymbol
from mnemosyne.mcp.tools.cypher import GetSchema, RunCypher
from mnemosyne.mcp.tools.deps import DependencyHistory
from mnemosyne.mcp.tools.history import DiffCommits, SymbolHistory
from mnemosyne.mcp.tools.impact import Impact
from mnemosyne.mcp.tools.insights import AnnotateSymbol, ListInsights, RemoveInsight
from mnemosyne.mcp.tools.metrics import CodeMetrics
from mnemosyne.mcp.tools.search import SearchCode, SearchCommits
from mnemosyne.mcp.tools.symbols import GetSymbol
from mnemosyne.mcp.tools.workspaces import IngestionStatus, ListWorkspaces

TOOLS: tuple[Tool[Any, Any], ...] = (
    ListWorkspaces(), SearchCode(), GetSymbol(), GetCalls(), SymbolHistory(), DiffCommits(), Impact(),
    SearchCommits(), DependencyHistory(), RunCypher(), GetSchema(), IngestionStatus(), LockSymbol(),
    UnlockSymbol(), ListLocks(), AddConstraint(), ListConstraints(), CodeMetrics(), AnnotateSymbol(),
    RemoveInsight(), ListInsights(),
)  # fmt: skip

_BY_NAME = {t.name: t for t in TOOLS}


def tool_named(name: str) -> Tool[Any, Any]:
    """The registered tool called ``name`` (KeyError if none)."""
    return _BY_NAME[name]
