"""A graph built by another version of the extraction is re-derived; `rebuild` does it on demand."""

from __future__ import annotations

from mnemosyne.extract import FACTS_VERSION
from mnemosyne.ingest import ingest_workspace

from .conftest import assert_invariant, canonical_dump


def _history(repo) -> list[str]:
    hs = []
    repo.write("app/core.py", "def base():\n    return 1\n\n\ndef top():\n    return base()\n")
    hs.append(repo.commit("core"))
    repo.write("app/use.py", "from app.core import top\n\n\ndef run():\n    return top()\n")
    hs.append(repo.commit("use"))
    repo.write("README.md", "# App\n\n## Use\n\nCall run.\n")
    hs.append(repo.commit("docs"))
    return hs


def _believed_calls(g) -> set[tuple[str, str]]:
    rows = g.query(
        "MATCH (a:Function)-[e:CALLS]->(b:Function) WHERE e.superseded_at IS NULL "
        "RETURN a.fully_qualified_name, b.fully_qualified_name"
    )
    return {(a, b) for a, b in rows}


def _ingested(db, ws, make_repo):
    """A three-commit repository, ingested: (repo, workspace info, graph)."""
    repo = make_repo()
    _history(repo)
    info = ws(repo.path)
    ingest_workspace(db, info)
    return repo, info, db.graph(info.name)


def test_graph_from_another_facts_version_is_rederived(db, ws, make_repo):
    repo, info, g = _ingested(db, ws, make_repo)
    assert g.query("MATCH (m:Meta) RETURN m.facts_version") == [[FACTS_VERSION]]
    # what an older resolver would have left: an edge the current one does not find, one missing,
    # and no facts_version on Meta (graphs from before it was recorded)
    g.query(
        "MATCH (a:Function {fully_qualified_name: 'app.use.run'}), (b:Function {fully_qualified_name: 'app.core.base'}) "
        "CREATE (a)-[:CALLS {vkey: 'bogus', valid_from: 0, valid_from_seq: 1, source_commit: 'x', ingested_at: 1, "
        "resolution: 'inferred', confidence: 1.0}]->(b)"
    )
    g.query("MATCH (:Function {fully_qualified_name: 'app.core.top'})-[e:CALLS]->() DELETE e")
    g.query("MATCH (m:Meta) REMOVE m.facts_version")
    assert ("app.use.run", "app.core.base") in _believed_calls(g)

    res = ingest_workspace(db, info.name)
    assert res.commits_ingested == 3 and res.superseded > 0
    assert any("another version of the extraction" in w for w in res.warnings)
    assert assert_invariant(g, repo.path) == 3
    calls = _believed_calls(g)
    assert ("app.use.run", "app.core.base") not in calls and ("app.core.top", "app.core.base") in calls
    # nothing deleted: the bogus version is still there, no longer believed
    assert g.query("MATCH ()-[e:CALLS {vkey: 'bogus'}]->() RETURN e.superseded_at IS NOT NULL") == [[True]]
    assert g.query("MATCH (m:Meta) RETURN m.facts_version") == [[FACTS_VERSION]]
    # documentation sections are derived again too, and the next run changes nothing
    assert g.query(
        "MATCH (:Document)-[r:HAS_SECTION]->(:Section) WHERE r.superseded_at IS NULL RETURN count(r)"
    )[0][0] > 0
    before = canonical_dump(g)
    assert ingest_workspace(db, info.name).commits_ingested == 0
    assert canonical_dump(g) == before


def test_rebuild_on_demand_supersedes_and_ingests_again(db, ws, make_repo):
    repo, info, g = _ingested(db, ws, make_repo)
    believed = _believed_calls(g)
    res = ingest_workspace(db, info.name, rebuild=True)
    assert res.commits_ingested == 3 and res.superseded > 0
    assert any("rebuilding" in w for w in res.warnings)
    assert assert_invariant(g, repo.path) == 3
    assert _believed_calls(g) == believed
    superseded = g.query("MATCH ()-[e:CALLS]->() WHERE e.superseded_at IS NOT NULL RETURN count(e)")[0][0]
    assert superseded == len(believed)
