"""Insights agents attach to symbols: validation, versions, staleness after an edit, removal by the
author, keyword search, and run_cypher staying read-only (real FalkorDB, real git, real ingester)."""

from __future__ import annotations

import pytest

from mnemosyne.errors import ConfigError, ReadOnlyViolation
from mnemosyne.query import insights as I

FQN = "pricing.net_price"


def test_annotate_versions_and_history(proj):
    got = I.annotate(proj.db, proj.name, FQN, "agent-a", {"llm_summary": "applies a discount", "cyclomatic_score": 2,
                                                          "refactoring_suggestions": ["extract the check"]})
    assert {i.key: i.value for i in got} == {"llm_summary": "applies a discount", "cyclomatic_score": 2,
                                             "refactoring_suggestions": ["extract the check"]}
    assert all(i.version == 1 and i.stale is False and i.untrusted and i.body_hash for i in got)
    # the same value again is not a new version
    again = I.annotate(proj.db, proj.name, FQN, "agent-a", {"llm_summary": "applies a discount"})
    assert again[0].id == next(i.id for i in got if i.key == "llm_summary")
    # a new value supersedes; nothing is deleted
    I.annotate(proj.db, proj.name, FQN, "agent-a", {"llm_summary": "net price after a rate"})
    cur = I.insights_for(proj.db, proj.name, FQN, key="llm_summary")
    assert [(i.value, i.version) for i in cur] == [("net price after a rate", 2)]
    hist = I.insights_for(proj.db, proj.name, FQN, key="llm_summary", history=True)
    assert [(i.value, i.version, i.superseded_at is not None) for i in hist] == [
        ("applies a discount", 1, True), ("net price after a rate", 2, False)]
    # another author's insight of the same key lives beside it
    I.annotate(proj.db, proj.name, "net_price", "agent-b", {"llm_summary": "b's view"})
    assert {i.agent_id for i in I.insights_for(proj.db, proj.name, FQN, key="llm_summary")} == {"agent-a", "agent-b"}


def test_stale_after_an_edit_and_refresh(proj):
    I.annotate(proj.db, proj.name, FQN, "agent-a", {"risk": "low"})
    I.annotate(proj.db, proj.name, "pricing.Cart.total", "agent-a", {"risk": "low"})
    edited = proj.path.joinpath("pricing.py").read_text().replace("amount * (1 - rate)", "round(amount * (1 - rate), 2)")
    proj.commit("pricing.py", edited, "round prices")
    proj.ingest()
    by = {i.target: i for i in I.list_insights(proj.db, proj.name, key="risk")}
    assert by[FQN].stale is True  # its body changed
    assert by["pricing.Cart.total"].stale is False  # untouched
    # writing it again about the new body makes it current and keeps the old one
    I.annotate(proj.db, proj.name, FQN, "agent-a", {"risk": "low"})
    hist = I.insights_for(proj.db, proj.name, FQN, key="risk", history=True)
    assert [(i.version, i.stale) for i in hist] == [(1, True), (2, False)]


def test_remove_only_by_author(proj):
    I.annotate(proj.db, proj.name, FQN, "agent-a", {"note": "x"})
    with pytest.raises(I.InsightNotFound, match="written by agent-a"):
        I.remove_insight(proj.db, proj.name, FQN, "note", "agent-b")
    gone = I.remove_insight(proj.db, proj.name, FQN, "note", "agent-a")
    assert gone.removed_at is not None
    assert I.insights_for(proj.db, proj.name, FQN) == []
    assert [i.removed_at is not None for i in I.insights_for(proj.db, proj.name, FQN, history=True)] == [True]
    with pytest.raises(I.InsightNotFound, match="no insight 'note'"):
        I.remove_insight(proj.db, proj.name, FQN, "note", "agent-a")


