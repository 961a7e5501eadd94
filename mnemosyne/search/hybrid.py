"""Search: keyword (full-text), semantic (vector k-NN) and hybrid (fusion + graph rerank).

``search(db, ws, query, mode='hybrid', kind=None, at=None, limit=10, path_prefix=None, offset=0)``

- **keyword**: RediSearch over ``search_text`` (identifiers pre-split, docstrings stemmed) of
  Function/Class (re-ranked by BM25, ``lexical``), Section text, Commit messages; plus exact
  identifier lookup when the query is one name (``compute_retry_delay``,
  ``shop.retry.compute_retry_delay``).
- **semantic**: the query embedded with the workspace's model, HNSW k-NN per label (overfetch
  ``2k+10``), cosine similarity.
- **hybrid**: weighted reciprocal rank fusion of those lists, then a graph rerank over the fused
  top candidates: a symbol called by other matches, a symbol mentioned by a matching doc
  section, a section that mentions matching symbols, and a class whose methods match gain score.

Results are restricted to what exists at ``at`` (a timeline seq, or a revision resolved by the
query layer; default HEAD): symbols with a ``DEFINES`` version holding there, sections with a
``HAS_SECTION`` version holding there, timeline commits up to there. File, line and signature of
a symbol are those of that version.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from mnemosyne import vocabulary as V
from mnemosyne.errors import DatabaseError
from mnemosyne.search.errors import EmbeddingError, SearchError
from mnemosyne.search.lexical import symbol_keyword_list
from mnemosyne.search.target import graph_of
from mnemosyne.search.text import ft_query, identifier_like, name_overlap, snippet
from mnemosyne.search.vectors import get_model_info, knn
from mnemosyne.temporal import holds_at, holds_at_head

log = logging.getLogger(__name__)

KINDS = ("function", "class", "doc", "commit")
DEFAULT_KINDS = ("function", "class", "doc")
MODES = ("hybrid", "keyword", "semantic")
_LABEL = {"function": V.FUNCTION, "class": V.CLASS, "doc": V.SECTION, "commit": V.COMMIT}
_KEY = {"function": "fully_qualified_name", "class": "fully_qualified_name", "doc": "key", "commit": "hash"}


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
    class_of_matches: float = 0.0  # class: x the best fused score of its matching methods
    rerank_top: int = 40
    keyword_prefix: bool = True  # also match words as prefixes (retr* -> retry, retries)
    #: cosine below which a vector neighbour is no evidence at all: k-NN always answers k
    #: neighbours, so without a floor an unrelated query is padded with unrelated results
    min_similarity: float = 0.15
    #: hybrid keeps in its top n every result that keyword and semantic both rank in their top n
    consensus_top: int = 3


DEFAULT_WEIGHTS = Weights()
#: commit search (``search_commits``) fuses message, ticket and semantic lists with equal weights
COMMIT_WEIGHTS = Weights(rrf_k=20.0, keyword=1.0)


@dataclass
class SearchResult:
    key: str  # fully qualified name, section key, or commit hash
    kind: str  # function | class | doc | commit
    score: float
    file: str | None = None
    line: int | None = None
    line_end: int | None = None
    snippet: str = ""
    name: str | None = None
    signature: str | None = None
    heading_path: str | None = None
    sources: dict[str, int] = field(default_factory=dict)  # list -> 1-based rank

    @property
    def fqn(self) -> str | None:
        return self.key if self.kind in ("function", "class") else None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["score"] = round(self.score, 6)
        return d


@dataclass
class SearchResults:
    query: str
    mode: str
    seq: int | None
    results: list[SearchResult]
    offset: int = 0
    limit: int = 10
    next_offset: int | None = None  # the cursor of the next page, None when no more
    total_candidates: int = 0
    warnings: list[str] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)

    def __iter__(self):
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    def keys(self) -> list[str]:
        return [r.key for r in self.results]

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query, "mode": self.mode, "seq": self.seq, "offset": self.offset, "limit": self.limit,
            "next_offset": self.next_offset, "total_candidates": self.total_candidates,
            "warnings": list(self.warnings), "results": [r.to_dict() for r in self.results],
        }  # fmt: skip


# -- helpers ----------------------------------------------------------------------------------


def _graph(db: Any, ws: Any) -> Any:
    return graph_of(db, ws)


def head_seq(graph: Any) -> int | None:
    rows = graph.ro_query(f"MATCH (m:{V.META} {{key: 'ingest'}}) RETURN m.last_seq")
    if rows and rows[0][0] is not None:
        return int(rows[0][0])
    rows = graph.ro_query(f"MATCH (c:{V.COMMIT}) WHERE c.seq IS NOT NULL RETURN max(c.seq)")
    return int(rows[0][0]) if rows and rows[0][0] is not None else None


def resolve_seq(db: Any, ws: Any, graph: Any, at: Any) -> int | None:
    """``at`` as a timeline seq: None -> HEAD; int -> itself; a revision -> the query layer."""
    if at is None or at == "HEAD":
        return head_seq(graph)
    if isinstance(at, int):
        return at
    s = str(at).strip()
    if s.isdigit() and len(s) < 7:
        return int(s)
    try:
        from mnemosyne.query import resolve_at
    except ImportError:
        rows = graph.ro_query(f"MATCH (c:{V.COMMIT}) WHERE c.hash STARTS WITH $h AND c.seq IS NOT NULL RETURN c.seq", {"h": s})
        if len(rows) == 1:
            return int(rows[0][0])
        raise SearchError(f"cannot resolve revision {at!r}; pass a timeline seq or a full commit hash") from None
    found = resolve_at(db, getattr(ws, "name", ws), s)
    seq = getattr(found, "seq", found)
    if seq is None:
        raise SearchError(
            f"{at!r} is not on the workspace's timeline: search answers at timeline commits only (docs/queries.md)"
        )
    return int(seq)


def _holds(var: str, seq: int | None) -> str:
    return holds_at_head(var) if seq is None else holds_at(var)


def _kinds(kind: Any) -> tuple[str, ...]:
    if kind is None or kind == "" or kind == "all":
        return DEFAULT_KINDS if kind is None or kind == "" else KINDS
    ks = [kind] if isinstance(kind, str) else list(kind)
    out = []
    for k in ks:
        for part in str(k).split(","):
            p = part.strip().lower()
            p = {"functions": "function", "method": "function", "methods": "function", "classes": "class",
                 "docs": "doc", "section": "doc", "sections": "doc", "commits": "commit"}.get(p, p)  # fmt: skip
            if p not in KINDS:
                raise SearchError(f"unknown kind {part!r}: use one of {', '.join(KINDS)}")
            out.append(p)
    return tuple(dict.fromkeys(out))


# -- candidate lists --------------------------------------------------------------------------


def keyword_list(graph: Any, kind: str, query: str, n: int, seq: int | None, prefix: bool = True) -> list[tuple[str, float]]:
    """``(key, score)`` of the ``kind`` nodes matching ``query`` by keyword, best first: BM25 over
    ``search_text`` for functions and classes (``lexical``), the full-text index's score otherwise."""
    if kind in ("function", "class"):
        return symbol_keyword_list(graph, _LABEL[kind], query, n, prefix=prefix)
    q = ft_query(query, prefix=prefix)
    if not q:
        return []
    label = _LABEL[kind]
    key = _KEY[kind]
    where = ""
    if kind in ("function", "class"):
        where = "WHERE (node.external IS NULL OR node.external = false) AND coalesce(node.kind, '') <> 'lambda' "
    elif kind == "commit":
        where = "WHERE node.seq IS NOT NULL " + ("AND node.seq <= $seq " if seq is not None else "")
    rows = graph.ro_query(
        f"CALL db.idx.fulltext.queryNodes('{label}', $q) YIELD node, score {where}"
        f"RETURN node.{key}, score ORDER BY score DESC LIMIT $n",
        {"q": q, "n": int(n), "seq": seq},
    )
    return [(r[0], float(r[1])) for r in rows if r[0] is not None]


