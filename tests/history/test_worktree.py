"""The symbols a working-tree change touches, per change: the innermost symbol around each hunk,
the module for a change between symbols, new files as files (mnemosyne/query/worktree.py)."""

from __future__ import annotations

import subprocess
import sys

from mnemosyne.extract import Extractor
from mnemosyne.ingest import ingest_workspace
from mnemosyne.query.core import resolve_at
from mnemosyne.query.worktree import working_tree_changes

SOURCE = '''\
import os


def first():
    return os.sep


class Box:
    def open(self):
        return 1

    def close(self):
        return 2


def last():
    return first()
'''


def _changes(db, info):
    atc = resolve_at(db, info.name)
    return working_tree_changes(db.graph(info.name), info, atc, owns=Extractor().owns)


def test_changes_map_to_the_innermost_symbols(db, make_repo, ws):
    repo = make_repo()
    repo.write("app.py", SOURCE)
    repo.write("README.md", "# App\n")
    repo.commit("first")
    info = ws(repo.path)
    ingest_workspace(db, info)
    path = repo.path / "app.py"

    path.write_text("# a comment at the top\n" + SOURCE)
    assert _changes(db, info).symbols == {"app.py": ["app"]}  # not the file's 5 symbols

    path.write_text(SOURCE.replace("        return 2", "        return 3"))
    ch = _changes(db, info)
    assert ch.symbols == {"app.py": ["app.Box.close"]} and ch.hunks == 1  # the method, not its class

    path.write_text(SOURCE.replace("def last():", "def between():\n    return 0\n\n\ndef last():"))
    assert _changes(db, info).symbols == {"app.py": ["app"]}  # a new function between two: the module

    path.write_text(SOURCE.replace("return os.sep", "return os.sep + 'x'").replace("return first()", "return 0"))
    assert _changes(db, info).fqns == ["app.first", "app.last"]

    path.write_text(SOURCE)
    (repo.path / "README.md").write_text("# App, changed\n")  # not source
    (repo.path / "new.py").write_text("def fresh():\n    return 1\n")
    ch = _changes(db, info)
    assert ch.symbols == {} and ch.new_files == ["new.py"]


def test_cli_impact_working_tree(db, make_repo, ws):
    repo = make_repo()
    repo.write("app.py", SOURCE)
    repo.commit("first")
    info = ws(repo.path)
    ingest_workspace(db, info)
    (repo.path / "app.py").write_text(SOURCE.replace("    return os.sep", "    return os.sep  # why"))
    p = subprocess.run([sys.executable, "-m", "mnemosyne.cli", "impact", "--working-tree", "--workspace", info.name],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "1 change(s) in the working tree touch: app.first" in p.stdout
    assert "app.last" in p.stdout  # what calls the changed function
