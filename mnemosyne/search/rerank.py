"""The graph rerank of hybrid search: boosts from the graph around the fused top candidates (a
symbol called by other matches, a symbol mentioned by a matching section, a section citing
matching symbols, a class whose methods match), two demotions (a function nested in another,
a class ranked above one of its own methods near the top), and the top candidates re-ordered in
part by their first docstring sentence's vector (``sentence_rerank``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mnemosyne import vocabulary as V
from mnemosyne.search.candidates import holds
from mnemosyne.search.fusion import Weights
from mnemosyne.search.vectors import SENTENCE_PROP

if TYPE_CHECKING:
    from mnemosyne.store.handles import GraphHandle


def graph_rerank(graph: GraphHandle, fused: dict[tuple[str, str], float], seq: int | None, w: Weights,
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
            f"b.fully_qualified_name IN $k AND a <> b AND {holds('r', seq)} "
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
            if w.mentioned_by_section and (not w.mention_candidates_only or (kind, fqn) in fused):
                add((kind, fqn), w.mentioned_by_section * sec_scores[skey])
            if w.mentions_matches and fqn in base and ("doc", skey) in score:
                add(("doc", skey), w.mentions_matches * base[fqn])
    cls_keys = [k for (kind, k), _ in top if kind == "class"]
    if cls_keys and fn_keys and w.class_of_matches:
        rows = graph.ro_query(
            f"MATCH (c:{V.CLASS})-[d:{V.DEFINES}]->(m:{V.FUNCTION}) WHERE c.fully_qualified_name IN $c AND "
            f"m.fully_qualified_name IN $m AND {holds('d', seq)} RETURN c.fully_qualified_name, m.fully_qualified_name",
            {"c": cls_keys, "m": sym_keys, "seq": seq},
        )
        for c, m in rows:
            add(("class", c), w.class_of_matches * base.get(m, 0.0))
    for key, b in boost.items():
        score[key] = score.get(key, 0.0) + b
    if fn_keys and w.nested_function != 1.0:
        for fqn in nested_functions(graph, fn_keys, seq):
            score[("function", fqn)] *= w.nested_function
    if w.class_below_method_top:
        class_below_method(graph, score, seq, w.class_below_method_top)
    return score


def sentence_rerank(graph: GraphHandle, fused: dict[tuple[str, str], float], qvec: np.ndarray,
                    w: Weights) -> dict[tuple[str, str], float]:  # fmt: skip
    """The top ``w.sentence_rerank_top`` functions and classes re-ordered in part by the question's
    cosine to their first docstring sentence (``Weights.sentence_rerank``); a new dict."""
    top = sorted(((ck, s) for ck, s in fused.items() if ck[0] in ("function", "class")),
                 key=lambda kv: (-kv[1], kv[0][1]))[: w.sentence_rerank_top]  # fmt: skip
    if not top or not w.sentence_rerank:
        return fused
    q = np.asarray(qvec, dtype=np.float32).ravel().tolist()
    sims: dict[tuple[str, str], float] = {}
    for kind, label in (("function", V.FUNCTION), ("class", V.CLASS)):
        keys = [key for (k, key), _ in top if k == kind]
        if keys:
            rows = graph.ro_query(
                f"MATCH (n:{label}) WHERE n.fully_qualified_name IN $k AND n.{SENTENCE_PROP} IS NOT NULL "
                f"RETURN n.fully_qualified_name, 1.0 - vec.cosineDistance(n.{SENTENCE_PROP}, vecf32($q))",
                {"k": keys, "q": q},
            )
            sims.update(((kind, key), float(sim)) for key, sim in rows)
    order = sorted(range(len(top)), key=lambda j: -sims.get(top[j][0], -1.0))  # stable: ties keep the fused order
    out = dict(fused)
    best = top[0][1]
    for rank, j in enumerate(order, start=1):
        ck, s = top[j]
        out[ck] = s + w.sentence_rerank * best * 2.0 / (1.0 + rank)
    return out


def class_below_method(graph: GraphHandle, score: dict[tuple[str, str], float], seq: int | None, n: int) -> None:
    """A class ranked above one of its own (non-dunder) methods that is in the top ``n`` takes a
    score just below that method's (``Weights.class_below_method_top``); in place."""
    top = sorted(score.items(), key=lambda kv: (-kv[1], kv[0][1]))[:n]
    methods = {k: s for (kind, k), s in top if kind == "function" and not k.rsplit(".", 1)[-1].startswith("__")}
    classes = [k for (kind, k), _ in top if kind == "class"]
    if not methods or not classes:
        return
    rows = graph.ro_query(
        f"MATCH (c:{V.CLASS}) WHERE c.fully_qualified_name IN $c WITH c "
        f"MATCH (c)-[d:{V.DEFINES}]->(m:{V.FUNCTION}) WHERE m.fully_qualified_name IN $m AND {holds('d', seq)} "
        "RETURN c.fully_qualified_name, m.fully_qualified_name",
        {"c": classes, "m": list(methods), "seq": seq},
    )
    best: dict[str, float] = {}
    for c, m in rows:
        best[c] = max(best.get(c, 0.0), methods[m])
    for c, s in best.items():
        if s < score[("class", c)]:
            score[("class", c)] = s * 0.99


def nested_functions(graph: GraphHandle, keys: list[str], seq: int | None) -> list[str]:
    """The functions among ``keys`` defined (at ``seq``) inside a function or method."""
    rows = graph.ro_query(
        # anchored on the candidates (the name index), not on every function's DEFINES edges
        f"MATCH (f:{V.FUNCTION}) WHERE f.fully_qualified_name IN $k WITH f "
        f"MATCH (p:{V.FUNCTION})-[d:{V.DEFINES}]->(f) WHERE p.kind IN ['function', 'method'] AND {holds('d', seq)} "
        "RETURN DISTINCT f.fully_qualified_name",
        {"k": keys, "seq": seq},
    )
    return [fqn for (fqn,) in rows if fqn]
