"""Keyword ranking of symbols (search/lexical.py): BM25 scored in memory from an index kept per
graph state, over a real FalkorDB graph."""

from __future__ import annotations

import math
from collections import Counter

from mnemosyne.search.backfill import refresh_search_text
from mnemosyne.search.hybrid import search
from mnemosyne.search.lexical import K1, B, graph_state, label_count, query_terms, symbol_keyword_lists, tokens


def test_keyword_index_follows_the_texts_the_back_fill_rewrites(code_graph, db):
    """The back-fill rewrites ``search_text`` without moving ``Meta.last_seq`` or the symbol
    counts; the index built before it must not be reused after it."""
    ws = code_graph.workspace
    assert search(db, ws, "exponential backoff", mode="keyword", kind="function", embedder=None).keys() == []
    assert refresh_search_text(code_graph) > 0
    res = search(db, ws, "exponential backoff", mode="keyword", kind="function", embedder=None)
    assert res.keys()[0] == "shop.retry.compute_retry_delay"
    assert refresh_search_text(code_graph) == 0  # nothing rewritten: the state (and the index) stay
    assert graph_state(code_graph)[1] == 1


def test_every_symbol_holding_a_query_word_is_scored_as_bm25_says(code_graph):
    """The in-memory scores are Okapi BM25 over all symbols' texts (not lambdas, not external)."""
    refresh_search_text(code_graph)
    rows = code_graph.ro_query(
        "MATCH (n) WHERE (n:Function OR n:Class) AND coalesce(n.external, false) = false "
        "AND n.search_text IS NOT NULL RETURN n.fully_qualified_name, labels(n)[0], n.search_text"
    )
    docs = {fqn: (label, tokens(text)) for fqn, label, text in rows}
    avgdl = sum(len(t) for _, t in docs.values()) / len(docs)
    df = Counter(w for _, t in docs.values() for w in set(t))

    def bm25(terms: list[str], toks: list[str]) -> float:
        tf, norm = Counter(toks), K1 * (1 - B + B * len(toks) / avgdl)
        return sum(math.log(1 + (len(docs) - df[t] + 0.5) / (df[t] + 0.5)) * tf[t] * (K1 + 1) / (tf[t] + norm)
                   for t in terms if tf[t])

    for query in ("cart total tax", "retry attempts", "user record over http", "zzz unknown"):
        got = symbol_keyword_lists(code_graph, ["Function", "Class"], query, 50)
        for label in ("Function", "Class"):
            want = sorted(((f, bm25(query_terms(query), t)) for f, (lb, t) in docs.items() if lb == label),
                          key=lambda x: (-x[1], x[0]))
            want = [(f, s) for f, s in want if s > 0]
            assert [f for f, _ in got[label]] == [f for f, _ in want], (query, label)
            assert all(math.isclose(a[1], b[1]) for a, b in zip(got[label], want, strict=True))
    assert len(symbol_keyword_lists(code_graph, ["Function"], "cart", 1)["Function"]) == 1


def test_graph_state_reads_head_and_counts_in_one_query(code_graph):
    state = graph_state(code_graph)
    assert state[0] == 1 and label_count(state, "Function") == 8 and label_count(state, "Section") == 0


def test_graph_state_of_a_graph_without_meta(graph):
    state = graph_state(graph)
    assert state[:2] == (None, None) and label_count(state, "Class") == 0
