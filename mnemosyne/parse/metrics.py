"""Code metrics of functions and methods, measured on the parse tree the extractor already has.

Per function (a ``def``, a method, a TypeScript function, method or arrow function that is a
symbol; lambdas and nested functions count for themselves, not for the function around them):

- ``complexity``: McCabe cyclomatic complexity, 1 + the decision points of its own body: ``if``,
  ``elif``, loops, ``except``/``catch``, ``case`` (not ``default``), conditional expressions,
  comprehension ``for``/``if`` clauses, and each ``and``/``or`` (``&&``, ``||``, ``??``);
- ``loc``: lines of its text (signature to end) that hold something besides whitespace and a
  comment. It depends on the text only, never on where the function is;
- ``params``: declared parameters (``self``/``cls`` and ``this:`` count; ``/`` and a bare ``*``
  do not);
- ``nesting``: the deepest nesting of block statements (``if``, loops, ``try``, ``with``,
  ``match``/``switch``) inside it, 0 for a straight-line body.

They depend only on the function's text, so they change only when its body hash changes. One
compiled tree-sitter query per grammar finds every decision point and block of a file in C; the
Python work is proportional to those nodes, not to the tree (``benchmarks/extract_speed.py``).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

from tree_sitter import Language, Query, QueryCursor

Metrics = tuple[int, int, int, int]  # complexity, loc, params, nesting
NO_METRICS: Metrics = (0, 0, 0, 0)

_PY_QUERY = """
[(if_statement) (elif_clause) (for_statement) (while_statement) (except_clause) (conditional_expression)
 (case_clause) (for_in_clause) (if_clause) (boolean_operator)] @decision
[(if_statement) (for_statement) (while_statement) (try_statement) (with_statement) (match_statement)] @block
"""
_TS_QUERY = """
[(if_statement) (for_statement) (for_in_statement) (while_statement) (do_statement) (catch_clause)
 (ternary_expression) (switch_case)] @decision
(binary_expression operator: ["&&" "||" "??"]) @decision
[(if_statement) (for_statement) (for_in_statement) (while_statement) (do_statement) (try_statement)
 (switch_statement)] @block
"""
_QUERIES: dict[tuple[int, str], Query] = {}
_PY_PARAM_SKIP = frozenset({"positional_separator", "keyword_separator", "comment"})


def _query(lang: Language, src: str) -> Query:
    key = (id(lang), src)
    q = _QUERIES.get(key)
    if q is None:
        q = _QUERIES[key] = Query(lang, src)
    return q


def _loc(src: bytes, start: int, end: int, comment: bytes) -> int:
    n = 0
    for line in src[start:end].split(b"\n"):
        s = line.strip()
        if s and not s.startswith(comment):
            n += 1
    return n


def measure(lang: Language, root: Any, src: bytes, spans: Sequence[tuple[int, int, Any]], *,
            typescript: bool = False) -> dict[Any, Metrics]:  # fmt: skip
    """``key -> (complexity, loc, params, nesting)`` for each function span ``(start_byte,
    end_byte, key)`` of a file whose parse tree is ``root``. Spans nest or are disjoint."""
    if not spans:
        return {}
    order = sorted(spans, key=lambda s: (s[0], -s[1]))
    starts = [s[0] for s in order]
    # the enclosing span of each span (spans nest): a stack sweep
    parent: list[int] = []
    stack: list[int] = []
    for i, (a, b, _k) in enumerate(order):
        while stack and order[stack[-1]][1] <= a:
            stack.pop()
        parent.append(stack[-1] if stack else -1)
        stack.append(i)

    def owner(pos: int) -> int:
        i = bisect_right(starts, pos) - 1
        while i >= 0 and order[i][1] <= pos:
            i = parent[i]
        return i

    decisions = [1] * len(order)
    depth = [0] * len(order)
    caps = QueryCursor(_query(lang, _TS_QUERY if typescript else _PY_QUERY)).captures(root)
    for node in caps.get("decision", ()):
        if typescript and node.type == "switch_case" and node.child_by_field_name("value") is None:
            continue
        i = owner(node.start_byte)
        if i >= 0:
            decisions[i] += 1
    blocks = sorted(caps.get("block", ()), key=lambda n: (n.start_byte, -n.end_byte))
    open_: list[tuple[int, int, int]] = []  # (end byte, owner, depth)
    for node in blocks:
        a = node.start_byte
        while open_ and open_[-1][0] <= a:
            open_.pop()
        i = owner(a)
        d = open_[-1][2] + 1 if open_ and open_[-1][1] == i else 1
        open_.append((node.end_byte, i, d))
        if i >= 0 and d > depth[i]:
            depth[i] = d
    comment = b"//" if typescript else b"#"
    out: dict[Any, Metrics] = {}
    for i, (a, b, key) in enumerate(order):
        out[key] = (decisions[i], _loc(src, a, b, comment), _params(root, a, b, typescript), depth[i])
    return out


def _params(root: Any, a: int, b: int, typescript: bool) -> int:
    fn = root.descendant_for_byte_range(a, max(a, b - 1))
    # the function node itself (a decorated definition or an export wraps it: look inside)
    for _ in range(3):
        if fn is None:
            return 0
        ps = fn.child_by_field_name("parameters")
        if ps is not None:
            return sum(1 for c in ps.named_children if c.type not in _PY_PARAM_SKIP)
        if typescript and fn.child_by_field_name("parameter") is not None:  # x => x + 1
            return 1
        inner = fn.child_by_field_name("definition") or fn.child_by_field_name("value") or fn.child_by_field_name("declaration")
        fn = inner
    return 0