def exact_list(graph: Any, query: str, kinds: Sequence[str]) -> list[tuple[str, str, float]]:
    """(kind, fqn, score) for a query that is one identifier: exact FQN first, then suffix, then name."""
    ident = identifier_like(query)
    if not ident:
        return []
    short = ident.replace("/", ".").rsplit(".", 1)[-1]
    out: list[tuple[str, str, float]] = []
    for kind in ("function", "class"):
        if kind not in kinds:
            continue
        rows = graph.ro_query(
            f"MATCH (n:{_LABEL[kind]}) WHERE (n.fully_qualified_name = $q OR n.name = $s) "
            "AND (n.external IS NULL OR n.external = false) RETURN n.fully_qualified_name",
            {"q": ident, "s": short},
        )
        for (fqn,) in rows:
            if fqn == ident:
                score = 3.0
            elif fqn.endswith("." + ident) or fqn.endswith("/" + ident):
                score = 2.0
            elif "." in ident or "/" in ident:
                continue
            else:
                score = 1.0
            out.append((kind, fqn, score))
    out.sort(key=lambda x: -x[2])
    return out


def semantic_lists(graph: Any, qvec: np.ndarray, kinds: Sequence[str], n: int, seq: int | None) -> dict[str, list[tuple[str, float]]]:
    out: dict[str, list[tuple[str, float]]] = {}
    for kind in kinds:
        label = _LABEL[kind]
        where = ""
        if kind == "commit":
            where = "node.seq IS NOT NULL" + (" AND node.seq <= $seq" if seq is not None else "")
        rows = knn(graph, label, qvec, n, where=where, params={"seq": seq})
        out[kind] = [(r[0], float(r[1])) for r in rows if r[0] is not None]
    return out


