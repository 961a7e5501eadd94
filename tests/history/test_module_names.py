"""A name that is a package's module and also its function's (python-slugify's `slugify`): an
answer with no edge for the module names the symbols called so."""

from __future__ import annotations

from mnemosyne import query as Q
from mnemosyne.ingest import ingest_workspace


def test_a_package_named_like_its_function_points_to_it(db, make_repo, ws, capsys):
    """`callers slugify` on python-slugify resolves `slugify` to the package's module, which nothing
    calls: the answer names the symbols called so (`slugify.slugify.slugify`), in the query result,
    the CLI and an MCP answer's model."""
    from mnemosyne.cli import main

    repo = make_repo()
    repo.write("slugify/__init__.py", "from .slugify import slugify\n")
    repo.write("slugify/slugify.py", "def slugify(text):\n    return text.lower()\n")
    repo.write("slugify/__main__.py", "from .slugify import slugify\n\n\ndef main():\n    return slugify('A')\n")
    repo.commit("one")
    info = ws(repo.path)
    ingest_workspace(db, info)
    res = Q.callers(db, info.name, "slugify")
    assert res.fqn == "slugify" and not res.edges
    assert res.also_named == ["slugify.slugify.slugify"]
    tree = Q.call_tree(db, info.name, "slugify", direction="callers", depth=2)
    assert tree.also_named == res.also_named
    # a name with an edge, or a dotted one, gets no such list
    assert Q.callers(db, info.name, "slugify.slugify.slugify").also_named == []
    assert main(["callers", "slugify", "--workspace", info.name]) == 0
    out = capsys.readouterr().out
    assert "also named so: slugify.slugify.slugify" in out
    # `symbol` shows the module, and names the function too
    sym = Q.get_symbol(db, info.name, "slugify")
    assert isinstance(sym, Q.SymbolResult) and sym.kind == "module" and sym.also_named == ["slugify.slugify.slugify"]
    assert Q.get_symbol(db, info.name, "slugify.slugify.slugify").also_named == []
    assert main(["symbol", "slugify", "--workspace", info.name]) == 0
    assert "(a module; also named so: slugify.slugify.slugify)" in capsys.readouterr().out
