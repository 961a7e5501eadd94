"""docs/resolve-typescript.md lists every vocabulary constant of the TypeScript resolver, and only those.

A vocabulary is the set of module-level string (or flag) constants with one prefix in one module of
``mnemosyne.resolve.typescript`` (``V_*`` value tags, ``READ_*`` read kinds, ...). The doc's tables
name each constant in their first column and its tag in the second; the test reads both and fails
on a constant missing from the doc, a row naming a constant that does not exist, a tag that
differs from the code, or two constants of one vocabulary sharing a tag (a tag with two meanings).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mnemosyne.resolve.typescript import modules, params, reads, state, values

DOC = Path(__file__).resolve().parents[2] / "docs" / "resolve-typescript.md"

# (module, the names of its vocabulary: a prefix, or the exact names)
VOCABULARIES = [
    (values, "V_"),
    (values, "FLAG_"),
    (reads, "READ_"),
    (reads, ("CONFIG_DEP", "SUB_PREFIX", "CALLS_PREFIX")),
    (state, "MEMO_"),
    (modules, "SPEC_"),
    (params, "HOW_"),
]
ROW = re.compile(r"^\| `([A-Z][A-Z0-9_]*)` \| `?([^|`]+)`? \|")


def _code(module, names) -> dict[str, object]:
    if isinstance(names, str):
        return {n: v for n, v in vars(module).items() if n.startswith(names) and isinstance(v, str | int)}
    return {n: getattr(module, n) for n in names}


def _doc_rows() -> dict[str, str]:
    rows: dict[str, str] = {}
    for line in DOC.read_text().splitlines():
        m = ROW.match(line)
        if m:
            assert m.group(1) not in rows, f"{m.group(1)} has two rows in {DOC.name}"
            rows[m.group(1)] = m.group(2).strip()
    return rows


def _shown(value: object) -> str:
    """A tag as the doc's second column shows it (a prefix with NAME appended)."""
    return f"{value}NAME" if isinstance(value, str) and value.endswith(">") and value != "<config>" else str(value)


@pytest.mark.parametrize("module,names", VOCABULARIES, ids=lambda x: x if isinstance(x, str) else None)
def test_every_constant_is_documented_with_its_tag(module, names) -> None:
    code = _code(module, names)
    assert code, f"no constants {names!r} in {module.__name__}"
    rows = _doc_rows()
    missing = sorted(set(code) - set(rows))
    assert not missing, f"{DOC.name} lacks a row for {missing} ({module.__name__})"
    wrong = {n: (rows[n], _shown(v)) for n, v in code.items() if rows[n] != _shown(v)}
    assert not wrong, f"{DOC.name} shows other tags than the code (doc, code): {wrong}"


@pytest.mark.parametrize("module,names", VOCABULARIES, ids=lambda x: x if isinstance(x, str) else None)
def test_no_tag_has_two_meanings(module, names) -> None:
    code = _code(module, names)
    by_tag: dict[object, list[str]] = {}
    for n, v in code.items():
        by_tag.setdefault(v, []).append(n)
    assert all(len(ns) == 1 for ns in by_tag.values()), {t: ns for t, ns in by_tag.items() if len(ns) > 1}


def test_the_doc_names_no_constant_that_does_not_exist() -> None:
    known: set[str] = set()
    for module, names in VOCABULARIES:
        known |= set(_code(module, names))
    unknown = sorted(set(_doc_rows()) - known)
    assert not unknown, f"{DOC.name} names constants the code does not define: {unknown}"