def relevant(lists: dict[str, list[tuple[str, float]]], floor: float) -> dict[str, list[tuple[str, float]]]:
    """Vector neighbours at least ``floor`` similar (k-NN has no notion of 'no match')."""
    return {k: [(key, s) for key, s in items if s >= floor] for k, items in lists.items()}


#: a fused score at or below this is no evidence (printed as 0.0000): never a result
_MIN_SCORE = 5e-5


# -- filters and details ----------------------------------------------------------------------


def _symbol_details(graph: Any, kind: str, keys: list[str], seq: int | None) -> dict[str, dict[str, Any]]:
    if not keys:
        return {}
    label = _LABEL[kind]
    sig = "d.signature" if kind == "function" else "null"
    rows = graph.ro_query(
        f"MATCH ()-[d:{V.DEFINES}]->(n:{label}) WHERE n.fully_qualified_name IN $keys AND {_holds('d', seq)} "
        f"RETURN n.fully_qualified_name, coalesce(d.file, n.file), coalesce(d.line_start, n.line_start), "
        f"coalesce(d.line_end, n.line_end), coalesce({sig}, n.signature), coalesce(d.docstring, n.docstring), n.name",
        {"keys": keys, "seq": seq},
    )
    out: dict[str, dict[str, Any]] = {}
    for fqn, file, ls, le, signature, doc, name in rows:
        out.setdefault(fqn, {"file": file, "line": ls, "line_end": le, "signature": signature, "doc": doc, "name": name})
    return out


def _section_details(graph: Any, keys: list[str], seq: int | None) -> dict[str, dict[str, Any]]:
    if not keys:
        return {}
    rows = graph.ro_query(
        f"MATCH (d:{V.DOCUMENT})-[r:{V.HAS_SECTION}]->(s:{V.SECTION}) WHERE s.key IN $keys AND {_holds('r', seq)} "
        "RETURN s.key, d.path, r.line_start, r.line_end, s.heading_path, s.text, d.title",
        {"keys": keys, "seq": seq},
    )
    return {
        k: {"file": p, "line": ls, "line_end": le, "heading_path": hp or title, "text": t, "name": hp or title}
        for k, p, ls, le, hp, t, title in rows
    }


def _commit_details(graph: Any, keys: list[str], seq: int | None) -> dict[str, dict[str, Any]]:
    if not keys:
        return {}
    cond = " AND c.seq <= $seq" if seq is not None else ""
    rows = graph.ro_query(
        f"MATCH (c:{V.COMMIT}) WHERE c.hash IN $keys AND c.seq IS NOT NULL{cond} "
        "RETURN c.hash, c.message, c.author, c.timestamp, c.seq",
        {"keys": keys, "seq": seq},
    )
    return {h: {"file": None, "line": None, "text": m, "name": (m or "").split("\n", 1)[0], "author": a,
                "timestamp": ts, "seq": s} for h, m, a, ts, s in rows}  # fmt: skip


