"""Read-only Cypher: writes and LOAD CSV refused, row cap, timeout, JSON-friendly values."""

from __future__ import annotations

import json

import pytest

from mnemosyne.errors import QueryTimeout, ReadOnlyViolation
from mnemosyne.store.graph import Graph
from mnemosyne.store.readonly import run_readonly, with_row_limit


@pytest.mark.parametrize(
    "cypher",
    [
        "CREATE (n:File {path: 'x'})",
        "MERGE (n:File {path: 'x'})",
        "MATCH (n:File) DELETE n",
        "MATCH (n:File) DETACH DELETE n",
        "MATCH (n:File) SET n.x = 1",
        "MATCH (n:File) REMOVE n.path",
        "CREATE INDEX FOR (n:Foo) ON (n.bar)",
        "match (n) with n create (m)",
    ],
)
def test_writes_refused(graph: Graph, cypher: str) -> None:
    graph.query("CREATE (:File {path: 'keep'})")
    with pytest.raises(ReadOnlyViolation, match="read-only: CREATE/MERGE/SET/DELETE are not allowed"):
        run_readonly(graph, cypher)
    assert graph.ro_query("MATCH (n) RETURN count(n)") == [[1]]


def test_server_is_the_backstop(graph: Graph) -> None:
    graph.query("CREATE (:File {path: 'keep'})")
    with pytest.raises(ReadOnlyViolation):
        graph.ro_query("CREATE (n)")


def test_load_csv_refused(graph: Graph) -> None:
    with pytest.raises(ReadOnlyViolation, match="LOAD CSV"):
        run_readonly(graph, "LOAD CSV FROM 'file:///etc/passwd' AS row RETURN row")


def test_keywords_inside_strings_are_fine(graph: Graph) -> None:
    graph.query("CREATE (:Commit {message: 'CREATE the thing; DELETE old'})")
    res = run_readonly(graph, "MATCH (c:Commit) WHERE c.message CONTAINS 'DELETE' RETURN c.message AS m")
    assert res.columns == ["m"] and res.rows == [["CREATE the thing; DELETE old"]]


def test_row_cap_and_truncated(graph: Graph) -> None:
    res = run_readonly(graph, "UNWIND range(1, 200000) AS x RETURN x", max_rows=5)
    assert res.rows == [[1], [2], [3], [4], [5]] and res.truncated and res.row_count == 6  # server stopped early
    res = run_readonly(graph, "UNWIND range(1, 20) AS x RETURN x ORDER BY x DESC;", max_rows=5)
    assert res.rows[0] == [20] and res.truncated
    res = run_readonly(graph, "UNWIND range(1, 20) AS x RETURN x LIMIT 10", max_rows=5)
    assert len(res.rows) == 5 and res.truncated and res.row_count == 6  # the cap holds past the user's LIMIT
    res = run_readonly(graph, "UNWIND range(1, 3) AS x RETURN x", max_rows=5)
    assert not res.truncated and res.row_count == 3
    res = run_readonly(graph, "UNWIND range(1, 4) AS x RETURN x UNION UNWIND range(5, 8) AS x RETURN x", max_rows=5)
    assert len(res.rows) == 5 and res.truncated and res.row_count == 6  # the cap holds across UNION parts


def test_default_cap_from_settings(graph: Graph) -> None:
    cap = graph.db.settings.readonly_max_rows
    res = run_readonly(graph, "UNWIND range(1, $n) AS x RETURN x // no limit here", {"n": cap + 7})
    assert len(res.rows) == cap and res.truncated and res.row_count == cap + 1


def test_with_row_limit() -> None:
    assert with_row_limit("MATCH (n) RETURN n", 3) == "MATCH (n) RETURN n\nLIMIT 3"
    assert with_row_limit("MATCH (n) RETURN n LIMIT $k", 3) == "MATCH (n) RETURN n LIMIT $k"
    assert with_row_limit("CALL db.labels()", 3) == "CALL db.labels()"
    assert with_row_limit("MATCH (n) RETURN n.limit, 'LIMIT 2'", 3).endswith("\nLIMIT 3")


def test_timeout(graph: Graph) -> None:
    graph.write_batches("UNWIND $rows AS r CREATE (:X {i: r.i})", [{"i": i} for i in range(1500)])
    with pytest.raises(QueryTimeout, match="timed out"):
        run_readonly(graph, "MATCH (a:X), (b:X), (c:X) RETURN count(*)", timeout_ms=100)


def test_values_are_json_friendly(graph: Graph) -> None:
    graph.query("CREATE (:Function {fully_qualified_name: 'a.f'})-[:CALLS {valid_from_seq: 1}]->"
                "(:Function {fully_qualified_name: 'a.g'})")  # fmt: skip
    res = run_readonly(
        graph,
        "MATCH p = (a)-[r:CALLS]->(b) RETURN a, r, p, {k: [1, 2]} AS m, date() AS d, vecf32([1.0, 2.0]) AS v",
    )
    json.dumps(res.model_dump())  # must not raise
    a, r, p, m, _d, v = res.rows[0]
    assert a == {"labels": ["Function"], "properties": {"fully_qualified_name": "a.f"}}
    assert r == {"type": "CALLS", "properties": {"valid_from_seq": 1}}
    assert [n["properties"]["fully_qualified_name"] for n in p["nodes"]] == ["a.f", "a.g"]
    assert m == {"k": [1, 2]} and v == [1.0, 2.0]
