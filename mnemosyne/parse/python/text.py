"""Source text helpers of the walk: node text, string literal values, docstrings, content hashes, and
what a lambda is written for (its name: parse/anon.py)."""

from __future__ import annotations

import ast
import inspect

from tree_sitter import Node

from mnemosyne.hashing import content_hash
from mnemosyne.parse.anon import call_context, callee, clean, keyword_context, literal
from mnemosyne.parse.python.grammar import KN


def node_text(node: Node) -> str:
    return node.text.decode("utf-8", "replace")  # type: ignore[union-attr]


def src_text(src: bytes, node: Node) -> str:
    """``node_text(node)`` from the source bytes (slicing them is cheaper than ``Node.text``)."""
    return src[node.start_byte : node.end_byte].decode("utf-8", "replace")


short_hash = content_hash  # a scope's body hash: the file's content hash of its text (a module's: the file's own)


# expressions a lambda's context is looked for through (``f(a or (lambda: 0))``)
_CONTEXT_THROUGH = frozenset({
    "parenthesized_expression", "conditional_expression", "boolean_operator", "list", "tuple", "set",
    "expression_list", "await", "list_splat", "dictionary_splat",
})


def lambda_context(node: Node, src: bytes) -> str:
    """What a lambda is written for, as its name says it (mnemosyne/parse/anon.py)."""
    child = node
    p = node.parent
    while p is not None and p.type in _CONTEXT_THROUGH:
        child, p = p, p.parent
    if p is None:
        return ""
    t = p.type
    if t == "argument_list" and p.parent is not None and p.parent.type == "call":
        return call_context(_py_callee(p.parent, src), _py_first_literal(p, src))
    if t == "keyword_argument" and p.child_by_field_name("value") == child:
        kw = p.child_by_field_name("name")
        call = p.parent.parent if p.parent is not None else None
        fn = _py_callee(call, src) if call is not None and call.type == "call" else None
        return keyword_context(fn, src_text(src, kw)) if kw is not None else ""
    if t == "assignment" and p.child_by_field_name("right") == child:
        return _py_target(p.child_by_field_name("left"), src)
    if t == "pair" and p.child_by_field_name("value") == child:
        return _py_target(p.child_by_field_name("key"), src)
    if t in ("default_parameter", "typed_default_parameter") and p.child_by_field_name("value") == child:
        nm = p.child_by_field_name("name")
        return clean(src_text(src, nm)) if nm is not None else ""
    if t == "return_statement" or (t == "lambda" and p.child_by_field_name("body") == child):
        return "return"
    return ""


def _py_callee(call: Node, src: bytes) -> str:
    """The called expression of a ``call`` node as a name shows it (``app:get``)."""
    parts: list[str] = []
    fn = call.child_by_field_name("function")
    suffix = ""
    while fn is not None and len(parts) < 8:
        t = fn.type
        if t == "identifier":
            parts.append(fn.text.decode("utf-8", "replace") + suffix)  # type: ignore[union-attr]
            break
        if t == "attribute":
            a = fn.child_by_field_name("attribute")
            if a is None:
                break
            parts.append(a.text.decode("utf-8", "replace") + suffix)  # type: ignore[union-attr]
            suffix = ""
            fn = fn.child_by_field_name("object")
        elif t == "call":
            suffix = "()"
            fn = fn.child_by_field_name("function")
        elif t == "subscript":  # handlers["save"](...): a member by a literal key
            key = fn.child_by_field_name("subscript")
            v = string_value(key, src) if key is not None and key.type == "string" else None
            if v is None:
                break
            parts.append(v + suffix)
            suffix = ""
            fn = fn.child_by_field_name("value")
        else:
            break
    return callee(parts[::-1])


def _py_first_literal(args: Node, src: bytes) -> str | None:
    """The first plain string literal among a call's positional arguments, as a name shows it."""
    for a in args.named_children:
        if a.type == "string":
            v = string_value(a, src)
            if v is not None:
                return literal(v)
    return None


