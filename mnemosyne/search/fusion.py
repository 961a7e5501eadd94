"""Fusion: how the keyword, semantic and exact-identifier lists of a search become one ranking.

The knobs (:class:`Weights`), weighted reciprocal rank fusion (``rrf_fusion``), the linear
alternative (``linear``), each single mode's ranking, and the consensus rule that hybrid keeps
what both modes rank near the top (docs/search.md). The graph rerank applied after fusion is
``search.rerank``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from mnemosyne.search.candidates import KEY, LABEL
from mnemosyne.search.text import is_test_code, name_overlap

if TYPE_CHECKING:
    from mnemosyne.store.handles import GraphHandle


@dataclass
class Weights:
    """Fusion and rerank knobs. Defaults chosen with ``benchmarks/search_eval.py --grid`` on the
    questions of every repository but click and checked on click's (docs/search.md)."""

    # Hybrid: weighted reciprocal rank fusion of the keyword (BM25) list, the semantic (cosine)
    # list and exact identifier matches. k=1 with keyword at 0.35 of semantic had the best recall@5
    # of the grid on the tuning questions (beating both single modes on recall@5 and MRR there) and
    # beat both on the held-out ones too; larger k or equal weights lost recall@5, and the linear
    # sum lost recall@5 to semantic alone on the tuning questions (docs/search.md, Evaluation).
    fusion: str = "rrf"  # 'rrf' (reciprocal rank fusion) or 'linear' (similarity-weighted sum)
    alpha: float = 1.0  # linear: weight of the cosine similarity; 1 - alpha for the keyword score
    exact_bonus: float = 0.5  # linear: added for an exact identifier match (x 1 / 0.67 / 0.33)
    name_weight: float = 0.0  # linear: x share of query words naming the symbol (text.name_overlap)
    rrf_k: float = 1.0
    keyword: float = 0.35
    semantic: float = 1.0
    exact: float = 3.0
    called_by_matches: float = 0.0  # x the best fused score among candidate callers
    # the mention boosts are shares of a fused score: at k=1 one rank apart is a third of the top
    # score (1/2 vs 1/3), so they weigh half of the citing match's (the evaluation set has no docs)
    mentioned_by_section: float = 0.5  # x the best fused score of a matching section citing it
    mentions_matches: float = 0.5  # section: x the best fused score of the symbols it cites
    #: the mention boost goes to symbols a list already found (keyword, semantic or exact), never
    #: lifts one from nowhere: every README example of tenacity cites its `retry` decorator, which
    #: then came near the top of unrelated answers. On the 48 questions of the two repositories
    #: with documentation: hybrid R@5 0.604 -> 0.646, MRR 0.417 -> 0.425, 6 questions up, none down
    mention_candidates_only: bool = True
    class_of_matches: float = 0.0  # class: x the best fused score of its matching methods
    #: a function defined inside another function or method (a closure, a decorator's wrapper)
    #: ranks by this share of its score: the enclosing function is what a question asks for (its
    #: inner ``decorator`` / ``view`` / ``callback`` shares its words; demoting it moved 7 of the
    #: 129 evaluation questions up and none down; 0.25 scored the same as 0.5, 0.7 less: docs/search.md)
    nested_function: float = 0.5
    #: a class ranked above one of its own methods that is in the hybrid top n goes just below
    #: that method: a class's text lists its methods' names, so it matches whatever they do, and
    #: the question was about the method (constructors and other dunders excepted: they describe
    #: the class). 0 turns it off. Tuning MRR 0.765 -> 0.770, held out 0.645 -> 0.651, R@5 the same;
    #: any rank in the top 10 lost a held-out question from the top 5 (docs/search.md)
    class_below_method_top: int = 3
    rerank_top: int = 40
    #: hybrid's last rerank: each of the top ``sentence_rerank_top`` functions and classes gains
    #: ``sentence_rerank`` x the best score x 2 / (1 + its rank by the question's cosine to its
    #: first docstring sentence's vector; symbols without one rank last). A short vector of what
    #: the symbol is for, next to the whole text's, which the 256-token window dilutes. Chosen on
    #: the tuning half (k 15 had its best R@5), checked on click, attrs and marshmallow
    #: (docs/search.md, Evaluation, fifth pass). 0 turns it off
    sentence_rerank: float = 0.3
    sentence_rerank_top: int = 15
    keyword_prefix: bool = True  # also match words as prefixes (retr* -> retry, retries)
    #: cosine below which a vector neighbour is no evidence at all: k-NN always answers k
    #: neighbours, so without a floor an unrelated query is padded with unrelated results
    min_similarity: float = 0.15
    #: hybrid keeps in its top n every result that keyword and semantic both rank in their top n
    consensus_top: int = 3
    #: test code (``text.is_test_code``) ranks by this share of its score unless the question asks
    #: for tests: a question about what code does wants the code before the tests that exercise it.
    #: A quarter: at a half, a test that both modes rank first still came first on tomlkit
    #: ("escape special characters in a string value": a test 0.59 x 0.5 over the library's 0.29)
    test_code: float = 0.25
    #: hybrid also orders its keyword and semantic lists by that share before fusing them, so that
    #: test code does not take the list places (each worth ``1 / (rrf_k + rank)``) of the library
    #: code it exercises: on attrs' source distribution 26 test functions came before
    #: ``validators.or_`` in the semantic list (3rd in semantic mode, out of hybrid's top 10).
    #: Off, the share applies to the fused score only (docs/search.md, Evaluation, fifth pass)
    test_code_in_lists: bool = True
    #: a release-notes section (``text.is_release_notes``) ranks by this share of its score unless
    #: the question is about releases or changes: what code does is asked of the code and its
    #: documentation, not of a 2012 changelog entry. On requests 2.32 ("guess the text encoding of
    #: a response body") HISTORY.md's 0.10.0 entry ranked 2nd over Response.apparent_encoding; two
    #: of the top five were release notes on each of three such questions. The evaluation ranks
    #: functions and classes only: it does not measure this.
    release_notes: float = 0.5


