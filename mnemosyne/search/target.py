"""Which graph and which repository a search operation works on, from what its caller has: a
database and a workspace (a name or a ``WorkspaceInfo``), or a graph. A leaf of the search package:
the back-fill and the documentation store both use it."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from mnemosyne import vocabulary as V
from mnemosyne.search.errors import SearchError
from mnemosyne.store.connection import Database
from mnemosyne.store.versions import META_KEY

if TYPE_CHECKING:
    from mnemosyne.store.graph import Graph
    from mnemosyne.store.handles import GraphHandle, WorkspaceRef


def workspace_name(ws: WorkspaceRef | GraphHandle | None) -> str | None:
    """The name ``ws`` goes by: itself for a name, the entry's name, a graph's key."""
    if ws is None or isinstance(ws, str):
        return ws
    return ws.name


def graph_of(db: Database | Graph | None, ws: WorkspaceRef | Graph | None) -> Graph:
    """The workspace graph for ``(db, ws)``; ``ws`` a name, a ``WorkspaceInfo`` or a Graph (then
    ``db`` is not used); ``db`` a graph itself when ``ws`` is None."""
    if hasattr(ws, "ro_query"):
        return cast("Graph", ws)
    if hasattr(db, "ro_query") and ws is None:
        return cast("Graph", db)
    name = workspace_name(ws)
    if not isinstance(db, Database) or name is None:
        raise SearchError("a search operation needs a database and a workspace, or a workspace graph")
    return db.graph(name)


def repo_and_commit(graph: GraphHandle, db: Database | None, ws: str | None) -> tuple[str | None, str | None]:
    """The repository path (the graph's Workspace node, else the registry's entry for ``ws``) and
    the last ingested commit, each None when unknown."""
    commit = None
    rows = graph.ro_query(f"MATCH (m:{V.META} {{key: $k}}) RETURN m.last_commit", {"k": META_KEY})
    if rows:
        commit = rows[0][0]
    path = None
    rows = graph.ro_query(f"MATCH (w:{V.WORKSPACE}) RETURN w.path LIMIT 1")
    if rows and rows[0][0]:
        path = rows[0][0]
    if path is None and db is not None and ws:
        try:
            path = db.registry.get(ws).path
        except Exception:  # registry missing or workspace unknown: no bodies
            path = None
    return path, commit
