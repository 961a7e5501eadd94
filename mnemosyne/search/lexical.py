"""Keyword ranking of Functions and Classes: BM25 over their code-aware ``search_text``.

FalkorDB's full-text index ``score`` is no relevance ranking (it ignores how rare a word is and how
long the text is), so keyword search ranked paraphrased questions near chance. Symbols are ranked
here with Okapi BM25 over the same text, whose fields are weighted by repetition
(``text.search_text``: the name's words most, then docstring, signature, module path, callee and
caller names).

The index (``SymbolIndex``: document count, mean length, document frequency and the postings of
each word) is built once per graph state and kept per process: one scan of the symbols'
``search_text``. A query then reads one stamp of the state (one round trip) and scores in memory
the symbols that hold one of its words: no full-text call, no text sent per query. Until session
20 each query asked the full-text index for its 200 best candidates per label with their whole
text and tokenized them here (on the 115,856-line latency repository that was ~30 ms of a ~50 ms
keyword search at load, most of it sending and parsing the texts); scoring every symbol that holds
a query word also ranks those the index's own score had left out of its 200.

The state (``graph_state``, read once per search, which also gives the head it answers at) is
``Meta.last_seq``, ``Meta.search_text_rev`` (which the back-fill bumps when it rewrites texts:
``backfill.refresh_search_text``) and the number of symbols of each label.
Memory: one entry per distinct (symbol, word) pair in numpy arrays (about 6 MB for the latency
repository's 10,061 functions).
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

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
SYMBOL_LABELS = (V.FUNCTION, V.CLASS)
#: ``Meta`` property the back-fill increments whenever it rewrites symbols' ``search_text``
#: without moving ``last_seq`` (the keyword index of a process is rebuilt when it changes)
SEARCH_TEXT_REV = "search_text_rev"
_RUN = re.compile(r"[^\W_]+")
_WHERE = "(node.external IS NULL OR node.external = false) AND coalesce(node.kind, '') <> 'lambda'"


@lru_cache(maxsize=65536)
def term(word: str) -> str:
    """``text.stem`` plus a final y or i dropped, so that retry, retries and retried meet."""
    w = stem(word)
    return w[:-1] if len(w) > 3 and w[-1] in "yi" else w


def tokens(text: str | None) -> list[str]:
    """Stemmed words of a ``search_text`` (its identifiers are already split into words there;
    a camelCase word of a docstring stays one word). Lower-cased runs of letters and digits."""
    return [term(w) for w in _RUN.findall((text or "").lower()) if len(w) > 1 or w.isdigit()]


def query_terms(query: str) -> list[str]:
    """The query's distinct meaningful words, stemmed like the texts."""
    return list(dict.fromkeys(term(w) for w in query_words(query)))


@dataclass
class SymbolIndex:
    """BM25's statistics and postings over every symbol's ``search_text`` (one graph state)."""

    n: int
    avgdl: float
    df: dict[str, int]
    keys: list[str | None]  # fully qualified name of each document
    label: np.ndarray  # index into SYMBOL_LABELS of each document
    norm: np.ndarray  # K1 * (1 - B + B * length / avgdl) of each document
    postings: dict[str, tuple[np.ndarray, np.ndarray]]  # word -> (documents, term frequencies)

    def idf(self, term: str) -> float:
        d = self.df.get(term, 0)
        return math.log(1.0 + (self.n - d + 0.5) / (d + 0.5))

    def scores(self, terms: list[str]) -> np.ndarray:
        """Every document's BM25 score for ``terms`` (0 for those holding none of them)."""
        out = np.zeros(len(self.keys), dtype=np.float64)
        for t in terms:
            post = self.postings.get(t)
            if post is not None:
                docs, tf = post
                out[docs] += self.idf(t) * tf * (K1 + 1.0) / (tf + self.norm[docs])
        return out


_INDEX: dict[tuple[str, Any], SymbolIndex] = {}
_LOCK = threading.Lock()


#: labels whose node count is part of the state (symbols: the index; sections: whether a keyword
#: search has any section to ask the full-text index for)
STATE_LABELS = (*SYMBOL_LABELS, V.SECTION)


