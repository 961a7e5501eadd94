"""Search: full-text, vector and hybrid search over a workspace graph, embeddings, documentation.

Public API (see docs/search.md):

- ``search(db, ws, query, mode='hybrid', kind=None, at=None, limit=10, path_prefix=None, offset=0)``
  -> ``SearchResults``; ``search_commits(db, ws, query, author=None, since=None, until=None,
  path=None, limit=10)`` -> ``list[CommitHit]``  (``.hybrid``, ``.commits``)
- ``get_embedder(settings)``, ``LocalEmbedder``, ``OpenAIEmbedder``  (``.embedders``)
- ``backfill(db, ws, embedder, limit=None)`` -> ``BackfillReport``  (``.backfill``)
- ``apply_docs(graph, seq, commit_hash, commit_time, changed)``, ``sync_docs(db, ws)``  (``.doc_store``)
- ``refresh_workspace(db, ws)``: docs catch-up + embedding back-fill; the daemon's post-ingest step.
- ``search_text(fqn, name, signature, docstring)``, ``ft_query(text)``, ``split_identifier``  (``.text``)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database
    from mnemosyne.store.graph import Graph
    from mnemosyne.store.handles import WorkspaceRef

_EXPORTS = {
    "search": "mnemosyne.search.hybrid",
    "search_commits": "mnemosyne.search.commits",
    "SearchResults": "mnemosyne.search.hybrid",
    "SearchResult": "mnemosyne.search.hybrid",
    "CommitHit": "mnemosyne.search.commits",
    "Weights": "mnemosyne.search.fusion",
    "get_embedder": "mnemosyne.search.embedders",
    "Embedder": "mnemosyne.search.embedders",
    "LocalEmbedder": "mnemosyne.search.embedders",
    "OpenAIEmbedder": "mnemosyne.search.embedders",
    "backfill": "mnemosyne.search.backfill",
    "BackfillReport": "mnemosyne.search.backfill",
    "apply_docs": "mnemosyne.search.doc_store",
    "sync_docs": "mnemosyne.search.doc_store",
    "search_text": "mnemosyne.search.text",
    "ft_query": "mnemosyne.search.text",
    "split_identifier": "mnemosyne.search.text",
    "rebuild_vector_indexes": "mnemosyne.search.vectors",
}

__all__ = sorted([*_EXPORTS, "refresh_workspace"])


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'mnemosyne.search' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


def refresh_workspace(db: Database | Graph, ws: WorkspaceRef | Graph | None, embedder: Any = None, *, limit: int | None = None) -> dict[str, Any]:
    """After an ingest: embed what is new or changed (``backfill``; skipped when the provider is
    'none'). Ingestion already writes the documentation of every commit it ingests; the
    ``sync_docs`` call first is only a catch-up for graphs ingested before it did (``Meta.docs_seq``
    behind ``last_seq``) and does nothing on a current graph. Never raises for an embedding
    failure: it is reported in the result, so ingestion is never blocked."""
    from mnemosyne.search.backfill import backfill
    from mnemosyne.search.doc_store import sync_docs
    from mnemosyne.search.embedders import get_embedder

    out: dict[str, Any] = {}
    out["docs"] = sync_docs(db, ws).__dict__
    try:
        emb = embedder if embedder is not None else get_embedder(getattr(db, "settings", None))
        if emb is None:
            out["embeddings"] = "disabled"
        else:
            out["embeddings"] = backfill(db, ws, emb, limit=limit).as_dict()
    except Exception as err:  # noqa: BLE001 - reported, never fatal for ingestion
        out["embeddings_error"] = str(err)
    return out
