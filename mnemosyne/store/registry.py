"""The workspace registry: ``(:Workspace)`` nodes in the graph ``mnemosyne_registry`` (schema.md).

Stored properties: ``name``, ``path``, ``default_branch``, ``last_ingested_commit``,
``last_ingested_seq``, ``state``, ``added_at``, ``updated_at`` (epoch seconds). ``WorkspaceInfo``
calls the tracked branch ``branch``.
"""

from __future__ import annotations

import builtins
import difflib
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from mnemosyne import vocabulary as V
from mnemosyne.errors import ConfigError, WorkspaceNotFound
from mnemosyne.limits import MAX_WORKSPACE_NAME
from mnemosyne.store.keys import REGISTRY_GRAPH, WORKSPACE_PREFIX, graph_key
from mnemosyne.store.rows import Record, query_records

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database

STATE_REGISTERED = "registered"  # added, never ingested
# Other states are set by ingestion (e.g. "ingesting", "ready", "error"); the registry stores any.

_FIELDS_TO_PROPS = {
    "path": "path",
    "branch": "default_branch",
    "last_ingested_commit": "last_ingested_commit",
    "last_ingested_seq": "last_ingested_seq",
    "state": "state",
}
_RETURN = ("RETURN w.name AS name, w.path AS path, w.default_branch AS branch, w.last_ingested_commit AS commit, "
           "w.last_ingested_seq AS seq, w.state AS state, w.added_at AS added_at, w.updated_at AS updated_at")


class WorkspaceInfo(BaseModel):
    """One registered workspace."""

    name: str
    path: str
    branch: str
    last_ingested_commit: str | None = None
    last_ingested_seq: int | None = None
    state: str = STATE_REGISTERED
    added_at: int
    updated_at: int

    @property
    def graph_key(self) -> str:
        return graph_key(self.name)


def _row_to_info(row: Record) -> WorkspaceInfo:
    return WorkspaceInfo(
        name=row.name,
        path=row.path,
        branch=row.branch or "",
        last_ingested_commit=row.commit,
        last_ingested_seq=row.seq,
        state=row.state or STATE_REGISTERED,
        added_at=int(row.added_at or 0),
        updated_at=int(row.updated_at or 0),
    )


