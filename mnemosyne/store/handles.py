"""The types the store's callers pass around: ``GraphHandle`` (what a caller uses of a graph) and
``WorkspaceRef`` (how a caller names a workspace).

``store.graph.Graph`` is the implementation of ``GraphHandle``; a function that only reads or
writes rows takes a ``GraphHandle``, one that needs the rest of ``Graph`` (schema, batches, named
queries) takes a ``Graph``. A ``WorkspaceRef`` is resolved to a ``WorkspaceInfo`` by
``query.core.workspace_info`` (a name is looked up in the registry).
"""

from __future__ import annotations

from typing import Any, Protocol, TypeAlias

from mnemosyne.store.registry import WorkspaceInfo


class GraphHandle(Protocol):
    """One FalkorDB graph as callers use it: rows in, rows out, typed errors (``mnemosyne.errors``)."""

    @property
    def name(self) -> str:
        """The graph's FalkorDB key (e.g. ``ws_demo``)."""
        ...

    def query(
        self,
        cypher: str,
        params: dict[str, Any] | None = None,
        timeout_ms: int | None = None,
        *,
        label: str | None = None,
    ) -> list[list[Any]]:
        """Run a read or write query; the result rows."""
        ...

    def ro_query(
        self,
        cypher: str,
        params: dict[str, Any] | None = None,
        timeout_ms: int | None = None,
        *,
        label: str | None = None,
    ) -> list[list[Any]]:
        """Run a query the server refuses to let write; the result rows."""
        ...

    def query_result(
        self,
        cypher: str,
        params: dict[str, Any] | None = None,
        timeout_ms: int | None = None,
        *,
        readonly: bool = False,
        label: str | None = None,
    ) -> Any:
        """The raw result (``.header``, ``.result_set``): what ``store.rows`` reads by column name."""
        ...


# A workspace as callers name it: its registered name, or its registry entry already read.
WorkspaceRef: TypeAlias = str | WorkspaceInfo

__all__ = ["GraphHandle", "WorkspaceInfo", "WorkspaceRef"]
