"""docs/parse-typescript.md lists every name of ``mnemosyne/parse/typescript/tags.py``, and no other,
each with its value."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import mnemosyne.parse.typescript.tags as tags

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "parse-typescript.md"
# a table row naming a constant: | `NAME` | `value` | ...
ROW = re.compile(r"^\| `([A-Za-z_]\w*)` \| `([^`]*)` \|", re.M)


def _names_in_module() -> list[str]:
    """The public names ``tags.py`` assigns at module level (constants and type aliases)."""
    tree = ast.parse(Path(tags.__file__).read_text(encoding="utf-8"))
    out = []
    for node in tree.body:
        if isinstance(node, ast.Assign):
            out.extend(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out.append(node.target.id)
    return [n for n in out if not n.startswith("_")]


def _rows() -> list[tuple[str, str]]:
    return ROW.findall(DOC.read_text(encoding="utf-8"))


def test_the_doc_lists_every_tag_and_no_other() -> None:
    names = _names_in_module()
    assert len(names) > 60 and len(set(names)) == len(names)
    documented = [n for n, _v in _rows()]
    repeated = sorted({n for n in documented if documented.count(n) > 1})
    assert not repeated, f"listed twice in {DOC.name}: {repeated}"
    missing = sorted(set(names) - set(documented))
    assert not missing, f"in tags.py but not in {DOC.name}: {missing}"
    unknown = sorted(set(documented) - set(names))
    assert not unknown, f"in {DOC.name} but not in tags.py: {unknown}"


def test_the_doc_gives_each_constant_its_value() -> None:
    wrong = []
    for name, cell in _rows():
        value = getattr(tags, name, None)  # a name tags.py lacks: the test above
        if isinstance(value, str | tuple) and ast.literal_eval(cell) != value:
            wrong.append((name, cell, value))
    assert not wrong, wrong