DEFAULT_WEIGHTS = Weights()
#: commit search (``search_commits``) fuses message, ticket and semantic lists with equal weights
COMMIT_WEIGHTS = Weights(rrf_k=20.0, keyword=1.0)


#: a fused score at or below this is no evidence (printed as 0.0000): never a result
MIN_SCORE = 5e-5


def rrf(lists: Iterable[tuple[float, list[tuple[str, str]]]], k: float) -> dict[tuple[str, str], float]:
    fused: dict[tuple[str, str], float] = {}
    for weight, items in lists:
        for rank, item in enumerate(items, start=1):
            fused[item] = fused.get(item, 0.0) + weight / (k + rank)
    return fused


def share_of_test_code(kind: str, key: str, test_share: float) -> float:
    """The share of its score a candidate is ranked by: ``test_share`` for test code (a function or class)."""
    return test_share if test_share != 1.0 and kind in ("function", "class") and is_test_code(key) else 1.0


def keyword_lists(kw: dict[str, list[tuple[str, float]]], kinds: Sequence[str],
                  test_share: float = 1.0) -> list[list[tuple[str, str]]]:  # fmt: skip
    """One ranked list per scale: functions and classes together (one BM25 over one kind of text),
    sections and commits apart; test code ordered by ``test_share`` of its score."""
    sym = sorted(((s * share_of_test_code(k, key, test_share), k, key) for k in kinds if k in ("function", "class")
                  for key, s in kw.get(k, [])), key=lambda x: (-x[0], x[2]))  # fmt: skip
    out = [[(k, key) for _, k, key in sym]]
    out += [[(k, key) for key, _ in kw.get(k, [])] for k in kinds if k not in ("function", "class")]
    return [lst for lst in out if lst]


def keyword_ranking(kw: dict[str, list[tuple[str, float]]], exact: list[tuple[str, str, float]],
                    kinds: Sequence[str], w: Weights) -> dict[tuple[str, str], float]:  # fmt: skip
    """Keyword mode's ranking: reciprocal rank fusion of the keyword lists and exact matches."""
    lists = [(w.keyword, lst) for lst in keyword_lists(kw, kinds)]
    lists.append((w.exact, [(k, key) for k, key, _ in exact if k in kinds]))
    return rrf(lists, w.rrf_k)


def rrf_fusion(kw: dict[str, list[tuple[str, float]]], sem: dict[str, list[tuple[str, float]]],
               exact: list[tuple[str, str, float]], kinds: Sequence[str], w: Weights,
               test_share: float = 1.0) -> dict[tuple[str, str], float]:  # fmt: skip
    """Hybrid's ranking: weighted reciprocal rank fusion, ``sum(weight / (rrf_k + rank))`` over the
    keyword lists (``w.keyword``), the semantic neighbours of every kind by cosine (``w.semantic``)
    and the exact identifier matches (``w.exact``). Test code takes its list places by
    ``test_share`` of its score (``Weights.test_code_in_lists``; 1: by its score)."""
    lists = [(w.keyword, lst) for lst in keyword_lists(kw, kinds, test_share)]
    merged = sorted(((s * share_of_test_code(k, key, test_share), k, key) for k in kinds for key, s in sem.get(k, [])),
                    key=lambda x: (-x[0], x[2]))  # fmt: skip
    lists.append((w.semantic, [(k, key) for _, k, key in merged]))
    lists.append((w.exact, [(k, key) for k, key, _ in exact]))
    return rrf(lists, w.rrf_k)


