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

They depend only on the function's text, so they change only when its body hash changes. The
extractors already visit every node: the Python walk records the decision points and blocks it
meets (``PY_METRIC_KINDS``), the TypeScript query captures them with the rest (``TS_QUERY_SRC``),
and the work here is proportional to those nodes, not to the tree.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

Metrics = tuple[int, int, int, int]  # complexity, loc, params, nesting
NO_METRICS: Metrics = (0, 0, 0, 0)

# TypeScript: patterns appended to the extractor's own query (parse/typescript/grammar.py), so the
# decision points and blocks come with the captures it already makes, in the same pass
TS_QUERY_SRC = """
[(if_statement) (for_statement) (for_in_statement) (while_statement) (do_statement) (catch_clause)
 (ternary_expression) (switch_case)] @mdec
(binary_expression operator: ["&&" "||" "??"]) @mdec
[(if_statement) (for_statement) (for_in_statement) (while_statement) (do_statement) (try_statement)
 (switch_statement)] @mblk
"""
METRIC_DECISION, METRIC_BLOCK = 1, 2
# Python: node kinds the extractor's walk records for the metrics (``measure_python``)
PY_METRIC_KINDS: dict[str, int] = {
    **{k: METRIC_DECISION for k in ("elif_clause", "except_clause", "conditional_expression", "case_clause",
                                    "for_in_clause", "if_clause", "boolean_operator")},
    **{k: METRIC_DECISION | METRIC_BLOCK for k in ("if_statement", "for_statement", "while_statement")},
    **{k: METRIC_BLOCK for k in ("try_statement", "with_statement", "match_statement")},
}
def measure_ts(root: Any, src: bytes, spans: Sequence[tuple[int, int, Any]], caps: dict[str, list[Any]]) -> dict[Any, Metrics]:
    """``key -> (complexity, loc, params, nesting)`` for each function span ``(start_byte,
    end_byte, key)`` of a TypeScript/JavaScript file, from the ``mdec``/``mblk`` captures of
    ``TS_QUERY_SRC`` over its tree ``root``; a node counts for the innermost span holding it."""
    if not spans:
        return {}
    order = sorted(spans, key=lambda s: (s[0], -s[1]))
    starts = [s[0] for s in order]
    parent: list[int] = []  # the enclosing span of each span (spans nest): a stack sweep
    stack: list[int] = []
    for i, (a, _b, _k) in enumerate(order):
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
    for node in caps.get("mdec", ()):
        if node.type == "switch_case" and node.child_by_field_name("value") is None:
            continue  # `default:`
        i = owner(node.start_byte)
        if i >= 0:
            decisions[i] += 1
    depth = _depths([(n.start_byte, n.end_byte, owner(n.start_byte)) for n in caps.get("mblk", ())])
    out: dict[Any, Metrics] = {}
    for i, (a, b, key) in enumerate(order):
        loc = sum(1 for line in src[a:b].split(b"\n") if (t := line.strip()) and not t.startswith((b"//", b"*", b"/*")))
        out[key] = (decisions[i], loc, _ts_params(root, a, b), depth.get(i, 0))
    return out


def _depths(blocks: list[tuple[int, int, int]]) -> dict[int, int]:
    """owner -> deepest nesting of ``(start, end, owner)`` blocks (blocks nest or are disjoint; a
    block in another owner's body starts at depth 1 again)."""
    depth: dict[int, int] = {}
    open_: list[tuple[int, int, int]] = []  # (end byte, owner, depth)
    for a, b, f in sorted(blocks, key=lambda n: (n[0], -n[1])):
        while open_ and open_[-1][0] <= a:
            open_.pop()
        d = open_[-1][2] + 1 if open_ and open_[-1][1] == f else 1
        open_.append((b, f, d))
        if f >= 0 and d > depth.get(f, 0):
            depth[f] = d
    return depth


def _line_index(src: bytes) -> tuple[list[int], list[int]]:
    """(start byte of each line, prefix count of lines holding code) of a Python file."""
    starts = [0]
    code = [0]
    n = 0
    pos = 0
    for line in src.split(b"\n"):
        s = line.strip()
        if s and not s.startswith(b"#"):
            n += 1
        code.append(n)
        pos += len(line) + 1
        starts.append(pos)
    return starts, code


def measure_python(src: bytes, spans: Sequence[tuple[int, int, int]], nodes: Sequence[tuple[int, int, int, int]],
                   scopes: Sequence[Any]) -> dict[int, Metrics]:  # fmt: skip
    """Metrics of a Python file's functions from what the extractor's walk recorded: ``spans``
    ``(start, end, scope)`` of each ``def`` and ``nodes`` ``(kind bits, start, end, scope)`` of
    each decision point and block (``PY_METRIC_KINDS``); a node counts for the nearest enclosing
    ``def`` of its scope (lambdas and class bodies belong to the function around them)."""
    fn_of: dict[int, int] = {}

    def fn(sc: int) -> int:
        f = fn_of.get(sc)
        if f is None:
            f = sc
            while f > 0 and scopes[f].kind != "function":
                f = scopes[f].parent
            fn_of[sc] = f = f if f > 0 else -1
        return f

    decisions: dict[int, int] = {}
    blocks: list[tuple[int, int, int]] = []
    for bits, a, b, sc in nodes:
        f = fn(sc)
        if f < 0:
            continue
        if bits & METRIC_DECISION:
            decisions[f] = decisions.get(f, 0) + 1
        if bits & METRIC_BLOCK:
            blocks.append((a, b, f))
    depth = _depths(blocks)
    starts, code = _line_index(src)
    out: dict[int, Metrics] = {}
    for a, b, idx in spans:
        first, last = bisect_right(starts, a) - 1, bisect_right(starts, max(a, b - 1)) - 1
        out[idx] = (1 + decisions.get(idx, 0), code[last + 1] - code[first], len(scopes[idx].params), depth.get(idx, 0))
    return out


def _ts_params(root: Any, a: int, b: int) -> int:
    """Declared parameters of the function whose node spans bytes ``a..b``."""
    fn = root.descendant_for_byte_range(a, max(a, b - 1))
    for _ in range(3):  # the function node itself, or the declarator / export around it
        if fn is None:
            return 0
        ps = fn.child_by_field_name("parameters")
        if ps is not None:
            return sum(1 for c in ps.named_children if c.type != "comment")
        if fn.child_by_field_name("parameter") is not None:  # x => x + 1
            return 1
        fn = fn.child_by_field_name("value") or fn.child_by_field_name("declaration")
    return 0
