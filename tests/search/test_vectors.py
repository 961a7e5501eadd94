"""k-NN over stored vectors: exact below EXACT_SCAN_MAX nodes of a label, HNSW above (real FalkorDB)."""

from __future__ import annotations

import numpy as np
import pytest

from mnemosyne.errors import MnemosyneError
from mnemosyne.search import vectors
from mnemosyne.search.vectors import create_vector_indexes, drop_vector_indexes, knn

DIM = 32


def _store(graph, n: int, seed: int = 7) -> tuple[list[str], np.ndarray]:
    rng = np.random.default_rng(seed)
    vs = rng.standard_normal((n, DIM)).astype(np.float32)
    vs /= np.linalg.norm(vs, axis=1, keepdims=True)
    names = [f"m.f{i}" for i in range(n)]
    graph.query(
        "UNWIND $rows AS r CREATE (:Function {fully_qualified_name: r.k, line_start: r.i, embedding: vecf32(r.v)})",
        {"rows": [{"k": k, "i": i, "v": v.tolist()} for i, (k, v) in enumerate(zip(names, vs))]},
    )
    return names, vs


def test_exact_knn_is_the_brute_force_order(graph):
    names, vs = _store(graph, 400)
    create_vector_indexes(graph, DIM)
    rng = np.random.default_rng(1)
    for _ in range(20):
        q = rng.standard_normal(DIM).astype(np.float32)
        q /= np.linalg.norm(q)
        sims = vs @ q
        want = [names[i] for i in np.argsort(-sims)[:10]]
        rows = knn(graph, "Function", q, 10)
        assert [r[0] for r in rows] == want
        assert rows[0][1] == pytest.approx(float(sims.max()), abs=1e-5)
        # a filter applies before the top k is taken
        odd = knn(graph, "Function", q, 5, where="node.line_start % 2 = 1", returns="node.line_start")
        want_odd = [names[i] for i in np.argsort(-sims) if i % 2 == 1][:5]
        assert [r[0] for r in odd] == want_odd and all(r[2] % 2 == 1 for r in odd)


def test_exact_knn_needs_no_index_and_the_index_path_does(graph, monkeypatch):
    names, vs = _store(graph, 50)
    drop_vector_indexes(graph)
    # no vector index (being built, or dropped by a model change): exact search still answers
    assert knn(graph, "Function", vs[3], 1)[0][0] == names[3]
    with pytest.raises(MnemosyneError):
        knn(graph, "Function", vs[3], 1, index=True)
    # above the threshold the index is asked
    monkeypatch.setattr(vectors, "EXACT_SCAN_MAX", 10)
    with pytest.raises(MnemosyneError):
        knn(graph, "Function", vs[3], 1)
    create_vector_indexes(graph, DIM)
    vectors.wait_vector_indexes(graph, dim=DIM)
    assert knn(graph, "Function", vs[3], 1)[0][0] == names[3]
