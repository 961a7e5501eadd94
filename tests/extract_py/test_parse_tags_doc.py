"""docs/parse-python.md lists every constant of the Python parser's vocabularies (parse/python/tags.py)
with its value, and names none that does not exist."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from mnemosyne.parse.python import tags

DOC = Path(__file__).resolve().parents[2] / "docs" / "parse-python.md"
# a table row whose first cell is a constant: | `NAME` | `value` | ...
ROW = re.compile(r"^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|\s*`([^`]*)`\s*\|", re.MULTILINE)


def constants() -> dict[str, object]:
    """The vocabulary: every upper-case module-level name tags.py defines (not what it imports)."""
    tree = ast.parse(Path(tags.__file__).read_text(encoding="utf-8"))
    names: list[str] = []
    for n in tree.body:
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
            names.append(n.target.id)
        elif isinstance(n, ast.Assign):
            names += [t.id for t in n.targets if isinstance(t, ast.Name)]
    return {n: getattr(tags, n) for n in names if n.isupper()}


def documented() -> dict[str, str]:
    return dict(ROW.findall(DOC.read_text(encoding="utf-8")))


def test_every_constant_is_documented_with_its_value() -> None:
    consts = constants()
    assert len(consts) > 60  # the module was read
    doc = documented()
    missing = sorted(set(consts) - set(doc))
    assert not missing, f"docs/parse-python.md lacks a table row for {missing}"
    wrong = {n: (doc[n], consts[n]) for n in consts if ast.literal_eval(doc[n]) != consts[n]}
    assert not wrong, f"documented values differ from tags.py: {wrong}"


def test_doc_names_only_existing_constants() -> None:
    extra = sorted(set(documented()) - set(constants()))
    assert not extra, f"docs/parse-python.md names constants tags.py does not define: {extra}"


def test_tags_have_one_meaning_each() -> None:
    """No two expression tags share a value (a tag with two meanings is what the names prevent)."""
    tag_values = [v for n, v in constants().items() if n.startswith("T_")]
    assert len(tag_values) == len(set(tag_values))