class WorkspaceRegistry:
    """Add, read, update and remove workspaces."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.graph = db.raw_graph(REGISTRY_GRAPH)
        self._indexed = False

    def _ensure_index(self) -> None:
        if self._indexed:
            return
        rows = self.graph.ro_query("CALL db.indexes() YIELD label, types RETURN label, types")
        if not any(label == "Workspace" and "name" in dict(types) for label, types in rows):
            self.graph.query(f"CREATE INDEX FOR (w:{V.WORKSPACE}) ON (w.name)", label="registry index")
        self._indexed = True

    def add(self, name: str, path: str | Path, branch: str) -> WorkspaceInfo:
        """Register the repository whose top-level folder is ``path`` as workspace ``name``, tracking
        ``branch``. The store knows no git: ``mnemosyne.workspaces.add_workspace`` finds the root
        and the branch of any path inside a repository and calls this."""
        graph_key(name)  # validates the name
        if not branch:
            raise ConfigError(f"no branch to track given for workspace {name!r}; pass --branch")
        root = Path(path).expanduser().resolve()
        existing = {w.name: w for w in self.list()}
        if name in existing:
            raise ConfigError(
                f"workspace {name!r} already exists ({existing[name].path}); remove it first or pick another --name"
            )
        for w in existing.values():
            if w.path == str(root) and w.branch == branch:
                raise ConfigError(f"{root} (branch {branch}) is already registered as workspace {w.name!r}")
        self._ensure_index()
        now = int(time.time())
        rows = query_records(
            self.graph,
            f"CREATE (w:{V.WORKSPACE} {{name: $name, path: $path, default_branch: $branch, state: $state, "
            "added_at: $now, updated_at: $now}) " + _RETURN,
            {"name": name, "path": str(root), "branch": branch, "state": STATE_REGISTERED, "now": now},
            label="registry add",
            readonly=False,
        )
        return _row_to_info(rows[0])

    def get(self, name: str) -> WorkspaceInfo:
        rows = self._lookup(name)
        if not rows:
            raise WorkspaceNotFound(self._not_found(name))
        return _row_to_info(rows[0])

    def find(self, name: str) -> WorkspaceInfo | None:
        """Like ``get`` but None when absent."""
        rows = self._lookup(name)
        return _row_to_info(rows[0]) if rows else None

    def list(self) -> list[WorkspaceInfo]:
        rows = query_records(self.graph, f"MATCH (w:{V.WORKSPACE}) " + _RETURN + " ORDER BY name", label="registry list")
        return [_row_to_info(r) for r in rows]

    def update(self, name: str, **fields: Any) -> WorkspaceInfo:
        """Set fields (path, branch, last_ingested_commit, last_ingested_seq, state); None clears one."""
        unknown = set(fields) - set(_FIELDS_TO_PROPS)
        if unknown:
            raise ValueError(f"unknown workspace fields: {', '.join(sorted(unknown))}")
        if "path" in fields and fields["path"] is not None:
            fields["path"] = str(fields["path"])
        sets = ", ".join(f"w.{_FIELDS_TO_PROPS[k]} = ${k}" for k in fields)
        cypher = f"MATCH (w:{V.WORKSPACE} {{name: $name}}) SET " + (sets + ", " if sets else "")
        cypher += "w.updated_at = $now " + _RETURN
        rows = query_records(self.graph, cypher, {**fields, "name": name, "now": int(time.time())},
                             label="registry update", readonly=False)  # fmt: skip
        if not rows:
            raise WorkspaceNotFound(self._not_found(name))
        return _row_to_info(rows[0])

    def remove(self, name: str, drop_graph: bool = True) -> WorkspaceInfo:
        """Unregister ``name``; with ``drop_graph`` also delete its graph ``ws_<name>``."""
        info = self.get(name)
        if len(name) <= MAX_WORKSPACE_NAME:
            self.graph.query(f"MATCH (w:{V.WORKSPACE} {{name: $name}}) DELETE w", {"name": name}, label="registry remove")
            if drop_graph:
                from mnemosyne.store.switch import side_graph

                self.db.graph(name).delete()
                side_graph(self.db, name).delete()  # a history being built behind its head
            return info
        # a name longer than the bound (registered before it held): found without the index
        self.graph.query(f"MATCH (w:{V.WORKSPACE}) WHERE w.name + '' = $name DELETE w", {"name": name},
                         label="registry remove (long name)")  # fmt: skip
        if drop_graph:
            self.db.raw_graph(WORKSPACE_PREFIX + name).delete()
        return info

    def _lookup(self, name: str) -> builtins.list[Record]:
        if len(name or "") <= MAX_WORKSPACE_NAME:
            return query_records(self.graph, f"MATCH (w:{V.WORKSPACE} {{name: $name}}) " + _RETURN, {"name": name},
                                 label="registry get")  # fmt: skip
        # longer than names may be now (registered before the bound held): the range index leaves
        # out strings over 4,096 bytes, so compare without it, so that it can still be removed
        return query_records(self.graph, f"MATCH (w:{V.WORKSPACE}) WHERE w.name + '' = $name " + _RETURN,
                             {"name": name}, label="registry get (long name)")  # fmt: skip

    def _not_found(self, name: str) -> str:
        if len(name or "") > MAX_WORKSPACE_NAME:
            return f"no workspace {name[:40]!r}… (workspace names have at most {MAX_WORKSPACE_NAME} characters)"
        names = [w.name for w in self.list()]
        if not names:
            return f"no workspace {name!r}: none registered yet (run `mnemosyne workspace add PATH`)"
        close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
        hint = f"did you mean {', '.join(close)}?" if close else f"registered: {', '.join(names)}"
        return f"no workspace {name!r}; {hint}"