def graph_state(graph: GraphHandle) -> tuple[Any, ...]:
    """``(Meta.last_seq, Meta.search_text_rev, count per STATE_LABELS)`` in one round trip: the
    state the index depends on, and the head a search answers at by default."""
    rows = graph.ro_query(
        f"MATCH (m:{V.META} {{key: '{META_KEY}'}}) RETURN [m.last_seq, m.{SEARCH_TEXT_REV}] AS v UNION ALL "
        + " UNION ALL ".join(f"MATCH (n:{label}) RETURN [count(n)] AS v" for label in STATE_LABELS)
    )
    flat = [x for (v,) in rows for x in v]
    return tuple(flat) if len(flat) == 2 + len(STATE_LABELS) else (None, None, *flat)


def label_count(state: tuple[Any, ...], label: str) -> int:
    """The number of ``label`` nodes a ``graph_state`` counted."""
    return int(state[2 + STATE_LABELS.index(label)])


def symbol_index(graph: GraphHandle, state: tuple[Any, ...] | None = None) -> SymbolIndex:
    """The BM25 index of all symbols' ``search_text`` (cached per graph name and ``graph_state``)."""
    key = (str(getattr(graph, "name", id(graph))), state or graph_state(graph))
    with _LOCK:
        hit = _INDEX.get(key)
    if hit is not None:
        return hit
    df: Counter[str] = Counter()
    keys: list[str | None] = []
    labels: list[int] = []
    lengths: list[int] = []
    posting_docs: dict[str, list[int]] = {}
    posting_tf: dict[str, list[int]] = {}
    for li, label in enumerate(SYMBOL_LABELS):
        rows = graph.ro_query(
            f"MATCH (node:{label}) WHERE {_WHERE} AND node.search_text IS NOT NULL "
            "RETURN node.fully_qualified_name, node.search_text"
        )
        for fqn, text in rows:
            doc = len(keys)
            toks = tokens(text)
            keys.append(fqn)
            labels.append(li)
            lengths.append(len(toks))
            tf = Counter(toks)
            df.update(tf.keys())
            for t, f in tf.items():
                posting_docs.setdefault(t, []).append(doc)
                posting_tf.setdefault(t, []).append(f)
    n = len(keys)
    avgdl = (sum(lengths) / n) if n else 1.0
    index = SymbolIndex(
        n=n, avgdl=avgdl, df=dict(df), keys=keys, label=np.array(labels, dtype=np.int8),
        norm=np.array([K1 * (1.0 - B + B * ln / (avgdl or 1.0)) for ln in lengths], dtype=np.float64),
        postings={t: (np.array(d, dtype=np.int32), np.array(posting_tf[t], dtype=np.float64))
                  for t, d in posting_docs.items()},
    )  # fmt: skip
    with _LOCK:
        for k in [k for k in _INDEX if k[0] == key[0]]:  # one state per graph
            del _INDEX[k]
        _INDEX[key] = index
    return index


def symbol_keyword_lists(graph: GraphHandle, labels: tuple[str, ...] | list[str], query: str, n: int,
                         state: tuple[Any, ...] | None = None) -> dict[str, list[tuple[str, float]]]:
    """``label -> [(fqn, BM25 score)]``: the symbols of each label holding a query word, best first
    (at most ``n``; ties by name). ``state``: the ``graph_state`` already read, if any."""
    terms = query_terms(query)
    if not labels or not terms or not ft_query(query, prefix=False):
        return {label: [] for label in labels}
    index = symbol_index(graph, state)
    scores = index.scores(terms)
    out: dict[str, list[tuple[str, float]]] = {}
    for label in labels:
        if label not in SYMBOL_LABELS:
            raise ValueError(f"not a symbol label: {label}")
        s = np.where(index.label == SYMBOL_LABELS.index(label), scores, 0.0)
        hits = np.flatnonzero(s > 0)
        if len(hits) > n:  # the n best and whatever ties the n-th
            cut = np.partition(s[hits], len(hits) - n)[len(hits) - n]
            hits = hits[s[hits] >= cut]
        ranked = sorted(((k, float(s[i])) for i in hits if (k := index.keys[i]) is not None), key=lambda x: (-x[1], x[0]))
        out[label] = ranked[: int(n)]
    return out