def semantic_ranking(sem: dict[str, list[tuple[str, float]]], kinds: Sequence[str]) -> dict[tuple[str, str], float]:
    """Semantic mode's ranking: every label's neighbours by cosine similarity."""
    merged = sorted(((s, k, key) for k in kinds for key, s in sem.get(k, [])), key=lambda x: -x[0])
    return {(k, key): s for s, k, key in merged}


def top_keys(scores: dict[tuple[str, str], float], n: int) -> list[tuple[str, str]]:
    return [ck for ck, _ in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0][1]))[:n]]


def keep_consensus(fused: dict[tuple[str, str], float], keyword: dict[tuple[str, str], float],
                   semantic: dict[tuple[str, str], float], n: int) -> dict[tuple[str, str], float]:  # fmt: skip
    """Fusion never loses what both modes agree on: a result in the top ``n`` of the keyword
    ranking *and* of the semantic ranking is lifted into the fused top ``n`` (its score raised
    to just above the best result it displaces; the top keeps its fused order otherwise)."""
    both = set(top_keys(keyword, n)) & set(top_keys(semantic, n))
    if not both:
        return fused
    order = top_keys(fused, len(fused))
    head = [ck for ck in order if ck in both]
    others = [ck for ck in order if ck not in both]
    top = sorted(head + others[: max(0, n - len(head))], key=lambda ck: order.index(ck) if ck in fused else len(order))
    out = dict(fused)
    rest_best = max((fused[ck] for ck in others[max(0, n - len(head)):]), default=0.0)
    floor = rest_best + 1e-6
    for ck in reversed(top):  # bottom of the head first: scores stay in head order
        out[ck] = max(out.get(ck, 0.0), floor)
        floor = out[ck] + 1e-6
    return out


def linear(graph: GraphHandle, kw: dict[str, list[tuple[str, float]]], sem: dict[str, list[tuple[str, float]]],
            exact: list[tuple[str, str, float]], kinds: Sequence[str], qvec: np.ndarray | None,
            w: Weights, query: str = "") -> dict[tuple[str, str], float]:  # fmt: skip
    """``alpha * cosine + (1 - alpha) * keyword / best keyword score of that label`` (+ exact
    bonus). A keyword-only candidate gets its exact cosine computed, so both parts are real."""
    comp: dict[tuple[str, str], list[float | None]] = {}
    # Function and Class search_text have the same shape: one scale for both (a weak best class
    # match must not count as much as the best function match); sections and commits apart.
    groups = {"function": "sym", "class": "sym", "doc": "doc", "commit": "commit"}
    tops: dict[str, float] = {}
    for k in kinds:
        for _, s in kw.get(k, []):
            tops[groups[k]] = max(tops.get(groups[k], 0.0), s)
    for k in kinds:
        top = tops.get(groups[k]) or 1.0
        for key, s in kw.get(k, []):
            comp.setdefault((k, key), [0.0, None])[0] = s / top
        for key, s in sem.get(k, []):
            comp.setdefault((k, key), [0.0, None])[1] = s
    for k, key, _ in exact:
        comp.setdefault((k, key), [0.0, None])
    if qvec is not None:
        q = np.asarray(qvec, dtype=np.float32).ravel().tolist()
        for k in kinds:
            missing = [key for (kk, key), v in comp.items() if kk == k and v[1] is None]
            if not missing:
                continue
            rows = graph.ro_query(
                f"MATCH (n:{LABEL[k]}) WHERE n.{KEY[k]} IN $keys AND n.embedding IS NOT NULL "
                f"RETURN n.{KEY[k]}, 1.0 - vec.cosineDistance(n.embedding, vecf32($q))",
                {"keys": missing, "q": q},
            )
            for key, sim in rows:
                comp[(k, key)][1] = float(sim)
    alpha = w.alpha if qvec is not None else 0.0
    fused = {ck: alpha * max(0.0, sim or 0.0) + (1 - alpha) * (kwn or 0.0) for ck, (kwn, sim) in comp.items()}
    for k, key, sc in exact:
        fused[(k, key)] += w.exact_bonus * sc / 3.0
    if w.name_weight:
        for (k, key) in fused:
            if k in ("function", "class"):
                fused[(k, key)] += w.name_weight * name_overlap(query, key)
    return fused
