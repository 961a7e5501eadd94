"""The named historical queries in cypher/: documented headers, run by the code, index-backed,
and fast enough ("calls at commit" p95 well under 20 ms on a 100k-edge graph)."""

from __future__ import annotations

import random
import time
import uuid
from pathlib import Path

import pytest

from mnemosyne.store import named_queries

QUERY_CODE = Path(__file__).resolve().parents[2] / "mnemosyne" / "query"
REQUIRED = [
    "calls_at_commit", "callers_at_commit", "symbol_at_commit", "symbol_history", "calls_history", "diff_calls",
    "diff_symbols", "diff_imports", "diff_dependencies", "dependency_history", "ingestion_lag",
    "callgraph_at_commit", "commit_by_hash", "commit_at_time", "files_at_commit", "impact",
]  # fmt: skip


def test_required_queries_exist_with_headers():
    names = named_queries.list_names()
    assert set(REQUIRED) <= set(names)
    for name in names:
        text = named_queries.load(name)
        header = [line for line in text.splitlines() if line.startswith("//")]
        assert header and not header[0].startswith("// params"), f"{name}: first line must describe it"
        assert any(line.startswith("// params:") for line in header), f"{name}: no '// params:' line"
        params = named_queries.parse_params(text)
        for p in params:
            assert f"${p}" in "\n".join(header), f"{name}: parameter ${p} not documented in its header"


def test_every_query_is_run_by_the_code():
    code = "\n".join(p.read_text() for p in QUERY_CODE.glob("*.py"))
    unused = [n for n in named_queries.list_names() if f'"{n}"' not in code]
    assert unused == [], unused


def test_list_files(shop):
    from mnemosyne import query as Q

    first = Q.list_files(shop.db, shop.name, at=shop.step_hash("init"), path_prefix="shop/")
    assert [f.path for f in first.files] == ["shop/__init__.py", "shop/config.py", "shop/models.py", "shop/pricing.py"]
    assert first.files[1].module == "shop.config" and first.files[1].language == "python"
    head = {f.path for f in Q.list_files(shop.db, shop.name).files}
    assert "shop/util/retry.py" in head and "shop/config.py" not in head and "tests/test_pricing.py" in head
    branch = Q.list_files(shop.db, shop.name, at="feature/bulk-pricing")
    assert branch.from_source and "tests/test_pricing.py" in {f.path for f in branch.files}


def test_files_at_commit(shop):
    g = shop.db.graph(shop.name)
    at_init = [r[0] for r in g.run_named("files_at_commit", {"seq": 0, "prefix": ""})]
    assert "shop/config.py" in at_init and "shop/retry.py" not in at_init
    head = [r[0] for r in g.run_named("files_at_commit", {"seq": shop.seq("readd_format"), "prefix": "shop/"})]
    assert "shop/config.py" not in head and "shop/util/retry.py" in head and head == sorted(head)


