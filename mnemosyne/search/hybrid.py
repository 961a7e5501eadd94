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
  section, a section that mentions matching symbols, and a class whose methods match gain score;
  a function nested in another, and a class ranked above its own method near the top, lose it.

The candidate lists and details are ``search.candidates``, the fusion ``search.fusion``, the
graph rerank ``search.rerank``; commit search (``search_commits``) is ``search.commits``.

Results are restricted to what exists at ``at`` (a timeline seq, or a revision resolved by the
query layer; default HEAD): symbols with a ``DEFINES`` version holding there, sections with a
``HAS_SECTION`` version holding there, timeline commits up to there. File, line and signature of
a symbol are those of that version.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from mnemosyne import vocabulary as V
from mnemosyne.errors import DatabaseError
from mnemosyne.search.candidates import (
    DEFAULT_KINDS,
    KINDS,
    UNSET,
    commit_details,
    commits_touching,
    embedder_for,
    exact_list,
    keyword_lists,
    relevant,
    resolve_seq,
    section_details,
    semantic_lists,
    symbol_details,
)
from mnemosyne.search.errors import EmbeddingError, SearchError
from mnemosyne.search.fusion import (
    DEFAULT_WEIGHTS,
    MIN_SCORE,
    Weights,
    keep_consensus,
    keyword_ranking,
    linear,
    rrf_fusion,
    semantic_ranking,
    share_of_test_code,
    top_keys,
)
from mnemosyne.search.lexical import graph_state
from mnemosyne.search.rerank import graph_rerank, sentence_rerank
from mnemosyne.search.target import graph_of
from mnemosyne.search.text import asks_for_history, asks_for_tests, is_release_notes, snippet

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database
    from mnemosyne.store.graph import Graph
    from mnemosyne.store.handles import GraphHandle, WorkspaceRef

MODES = ("hybrid", "keyword", "semantic")


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
    symbol_kind: str | None = None  # function/class results: function, method, module, lambda, class
    also_in: list[str] = field(default_factory=list)  # doc results: "file:line" of the same section in other files

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


def _kinds(kind: str | Sequence[str] | None) -> tuple[str, ...]:
    if kind is None or kind == "" or kind == "all":
        return DEFAULT_KINDS if kind is None or kind == "" else KINDS
    ks = [kind] if isinstance(kind, str) else list(kind)
    out: list[str] = []
    for k in ks:
        for part in str(k).split(","):
            p = part.strip().lower()
            p = {"functions": "function", "method": "function", "methods": "function", "classes": "class",
                 "docs": "doc", "section": "doc", "sections": "doc", "commits": "commit"}.get(p, p)  # fmt: skip
            if p not in KINDS:
                raise SearchError(f"unknown kind {part!r}: use one of {', '.join(KINDS)}")
            out.append(p)
    return tuple(dict.fromkeys(out))


# -- the entry point --------------------------------------------------------------------------


