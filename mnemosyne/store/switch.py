"""A workspace graph built on the side, then switched in (HEAD first, the history behind it).

``ingest`` answers at HEAD within about the time of ``--head-only``: it writes the head snapshot into
the workspace graph, then builds the whole history into a side graph (``<key>__history``) while the
head snapshot answers. When the side graph is complete, what agents wrote into the workspace graph
meanwhile (locks, constraints, insights: ``AGENT_DATA``) and the embeddings already computed are carried over,
and Redis ``RENAME`` switches the side graph in, in one step.

Carrying over is idempotent (the side graph's copies are deleted first), so a kill anywhere before
the ``RENAME`` is repaired by running it again; after the ``RENAME`` the workspace graph is the
complete one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mnemosyne import vocabulary as V
from mnemosyne.store.keys import SIDE_SUFFIX, graph_key

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database
    from mnemosyne.store.graph import Graph

# nodes agents write into a workspace graph, with the edge that ties each to a code entity and the
# entity's side of it: (label, edge type, "out" = (node)-[edge]->(entity), "in" = (entity)-[edge]->(node))
AGENT_DATA: tuple[tuple[str, str, str], ...] = (
    (V.CONSTRAINT, V.APPLIES_TO, "out"),
    (V.LOCK, V.IS_LOCKED_BY, "in"),
    (V.INSIGHT, V.DESCRIBES, "out"),
)
# nodes whose embeddings are carried over, by their key property
EMBEDDED: tuple[tuple[str, str], ...] = ((V.FUNCTION, V.FQN), (V.CLASS, V.FQN), (V.SECTION, "key"), (V.COMMIT, "hash"))
_ENTITY_KEYS = {V.FUNCTION: V.FQN, V.CLASS: V.FQN, V.FILE: "path"}
_BATCH = 500


def side_graph(db: Database, workspace: str) -> Graph:
    """The graph a workspace's history is built in before it is switched in."""
    from mnemosyne.store.graph import Graph

    return Graph(db, graph_key(workspace) + SIDE_SUFFIX, workspace=workspace)


def carry_over(src: Graph, dst: Graph) -> int:
    """Copy the agent-written nodes and the embeddings of ``src`` into ``dst`` (replacing copies made
    before). Returns the number of nodes copied."""
    n = 0
    for label, etype, side in AGENT_DATA:
        dst.query(f"MATCH (x:{label}) DETACH DELETE x")
        edge = f"(x)-[:{etype}]->(e)" if side == "out" else f"(e)-[:{etype}]->(x)"
        rows = src.ro_query(f"MATCH {edge} WHERE x:{label} RETURN properties(x), labels(e)[0], "
                            "coalesce(e.fully_qualified_name, e.path)")
        for ent_label, key in _ENTITY_KEYS.items():
            part = [{"p": dict(p), "k": k} for p, lbl, k in rows if lbl == ent_label and k is not None]
            for i in range(0, len(part), _BATCH):
                made = f"(x)-[:{etype}]->(e)" if side == "out" else f"(e)-[:{etype}]->(x)"
                dst.query(f"UNWIND $rows AS r MERGE (e:{ent_label} {{{key}: r.k}}) CREATE (x:{label}) SET x = r.p "
                          f"CREATE {made}", {"rows": part[i : i + _BATCH]})
                n += len(part[i : i + _BATCH])
    for label, key in EMBEDDED:
        rows = src.ro_query(f"MATCH (x:{label}) WHERE x.embed_hash IS NOT NULL RETURN x.{key}, x.embedding, x.embed_hash")
        part = [{"k": k, "v": list(v), "h": h} for k, v, h in rows if k is not None and v is not None]
        for i in range(0, len(part), _BATCH):
            dst.query(f"UNWIND $rows AS r MATCH (x:{label} {{{key}: r.k}}) SET x.embedding = vecf32(r.v), "
                      "x.embed_hash = r.h", {"rows": part[i : i + _BATCH]})
            n += len(part[i : i + _BATCH])
    for label in (V.FUNCTION, V.CLASS):  # a symbol's second vector, of its first sentence (hybrid's rerank)
        rows = src.ro_query(f"MATCH (x:{label}) WHERE x.{V.SENTENCE_HASH_PROP} IS NOT NULL "
                            f"RETURN x.{V.FQN}, x.{V.SENTENCE_PROP}, x.{V.SENTENCE_HASH_PROP}")
        part = [{"k": k, "v": list(v), "h": h} for k, v, h in rows if k is not None and v is not None]
        for i in range(0, len(part), _BATCH):
            dst.query(f"UNWIND $rows AS r MATCH (x:{label} {{{V.FQN}: r.k}}) "
                      f"SET x.{V.SENTENCE_PROP} = vecf32(r.v), x.{V.SENTENCE_HASH_PROP} = r.h", {"rows": part[i : i + _BATCH]})
            n += len(part[i : i + _BATCH])
    model = src.ro_query(f"MATCH (m:{V.META} {{key: 'ingest'}}) RETURN m.embedding_model, m.embedding_dim")
    if model and model[0][0] is not None:
        dst.query(f"MATCH (m:{V.META} {{key: 'ingest'}}) SET m.embedding_model = $m, m.embedding_dim = $d",
                  {"m": model[0][0], "d": model[0][1]})
    return n


def switch_in(db: Database, side: Graph, main: Graph) -> None:
    """Make ``side`` the workspace graph ``main`` (Redis ``RENAME``: one step, the old one dropped)."""
    db.execute("RENAME", side.name, main.name)