def _py_target(node: Node | None, src: bytes) -> str:
    """What an assignment target / dict key names: ``f``, ``self.cb`` -> ``cb``, ``'k'``."""
    if node is None:
        return ""
    t = node.type
    if t == "identifier":
        return src_text(src, node)
    if t == "attribute":
        a = node.child_by_field_name("attribute")
        return src_text(src, a) if a is not None else ""
    if t == "string":
        v = string_value(node, src)
        return literal(v) if v is not None else ""
    if t == "subscript":
        for k in node.children_by_field_name("subscript"):
            if k.type == "string":
                v = string_value(k, src)
                return literal(v) if v is not None else ""
    return ""


def string_value(node: Node, src: bytes) -> str | None:
    """The value of a plain (non f-) string literal node, or None."""
    return _literal_string(src[node.start_byte : node.end_byte].decode("utf-8", "replace"))


def _literal_string(raw: str) -> str | None:
    q = raw[:1]
    prefix = ""
    if q != '"' and q != "'":
        i = 0
        while i < 3 and i < len(raw) and raw[i] not in "\"'":
            i += 1
        prefix = raw[:i].lower()
        if prefix not in ("r", "b", "u", "br", "rb"):
            return None if "f" in prefix else _literal_eval_string(raw)
        raw = raw[i:]
        q = raw[:1]
        if q != '"' and q != "'":
            return None
    if raw[-1:] != q:
        return None
    if raw[:3] == q * 3 and len(raw) >= 6 and raw[-3:] == q * 3:
        body = raw[3:-3]
    elif len(raw) >= 2 and raw[:3] != q * 3:
        body = raw[1:-1]
    else:
        return None
    if "b" in prefix and not body.isascii():
        return None  # not a valid bytes literal
    if "\\" not in body or "r" in prefix:
        if "\\" in body and body.endswith("\\"):
            return _literal_eval_string(prefix + raw)
        return body
    if "b" in prefix or not body.isascii():
        return _literal_eval_string(prefix + raw)
    try:
        # the escapes of a str literal; other characters pass through unchanged
        return body.encode("ascii").decode("unicode_escape")
    except UnicodeDecodeError:
        return _literal_eval_string(prefix + raw)


def _literal_eval_string(raw: str) -> str | None:
    try:
        v = ast.literal_eval(raw)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    return v if isinstance(v, str) else None


def docstring_of(body: Node | None, src: bytes) -> str:
    if body is None:
        return ""
    first = body.named_child(0) if body.named_child_count else None
    while first is not None and KN[first.kind_id] == "comment":
        first = first.next_named_sibling
    if first is None or KN[first.kind_id] != "expression_statement" or first.named_child_count != 1:
        return ""
    s = first.named_child(0)
    if s is None or KN[s.kind_id] not in ("string", "concatenated_string"):
        return ""
    raw = src[s.start_byte : s.end_byte].decode("utf-8", "replace")
    v = _literal_string(raw)
    if v is None:
        v = raw.strip("rRbBuUfF").strip("\"'")
    if "\n" not in v and "\t" not in v:
        return v.lstrip()  # what inspect.cleandoc makes of a single line without tabs
    return inspect.cleandoc(v)


def type_comment(node: Node, st: Node | None, src: bytes) -> str | None:
    """The annotation text of assignment ``node``'s type comment (``x = None  # type: Foo``, PEP
    484's form for Pythons without variable annotations): the comment ending its line, but ``#
    type: ignore``; text after a second ``#`` is a remark. ``st``: the node's parent (its
    expression statement)."""
    nxt = st.next_sibling if st is not None else None
    if nxt is None or KN[nxt.kind_id] != "comment" or nxt.start_point.row != node.end_point.row:
        return None
    text = src[nxt.start_byte + 1 : nxt.end_byte].decode("utf-8", "replace").split("#", 1)[0].strip()
    if not text.startswith("type:"):
        return None
    text = text[5:].strip()
    return None if not text or text.startswith("ignore") else text
