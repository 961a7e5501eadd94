"""Graph wrapper and schema: idempotent indexes, batches, typed errors, missing graphs."""

from __future__ import annotations

import time

import pytest

from mnemosyne.errors import DatabaseError, ReadOnlyViolation
from mnemosyne.store.connection import Database, graph_key
from mnemosyne.store.graph import Graph
from mnemosyne.store.schema import schema_indexes


def _index_entries(graph: Graph) -> list[tuple[str, str, str, str]]:
    return [
        (ix["entity"], ix["label"], prop, kind)
        for ix in graph.indexes()
        for prop, kinds in ix["types"].items()
        for kind in kinds
    ]


def test_schema_is_idempotent_and_complete(db: Database) -> None:
    g = db.graph("schema_twice")
    try:
        first = g.ensure_schema()
        assert first, "a new graph gets indexes"
        assert g.ensure_schema() == []
        entries = _index_entries(g)
        assert len(entries) == len(set(entries)), "each index listed once"
        declared = {(s.entity, s.label, p, s.kind) for s in schema_indexes() for p in s.props}
        assert declared <= set(entries)
        for must in [("NODE", "Function", "fully_qualified_name", "RANGE"), ("NODE", "Commit", "seq", "RANGE"),
                     ("RELATIONSHIP", "CALLS", "valid_to_seq", "RANGE"), ("NODE", "Commit", "message", "FULLTEXT"),
                     ("NODE", "Function", "docstring", "FULLTEXT")]:  # fmt: skip
            assert must in declared
    finally:
        g.delete()


def test_schema_tolerates_runtime_vector_index(graph: Graph) -> None:
    graph.query(
        "CREATE VECTOR INDEX FOR (f:Function) ON (f.embedding) OPTIONS {dimension:4, similarityFunction:'cosine'}"
    )
    assert graph.ensure_schema() == []
    assert ("NODE", "Function", "embedding", "VECTOR") in _index_entries(graph)


def test_schema_adds_only_missing_properties(graph: Graph) -> None:
    graph.raw.drop_node_range_index("Function", "name")
    # the server may list a dropped index for a moment (seen once in CI on a loaded machine)
    deadline = time.monotonic() + 10
    while ("NODE", "Function", "name", "RANGE") in _index_entries(graph) and time.monotonic() < deadline:
        time.sleep(0.05)
    ran = graph.ensure_schema()
    assert ran == ["CREATE INDEX FOR (f:Function) ON (f.name)"]


def test_missing_graph_reads_empty(db: Database) -> None:
    g = db.graph("never_written")
    assert not g.exists()
    assert g.ro_query("MATCH (n) RETURN n") == []
    assert g.query_result("MATCH (n) RETURN n", readonly=True).result_set == []
    assert g.delete() is False
    assert "ws_never_written" not in db.list_graphs()


def test_write_batches_chunks_and_counts(graph: Graph) -> None:
    rows = [{"path": f"src/m{i}.py", "lang": "python"} for i in range(25)]
    stats = graph.write_batches(
        "UNWIND $rows AS r MERGE (f:File {path: r.path}) SET f.language = r.lang, f.tag = $tag",
        rows, batch_size=10, params={"tag": "t"},
    )  # fmt: skip
    assert stats["batches"] == 3 and stats["rows"] == 25 and stats["nodes_created"] == 25
    assert graph.ro_query("MATCH (f:File {tag: 't'}) RETURN count(f)") == [[25]]
    with pytest.raises(ValueError, match="UNWIND"):
        graph.write_batches("MATCH (n) RETURN n", rows)
    assert graph.write_batches("UNWIND $rows AS r CREATE (:X)", [])["batches"] == 0


def test_errors_are_typed_and_named(graph: Graph) -> None:
    with pytest.raises(DatabaseError, match="RETURN 1 \\+"):
        graph.query("RETURN 1 +")
    with pytest.raises(DatabaseError, match="my_label"):
        graph.query("RETURN nosuchfunction(1)", label="my_label")
    graph.query("CREATE (:File {path: 'a'})")
    with pytest.raises(ReadOnlyViolation):
        graph.ro_query("CREATE (:File {path: 'b'})")


def test_graph_names(db: Database) -> None:
    g = db.graph("abc")
    assert g.name == "ws_abc" and g.workspace == "abc"
    with pytest.raises(Exception, match="invalid workspace name"):
        graph_key("a b")