PLANS = {
    "calls_at_commit": ({"fqn": "shop.checkout.checkout", "seq": 3}, ["Node By Index Scan | (a:Function)"]),
    "callers_at_commit": ({"fqn": "shop.pricing.round_money", "seq": 3}, ["Node By Index Scan | (b:Function)"]),
    "symbol_at_commit": ({"fqn": "shop.checkout.checkout", "seq": 3}, ["Node By Index Scan | (s:Function)",
                                                                      "Node By Index Scan | (s:Class)"]),
    "symbol_history": ({"fqn": "shop.checkout.checkout"}, ["Node By Index Scan | (s:Function)"]),
    "calls_history": ({"fqn": "shop.checkout.checkout"}, ["Node By Index Scan | (a:Function)"]),
    "callgraph_at_commit": ({"seq": 3}, ["Edge By Index Scan | [r:CALLS]"]),
    "diff_calls": ({"a": 1, "b": 3, "lo": 1, "hi": 3, "prefix": ""}, ["Edge By Index Scan | [r:CALLS]"]),
    "diff_symbols": ({"a": 1, "b": 3, "lo": 1, "hi": 3, "prefix": ""}, ["Edge By Index Scan | [d:DEFINES]"]),
    "diff_imports": ({"a": 1, "b": 3, "lo": 1, "hi": 3, "prefix": ""}, ["Edge By Index Scan | [r:IMPORTS]"]),
    "commit_by_hash": ({"hash": "0" * 40}, ["Node By Index Scan | (c:Commit)"]),
    "commit_by_seq": ({"seq": 1}, ["Node By Index Scan | (c:Commit)"]),
    "commit_at_time": ({"t": 1, "max_seq": 3}, ["Node By Index Scan | (c:Commit)"]),
    "impact": ({"fqns": ["x"], "seq": 1}, ["Node By Index Scan | (b:Function)"]),
    "symbols_by_name": ({"name": "x", "seq": 1}, ["Node By Index Scan | (s:Function)"]),
    "calls_at_commit_believed": ({"fqn": "shop.checkout.checkout", "seq": 3, "t": 1, "late": []},
                                 ["Node By Index Scan | (a:Function)"]),
    "callers_at_commit_believed": ({"fqn": "shop.pricing.round_money", "seq": 3, "t": 1, "late": []},
                                   ["Node By Index Scan | (b:Function)"]),
    "symbol_at_commit_believed": ({"fqn": "shop.checkout.checkout", "seq": 3, "t": 1, "late": []},
                                  ["Node By Index Scan | (s:Function)", "Node By Index Scan | (s:Class)"]),
    "symbols_by_name_believed": ({"name": "x", "seq": 1, "t": 1, "late": []}, ["Node By Index Scan | (s:Function)"]),
    "callgraph_at_commit_believed": ({"seq": 3, "t": 1, "late": []}, ["Edge By Index Scan | [r:CALLS]"]),
    "commit_by_hash_believed": ({"hash": "0" * 40, "t": 1}, ["Node By Index Scan | (c:Commit)"]),
    "identity_links": ({"fqns": ["a.x"]}, ["Node By Index Scan | (a:Function)", "Node By Index Scan | (a:Class)",
                                           "Node By Index Scan | (b:Function)", "Node By Index Scan | (b:Class)"]),
    "reformats": ({"fqns": ["a.x"]}, ["Node By Index Scan | (s:Function)", "Node By Index Scan | (s:Class)"]),
}


@pytest.mark.parametrize("name", sorted(PLANS))
def test_plans_are_index_backed(shop, name):
    params, expected = PLANS[name]
    g = shop.db.graph(shop.name)
    plan = str(g.raw.explain(named_queries.load(name), params))
    for op in expected:
        assert op in plan, f"{name}: {op!r} not in plan:\n{plan}"
    assert "All Node Scan" not in plan, plan


@pytest.mark.slow
def test_calls_at_commit_is_fast_on_a_large_graph(db):
    """100 k CALLS versions over 20 k functions and 500 commits: calls/callers at a commit p95 < 20 ms."""
    g = db.graph(f"t_perf_{uuid.uuid4().hex[:8]}")
    g.ensure_schema()
    try:
        rnd = random.Random(7)
        n, e, s = 20_000, 100_000, 500
        fns = [{"f": f"pkg.m{i // 25}.f{i}", "n": f"f{i}"} for i in range(n)]
        g.write_batches("UNWIND $rows AS r CREATE (:Function {fully_qualified_name: r.f, name: r.n, kind: 'function'})",
                        fns, 5000)  # fmt: skip
        edges = []
        for _ in range(e):
            a, b, f = rnd.randrange(n), rnd.randrange(n), rnd.randrange(s)
            edges.append({"a": fns[a]["f"], "b": fns[b]["f"], "f": f,
                          "t": rnd.choice([None, None, f + 1 + rnd.randrange(100)])})  # fmt: skip
        g.write_batches(
            "UNWIND $rows AS r MATCH (a:Function {fully_qualified_name: r.a}), (b:Function {fully_qualified_name: r.b}) "
            "CREATE (a)-[:CALLS {valid_from_seq: r.f, valid_to_seq: r.t, resolution: 'exact', confidence: 1.0}]->(b)",
            edges, 5000,
        )
        for query in ("calls_at_commit", "callers_at_commit"):
            times = []
            for _ in range(200):
                fqn = fns[rnd.randrange(n)]["f"]
                t0 = time.perf_counter()
                g.run_named(query, {"fqn": fqn, "seq": rnd.randrange(s)})
                times.append((time.perf_counter() - t0) * 1000)
            times.sort()
            p95 = times[int(len(times) * 0.95)]
            assert p95 < 20, f"{query}: p95 {p95:.2f} ms"
    finally:
        g.delete()
