"""Named queries: loading, parameters, descriptions, the MNEMOSYNE_CYPHER_DIR override."""

from __future__ import annotations

from pathlib import Path

import pytest

from mnemosyne.store import named_queries
from mnemosyne.store.graph import Graph
from mnemosyne.store.named_queries import NamedQueryNotFound, parse_description, parse_params


def test_parse_params_and_description() -> None:
    text = (
        "// Calls at one commit.\n// $seq: the position.\n\n"
        "MATCH (a {fully_qualified_name: $fqn})-[r:CALLS]->(b)\n"
        "WHERE r.valid_from_seq <= $seq AND a.note <> '$notaparam' // $nope\n"
        "RETURN b.fully_qualified_name, $fqn"
    )
    assert parse_params(text) == ["fqn", "seq"]
    assert parse_description(text) == "Calls at one commit.\n$seq: the position."


def test_override_dir_load_list_and_run(graph: Graph, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "two_numbers.cypher").write_text("// Adds two numbers.\nRETURN $a + $b AS s\n")
    (tmp_path / "schema.cypher").write_text("CREATE INDEX FOR (f:File) ON (f.path);\n")
    monkeypatch.setenv("MNEMOSYNE_CYPHER_DIR", str(tmp_path))
    assert named_queries.cypher_dir() == tmp_path.resolve()
    assert named_queries.list_queries() == {"two_numbers": ["a", "b"]}
    assert named_queries.descriptions() == {"two_numbers": "Adds two numbers."}
    assert named_queries.get("two_numbers").params == ["a", "b"]
    assert graph.run_named("two_numbers", {"a": 2, "b": 3}) == [[5]]
    with pytest.raises(NamedQueryNotFound, match="two_numbers"):
        named_queries.load("two_number")


def test_repo_cypher_dir_has_schema() -> None:
    assert (named_queries.cypher_dir() / "schema.cypher").is_file()
    assert "schema" not in named_queries.list_queries()
