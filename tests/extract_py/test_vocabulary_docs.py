"""docs/resolve-python.md lists the Python resolver's vocabularies exactly: every constant of
``values.py`` and ``reads.py`` and every memo-key kind (``KEY_*``) of ``fixpoint.py`` is named there,
a tag's table row shows its string, the page names no constant that does not exist, and no tag
string has two meanings (the vocabularies' strings are pairwise distinct)."""

from __future__ import annotations

import re
from pathlib import Path

from mnemosyne.parse.python import tags
from mnemosyne.resolve.python import fixpoint, reads, values

DOC = Path(__file__).resolve().parents[2] / "docs" / "resolve-python.md"
CONSTANT = re.compile(r"^[A-Z][A-Z0-9_]*$")
# how a vocabulary's constants are named: a name in backquotes on the page with one of these
# prefixes or suffixes must be one of the constants
NAMED = re.compile(r"`((?:VAL|READ|RET|STUB|KEY|EXPR)_[A-Z0-9_]+|[A-Z]+_KINDS|STABLE_LAMBDA|SCOPED|LAMBDA_KEYED)`")


def _constants() -> dict[str, object]:
    """The resolver's own constants (not the parser's ``tags`` they import: docs/parse-python.md has those)."""
    parser = vars(tags)
    out: dict[str, object] = {}
    for mod in (values, reads):
        out.update({n: v for n, v in vars(mod).items() if CONSTANT.match(n) and parser.get(n, out) is not v})
    out.update({n: v for n, v in vars(fixpoint).items() if n.startswith("KEY_")})
    return out


def _rows() -> dict[str, list[str]]:
    """Constant name -> the cells of the table row that names it in its second column."""
    out: dict[str, list[str]] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) >= 2 and re.fullmatch(r"`[A-Z][A-Z0-9_]*`", cells[1]):
            out[cells[1].strip("`")] = cells
    return out


def test_every_constant_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    missing = sorted(n for n in _constants() if f"`{n}`" not in text)
    assert not missing, f"docs/resolve-python.md does not name {missing}"


def test_the_doc_names_no_constant_that_does_not_exist() -> None:
    named = set(NAMED.findall(DOC.read_text(encoding="utf-8")))
    assert named, "the pattern finds the documented names"
    unknown = sorted(named - set(_constants()))
    assert not unknown, f"docs/resolve-python.md names {unknown}, which values.py / reads.py / fixpoint.py lack"


def test_each_tag_row_shows_its_string() -> None:
    rows = _rows()
    tags = {n: v for n, v in _constants().items() if isinstance(v, str)}
    assert len(tags) > 40
    for name, tag in tags.items():
        assert name in rows, f"{name} has no table row"
        assert rows[name][0] == f"`{tag}`", f"{name} is {tag!r}, its row says {rows[name][0]}"


def test_no_tag_has_two_meanings() -> None:
    tags = [(n, v) for n, v in _constants().items() if isinstance(v, str)]
    by_string: dict[str, list[str]] = {}
    for name, tag in tags:
        by_string.setdefault(tag, []).append(name)
    shared = {t: ns for t, ns in by_string.items() if len(ns) > 1}
    assert not shared, f"tag strings with two meanings: {shared}"
