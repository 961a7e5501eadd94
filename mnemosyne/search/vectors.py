"""Vector indexes, the embedding model recorded in the graph, and k-NN queries.

- One HNSW cosine index per embedded label: ``Function(embedding)``, ``Class(embedding)``,
  ``Commit(embedding)``, ``Section(embedding)``; all of one dimension, the model's.
- ``Meta {key:'ingest'}`` records ``embedding_provider``, ``embedding_model``, ``embedding_dim``.
  A different model or dimension drops the vector indexes, removes every stored vector and
  ``embed_hash``, re-creates the indexes and records the new model: dimensions never mix.
- k-NN is exact below ``EXACT_SCAN_MAX`` nodes of a label: a scan of the stored vectors with
  ``vec.cosineDistance`` on the server. HNSW is approximate, and on real questions it is not a rounding
  error: on marshmallow's ~1,100 functions (MiniLM-L6, efRuntime 20, 30-nearest overfetched to 70)
  the index's nearest function was the true nearest for 97 % of 153 questions, 86 % of classes at
  k=10, and a function just committed (cosine 0.375, the next 0.226) came back only from 410
  neighbours on. The scan costs ~1.4 ms per 1,000 vectors (median, loaded 2-core box: 10 ms at
  10 k, 40 ms at 30 k, 84 ms at 60 k), so it stops at 20 k per label, where HNSW takes over.
- HNSW k-NN always overfetches ``2k+10`` and trims (HNSW returns short lists after updates and AOF
  replays, measured on FalkorDB 4.x); ``rebuild_vector_indexes`` (drop + create) is the cure the daemon runs
  after large re-embeds and after a start that replayed the AOF.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from mnemosyne import vocabulary as V
from mnemosyne.errors import IndexNotReady, MnemosyneError
from mnemosyne.search.errors import EmbeddingDimensionMismatch
from mnemosyne.store.versions import META_KEY
from mnemosyne.vocabulary import EMBEDDING_PROP, SENTENCE_HASH_PROP, SENTENCE_PROP

if TYPE_CHECKING:
    from mnemosyne.store.handles import GraphHandle

log = logging.getLogger(__name__)

#: embedded label -> key property
VECTOR_LABELS: dict[str, str] = {
    V.FUNCTION: V.FQN,
    V.CLASS: V.FQN,
    V.COMMIT: "hash",
    V.SECTION: "key",
}
HNSW_OPTIONS = "similarityFunction:'cosine', M:16, efConstruction:200, efRuntime:20"
#: labels with at most this many nodes are searched exactly (a scan), larger ones through HNSW
EXACT_SCAN_MAX = 20_000


@dataclass(frozen=True)
class EmbeddingModelInfo:
    provider: str | None
    model: str | None
    dim: int | None
    pending: int = 0  # texts the running (or interrupted) back-fill has still to embed
    pending_of: int = 0  # texts that back-fill had to embed when it started (0: unknown)

    def progress_note(self) -> str | None:
        """``"n of m texts embedded"`` while a back-fill is unfinished, else None."""
        if self.pending <= 0:
            return None
        if self.pending_of >= self.pending:
            return f"{self.pending_of - self.pending} of {self.pending_of} texts embedded"
        return f"{self.pending} texts left to embed"


def _indexes(graph: GraphHandle) -> list[list[Any]]:
    return graph.ro_query(
        "CALL db.indexes() YIELD label, properties, types, options, entitytype "
        "RETURN label, properties, types, options, entitytype"
    )


def vector_indexes(graph: GraphHandle) -> dict[str, int]:
    """Existing vector indexes on ``embedding``: label -> dimension."""
    out: dict[str, int] = {}
    for label, _props, types, options, entity in _indexes(graph):
        if entity != "NODE" or label not in VECTOR_LABELS:
            continue
        if "VECTOR" in (types or {}).get(EMBEDDING_PROP, []):
            opts = (options or {}).get(EMBEDDING_PROP) or {}
            out[label] = int(opts.get("dimension", 0) or 0)
    return out


def fulltext_fields(graph: GraphHandle, label: str) -> list[str]:
    for lab, props, types, _opts, entity in _indexes(graph):
        if entity == "NODE" and lab == label:
            return [p for p in props if "FULLTEXT" in (types or {}).get(p, [])]
    return []


def ensure_search_indexes(graph: GraphHandle) -> list[str]:
    """Full-text fields the search layer relies on beyond cypher/schema.cypher: Section
    ``search_text`` (identifiers pre-split) next to ``text``. Adding a field to an existing
    full-text index is additive in FalkorDB. Returns the statements run."""
    ran: list[str] = []
    wanted = {V.SECTION: ("text", "search_text"), V.FUNCTION: ("search_text",), V.CLASS: ("search_text",)}
    for label, fields in wanted.items():
        have = set(fulltext_fields(graph, label))
        var = label[0].lower()
        for f in fields:
            if f not in have:
                stmt = f"CREATE FULLTEXT INDEX FOR ({var}:{label}) ON ({var}.{f})"
                graph.query(stmt)
                ran.append(stmt)
    return ran


def get_model_info(graph: GraphHandle) -> EmbeddingModelInfo:
    rows = graph.ro_query(
        f"MATCH (m:{V.META} {{key: $k}}) RETURN m.embedding_provider, m.embedding_model, m.embedding_dim, m.embed_pending, "
        "m.embed_pending_of",
        {"k": META_KEY},
    )
    if not rows:
        return EmbeddingModelInfo(None, None, None)
    p, m, d, pending, pending_of = rows[0]
    return EmbeddingModelInfo(p, m, int(d) if d is not None else None, int(pending or 0), int(pending_of or 0))


def set_pending(graph: GraphHandle, pending: int, *, total: int | None = None) -> None:
    """Record how many texts the back-fill has left (search reports it while it is > 0) and,
    when it starts, how many it has to embed in all (``total``)."""
    if total is None:
        graph.query(f"MERGE (m:{V.META} {{key: $k}}) SET m.embed_pending = $n", {"k": META_KEY, "n": max(0, int(pending))})
    else:
        graph.query(f"MERGE (m:{V.META} {{key: $k}}) SET m.embed_pending = $n, m.embed_pending_of = $t",
                    {"k": META_KEY, "n": max(0, int(pending)), "t": max(0, int(total))})  # fmt: skip


def _set_model_info(graph: GraphHandle, provider: str, model: str, dim: int) -> None:
    graph.query(
        f"MERGE (m:{V.META} {{key: $k}}) SET m.embedding_provider = $p, m.embedding_model = $m, m.embedding_dim = $d",
        {"k": META_KEY, "p": provider, "m": model, "d": int(dim)},
    )


def create_vector_indexes(graph: GraphHandle, dim: int) -> list[str]:
    """Create the missing vector indexes with ``dim``; a wrong-dimension one is re-created."""
    ran: list[str] = []
    have = vector_indexes(graph)
    drop_vector_indexes(graph, [lab for lab, d in have.items() if lab in VECTOR_LABELS and d != dim])
    for label in VECTOR_LABELS:
        if label in have and have[label] == dim:
            continue
        var = label[0].lower()
        stmt = (
            f"CREATE VECTOR INDEX FOR ({var}:{label}) ON ({var}.{EMBEDDING_PROP}) "
            f"OPTIONS {{dimension:{int(dim)}, {HNSW_OPTIONS}}}"
        )
        graph.query(stmt)
        ran.append(stmt)
    return ran


def drop_vector_indexes(graph: GraphHandle, labels: Sequence[str] | None = None, timeout_s: float = 60.0) -> None:
    """Drop the vector indexes of ``labels`` (default: all) and wait until ``db.indexes()`` no
    longer lists them: index DDL takes effect asynchronously, and a CREATE issued while a DROP of
    the same index was still pending was seen to vanish (the index then never came back)."""
    import time

    targets = set(vector_indexes(graph) if labels is None else labels)
    for label in sorted(targets):
        var = label[0].lower()
        graph.query(f"DROP VECTOR INDEX FOR ({var}:{label}) ON ({var}.{EMBEDDING_PROP})")
    deadline = time.monotonic() + timeout_s
    while (left := targets & set(vector_indexes(graph))) and time.monotonic() < deadline:
        time.sleep(0.02)
    if left:
        log.warning("vector indexes still listed %.0f s after DROP: %s", timeout_s, sorted(left))


def indexes_building(graph: GraphHandle) -> list[str]:
    """Labels whose index is still being built (``UNDER CONSTRUCTION``): FalkorDB builds a new
    index in the background and refuses vector queries on it until done."""
    rows = graph.ro_query("CALL db.indexes() YIELD label, status RETURN label, status")
    return sorted({lab for lab, status in rows if status and "CONSTRUCTION" in str(status).upper()})


def wait_vector_indexes(graph: GraphHandle, timeout_s: float = 600.0, dim: int | None = None) -> bool:
    """Wait until the vector indexes answer queries; False on timeout. With ``dim``, every
    vector label must also be listed with that dimension (index DDL takes effect
    asynchronously: right after CREATE the index may be missing from ``db.indexes()``)."""
    import time

    deadline = time.monotonic() + timeout_s
    while True:
        building = [lab for lab in indexes_building(graph) if lab in VECTOR_LABELS]
        have = vector_indexes(graph)
        listed = dim is None or all(have.get(lab) == dim for lab in VECTOR_LABELS)
        # A just-created index can show no construction status yet while the procedure still
        # refuses it, so a label counts as ready only once a probe query is accepted.
        if not building and listed and all(_accepts_queries(graph, lab, d) for lab, d in have.items()):
            return True
        if time.monotonic() > deadline:
            log.warning("vector indexes still under construction after %.0f s: %s", timeout_s, building)
            return False
        time.sleep(0.05)


def _accepts_queries(graph: GraphHandle, label: str, dim: int) -> bool:
    """True when a k-NN probe on ``label`` runs (the store raises ``IndexNotReady`` while the index
    is not usable yet)."""
    if dim <= 0:
        return True
    probe = [1.0] + [0.0] * (dim - 1)
    try:
        graph.ro_query(
            f"CALL db.idx.vector.queryNodes('{label}', '{EMBEDDING_PROP}', 1, vecf32($q)) YIELD node RETURN count(node)",
            {"q": probe},
        )
    except IndexNotReady:
        return False
    return True


def rebuild_vector_indexes(graph: GraphHandle, wait: bool = True) -> int:
    """DROP + CREATE every vector index with the recorded dimension (after large re-embeds, or
    when the server replayed its AOF), then wait for the background build (searches meanwhile
    fall back to keyword results). Returns the dimension (0: nothing embedded yet)."""
    info = get_model_info(graph)
    if not info.dim:
        return 0
    drop_vector_indexes(graph)
    create_vector_indexes(graph, info.dim)
    if wait:
        wait_vector_indexes(graph, dim=info.dim)
    return info.dim


def prepare_model(graph: GraphHandle, provider: str, model_id: str, dim: int) -> bool:
    """Make the graph ready for vectors of ``model_id``/``dim``. Returns True when the model
    changed (every old vector removed: they must all be re-embedded)."""
    info = get_model_info(graph)
    changed = info.model is not None and (info.model != model_id or info.dim != dim)
    if changed:
        log.warning(
            "embedding model changed (%s/%s -> %s/%s): dropping vector indexes and all vectors",
            info.model, info.dim, model_id, dim,
        )
        drop_vector_indexes(graph)
        for label in VECTOR_LABELS:
            graph.query(
                f"MATCH (n:{label}) WHERE n.embedding IS NOT NULL OR n.embed_hash IS NOT NULL "
                "SET n.embedding = NULL, n.embed_hash = NULL"
            )
        for label in (V.FUNCTION, V.CLASS):
            graph.query(f"MATCH (n:{label}) WHERE n.{SENTENCE_HASH_PROP} IS NOT NULL "
                        f"SET n.{SENTENCE_PROP} = NULL, n.{SENTENCE_HASH_PROP} = NULL")
    create_vector_indexes(graph, dim)
    wait_vector_indexes(graph, dim=dim)
    if changed or info.model is None or info.provider != provider:
        _set_model_info(graph, provider, model_id, dim)
    return changed


def check_dim(vectors: np.ndarray, dim: int) -> None:
    if vectors.ndim != 2 or vectors.shape[1] != dim:
        raise EmbeddingDimensionMismatch(f"vectors of shape {vectors.shape} for an index of dimension {dim}")


def knn(graph: GraphHandle, label: str, qvec: np.ndarray | Sequence[float], k: int,
        where: str = "", params: dict[str, Any] | None = None,
        returns: str = "", index: bool = False, size: int | None = None) -> list[list[Any]]:  # fmt: skip
    """Nearest ``label`` nodes: rows ``[key, similarity, *returns]``, most similar first.

    Exact (a scan) up to ``EXACT_SCAN_MAX`` nodes of the label, else (or with ``index``) the HNSW
    index, overfetching ``2k+10`` (HNSW can return short lists). ``where`` filters the candidates
    (use ``node``); ``returns`` adds columns (``node.file, node.line_start``). Similarity is
    ``1 - cosine distance``. ``size``: the label's node count when the caller has read it already.
    """
    key = VECTOR_LABELS[label]
    q = np.asarray(qvec, dtype=np.float32).ravel().tolist()
    extra = f", {returns}" if returns else ""
    args = {**(params or {}), "q": q, "k": int(k), "kf": int(2 * k + 10)}
    if not index and (label_size(graph, label) if size is None else size) <= EXACT_SCAN_MAX:
        cond = f" AND ({where})" if where else ""
        return graph.ro_query(
            f"MATCH (node:{label}) WHERE node.{EMBEDDING_PROP} IS NOT NULL{cond} "
            f"WITH node, vec.cosineDistance(node.{EMBEDDING_PROP}, vecf32($q)) AS score "
            f"RETURN node.{key}, 1.0 - score AS sim{extra} ORDER BY score ASC LIMIT $k",
            args,
        )
    cond = f"WHERE {where} " if where else ""
    return graph.ro_query(
        f"CALL db.idx.vector.queryNodes('{label}', '{EMBEDDING_PROP}', $kf, vecf32($q)) YIELD node, score "
        f"{cond}RETURN node.{key}, 1.0 - score AS sim{extra} ORDER BY score ASC LIMIT $k",
        args,
    )


def label_size(graph: GraphHandle, label: str) -> int:
    """Nodes of ``label`` (a count FalkorDB answers from the label's matrix, without a scan)."""
    rows = graph.ro_query(f"MATCH (n:{label}) RETURN count(n)")
    return int(rows[0][0]) if rows else 0


def check_vector_health(graph: GraphHandle, sample: int = 5, repair: bool = True) -> bool:
    """Probe the HNSW indexes with a few stored vectors: each must find itself. After an AOF
    replay the index can return nothing until rebuilt (measured on FalkorDB 4.x). Returns True when it
    was broken (and, with ``repair``, rebuilt). Cheap: ``sample`` k-NN queries per label."""
    info = get_model_info(graph)
    if not info.dim:
        return False
    wait_vector_indexes(graph)
    broken = False
    for label, key in VECTOR_LABELS.items():
        rows = graph.ro_query(
            f"MATCH (n:{label}) WHERE n.embedding IS NOT NULL RETURN n.{key}, n.embedding LIMIT $n", {"n": int(sample)}
        )
        for k, vec in rows:
            if vec is None or len(vec) != info.dim:
                continue
            try:
                found = [r[0] for r in knn(graph, label, np.asarray(vec, dtype=np.float32), 3, index=True)]
            except MnemosyneError:  # no index at all (IndexNotReady) or another database error
                found = []
            if k not in found:
                broken = True
                break
        if broken:
            break
    if broken and repair:
        log.warning("vector index of %s returned incomplete results; rebuilding it", getattr(graph, "name", graph))
        rebuild_vector_indexes(graph)
    return broken