@pytest.mark.parametrize(("values", "message"), [
    ({"bad key": 1}, "invalid insight key 'bad key'"),
    ({"9lives": 1}, "invalid insight key"),
    ({"k" * 65: 1}, "too long"),
    ({"v": "x" * 5000}, "value as JSON) is too long"),
    ({"v": {"a": 1}}, "must be a string, number, boolean or a list"),
    ({"v": [[1]]}, "a list value holds scalars only"),
    ({"v": None}, "must not be null"),
    ({"v": float("nan")}, "must be a string, number"),
    ({"v": list(range(101))}, "too many items"),
    ({}, "nothing to annotate"),
])
def test_bad_input_is_one_clear_error(proj, values, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        I.annotate(proj.db, proj.name, FQN, "agent-a", values)


def test_unknown_symbol_and_empty_agent(proj):
    from mnemosyne.errors import SymbolNotFound

    with pytest.raises(SymbolNotFound):
        I.annotate(proj.db, proj.name, "pricing.nope", "agent-a", {"k": 1})
    with pytest.raises(ConfigError, match="agent_id must not be empty"):
        I.annotate(proj.db, proj.name, FQN, " ", {"k": 1})


def test_keyword_search(proj):
    I.annotate(proj.db, proj.name, FQN, "agent-a", {"llm_summary": "computes the discounted amount"})
    I.annotate(proj.db, proj.name, "pricing.Cart.total", "agent-a", {"llm_summary": "sums a basket"})
    hits = I.search_insights(proj.db, proj.name, "discount")
    assert [h.target for h, _ in hits] == [FQN]
    assert [h.target for h, _ in I.search_insights(proj.db, proj.name, "basket")] == ["pricing.Cart.total"]


def test_cli_key_value_parsing():
    assert I.parse_assignment("n=15") == ("n", 15)
    assert I.parse_assignment('tags=["a","b"]') == ("tags", ["a", "b"])
    assert I.parse_assignment("risk=medium") == ("risk", "medium")
    assert I.parse_assignment('obj={"a":1}') == ("obj", '{"a":1}')
    with pytest.raises(ConfigError, match="expected key=value"):
        I.parse_assignment("risk")


@pytest.mark.parametrize("query", [
    "MATCH (f:Function {fully_qualified_name: 'pricing.net_price'}) SET f.llm_summary = 'x'",
    "MATCH (f:Function {fully_qualified_name: 'pricing.net_price'}) CREATE (:Insight {key: 'k'})-[:DESCRIBES]->(f)",
    "MATCH (i:Insight) DETACH DELETE i",
])
def test_run_cypher_refuses_writes(proj, query):
    from mnemosyne.store.readonly import run_readonly

    with pytest.raises(ReadOnlyViolation):
        run_readonly(proj.db.graph(proj.name), query)


def test_semantic_search_finds_a_symbol_by_its_summary(proj, tmp_path):
    """A current text insight is embedded with its symbol: the symbol's similarity to a question
    that only the insight answers rises; a stale insight is left out again."""
    from mnemosyne.search.backfill import EmbeddingCache, backfill
    from mnemosyne.search.embedders import LocalEmbedder
    from mnemosyne.search.model_files import ensure_tokenizer
    from mnemosyne.search.vectors import knn

    emb = LocalEmbedder(ensure_tokenizer(None))
    cache = EmbeddingCache(tmp_path / "emb.sqlite")
    question = "forecast of tomorrow's weather for sailors"

    def score() -> float:  # cosine similarity of the question and the symbol's vector
        rows = knn(proj.db.graph(proj.name), "Function", emb.embed([question])[0], 10)
        return next(float(r[1]) for r in rows if r[0] == FQN)

    backfill(proj.db, proj.name, emb, cache=cache)
    before = score()
    I.annotate(proj.db, proj.name, FQN, "agent-a", {"llm_summary": "predicts tomorrow's weather forecast for sailors",
                                                    "cyclomatic_score": 2})
    rep = backfill(proj.db, proj.name, emb, cache=cache)
    assert rep.by_label.get("Function") == 1  # only the annotated symbol is embedded again
    after = score()
    assert after > before + 0.15, (before, after)
    cache.close()
