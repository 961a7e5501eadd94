"""The candidates of a search and what they are checked against: the keyword, exact-identifier and
vector (k-NN) lists per kind, the timeline position a search answers at, the details of a candidate
at that position (which also says whether it exists there), and the query embedder.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from mnemosyne import vocabulary as V
from mnemosyne.search.errors import SearchError
from mnemosyne.search.lexical import STATE_LABELS, label_count, symbol_keyword_lists
from mnemosyne.search.target import workspace_name
from mnemosyne.search.text import ft_query, identifier_like
from mnemosyne.search.vectors import get_model_info, knn
from mnemosyne.store.connection import Database
from mnemosyne.store.versions import META_KEY
from mnemosyne.temporal import holds_at, holds_at_head

if TYPE_CHECKING:
    from mnemosyne.store.graph import Graph
    from mnemosyne.store.handles import GraphHandle, WorkspaceRef

KINDS = ("function", "class", "doc", "commit")
DEFAULT_KINDS = ("function", "class", "doc")
LABEL = {"function": V.FUNCTION, "class": V.CLASS, "doc": V.SECTION, "commit": V.COMMIT}
KEY = {"function": "fully_qualified_name", "class": "fully_qualified_name", "doc": "key", "commit": "hash"}
#: "the caller passed no embedder" (None means: keyword only)
UNSET: Any = object()


def head_seq(graph: GraphHandle) -> int | None:
    rows = graph.ro_query(f"MATCH (m:{V.META} {{key: '{META_KEY}'}}) RETURN m.last_seq")
    if rows and rows[0][0] is not None:
        return int(rows[0][0])
    rows = graph.ro_query(f"MATCH (c:{V.COMMIT}) WHERE c.seq IS NOT NULL RETURN max(c.seq)")
    return int(rows[0][0]) if rows and rows[0][0] is not None else None


def resolve_seq(db: Database | Graph, ws: WorkspaceRef | Graph | None, graph: GraphHandle, at: int | str | None,
                state: tuple[Any, ...] | None = None) -> int | None:
    """``at`` as a timeline seq: None -> HEAD; int -> itself; a revision -> the query layer.
    ``state``: a ``lexical.graph_state`` already read (its ``Meta.last_seq`` is the head)."""
    if at is None or at == "HEAD":
        if state is not None and state[0] is not None:
            return int(state[0])
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
    if not isinstance(db, Database):
        raise SearchError(f"cannot resolve revision {at!r} without the database; pass a timeline seq")
    found = resolve_at(db, workspace_name(ws), s)
    seq = found.seq
    if seq is None:
        raise SearchError(
            f"{at!r} is not on the workspace's timeline: search answers at timeline commits only (docs/queries.md)"
        )
    return int(seq)


def holds(var: str, seq: int | None) -> str:
    return holds_at_head(var) if seq is None else holds_at(var)


def keyword_lists(graph: GraphHandle, kinds: Sequence[str], query: str, n: int, seq: int | None,
                  prefix: bool = True, state: tuple[Any, ...] | None = None) -> dict[str, list[tuple[str, float]]]:
    """``kind -> [(key, score)]`` of the nodes matching ``query`` by keyword, best first: BM25 over
    ``search_text`` for functions and classes (``lexical``: one in-memory scoring for both), the
    full-text index's score otherwise. ``state``: a ``lexical.graph_state`` already read (a graph
    without sections is then not asked for them)."""
    symbols = [k for k in kinds if k in ("function", "class")]
    by_label = symbol_keyword_lists(graph, [LABEL[k] for k in symbols], query, n, state) if symbols else {}
    out: dict[str, list[tuple[str, float]]] = {}
    for k in kinds:
        if k in symbols:
            out[k] = by_label[LABEL[k]]
        elif k == "doc" and state is not None and label_count(state, V.SECTION) == 0:
            out[k] = []
        else:
            out[k] = keyword_list(graph, k, query, n, seq, prefix)
    return out


def keyword_list(graph: GraphHandle, kind: str, query: str, n: int, seq: int | None, prefix: bool = True) -> list[tuple[str, float]]:
    """``(key, score)`` of the ``kind`` nodes matching ``query`` by keyword, best first: BM25 over
    ``search_text`` for functions and classes (``lexical``), the full-text index's score otherwise.
    ``prefix``: words also match as prefixes in the full-text index (sections, commits)."""
    if kind in ("function", "class"):
        return symbol_keyword_lists(graph, [LABEL[kind]], query, n)[LABEL[kind]]
    q = ft_query(query, prefix=prefix)
    if not q:
        return []
    label = LABEL[kind]
    key = KEY[kind]
    where = ""
    if kind == "commit":
        where = "WHERE node.seq IS NOT NULL " + ("AND node.seq <= $seq " if seq is not None else "")
    rows = graph.ro_query(
        f"CALL db.idx.fulltext.queryNodes('{label}', $q) YIELD node, score {where}"
        f"RETURN node.{key}, score ORDER BY score DESC LIMIT $n",
        {"q": q, "n": int(n), "seq": seq},
    )
    return [(r[0], float(r[1])) for r in rows if r[0] is not None]


def exact_list(graph: GraphHandle, query: str, kinds: Sequence[str]) -> list[tuple[str, str, float]]:
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
            f"MATCH (n:{LABEL[kind]}) WHERE (n.fully_qualified_name = $q OR n.name = $s) "
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


def semantic_lists(graph: GraphHandle, qvec: np.ndarray, kinds: Sequence[str], n: int, seq: int | None,
                   state: tuple[Any, ...] | None = None) -> dict[str, list[tuple[str, float]]]:
    """``kind -> [(key, cosine)]``: the ``n`` nearest of each kind. ``state``: a ``lexical.graph_state``
    already read (its label counts choose scan or index without asking again, and skip a kind the
    graph has none of)."""
    out: dict[str, list[tuple[str, float]]] = {}
    for kind in kinds:
        label = LABEL[kind]
        where = ""
        if kind == "commit":
            where = "node.seq IS NOT NULL" + (" AND node.seq <= $seq" if seq is not None else "")
        size = label_count(state, label) if state is not None and label in STATE_LABELS else None
        if size == 0:  # nothing of that kind in the graph: no scan to ask for
            out[kind] = []
            continue
        rows = knn(graph, label, qvec, n, where=where, params={"seq": seq}, size=size)
        out[kind] = [(r[0], float(r[1])) for r in rows if r[0] is not None]
    return out


def relevant(lists: dict[str, list[tuple[str, float]]], floor: float) -> dict[str, list[tuple[str, float]]]:
    """Vector neighbours at least ``floor`` similar (k-NN has no notion of 'no match')."""
    return {k: [(key, s) for key, s in items if s >= floor] for k, items in lists.items()}


def symbol_details(graph: GraphHandle, kind: str, keys: list[str], seq: int | None) -> dict[str, dict[str, Any]]:
    if not keys:
        return {}
    label = LABEL[kind]
    sig = "d.signature" if kind == "function" else "null"
    rows = graph.ro_query(
        f"MATCH ()-[d:{V.DEFINES}]->(n:{label}) WHERE n.fully_qualified_name IN $keys AND {holds('d', seq)} "
        f"RETURN n.fully_qualified_name, coalesce(d.file, n.file), coalesce(d.line_start, n.line_start), "
        f"coalesce(d.line_end, n.line_end), coalesce({sig}, n.signature), coalesce(d.docstring, n.docstring), n.name, "
        f"coalesce(d.kind, n.kind)",
        {"keys": keys, "seq": seq},
    )
    out: dict[str, dict[str, Any]] = {}
    for fqn, file, ls, le, signature, doc, name, skind in rows:
        out.setdefault(fqn, {"file": file, "line": ls, "line_end": le, "signature": signature, "doc": doc, "name": name,
                             "symbol_kind": skind or kind})
    return out


def section_details(graph: GraphHandle, keys: list[str], seq: int | None) -> dict[str, dict[str, Any]]:
    if not keys:
        return {}
    rows = graph.ro_query(
        f"MATCH (d:{V.DOCUMENT})-[r:{V.HAS_SECTION}]->(s:{V.SECTION}) WHERE s.key IN $keys AND {holds('r', seq)} "
        "RETURN s.key, d.path, r.line_start, r.line_end, s.heading_path, s.text, d.title",
        {"keys": keys, "seq": seq},
    )
    return {
        k: {"file": p, "line": ls, "line_end": le, "heading_path": hp or title, "text": t, "name": hp or title}
        for k, p, ls, le, hp, t, title in rows
    }


def commit_details(graph: GraphHandle, keys: list[str], seq: int | None) -> dict[str, dict[str, Any]]:
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


def commits_touching(graph: GraphHandle, keys: list[str], path_prefix: str) -> set[str]:
    rows = graph.ro_query(
        f"MATCH (c:{V.COMMIT})-[:{V.MODIFIES}]->(f:{V.FILE}) WHERE c.hash IN $keys AND f.path STARTS WITH $p RETURN DISTINCT c.hash",
        {"keys": keys, "p": path_prefix},
    )
    return {r[0] for r in rows}


def embedder_for(db: Database | Graph, graph: GraphHandle, embedder: Any, warnings: list[str]) -> Any:
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
    if embedder is UNSET:
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
