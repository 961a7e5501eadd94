"""Commit search: timeline commits matching a query by message (keyword + semantic) or by the
title of a ticket they address, filtered by author, time and path (``search_commits``)."""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from mnemosyne import vocabulary as V
from mnemosyne.errors import DatabaseError
from mnemosyne.search.candidates import UNSET, embedder_for, keyword_list, relevant, semantic_lists
from mnemosyne.search.errors import EmbeddingError, SearchError
from mnemosyne.search.fusion import COMMIT_WEIGHTS, Weights, rrf
from mnemosyne.search.target import graph_of
from mnemosyne.search.text import ft_query

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database
    from mnemosyne.store.graph import Graph
    from mnemosyne.store.handles import WorkspaceRef

log = logging.getLogger(__name__)


def _epoch(v: int | float | str | None) -> int | None:
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
    db: Database | Graph,
    ws: WorkspaceRef | Graph | None,
    query: str,
    author: str | None = None,
    since: int | float | str | None = None,
    until: int | float | str | None = None,
    path: str | None = None,
    limit: int = 10,
    *,
    embedder: Any = UNSET,
    weights: Weights | None = None,
) -> list[CommitHit]:
    """Timeline commits matching ``query`` by message (keyword + semantic) or by the title of a
    ticket they address; filtered by author (substring of name or email, any case), committer time
    ``since``/``until`` (epoch or ISO date) and ``path`` (a changed file under that prefix)."""
    w = weights or COMMIT_WEIGHTS
    graph = graph_of(db, ws)
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
    emb = embedder_for(db, graph, embedder, warnings)
    if emb is not None:
        try:
            sem = relevant(semantic_lists(graph, emb.embed([query])[0], ["commit"], n, None), w.min_similarity)["commit"]
        except (EmbeddingError, DatabaseError) as err:
            log.warning("semantic commit search unavailable: %s", err)
    fused = rrf(
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
