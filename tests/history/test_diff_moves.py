"""`diff` across a move into a `src/` layout (requests 2.31 -> 2.32 did it): the files are listed
as moved once, their symbols that only moved are not listed one by one, an import that moved with
its file is no change, a file added or removed is one entry (its symbols counted, not listed: a
release dropping its tests listed 1,127 symbols), and a requirement whose spec changed is one changed
entry."""

from __future__ import annotations

import json

from mnemosyne import query as Q
from mnemosyne.cli import main
from mnemosyne.ingest import ingest_workspace
from tests.history.conftest import assert_invariant

CORE = '''\
def helper(x):
    return x * 2


class Box:
    def size(self):
        return helper(1)
'''

CLI = '''\
from pkg.core import Box, helper


def main():
    return helper(Box().size())
'''


def _history(repo) -> tuple[str, str]:
    repo.write("pyproject.toml", '[project]\nname = "pkg"\nversion = "1.0"\ndependencies = ["requests>=2.0"]\n')
    repo.write("requirements-dev.txt", "pytest>=7,<8\nflake8\n")
    repo.write("pkg/__init__.py", "")
    repo.write("pkg/core.py", CORE)
    repo.write("pkg/cli.py", CLI)
    first = repo.commit("flat layout")
    repo.mv("pkg", "src/pkg")
    repo.write("pyproject.toml", '[project]\nname = "pkg"\nversion = "1.1"\ndependencies = ["requests>=2.31"]\n')
    repo.write("requirements-dev.txt", "pytest>=8\nblack\n")
    repo.write("src/pkg/extra.py", "def shout(s):\n    return s.upper()\n")
    repo.write("src/pkg/cli.py", CLI.replace("from pkg.core", "from pkg.extra import shout\nfrom pkg.core")
               + "\n\ndef loud():\n    return shout(main())\n")
    second = repo.commit("src layout")
    return first, second


def test_a_move_into_src_is_one_entry_per_file(db, make_repo, ws, capsys):
    repo = make_repo()
    first, second = _history(repo)
    info = ws(repo.path)
    ingest_workspace(db, info)
    assert assert_invariant(db.graph(info.name), repo.path) == 2

    d = Q.diff_commits(db, info.name, first, second)
    moves = {(m.old_file, m.file): m.symbols for m in d.files_moved}
    assert set(moves) == {("pkg/__init__.py", "src/pkg/__init__.py"), ("pkg/core.py", "src/pkg/core.py"),
                          ("pkg/cli.py", "src/pkg/cli.py")}
    assert moves[("pkg/core.py", "src/pkg/core.py")] == 4  # the module, helper, Box, Box.size
    assert {"pkg.core.helper", "pkg.core.Box.size", "pkg.core"} <= d.moved_with_file()
    changed = {s.fqn: s.changes for s in d.symbols_changed}
    assert changed["pkg.core.helper"] == ["file"] and changed["pkg.cli"] == ["file", "body"]
    assert "pkg.cli" not in d.moved_with_file() and "pkg.cli.main" in d.moved_with_file()
    # the imports that moved with their files are no change; the new one is
    assert [(i.file, i.target) for i in d.imports_added] == [("src/pkg/cli.py", "src/pkg/extra.py")]
    assert d.imports_removed == []
    assert [(f.file, f.symbols) for f in d.files_added] == [("src/pkg/extra.py", 2)] and d.files_removed == []
    assert d.in_whole_files() == {"pkg.extra", "pkg.extra.shout"}
    # one changed entry per requirement whose spec changed; the others added or removed
    deps = {(x.name, x.old_spec, x.spec, x.scope) for x in d.dependencies_changed}
    assert deps == {("requests", ">=2.0", ">=2.31", "runtime"), ("pytest", ">=7,<8", ">=8", "dev")}
    assert [x.name for x in d.dependencies_added] == ["black"]
    assert [x.name for x in d.dependencies_removed] == ["flake8"]

    back = Q.diff_commits(db, info.name, second, first)
    assert {(m.old_file, m.file) for m in back.files_moved} == {(b, a) for a, b in moves}
    assert [(i.file, i.target) for i in back.imports_removed] == [("src/pkg/cli.py", "src/pkg/extra.py")]
    assert back.imports_added == []
    assert [(f.file, f.symbols) for f in back.files_removed] == [("src/pkg/extra.py", 2)]
    assert {(x.name, x.old_spec, x.spec) for x in back.dependencies_changed} == {
        ("requests", ">=2.31", ">=2.0"), ("pytest", ">=8", ">=7,<8")}

    capsys.readouterr()
    assert main(["diff", first, second, "--workspace", info.name]) == 0
    out = capsys.readouterr().out
    assert "files moved (3):\n" in out and "  > pkg/core.py -> src/pkg/core.py (4 symbols)\n" in out
    assert "  > pkg/__init__.py -> src/pkg/__init__.py (1 symbol)\n" in out
    assert "symbols changed (1; 6 more only moved with their file):" in out and "~ pkg.core.helper" not in out and "~ pkg.cli: file, body" in out
    assert "files added (1):\n  + src/pkg/extra.py (2 symbols)\n" in out
    assert "symbols added (1; 2 more in added files):\n  + pkg.cli.loud (function) src/pkg/cli.py\n" in out
    assert "dependencies changed (2):\n" in out and "~ pytest>=7,<8 -> >=8 (dev)" in out
    assert "imports removed" not in out
    assert main(["diff", first, second, "--workspace", info.name, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "pkg.core.helper" in {s["fqn"] for s in data["symbols_changed"]}  # JSON keeps every symbol