def _commits_touching(graph: Any, keys: list[str], path_prefix: str) -> set[str]:
    rows = graph.ro_query(
        f"MATCH (c:{V.COMMIT})-[:{V.MODIFIES}]->(f:{V.FILE}) WHERE c.hash IN $keys AND f.path STARTS WITH $p RETURN DISTINCT c.hash",
        {"keys": keys, "p": path_prefix},
    )
    return {r[0] for r in rows}


# -- fusion -----------------------------------------------------------------------------------


def _rrf(lists: Iterable[tuple[float, list[tuple[str, str]]]], k: float) -> dict[tuple[str, str], float]:
    fused: dict[tuple[str, str], float] = {}
    for weight, items in lists:
        for rank, item in enumerate(items, start=1):
            fused[item] = fused.get(item, 0.0) + weight / (k + rank)
    return fused


def _keyword_lists(kw: dict[str, list[tuple[str, float]]], kinds: Sequence[str]) -> list[list[tuple[str, str]]]:
    """One ranked list per scale: functions and classes together (one BM25 over one kind of text),
    sections and commits apart."""
    sym = sorted(((s, k, key) for k in kinds if k in ("function", "class") for key, s in kw.get(k, [])),
                 key=lambda x: (-x[0], x[2]))  # fmt: skip
    out = [[(k, key) for _, k, key in sym]]
    out += [[(k, key) for key, _ in kw.get(k, [])] for k in kinds if k not in ("function", "class")]
    return [lst for lst in out if lst]


def keyword_ranking(kw: dict[str, list[tuple[str, float]]], exact: list[tuple[str, str, float]],
                    kinds: Sequence[str], w: Weights) -> dict[tuple[str, str], float]:  # fmt: skip
    """Keyword mode's ranking: reciprocal rank fusion of the keyword lists and exact matches."""
    lists = [(w.keyword, lst) for lst in _keyword_lists(kw, kinds)]
    lists.append((w.exact, [(k, key) for k, key, _ in exact if k in kinds]))
    return _rrf(lists, w.rrf_k)


def rrf_fusion(kw: dict[str, list[tuple[str, float]]], sem: dict[str, list[tuple[str, float]]],
               exact: list[tuple[str, str, float]], kinds: Sequence[str], w: Weights) -> dict[tuple[str, str], float]:  # fmt: skip
    """Hybrid's ranking: weighted reciprocal rank fusion, ``sum(weight / (rrf_k + rank))`` over the
    keyword lists (``w.keyword``), the semantic neighbours of every kind by cosine (``w.semantic``)
    and the exact identifier matches (``w.exact``)."""
    lists = [(w.keyword, lst) for lst in _keyword_lists(kw, kinds)]
    merged = sorted(((s, k, key) for k in kinds for key, s in sem.get(k, [])), key=lambda x: (-x[0], x[2]))
    lists.append((w.semantic, [(k, key) for _, k, key in merged]))
    lists.append((w.exact, [(k, key) for k, key, _ in exact]))
    return _rrf(lists, w.rrf_k)


def semantic_ranking(sem: dict[str, list[tuple[str, float]]], kinds: Sequence[str]) -> dict[tuple[str, str], float]:
    """Semantic mode's ranking: every label's neighbours by cosine similarity."""
    merged = sorted(((s, k, key) for k in kinds for key, s in sem.get(k, [])), key=lambda x: -x[0])
    return {(k, key): s for s, k, key in merged}


def _top(scores: dict[tuple[str, str], float], n: int) -> list[tuple[str, str]]:
    return [ck for ck, _ in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0][1]))[:n]]


def keep_consensus(fused: dict[tuple[str, str], float], keyword: dict[tuple[str, str], float],
                   semantic: dict[tuple[str, str], float], n: int) -> dict[tuple[str, str], float]:  # fmt: skip
    """Fusion never loses what both modes agree on: a result in the top ``n`` of the keyword
    ranking *and* of the semantic ranking is lifted into the fused top ``n`` (its score raised
    to just above the best result it displaces; the top keeps its fused order otherwise)."""
    both = set(_top(keyword, n)) & set(_top(semantic, n))
    if not both:
        return fused
    order = _top(fused, len(fused))
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


