"""Positions are not versioned facts: an edit above a function opens no version of it, and the
line ranges and call-site lines a question at an old commit gets are those of that commit's source."""

from __future__ import annotations

import pytest

from mnemosyne import vocabulary as V
from mnemosyne.cli.callgraph_cmd import json_from_graph
from mnemosyne.ingest import ingest_workspace
from mnemosyne.query import api
from tests.history.conftest import assert_invariant

BASE = """\
def helper(x):
    return x + 1


def work(x):
    y = helper(x)
    return helper(y)
"""


def _defines_versions(graph, fqn: str) -> int:
    rows = graph.query(
        f"MATCH ()-[d:{V.DEFINES}]->(s {{fully_qualified_name: $f}}) WHERE d.superseded_at IS NULL RETURN count(d)",
        {"f": fqn},
    )
    return int(rows[0][0])


def _calls_versions(graph, caller: str) -> int:
    rows = graph.query(
        f"MATCH (a {{fully_qualified_name: $f}})-[c:{V.CALLS}]->() WHERE c.superseded_at IS NULL RETURN count(c)",
        {"f": caller},
    )
    return int(rows[0][0])


def test_shifted_function_keeps_one_version_and_old_lines_are_the_old_ones(db, make_repo, ws):
    repo = make_repo()
    repo.write("app.py", BASE)
    c0 = repo.commit("first")
    # three lines above everything: every function moves, none changes
    repo.write("app.py", "import os\n\nPATH = os.sep\n" + BASE)
    c1 = repo.commit("a constant above")
    # the caller's body changes (a blank line inside): its own call sites move relative to its start
    repo.write("app.py", "import os\n\nPATH = os.sep\n" + BASE.replace("    y = helper(x)\n", "    y = helper(x)\n\n"))
    c2 = repo.commit("blank line inside work")
    info = ws(repo.path)
    ingest_workspace(db, info)
    g = db.graph(info.name)
    assert_invariant(g, repo.path)

    # the shift opened no version: helper was defined once, work twice (its body changed once)
    assert _defines_versions(g, "app.helper") == 1
    assert _defines_versions(g, "app.work") == 2
    assert _calls_versions(g, "app.work") == 1  # the call to helper holds throughout

    # lines at each commit are that commit's
    want = {c0: ((5, 7), 1, [6, 7]), c1: ((8, 10), 4, [9, 10]), c2: ((8, 11), 4, [9, 11])}
    for commit, (work_span, helper_start, call_lines) in want.items():
        s = api.get_symbol(db, info.name, "app.work", at=commit)
        assert (s.line_start, s.line_end) == work_span, commit
        assert api.get_symbol(db, info.name, "app.helper", at=commit).line_start == helper_start
        res = api.calls(db, info.name, "app.work", at=commit)
        (edge,) = [e for e in res.edges if e.callee == "app.helper"]
        assert edge.lines == call_lines, (commit, edge.lines)
        (back,) = api.callers(db, info.name, "app.helper", at=commit).edges
        assert back.lines == call_lines
        # the source shown is the commit's source
        assert s.source is not None and s.source.startswith("def work(x):")

    # callgraph JSON from the graph at an old commit: the old lines too
    seq0 = api.resolve_at(db, info.name, at=c0).seq
    out = json_from_graph(g, seq0, str(repo.path), c0, at_head=False)
    assert [c["lines"] for c in out["app.work"] if c["callee"] == "app.helper"] == [[6, 7]]


def test_lines_when_the_callers_body_differs_from_the_recorded_one(db, make_repo, ws):
    """The recorded offsets belong to the latest body; at a commit where the caller's body was
    different, the lines come from that commit's source alone."""
    repo = make_repo()
    repo.write("lib.py", "class Store:\n    def get(self, k):\n        return k\n")
    repo.write("app.py", "from lib import Store\n\n\ndef run(s: Store):\n    return s.get(1)\n")
    c0 = repo.commit("first")
    repo.write("app.py", "from lib import Store\n\n\ndef run(s: Store):\n    s.get(0)\n    # two\n    # more\n    return s.get(1)\n")
    repo.commit("more calls")
    info = ws(repo.path)
    ingest_workspace(db, info)
    head = api.calls(db, info.name, "app.run")
    (e,) = [e for e in head.edges if e.callee == "lib.Store.get"]
    assert e.lines == [5, 8]
    old = api.calls(db, info.name, "app.run", at=c0)
    (e,) = [e for e in old.edges if e.callee == "lib.Store.get"]
    assert e.lines == [5]


def _ro_queries(db) -> int:
    stats = db.info("commandstats")
    return int(stats.get("cmdstat_GRAPH.RO_QUERY", {}).get("calls", 0))


@pytest.mark.slow
def test_no_reads_on_the_write_path(db, make_repo, ws):
    """Documentation sections, reading order and mentions are decided in the ingesting process:
    the reads a run makes do not grow with its commits (each commit here edits code and docs)."""

    def history(n: int):
        repo = make_repo()
        for i in range(n):
            body = "".join(f"def step{j}(x):\n    return x + {j}\n\n\n" for j in range(i + 2))
            repo.write("app.py", body + f"def main():\n    return step{i}(1)\n")
            readme = "# App\n\n" + "".join(f"## Step {j}\n\nCalls `step{j}` then `main`.\n\n" for j in range(i, -1, -1))
            repo.write("README.md", readme)
            repo.commit(f"step {i}")
        return repo

    counts = []
    for n in (4, 16):
        repo = history(n)
        info = ws(repo.path)
        before = _ro_queries(db)
        res = ingest_workspace(db, info)
        counts.append(_ro_queries(db) - before)
        assert res.commits_ingested == n
        g = db.graph(info.name)
        # the mentions were linked from the in-memory symbol table, as the graph would have
        rows = g.query("MATCH (:Section)-[m:MENTIONS]->(f:Function) RETURN DISTINCT f.fully_qualified_name")
        assert {r[0] for r in rows} == {f"app.step{j}" for j in range(n)} | {"app.main"}
    assert counts[1] == counts[0], counts
