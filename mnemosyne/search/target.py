"""Which graph and which repository a search operation works on, from what its caller has: a
database and a workspace (a name or a ``WorkspaceInfo``), or a graph. A leaf of the search package:
the back-fill and the documentation store both use it."""

from __future__ import annotations

from typing import Any

from mnemosyne import vocabulary as V
from mnemosyne.search.vectors import META_KEY


def graph_of(db: Any, ws: Any) -> Any:
    """The workspace graph for ``(db, ws)``; ``ws`` a name, a ``WorkspaceInfo`` or a Graph."""
    if hasattr(ws, "ro_query"):
        return ws
    if hasattr(db, "ro_query") and ws is None:
        return db
    name = getattr(ws, "name", ws)
    return db.graph(name)


def repo_and_commit(graph: Any, db: Any, ws: str | None) -> tuple[str | None, str | None]:
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
