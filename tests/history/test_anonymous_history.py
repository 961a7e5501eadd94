"""Anonymous functions keep their names across commits (they are named from their context), so a
commit adding one shows one symbol added, not every later one renamed; `callgraph --format pycg`
numbers them as PyCG does, from the graph and from the source alike."""

from __future__ import annotations

import json

from mnemosyne.cli import main
from mnemosyne.ingest import ingest_workspace
from mnemosyne.query import api
from tests.history.conftest import assert_invariant

PY = """\
def setup(app, xs):
    xs.sort(key=lambda x: x)
    app.route("/users", lambda req: handle(req))
    return app


def handle(req):
    return req
"""

TS = """\
export function register(app: any) {
  app.get("/users", (req: any) => serve(req));
  app.post("/users", (req: any) => serve(req));
}
export function serve(req: any) { return req; }
"""


def _cg(capsys, *args: str) -> dict:
    capsys.readouterr()
    assert main(["callgraph", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_an_added_anonymous_function_renames_no_other(db, make_repo, ws, capsys):
    repo = make_repo()
    repo.write("app.py", PY)
    repo.write("web.ts", TS)
    first = repo.commit("routes")
    # one lambda and one arrow added above the others
    repo.write("app.py", PY.replace("    xs.sort(", "    app.on_start(lambda: None)\n    xs.sort("))
    repo.write("web.ts", TS.replace('  app.get("/users"', '  app.use((req: any) => req);\n  app.get("/users"'))
    second = repo.commit("middleware")
    info = ws(repo.path)
    ingest_workspace(db, info)
    assert assert_invariant(db.graph(info.name), repo.path) == 2

    d = api.diff_commits(db, info.name, first, second)
    assert d.symbols_removed == []
    assert sorted(s.fqn for s in d.symbols_added) == ["app.setup.<lambda:app:on_start>", "web.register.<arrow:app:use>"]
    assert d.calls_removed == []

    for rev in (first, second):
        from_graph = _cg(capsys, "--workspace", info.name, "--at", rev)
        assert from_graph == _cg(capsys, str(repo.path), "--at", rev, "--from-source")
    # PyCG numbers in source order: the route lambda is the 2nd, then the 3rd lambda of setup
    assert from_graph["app.setup.<lambda3>"] == ["app.handle"]
    assert from_graph["web.register.<arrow3>"] == ["web.serve"]  # app.post's arrow
    first_cg = _cg(capsys, "--workspace", info.name, "--at", first)
    assert first_cg["app.setup.<lambda2>"] == ["app.handle"] and "app.setup.<lambda3>" not in first_cg
