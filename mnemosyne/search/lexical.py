"""Keyword ranking of Functions and Classes: BM25 over their code-aware ``search_text``.

FalkorDB's full-text index finds the candidates (any query word, as a word or a prefix), but its
``score`` is no relevance ranking (it ignores how rare a word is and how long the text is), so
keyword search ranked paraphrased questions near chance. The candidates are re-scored here with
Okapi BM25 over the same text, whose fields are weighted by repetition (``text.search_text``:
the name's words most, then docstring, signature, module path, callee and caller names).

Corpus statistics (document count, mean length, document frequency per word) are read once per
graph state (``Meta.last_seq`` and the number of symbols) and kept per process: one scan of the
symbols' ``search_text``; a query then costs one full-text call that returns its candidates' text.
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from mnemosyne import vocabulary as V
from mnemosyne.search.text import ft_query, query_words, stem
from mnemosyne.store.versions import META_KEY

if TYPE_CHECKING:
    from mnemosyne.store.handles import GraphHandle

#: BM25 parameters, chosen with benchmarks/search_eval.py on the tuning questions (every
#: repository but click): k1 0.5-2.0 and b 0.3-1.0 move hybrid's recall@5 and MRR there by at
#: most 0.02; k1 1.0, b 0.85 had the best MRR at the best recall@5 (0.908 / 0.732 against 0.908 /
#: 0.730 for the usual 1.2 / 0.75) and is better on click's held-out questions too (docs/search.md)
K1 = 1.0
B = 0.85
#: candidates taken from the full-text index per label before re-scoring
CANDIDATES = 200
SYMBOL_LABELS = (V.FUNCTION, V.CLASS)
_RUN = re.compile(r"[^\W_]+")
_WHERE = "(node.external IS NULL OR node.external = false) AND coalesce(node.kind, '') <> 'lambda'"


@lru_cache(maxsize=65536)
def term(word: str) -> str:
    """``text.stem`` plus a final y or i dropped, so that retry, retries and retried meet."""
    w = stem(word)
    return w[:-1] if len(w) > 3 and w[-1] in "yi" else w


def tokens(text: str | None) -> list[str]:
    """Stemmed words of a ``search_text`` (its identifiers are already split into words there;
    a camelCase word of a docstring stays one word). Lower-cased runs of letters and digits: fast
    enough to re-score a few hundred candidates per query."""
    return [term(w) for w in _RUN.findall((text or "").lower()) if len(w) > 1 or w.isdigit()]


def query_terms(query: str) -> list[str]:
    """The query's distinct meaningful words, stemmed like the texts."""
    return list(dict.fromkeys(term(w) for w in query_words(query)))


@dataclass
class CorpusStats:
    n: int
    avgdl: float
    df: dict[str, int]

    def idf(self, term: str) -> float:
        d = self.df.get(term, 0)
        return math.log(1.0 + (self.n - d + 0.5) / (d + 0.5))


_STATS: dict[tuple[str, Any], CorpusStats] = {}
_LOCK = threading.Lock()


def _stamp(graph: GraphHandle) -> tuple[Any, ...]:
    meta = graph.ro_query(f"MATCH (m:{V.META} {{key: '{META_KEY}'}}) RETURN m.last_seq")
    counts = [graph.ro_query(f"MATCH (n:{label}) RETURN count(n)")[0][0] for label in SYMBOL_LABELS]
    return (meta[0][0] if meta else None, *counts)


def corpus_stats(graph: GraphHandle) -> CorpusStats:
    """Statistics of all symbols' ``search_text`` (cached per graph name and state)."""
    key = (str(getattr(graph, "name", id(graph))), _stamp(graph))
    with _LOCK:
        hit = _STATS.get(key)
    if hit is not None:
        return hit
    df: Counter[str] = Counter()
    n = total = 0
    for label in SYMBOL_LABELS:
        rows = graph.ro_query(f"MATCH (node:{label}) WHERE {_WHERE} AND node.search_text IS NOT NULL RETURN node.search_text")
        for (text,) in rows:
            toks = tokens(text)
            n += 1
            total += len(toks)
            df.update(set(toks))
    stats = CorpusStats(n=n, avgdl=(total / n) if n else 1.0, df=dict(df))
    with _LOCK:
        for k in [k for k in _STATS if k[0] == key[0]]:  # one state per graph
            del _STATS[k]
        _STATS[key] = stats
    return stats


def bm25(terms: list[str], text: str | None, stats: CorpusStats) -> float:
    toks = tokens(text)
    if not toks:
        return 0.0
    tf = Counter(toks)
    norm = K1 * (1.0 - B + B * len(toks) / (stats.avgdl or 1.0))
    score = 0.0
    for t in terms:
        f = tf.get(t)
        if f:
            score += stats.idf(t) * f * (K1 + 1.0) / (f + norm)
    return score


def symbol_keyword_list(graph: GraphHandle, label: str, query: str, n: int, prefix: bool = True) -> list[tuple[str, float]]:
    """``(fqn, BM25 score)`` of the ``label`` symbols matching ``query``, best first (at most ``n``)."""
    q = ft_query(query, prefix=prefix)
    terms = query_terms(query)
    if not q or not terms:
        return []
    rows = graph.ro_query(
        f"CALL db.idx.fulltext.queryNodes('{label}', $q) YIELD node, score WHERE {_WHERE} "
        "RETURN node.fully_qualified_name, node.search_text, score ORDER BY score DESC LIMIT $n",
        {"q": q, "n": max(int(n), CANDIDATES)},
    )
    if not rows:
        return []
    stats = corpus_stats(graph)
    scored = [(fqn, bm25(terms, text, stats)) for fqn, text, _ in rows if fqn is not None]
    scored = [(fqn, s) for fqn, s in scored if s > 0]
    scored.sort(key=lambda x: (-x[1], x[0]))
    return scored[: int(n)]
