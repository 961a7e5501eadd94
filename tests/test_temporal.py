"""The temporal predicate is written once, in ``mnemosyne/temporal.py`` (docs/schema.md).

The helpers give the forms docs/schema.md defines; no inline Cypher in ``mnemosyne/**/*.py`` and no
query in ``cypher/`` spells a predicate out (they call the helpers, or the ``@macros`` the
named-query loader expands through the same helpers).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import mnemosyne
from mnemosyne import temporal as T
from mnemosyne.store import named_queries

PACKAGE_DIR = Path(mnemosyne.__file__).parent
CYPHER_DIR = PACKAGE_DIR.parent / "cypher"
# a predicate written out: the end of the interval, or the transaction-time condition
SPELLED = re.compile(r"valid_to_seq IS (NOT )?NULL|valid_to_seq > \$|superseded_at IS (NOT )?NULL|superseded_at >|"
                     r"ingested_at <=|ended_commit IN")  # fmt: skip
# files another change owns (see tests/test_cypher_literals.py)
PENDING: set[str] = set()  # files allowed to spell a predicate out while they are reworked: none


def test_the_helpers_write_the_documented_predicates() -> None:
    assert T.holds_at("r") == (
        "r.valid_from_seq <= $seq AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $seq) AND r.superseded_at IS NULL"
    )
    assert T.holds_at("e", "$s") == T.holds_at("e", seq="$s") and "$seq" not in T.holds_at("e", "$s")
    assert T.valid_at("r", "$a") == "r.valid_from_seq <= $a AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $a)"
    assert T.holds_at_head("d") == "d.valid_to_seq IS NULL AND d.superseded_at IS NULL"
    assert T.believed_at("c") == "c.ingested_at <= $t AND (c.superseded_at IS NULL OR c.superseded_at > $t)"
    assert T.holds_at_believed("r") == (
        "r.valid_from_seq <= $seq AND r.ingested_at <= $t AND (r.superseded_at IS NULL OR r.superseded_at > $t) "
        "AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $seq OR r.ended_commit IN $late)"
    )
    assert T.CURRENT.commit_at("c", "e.seq") == "c.seq = e.seq"
    assert T.AS_OF_INGEST.commit_at("c", "e.seq") == f"{T.believed_at('c')} AND coalesce(c.seq, c.old_seq) = e.seq"
    for name in named_queries.MACROS:  # every macro is a method of both views
        assert callable(getattr(T.CURRENT, name)) and callable(getattr(T.AS_OF_INGEST, name))


def test_the_helpers_answer_as_the_definition_on_a_graph(graph) -> None:
    """Versions (from, to, superseded, ingested, ended) against the definition in docs/schema.md."""
    rows = [(0, None, None, 10, None), (2, 5, None, 10, "c5"), (3, 4, 20, 10, "c4"), (1, 3, None, 30, "c3")]
    graph.query("UNWIND $rows AS v CREATE (:A)-[:R {valid_from_seq: v[0], valid_to_seq: v[1], superseded_at: v[2], "
                "ingested_at: v[3], ended_commit: v[4], i: v[5]}]->(:B)",
                {"rows": [[*v, i] for i, v in enumerate(rows)]})  # fmt: skip
    for seq in range(7):
        got = {r[0] for r in graph.query(f"MATCH ()-[r:R]->() WHERE {T.holds_at('r')} RETURN r.i", {"seq": seq})}
        want = {i for i, (f, t, s, _, _) in enumerate(rows) if f <= seq and (t is None or t > seq) and s is None}
        assert got == want, seq
        for t in (5, 15, 25, 35):
            late = [e for (_, _, _, ing, e) in rows if e and ing > t]
            got = {r[0] for r in graph.query(f"MATCH ()-[r:R]->() WHERE {T.holds_at_believed('r')} RETURN r.i",
                                             {"seq": seq, "t": t, "late": late})}  # fmt: skip
            want = {i for i, (f, to, s, ing, e) in enumerate(rows)
                    if ing <= t and (s is None or s > t) and f <= seq and (to is None or to > seq or e in late)}
            assert got == want, (seq, t)


def _constants(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]  # fmt: skip


def test_no_inline_cypher_spells_a_predicate_out() -> None:
    problems = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        rel = path.relative_to(PACKAGE_DIR).as_posix()
        if rel == "temporal.py" or rel in PENDING or rel.startswith(("parse/", "resolve/")):
            continue
        for line, text in _constants(path):
            problems += [f"mnemosyne/{rel}:{line}: {m.group(0)!r}: use mnemosyne.temporal" for m in SPELLED.finditer(text)]
    assert not problems, "\n".join(problems)


def test_no_named_query_spells_a_predicate_out() -> None:
    problems = []
    for path in sorted(CYPHER_DIR.glob("*.cypher")):
        body = named_queries.strip_strings_and_comments(path.read_text(encoding="utf-8"))
        problems += [f"cypher/{path.name}: {m.group(0)!r}: use an @macro" for m in SPELLED.finditer(body)]
    assert not problems, "\n".join(problems)
