"""Code metrics: measured by the parsers, stored on DEFINES versions (answerable at any commit,
no extra versions), and the rankings: most complex, growth since a revision, hot spots (real git,
real ingester, real MCP client session, the CLI as a subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from mcp import Client

from mnemosyne import query as Q
from mnemosyne.extract import extract_tree
from mnemosyne.query import metrics as QM

NESTED = '''
def deep(xs, *, strict=False, **kw):
    # a comment line is not code
    total = 0
    for x in xs:
        if x and not strict:
            while x > 0:
                x -= 1
        elif x is None or strict:
            try:
                total += [y for y in xs if y][0]
            except IndexError:
                pass

    return total if total else -1
'''


def test_python_and_typescript_metrics_from_the_parse():
    snap = extract_tree([("m.py", NESTED.encode()), ("t.ts", b"""
export function g(a: number, b?: string): number {
  if (a > 1 && b) { for (const x of [1]) { switch (x) { case 1: break; default: break; } } }
  return a ?? 0;
}
const h = (p) => (p ? 1 : 2);
""")])
    m = {s.fqn: (s.complexity, s.loc, s.params, s.nesting) for f in snap.files.values() for s in f.symbols}
    # for, if, and, while, elif, or, comprehension for + if, except, conditional: 1 + 10
    assert m["m.deep"] == (11, 12, 3, 3)  # 12 lines of code; for > if > while (or > try in the elif)
    assert m["t.g"] == (6, 4, 2, 3)  # 1 + if, &&, for, case 1 (not default), ??
    assert m["t.h"] == (2, 1, 1, 0)
    assert m["m"] == (0, 0, 0, 0)  # modules have none


def test_metrics_at_any_commit_without_extra_versions(proj):
    first = proj.git("rev-parse", "HEAD").strip()
    # only a shift (lines added above): no DEFINES version opens
    text = proj.path.joinpath("pricing.py").read_text()
    proj.commit("pricing.py", text.replace('"""Prices."""', '"""Prices."""\n\nRATE = 0.1\n'), "shift")
    proj.ingest()
    g = proj.db.graph(proj.name)
    versions = "MATCH ()-[d:DEFINES]->(f:Function {fully_qualified_name: 'pricing.net_price'}) RETURN count(d)"
    assert g.ro_query(versions) == [[1]]
    # a new branch: complexity 2 -> 3, one more version
    text = proj.path.joinpath("pricing.py").read_text()
    proj.commit("pricing.py", text.replace("    return amount * (1 - rate)",
                                           "    if rate < 0:\n        rate = 0\n    return amount * (1 - rate)"), "clamp")
    proj.ingest()
    assert g.ro_query(versions) == [[2]]
    old = Q.get_symbol(proj.db, proj.name, "pricing.net_price", at=first, with_source=False)
    now = Q.get_symbol(proj.db, proj.name, "pricing.net_price", with_source=False)
    assert (old.metrics.complexity, old.metrics.loc, old.metrics.params, old.metrics.nesting) == (2, 5, 2, 1)
    assert (now.metrics.complexity, now.metrics.loc) == (3, 7)
    assert now.callers_count == 1  # fan-in: Cart.total
    cls = Q.get_symbol(proj.db, proj.name, "pricing.Cart", with_source=False)
    assert cls.metrics is None

    top = QM.top_functions(proj.db, proj.name)
    assert [(f.fqn, f.complexity, f.fan_in, f.fan_out) for f in top.functions] == [
        ("pricing.net_price", 3, 1, 1), ("pricing.Cart.total", 2, 0, 2)]  # net_price calls ValueError
    assert QM.top_functions(proj.db, proj.name, at=first).functions[0].complexity == 2
    assert [f.fqn for f in QM.top_functions(proj.db, proj.name, order="fan_out").functions][0] == "pricing.Cart.total"
    grown = QM.complexity_growth(proj.db, proj.name, since=first)
    assert [(f.fqn, f.before, f.growth) for f in grown.functions] == [("pricing.net_price", 2, 1)]
    hot = QM.hot_spots(proj.db, proj.name)
    assert [(f.fqn, f.changes, f.score) for f in hot.functions] == [("pricing.net_price", 2, 6.0), ("pricing.Cart.total", 1, 2.0)]
    assert [f.fqn for f in QM.hot_spots(proj.db, proj.name, since=first).functions] == ["pricing.net_price"]
    with pytest.raises(Exception, match="unknown order"):
        QM.top_functions(proj.db, proj.name, order="bogus")


def test_cli_and_mcp(proj, server):
    import anyio

    p = subprocess.run([sys.executable, "-c", "import sys; from mnemosyne.cli import main; sys.exit(main())",
                        "metrics", "-w", proj.name, "--sort", "loc", "--json"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["functions"][0]["fqn"] == "pricing.net_price"
    p = subprocess.run([sys.executable, "-c", "import sys; from mnemosyne.cli import main; sys.exit(main())",
                        "symbol", "net_price", "-w", proj.name, "--no-source"], capture_output=True, text=True, timeout=120)
    assert "metrics: complexity 2, 5 lines of code, 2 parameter(s), nesting 1, fan-in 1" in p.stdout

    async def go():
        async with Client(server) as c:
            r = await c.call_tool("code_metrics", {"view": "hotspots", "workspace": proj.name})
            assert not r.is_error, r.content[0].text
            assert {(f["fqn"], f["changes"]) for f in r.structured_content["functions"]} == {
                ("pricing.net_price", 1), ("pricing.Cart.total", 1)}
            r = await c.call_tool("get_symbol", {"name_or_fqn": "pricing.net_price", "workspace": proj.name})
            assert r.structured_content["symbol"]["metrics"]["complexity"] == 2
            r = await c.call_tool("code_metrics", {"view": "growth", "workspace": proj.name})
            assert r.is_error and "needs `since`" in r.content[0].text

    anyio.run(go)
