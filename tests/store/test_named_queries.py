"""Named queries: loading, parameters, descriptions, the MNEMOSYNE_CYPHER_DIR override."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mnemosyne.store import named_queries
from mnemosyne.store.graph import Graph
from mnemosyne.store.named_queries import BadNamedQuery, NamedQueryNotFound, parse_description, parse_params


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


TWINNED = """\
// Calls at one commit.
// params: $seq (timeline position)
// ==== calls_now_believed ====
// Calls at one commit as believed at $t.
// params: $seq, $t (epoch seconds), $late (commits ingested after $t)
MATCH (a)-[r:CALLS]->(b) WHERE @holds_at(r, $seq)
RETURN a.name AS a, @valid_to_seq(r) AS to_seq
"""


def test_a_file_declares_its_believed_twin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "calls_now.cypher").write_text(TWINNED)
    monkeypatch.setenv("MNEMOSYNE_CYPHER_DIR", str(tmp_path))
    assert named_queries.list_queries() == {"calls_now": ["seq"], "calls_now_believed": ["seq", "t", "late"]}
    assert named_queries.descriptions() == {
        "calls_now": "Calls at one commit.\nparams: $seq (timeline position)",
        "calls_now_believed": "Calls at one commit as believed at $t.\nparams: $seq, $t (epoch seconds), $late "
        "(commits ingested after $t)",
    }
    plain, believed = named_queries.load("calls_now"), named_queries.load("calls_now_believed")
    assert "@" not in plain and "@" not in believed
    assert "r.valid_from_seq <= $seq AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $seq) AND r.superseded_at IS NULL" in plain
    assert ("r.valid_from_seq <= $seq AND r.ingested_at <= $t AND (r.superseded_at IS NULL OR r.superseded_at > $t) "
            "AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $seq OR r.ended_commit IN $late)") in believed
    assert "CASE WHEN r.ended_commit IN $late THEN null ELSE r.valid_to_seq END AS to_seq" in believed
    assert named_queries.get("calls_now_believed").path == tmp_path.resolve() / "calls_now.cypher"
    with pytest.raises(NamedQueryNotFound, match="calls_now"):
        named_queries.load("other_believed")


def test_a_twin_is_named_after_its_file_and_written_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MNEMOSYNE_CYPHER_DIR", str(tmp_path))
    (tmp_path / "calls_now.cypher").write_text(TWINNED.replace("==== calls_now_believed", "==== calls_then"))
    with pytest.raises(BadNamedQuery, match="calls_now_believed, not calls_then"):
        named_queries.list_names()
    (tmp_path / "calls_now.cypher").write_text(TWINNED)
    (tmp_path / "calls_now_believed.cypher").write_text("// Again.\n// params: none\nRETURN 1\n")
    with pytest.raises(BadNamedQuery, match="written twice"):
        named_queries.list_names()


def test_a_macro_with_wrong_arguments_is_named() -> None:
    with pytest.raises(BadNamedQuery, match="@holds_at"):
        named_queries.expand("MATCH ()-[r]->() WHERE @holds_at() RETURN r")
    assert named_queries.expand("RETURN 'a@b(c)' AS x") == "RETURN 'a@b(c)' AS x"  # not a macro: left alone


def test_the_repository_queries_expand_fully() -> None:
    for name in named_queries.list_names():
        text = named_queries.load(name)
        assert not re.search(r"@\w+\(", named_queries.strip_strings_and_comments(text)), name
        assert named_queries.get(name).path.is_file()
