"""Rows by column name (``mnemosyne.store.rows``) on a real graph and a real named query."""

from __future__ import annotations

from pathlib import Path

import pytest

from mnemosyne.store.graph import Graph
from mnemosyne.store.rows import Record, column_names, named_records, query_records, records


def test_records_pair_rows_with_the_header(graph: Graph) -> None:
    graph.query("CREATE (:T {a: 1, b: 'x'}), (:T {a: 2, b: 'y'})")
    rows = query_records(graph, "MATCH (t:T) RETURN t.b AS name, t.a AS n ORDER BY n")
    assert rows == [{"name": "x", "n": 1}, {"name": "y", "n": 2}]
    assert [r.name for r in rows] == ["x", "y"] and rows[1]["n"] == 2
    with pytest.raises(AttributeError, match="no column 'a'.*name, n"):
        _ = rows[0].a
    assert query_records(graph, "MATCH (t:T) WHERE t.a > 5 RETURN t.a AS a") == []


def test_a_named_query_by_column_name(graph: Graph, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pair.cypher").write_text("// Two numbers.\n// params: $a, $b\nRETURN $b AS second, $a AS first\n")
    monkeypatch.setenv("MNEMOSYNE_CYPHER_DIR", str(tmp_path))
    (row,) = named_records(graph, "pair", {"a": 1, "b": 2})
    assert (row.first, row.second) == (1, 2) and graph.run_named("pair", {"a": 1, "b": 2}) == [[2, 1]]


def test_headers_and_rows_must_agree() -> None:
    assert column_names([[1, "a"], [1, b"b"], "c"]) == ["a", "b", "c"]
    assert records([[1, "a"]], [[5]]) == [Record(a=5)]
    with pytest.raises(ValueError):
        records([[1, "a"]], [[5, 6]])