def _linear(graph: Any, kw: dict[str, list[tuple[str, float]]], sem: dict[str, list[tuple[str, float]]],
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
                f"MATCH (n:{_LABEL[k]}) WHERE n.{_KEY[k]} IN $keys AND n.embedding IS NOT NULL "
                f"RETURN n.{_KEY[k]}, 1.0 - vec.cosineDistance(n.embedding, vecf32($q))",
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


def _graph_rerank(graph: Any, fused: dict[tuple[str, str], float], seq: int | None, w: Weights,
                  evidence_sections: dict[str, float]) -> dict[tuple[str, str], float]:  # fmt: skip
    """Boosts from the graph around the fused top candidates. Each boost takes the *best*
    related match (not a sum), so a utility called by everything or a class with many methods
    does not float up just for being well connected."""
    top = sorted(fused.items(), key=lambda kv: -kv[1])[: w.rerank_top]
    if not top:
        return fused
    score = dict(fused)
    fn_keys = [k for (kind, k), _ in top if kind == "function"]
    sym_keys = [k for (kind, k), _ in top if kind in ("function", "class")]
    sec_scores = {k: s for (kind, k), s in top if kind == "doc"}
    for k, s in evidence_sections.items():
        sec_scores.setdefault(k, s)
    base = {k: s for (kind, k), s in top}
    boost: dict[tuple[str, str], float] = {}

    def add(key: tuple[str, str], value: float) -> None:
        boost[key] = max(boost.get(key, 0.0), value)

    if fn_keys and w.called_by_matches:
        rows = graph.ro_query(
            f"MATCH (a:{V.FUNCTION})-[r:{V.CALLS}]->(b:{V.FUNCTION}) WHERE a.fully_qualified_name IN $k AND "
            f"b.fully_qualified_name IN $k AND a <> b AND {_holds('r', seq)} "
            "RETURN DISTINCT a.fully_qualified_name, b.fully_qualified_name",
            {"k": fn_keys, "seq": seq},
        )
        for a, b in rows:
            add(("function", b), w.called_by_matches * base.get(a, 0.0))
    if sec_scores and (w.mentioned_by_section or w.mentions_matches):
        rows = graph.ro_query(
            f"MATCH (s:{V.SECTION})-[:{V.MENTIONS}]->(t) WHERE s.key IN $s RETURN s.key, t.fully_qualified_name, labels(t)[0]",
            {"s": list(sec_scores)},
        )
        for skey, fqn, label in rows:
            kind = "class" if label == V.CLASS else "function"
            if w.mentioned_by_section:
                add((kind, fqn), w.mentioned_by_section * sec_scores[skey])
            if w.mentions_matches and fqn in base and ("doc", skey) in score:
                add(("doc", skey), w.mentions_matches * base[fqn])
    cls_keys = [k for (kind, k), _ in top if kind == "class"]
    if cls_keys and fn_keys and w.class_of_matches:
        rows = graph.ro_query(
            f"MATCH (c:{V.CLASS})-[d:{V.DEFINES}]->(m:{V.FUNCTION}) WHERE c.fully_qualified_name IN $c AND "
            f"m.fully_qualified_name IN $m AND {_holds('d', seq)} RETURN c.fully_qualified_name, m.fully_qualified_name",
            {"c": cls_keys, "m": sym_keys, "seq": seq},
        )
        for c, m in rows:
            add(("class", c), w.class_of_matches * base.get(m, 0.0))
    for key, b in boost.items():
        score[key] = score.get(key, 0.0) + b
    return score


# -- the entry point --------------------------------------------------------------------------

_UNSET: Any = object()


def search(
    db: Any,
    ws: Any,
    query: str,
    mode: str = "hybrid",
    kind: str | Sequence[str] | None = None,
    at: Any = None,
    limit: int = 10,
    path_prefix: str | None = None,
    offset: int = 0,
    *,
    embedder: Any = _UNSET,
    weights: Weights | None = None,
) -> SearchResults:
    """Search a workspace; see the module docstring. ``kind``: function|class|doc|commit, a list,
    or 'all' (default: function, class, doc). ``offset``: the cursor (``next_offset`` of the
    previous page). ``embedder``: default ``get_embedder(db.settings)``; None = keyword only."""
    t0 = time.perf_counter()
    mode = (mode or "hybrid").lower()
    if mode not in MODES:
        raise SearchError(f"unknown mode {mode!r}: use hybrid, keyword or semantic")
    kinds = _kinds(kind)
    limit = max(1, min(int(limit), 200))
    offset = max(0, int(offset))
    w = weights or DEFAULT_WEIGHTS
    graph = _graph(db, ws)
    seq = resolve_seq(db, ws, graph, at)
    warnings: list[str] = []
    timings: dict[str, float] = {}
    need = offset + limit
    n_cand = max(30, need * 3) + (need * 3 if path_prefix else 0)

    # until the workspace has vectors of the configured model, semantic and hybrid answer with
    # keyword results (and say how far the back-fill is) rather than nothing
    emb = None
    if mode in ("semantic", "hybrid"):
        emb = _embedder_for(db, graph, embedder, warnings)
        if emb is None:
            mode = "keyword"

    # keyword and exact lists
    kw: dict[str, list[tuple[str, float]]] = {}
    exact: list[tuple[str, str, float]] = []
    evidence_kinds = tuple(dict.fromkeys([*kinds, "doc"])) if mode == "hybrid" else kinds
    if mode in ("keyword", "hybrid"):
        t = time.perf_counter()
        for k in evidence_kinds:
            kw[k] = keyword_list(graph, k, query, n_cand, seq, prefix=w.keyword_prefix)
        exact = exact_list(graph, query, kinds)
        timings["keyword"] = (time.perf_counter() - t) * 1000

    # semantic lists
    sem: dict[str, list[tuple[str, float]]] = {}
    qvec = None
    if mode in ("semantic", "hybrid"):
        t = time.perf_counter()
        if emb is not None:
            try:
                qvec = emb.embed([query])[0]
                sem = relevant(semantic_lists(graph, qvec, evidence_kinds, n_cand, seq), w.min_similarity)
            except EmbeddingError as err:
                warnings.append(f"semantic search unavailable: {err}")
            except DatabaseError as err:  # a vector index missing or being rebuilt
                qvec = None
                from mnemosyne.search.vectors import indexes_building

                if any(lab in indexes_building(graph) for lab in (V.FUNCTION, V.CLASS, V.SECTION, V.COMMIT)):
                    warnings.append("vector indexes are being rebuilt: keyword results only for now")
                else:
                    warnings.append(f"vector search failed ({err}); run `mnemosyne embed --rebuild-index`")
        timings["semantic"] = (time.perf_counter() - t) * 1000

    # fuse
    t = time.perf_counter()
    evidence_sections: dict[str, float] = {}
    if mode == "keyword":
        fused = keyword_ranking(kw, exact, kinds, w)
    elif mode == "semantic":
        fused = semantic_ranking(sem, kinds)
    elif w.fusion == "rrf":
        fused = rrf_fusion(kw, sem, exact, evidence_kinds, w)
        fused = _graph_rerank(graph, fused, seq, w, evidence_sections)
    else:
        fused = _linear(graph, kw, sem, exact, evidence_kinds, qvec, w, query)
        fused = _graph_rerank(graph, fused, seq, w, evidence_sections)
        if "doc" not in kinds:
            fused = {ck: s for ck, s in fused.items() if ck[0] != "doc"}
    fused = {ck: s for ck, s in fused.items() if ck[0] in kinds and s > _MIN_SCORE}
    if mode == "hybrid" and w.consensus_top:
        fused = keep_consensus(fused, keyword_ranking(kw, exact, kinds, w), semantic_ranking(sem, kinds), w.consensus_top)
    timings["fuse"] = (time.perf_counter() - t) * 1000

    # filter by existence at seq and path; fetch details; page
    t = time.perf_counter()
    ranked = sorted(fused.items(), key=lambda kv: (-kv[1], kv[0][1]))
    ranks: dict[tuple[str, str], dict[str, int]] = {}
    for name, lst in (("keyword", kw), ("semantic", sem)):
        for k, items in lst.items():
            for i, (key, _s) in enumerate(items, start=1):
                ranks.setdefault((k, key), {})[name] = i
    for i, (k, key, _s) in enumerate(exact, start=1):
        ranks.setdefault((k, key), {})["exact"] = i
    results: list[SearchResult] = []
    pos = 0
    batch = max(need * 2, 40)
    total_kept = 0
    while pos < len(ranked) and len(results) < need + 1:
        window = ranked[pos : pos + batch]
        pos += batch
        details: dict[tuple[str, str], dict[str, Any]] = {}
        for k in kinds:
            keys = [key for (kk, key), _ in window if kk == k]
            if not keys:
                continue
            if k in ("function", "class"):
                d = _symbol_details(graph, k, keys, seq)
            elif k == "doc":
                d = _section_details(graph, keys, seq)
            else:
                d = _commit_details(graph, keys, seq)
                if path_prefix:
                    touching = _commits_touching(graph, list(d), path_prefix)
                    d = {h: v for h, v in d.items() if h in touching}
            for key, v in d.items():
                details[(k, key)] = v
        for (k, key), s in window:
            info = details.get((k, key))
            if info is None:
                continue
            if path_prefix and k != "commit" and not (info.get("file") or "").startswith(path_prefix):
                continue
            total_kept += 1
            results.append(_make_result(k, key, s, info, query, ranks.get((k, key), {})))
    timings["details"] = (time.perf_counter() - t) * 1000
    page = results[offset : offset + limit]
    has_more = len(results) > need or pos < len(ranked)
    timings["total"] = (time.perf_counter() - t0) * 1000
    return SearchResults(
        query=query, mode=mode, seq=seq, results=page, offset=offset, limit=limit,
        next_offset=(offset + len(page)) if has_more and len(page) == limit else None,
        total_candidates=len(ranked), warnings=warnings, timings_ms={k: round(v, 2) for k, v in timings.items()},
    )  # fmt: skip


def _make_result(kind: str, key: str, score: float, info: dict[str, Any], query: str, ranks: dict[str, int]) -> SearchResult:
    if kind in ("function", "class"):
        doc = info.get("doc") or ""
        first = doc.strip().split("\n", 1)[0] if doc else ""
        sig = info.get("signature")
        snip = " — ".join(x for x in ((sig or "").strip(), first) if x) or key
        return SearchResult(key, kind, score, info.get("file"), info.get("line"), info.get("line_end"),
                            snippet(snip, query), info.get("name"), sig, None, ranks)  # fmt: skip
    if kind == "doc":
        return SearchResult(key, kind, score, info.get("file"), info.get("line"), info.get("line_end"),
                            snippet(info.get("text"), query), info.get("name"), None, info.get("heading_path"), ranks)  # fmt: skip
    return SearchResult(key, kind, score, None, None, None, snippet(info.get("name"), query), info.get("name"),
                        None, None, ranks)  # fmt: skip


def _embedder_for(db: Any, graph: Any, embedder: Any, warnings: list[str]) -> Any:
    """The query embedder, or None (with a warning) when semantic search cannot run."""
    info = get_model_info(graph)
    if info.model is None:
        warnings.append("nothing is embedded in this workspace yet (`mnemosyne ingest` embeds after ingesting, "
                        "`mnemosyne embed` catches up): keyword results only")
        return None
    if info.pending:
        from mnemosyne.search.backfill import embedded_count

        if embedded_count(graph) == 0:
            warnings.append(f"embedding back-fill in progress ({info.progress_note()}): keyword results until "
                            "the first vectors are written (`mnemosyne embed` finishes it)")
            return None
        warnings.append(f"embedding back-fill in progress ({info.progress_note()}): semantic results cover "
                        "what is embedded so far (`mnemosyne embed` finishes it)")
    if embedder is _UNSET:
        from mnemosyne.search.embedders import get_embedder

        try:
            embedder = get_embedder(getattr(db, "settings", None))
        except Exception as err:  # a model that cannot load must not break keyword search
            warnings.append(f"embedding model unavailable: {err}")
            return None
    if embedder is None:
        return None
    if embedder.model_id != info.model:
        warnings.append(
            f"this workspace is embedded with {info.model} but the configured model is {embedder.model_id}; "
            "run `mnemosyne embed` to re-embed (keyword results only)"
        )
        return None
    return embedder


# -- commits ----------------------------------------------------------------------------------


def _epoch(v: Any) -> int | None:
    if v is None or v == "":
        return None
    if isinstance(v, (int, float)):
        return int(v)
    from datetime import UTC, datetime

    s = str(v).strip()
    if s.isdigit():
        return int(s)
    try:
        dt = datetime.fromisoformat(s.replace("Z", "+00:00"))
    except ValueError:
        raise SearchError(f"cannot read the date {v!r}: use YYYY-MM-DD, an ISO time or epoch seconds") from None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return int(dt.timestamp())


@dataclass
class CommitHit:
    hash: str
    score: float
    seq: int | None
    message: str
    author: str | None
    timestamp: int | None
    tickets: list[str] = field(default_factory=list)
    sources: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["score"] = round(self.score, 6)
        return d


def search_commits(
    db: Any,
    ws: Any,
    query: str,
    author: str | None = None,
    since: Any = None,
    until: Any = None,
    path: str | None = None,
    limit: int = 10,
    *,
    embedder: Any = _UNSET,
    weights: Weights | None = None,
) -> list[CommitHit]:
    """Timeline commits matching ``query`` by message (keyword + semantic) or by the title of a
    ticket they address; filtered by author (substring of name or email, any case), committer time
    ``since``/``until`` (epoch or ISO date) and ``path`` (a changed file under that prefix)."""
    w = weights or COMMIT_WEIGHTS
    graph = _graph(db, ws)
    limit = max(1, min(int(limit), 200))
    n = max(50, limit * 5)
    warnings: list[str] = []
    kw = keyword_list(graph, "commit", query, n, None)
    tq = ft_query(query)
    ticket_rows = []
    if tq:
        ticket_rows = graph.ro_query(
            "CALL db.idx.fulltext.queryNodes('Ticket', $q) YIELD node, score "
            f"MATCH (c:{V.COMMIT})-[:{V.ADDRESSES}]->(node) WHERE c.seq IS NOT NULL "
            "RETURN c.hash, max(score) AS s ORDER BY s DESC LIMIT $n",
            {"q": tq, "n": n},
        )
    sem: list[tuple[str, float]] = []
    emb = _embedder_for(db, graph, embedder, warnings)
    if emb is not None:
        try:
            sem = relevant(semantic_lists(graph, emb.embed([query])[0], ["commit"], n, None), w.min_similarity)["commit"]
        except (EmbeddingError, DatabaseError) as err:
            log.warning("semantic commit search unavailable: %s", err)
    fused = _rrf(
        [(w.keyword, [("commit", h) for h, _ in kw]), (w.keyword, [("commit", r[0]) for r in ticket_rows]),
         (w.semantic, [("commit", h) for h, _ in sem])], w.rrf_k,
    )  # fmt: skip
    if not fused:
        return []
    keys = [k for (_, k) in fused]
    conds = ["c.hash IN $keys", "c.seq IS NOT NULL"]
    params: dict[str, Any] = {"keys": keys}
    s_since, s_until = _epoch(since), _epoch(until)
    if s_since is not None:
        conds.append("c.timestamp >= $since")
        params["since"] = s_since
    if s_until is not None:
        conds.append("c.timestamp <= $until")
        params["until"] = s_until
    if author:
        conds.append("(toLower(coalesce(c.author, '')) CONTAINS $a OR toLower(coalesce(c.author_email, '')) CONTAINS $a)")
        params["a"] = author.lower()
    match = f"MATCH (c:{V.COMMIT})"
    if path:
        match = f"MATCH (c:{V.COMMIT})-[:{V.MODIFIES}]->(f:{V.FILE})"
        conds.append("f.path STARTS WITH $p")
        params["p"] = path
    rows = graph.ro_query(
        f"{match} WHERE {' AND '.join(conds)} OPTIONAL MATCH (c)-[:{V.ADDRESSES}]->(t:{V.TICKET}) "
        "RETURN DISTINCT c.hash, c.seq, c.message, c.author, c.timestamp, collect(DISTINCT t.key)",
        params,
    )
    ranks: dict[str, dict[str, int]] = {}
    for name, lst in (("keyword", [h for h, _ in kw]), ("ticket", [r[0] for r in ticket_rows]), ("semantic", [h for h, _ in sem])):
        for i, h in enumerate(lst, start=1):
            ranks.setdefault(h, {})[name] = i
    hits = [
        CommitHit(h, fused[("commit", h)], s, m or "", a, ts, sorted(x for x in tk if x), ranks.get(h, {}))
        for h, s, m, a, ts, tk in rows
    ]
    hits.sort(key=lambda x: (-x.score, -(x.seq or 0)))
    return hits[:limit]