def search(
    db: Database | Graph,
    ws: WorkspaceRef | Graph | None,
    query: str,
    mode: str = "hybrid",
    kind: str | Sequence[str] | None = None,
    at: int | str | None = None,
    limit: int = 10,
    path_prefix: str | None = None,
    offset: int = 0,
    *,
    embedder: Any = UNSET,
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
    graph = graph_of(db, ws)
    state = graph_state(graph)  # one round trip: the head and the keyword index's state
    seq = resolve_seq(db, ws, graph, at, state)
    warnings: list[str] = []
    timings: dict[str, float] = {}
    need = offset + limit
    n_cand = max(30, need * 3) + (need * 3 if path_prefix else 0)

    # until the workspace has vectors of the configured model, semantic and hybrid answer with
    # keyword results (and say how far the back-fill is) rather than nothing
    emb = None
    if mode in ("semantic", "hybrid"):
        emb = embedder_for(db, graph, embedder, warnings)
        if emb is None:
            mode = "keyword"

    # keyword and exact lists
    kw: dict[str, list[tuple[str, float]]] = {}
    exact: list[tuple[str, str, float]] = []
    evidence_kinds = tuple(dict.fromkeys([*kinds, "doc"])) if mode == "hybrid" else kinds
    if mode in ("keyword", "hybrid"):
        t = time.perf_counter()
        kw = keyword_lists(graph, evidence_kinds, query, n_cand, seq, prefix=w.keyword_prefix, state=state)
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
                sem = relevant(semantic_lists(graph, qvec, evidence_kinds, n_cand, seq, state), w.min_similarity)
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

    # fuse; test code ranks by a share of its score unless the question asks for tests (in hybrid
    # also in the lists it is fused from)
    t = time.perf_counter()
    demote = w.test_code if w.test_code != 1.0 and not asks_for_tests(query) else 1.0
    evidence_sections: dict[str, float] = {}
    if mode == "keyword":
        fused = keyword_ranking(kw, exact, kinds, w)
    elif mode == "semantic":
        fused = semantic_ranking(sem, kinds)
    elif w.fusion == "rrf":
        fused = rrf_fusion(kw, sem, exact, evidence_kinds, w, demote if w.test_code_in_lists else 1.0)
        fused = graph_rerank(graph, fused, seq, w, evidence_sections)
    else:
        fused = linear(graph, kw, sem, exact, evidence_kinds, qvec, w, query)
        fused = graph_rerank(graph, fused, seq, w, evidence_sections)
        if "doc" not in kinds:
            fused = {ck: s for ck, s in fused.items() if ck[0] != "doc"}
    if mode == "hybrid" and qvec is not None and w.sentence_rerank:
        fused = sentence_rerank(graph, fused, qvec, w)
    fused = {ck: s for ck, s in fused.items() if ck[0] in kinds and s > MIN_SCORE}
    if mode == "hybrid" and w.consensus_top:
        # each mode's top as that mode answers it: candidates that exist at seq (a symbol's vector
        # and text outlive its deletion, so a deleted twin must not take a consensus place)
        n = w.consensus_top
        kw_rank, sem_rank = keyword_ranking(kw, exact, kinds, w), semantic_ranking(sem, kinds)
        heads = {m: top_keys(r, 4 * n + 8) for m, r in (("kw", kw_rank), ("sem", sem_rank))}
        alive = _existing(graph, list(dict.fromkeys(heads["kw"] + heads["sem"])), seq)
        fused = keep_consensus(fused, {ck: kw_rank[ck] for ck in heads["kw"] if ck in alive},
                               {ck: sem_rank[ck] for ck in heads["sem"] if ck in alive}, n)  # fmt: skip
    timings["fuse"] = (time.perf_counter() - t) * 1000

    # filter by existence at seq and path; fetch details; page
    t = time.perf_counter()
    # one sort: by the ranking score (test code's share of it unless the question asks for tests),
    # then the score, then the key
    notes = w.release_notes if w.release_notes != 1.0 and not asks_for_history(query) else 1.0

    def share(ck: tuple[str, str]) -> float:
        if ck[0] == "doc":
            return notes if notes != 1.0 and is_release_notes(ck[1]) else 1.0
        return share_of_test_code(ck[0], ck[1], demote)

    # the score a result shows is the one it is ranked by, so that shown scores never rise down the list
    ranked = sorted(((ck, s * share(ck), s) for ck, s in fused.items()), key=lambda x: (-x[1], -x[2], x[0][1]))
    ranks: dict[tuple[str, str], dict[str, int]] = {}
    for name, lst in (("keyword", kw), ("semantic", sem)):
        for k, items in lst.items():
            for i, (key, _s) in enumerate(items, start=1):
                ranks.setdefault((k, key), {})[name] = i
    for i, (k, key, _s) in enumerate(exact, start=1):
        ranks.setdefault((k, key), {})["exact"] = i
    results: list[SearchResult] = []
    pos = 0
    batch = max(need * 2, 20) if not path_prefix else max(need * 2, 40)
    # a documentation section whose heading path and text equal a better-ranked one's (a README copied
    # into docs/index.rst, as tenacity's is) is folded into it: one result, the copies in also_in
    first_of: dict[tuple[str, str], SearchResult] = {}
    while pos < len(ranked) and len(results) < need + 1:
        window = ranked[pos : pos + batch]
        pos += batch
        details: dict[tuple[str, str], dict[str, Any]] = {}
        for k in kinds:
            keys = [key for (kk, key), _, _ in window if kk == k]
            if not keys:
                continue
            d = _details(graph, k, keys, seq)
            if k == "commit" and path_prefix:
                touching = commits_touching(graph, list(d), path_prefix)
                d = {h: v for h, v in d.items() if h in touching}
            for key, v in d.items():
                details[(k, key)] = v
        for (k, key), s, _raw in window:
            info = details.get((k, key))
            if info is None:
                continue
            if path_prefix and k != "commit" and not (info.get("file") or "").startswith(path_prefix):
                continue
            if k == "doc":
                twin = (str(info.get("heading_path") or ""), str(info.get("text") or ""))
                first = first_of.get(twin)
                if first is not None:
                    first.also_in.append(f"{info.get('file')}:{info.get('line')}")
                    continue
            r = _make_result(k, key, s, info, query, ranks.get((k, key), {}))
            if k == "doc":
                first_of[twin] = r
            results.append(r)
    timings["details"] = (time.perf_counter() - t) * 1000
    page = results[offset : offset + limit]
    has_more = len(results) > need or pos < len(ranked)
    timings["total"] = (time.perf_counter() - t0) * 1000
    return SearchResults(
        query=query, mode=mode, seq=seq, results=page, offset=offset, limit=limit,
        next_offset=(offset + len(page)) if has_more and len(page) == limit else None,
        total_candidates=len(ranked), warnings=warnings, timings_ms={k: round(v, 2) for k, v in timings.items()},
    )  # fmt: skip


def _existing(graph: GraphHandle, keys: list[tuple[str, str]], seq: int | None) -> set[tuple[str, str]]:
    """The ``(kind, key)`` candidates that exist at ``seq`` (those the details step would keep)."""
    out: set[tuple[str, str]] = set()
    for k in dict.fromkeys(kind for kind, _ in keys):
        out.update((k, key) for key in _details(graph, k, [key for kind, key in keys if kind == k], seq))
    return out


def _details(graph: GraphHandle, kind: str, keys: list[str], seq: int | None) -> dict[str, dict[str, Any]]:
    """The details of the ``kind`` candidates ``keys`` that exist at ``seq``, by key."""
    if kind in ("function", "class"):
        return symbol_details(graph, kind, keys, seq)
    if kind == "doc":
        return section_details(graph, keys, seq)
    return commit_details(graph, keys, seq)


def _make_result(kind: str, key: str, score: float, info: dict[str, Any], query: str, ranks: dict[str, int]) -> SearchResult:
    if kind in ("function", "class"):
        doc = info.get("doc") or ""
        first = doc.strip().split("\n", 1)[0] if doc else ""
        sig = info.get("signature")
        snip = " — ".join(x for x in ((sig or "").strip(), first) if x) or key
        return SearchResult(key, kind, score, info.get("file"), info.get("line"), info.get("line_end"),
                            snippet(snip, query), info.get("name"), sig, None, ranks, info.get("symbol_kind"))  # fmt: skip
    if kind == "doc":
        return SearchResult(key, kind, score, info.get("file"), info.get("line"), info.get("line_end"),
                            snippet(info.get("text"), query), info.get("name"), None, info.get("heading_path"), ranks)  # fmt: skip
    return SearchResult(key, kind, score, None, None, None, snippet(info.get("name"), query), info.get("name"),
                        None, None, ranks)  # fmt: skip
