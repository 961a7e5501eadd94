"""FalkorDB storage: embedded server, connection, graphs, schema, registry, named and read-only queries.

Modules:
- ``embedded``       ``EmbeddedFalkorDB``: start/stop/status of the per-user server
- ``connection``     ``connect() -> Database``: external URL or embedded socket
- ``graph``          ``Graph``: typed errors, ``write_batches``, ``ensure_schema``, ``run_named``
- ``schema``         ``cypher/schema.cypher`` applied idempotently
- ``registry``       ``WorkspaceRegistry`` / ``WorkspaceInfo`` (graph ``mnemosyne_registry``)
- ``named_queries``  ``cypher/*.cypher`` by name, with parameters and descriptions
- ``rows``           result rows by column name (``Record``, ``named_records``, ``query_records``)
- ``readonly``       ``run_readonly``: user/agent Cypher behind three guards
- ``handles``        ``GraphHandle`` (what callers use of a graph), ``WorkspaceRef`` (a name or a ``WorkspaceInfo``)
- ``db_errors``      redis/FalkorDB exceptions -> the typed errors of ``mnemosyne.errors``

``from mnemosyne.store import connect, Database, Graph`` works (imported lazily).
"""

from __future__ import annotations

from typing import Any

_EXPORTS = {
    "connect": "mnemosyne.store.connection",
    "Database": "mnemosyne.store.connection",
    "Graph": "mnemosyne.store.graph",
    "EmbeddedFalkorDB": "mnemosyne.store.embedded",
    "WorkspaceRegistry": "mnemosyne.store.registry",
    "WorkspaceInfo": "mnemosyne.store.registry",
    "GraphHandle": "mnemosyne.store.handles",
    "WorkspaceRef": "mnemosyne.store.handles",
    "run_readonly": "mnemosyne.store.readonly",
    "ReadOnlyResult": "mnemosyne.store.readonly",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'mnemosyne.store' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
