"""Graph labels and edge types are written once, in ``mnemosyne/vocabulary.py``.

Every string constant of ``mnemosyne/**/*.py`` (f-strings' literal parts too; docstrings are
documentation and left out) is scanned for a label or an edge type of the vocabulary written as
Cypher writes them: ``(x:Label``, ``x:Label``, ``[e:EDGE``, ``[:EDGE|OTHER``. Inline Cypher takes
them from the vocabulary instead (``f"MATCH (f:{V.FUNCTION})-[r:{V.CALLS}]->()"``); the
``cypher/*.cypher`` files are Cypher and write them out. A finding names the file and line.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import mnemosyne
from mnemosyne import vocabulary as V

PACKAGE_DIR = Path(mnemosyne.__file__).parent

# Files another change owns and that still write literals; each entry says why it is not fixed here.
PENDING: dict[str, str] = {}  # file -> why it may keep literals while reworked: none


def _words() -> tuple[set[str], set[str]]:
    labels: set[str] = set()
    edges: set[str] = set()
    for name, value in vars(V).items():
        if not (name.isupper() and isinstance(value, str) and re.fullmatch(r"[A-Za-z_]+", value)):
            continue
        if value[0].isupper() and not value.isupper():
            labels.add(value)
        elif value.isupper() and len(value) > 2:
            edges.add(value)
    return labels, edges


LABELS, EDGES = _words()
_ANY = "|".join(sorted(LABELS | EDGES, key=len, reverse=True))
_LABEL_OR_EDGE = re.compile(r"(?:[(\[]\w*:|(?<![\w.])\w+:)(" + _ANY + r")\b")
_EDGE_ALTERNATIVE = re.compile(r"\[\w*:\w+((?:\|:?\w+)+)")


def _docstrings(tree: ast.Module) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def literals_in(source: str) -> list[tuple[int, str]]:
    """(line, pattern) of every label / edge type written out in the string constants of ``source``."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or id(node) in skip:
            continue
        text = node.value
        found += [(node.lineno, m.group(0)) for m in _LABEL_OR_EDGE.finditer(text)]
        for m in _EDGE_ALTERNATIVE.finditer(text):
            found += [(node.lineno, f"|{w}") for w in re.split(r"\|:?", m.group(1)) if w in EDGES]
    return found


def test_the_scanner_finds_what_it_looks_for() -> None:
    src = (
        '"""Doc: (:Function) is fine here."""\n'
        'A = "MATCH (f:Function {x: 1})-[r:CALLS]->(b)"\n'
        'B = f"MATCH (a)-[:IMPORTS|INHERITS_FROM]->({x}) WHERE n:Class"\n'
        'C = f"MATCH (f:{V.FUNCTION})-[r:{V.CALLS}]->(b) RETURN \'Function: \' + f.name"\n'
    )
    assert sorted(literals_in(src)) == [(2, "(f:Function"), (2, "[r:CALLS"), (3, "[:IMPORTS"), (3, "n:Class"),
                                        (3, "|INHERITS_FROM")]  # fmt: skip


def test_no_label_or_edge_literal_outside_the_vocabulary() -> None:
    problems = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        rel = path.relative_to(PACKAGE_DIR).as_posix()
        if rel == "vocabulary.py" or rel in PENDING:
            continue
        for line, what in literals_in(path.read_text(encoding="utf-8")):
            problems.append(f"mnemosyne/{rel}:{line}: {what!r}: use the constant of mnemosyne/vocabulary.py")
    assert not problems, "\n".join(problems)
