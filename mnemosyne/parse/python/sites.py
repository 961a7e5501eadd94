"""Implicit dunder call sites: operators (``a + b``, ``x[k]``, ``k in c``, ``-a``), truth tests
(``__bool__`` / ``__len__``), and the regions where an ``isinstance`` test narrows names."""

from __future__ import annotations

from typing import Any

from tree_sitter import Node

from mnemosyne.parse.python.expr import BINARY_DUNDERS, COMPARE_DUNDERS, NUMBER_KINDS, OPERAND_TAGS, UNARY_DUNDERS
from mnemosyne.parse.python.grammar import (
    ACTW,
    EK,
    F_ALTERNATIVE,
    F_ARGUMENT,
    F_CONDITION,
    F_CONSEQUENCE,
    F_LEFT,
    F_OPERATOR,
    F_RIGHT,
    KN,
    LANGUAGE,
    MARK_ID,
)
from mnemosyne.parse.python.scopes import ScopeBuilder
from mnemosyne.parse.python.tags import (
    CTX_LOAD,
    EK_ATTRIBUTE,
    EK_CALL,
    EK_IDENTIFIER,
)

# operand node kinds worth converting besides names, attributes and calls (``EK``)
_OPERAND_KINDS = frozenset(
    LANGUAGE.id_for_node_kind(n, True)
    for n in (
        "subscript", "parenthesized_expression", "await", "binary_operator", "unary_operator", "comparison_operator"
    )
)

# statements and expressions whose test can narrow a name by ``isinstance`` (``SiteRecorder.narrowing``)
NARROWING = frozenset({"if_statement", "elif_clause", "assert_statement", "boolean_operator", "conditional_expression"})
_EXITS = frozenset({"return_statement", "raise_statement", "continue_statement", "break_statement"})


class _Mark:
    """An entry of the walk's stack that starts (``names``: raw name -> its narrowed expression)
    or ends (``names`` None) a region where ``isinstance`` narrowed names."""

    __slots__ = ("names",)
    kind_id = MARK_ID

    def __init__(self, names: dict[Any, Any] | None) -> None:
        self.names = names


_END_MARK = _Mark(None)


class SiteRecorder(ScopeBuilder):
    """Records operator and truth-test sites; pushes narrowing regions onto the walk's stack."""

    def __init__(self, src: bytes) -> None:
        super().__init__(src)
        self.truth_seen: set[int] = set()  # boolean operators whose operands a condition recorded

    def operand(self, sc: int, v: Node, at: Node, dunder: str, fallback: str = "") -> None:
        """An operator site: ``dunder`` of what ``v`` evaluates to is called (``Scope.ops``)."""
        if not EK_IDENTIFIER <= EK[v.kind_id] <= EK_CALL and v.kind_id not in _OPERAND_KINDS:  # (name, attribute, call)
            return  # a literal, display, comprehension, lambda, ...: never an instance of ours
        e = self.expr(v)
        if e[0] in OPERAND_TAGS:
            self.scopes[self.scopes[sc].owner].ops.append((e, at.start_point[0] + 1, dunder, fallback, sc))

    def narrowing(self, node: Node, t: str, sc: int, stack: list) -> bool:
        """Where ``node``'s test narrows names by ``isinstance``, pushes its children with marks
        around the region it narrows (True): an ``if``/``elif`` body, the right operand of
        ``and``, the value of ``a if isinstance(...) else b``, and the statements after ``assert
        isinstance(...)`` or after ``if not isinstance(...):`` whose body returns, raises,
        continues or breaks. False: nothing narrowed, the caller pushes the children."""
        push = stack.append
        if t == "if_statement" or t == "elif_clause":
            cond = node.child_by_field_id(F_CONDITION)
            names = self.narrowed_names(cond)
            cons = node.child_by_field_id(F_CONSEQUENCE)
            if names and cons is not None:
                for c in reversed(node.children):
                    if c.id == cons.id:
                        push((_END_MARK, sc, CTX_LOAD))
                        push((c, sc, CTX_LOAD))
                        push((_Mark(names), sc, CTX_LOAD))
                    elif ACTW[c.kind_id]:
                        push((c, sc, CTX_LOAD))
                return True
            if (
                t == "if_statement" and cond is not None and KN[cond.kind_id] == "not_operator"
                and cons is not None and cons.named_child_count
                and KN[cons.named_child(cons.named_child_count - 1).kind_id] in _EXITS
                and node.child_by_field_id(F_ALTERNATIVE) is None
            ):
                names = self.narrowed_names(cond.child_by_field_id(F_ARGUMENT), single=True)
                return bool(names) and self.narrow_rest(node, names, sc, stack)
            return False
        if t == "assert_statement":
            names = self.narrowed_names(node.named_child(0) if node.named_child_count else None)
            return bool(names) and self.narrow_rest(node, names, sc, stack)
        if t == "boolean_operator":
            left = node.child_by_field_id(F_LEFT)
            right = node.child_by_field_id(F_RIGHT)
            if left is None or right is None or not self.is_and(node):
                return False
            names = self.narrowed_names(left)
            if not names:
                return False
            push((_END_MARK, sc, CTX_LOAD))
            push((right, sc, CTX_LOAD))
            push((_Mark(names), sc, CTX_LOAD))
            push((left, sc, CTX_LOAD))
            return True
        # conditional_expression: a if cond else b
        kids = [c for c in node.named_children if KN[c.kind_id] != "comment"]
        if len(kids) != 3:
            return False
        names = self.narrowed_names(kids[1])
        if not names:
            return False
        push((kids[2], sc, CTX_LOAD))
        push((kids[1], sc, CTX_LOAD))
        push((_END_MARK, sc, CTX_LOAD))
        push((kids[0], sc, CTX_LOAD))
        push((_Mark(names), sc, CTX_LOAD))
        return True

    def narrow_rest(self, node: Node, names: dict[Any, Any], sc: int, stack: list) -> bool:
        """Narrow the statements after ``node`` in its block: they are the top entries of the
        walk's stack (pushed by the block, next first); the end mark goes below the last one.
        Then pushes ``node``'s own children (walked first, not narrowed) and returns True."""
        parent = node.parent
        if parent is None or KN[parent.kind_id] not in ("block", "module"):
            return False
        rest = []
        sib = node.next_sibling
        while sib is not None:
            if ACTW[sib.kind_id]:
                rest.append(sib)
            sib = sib.next_sibling
        k = len(rest)
        if not k or len(stack) < k or getattr(stack[-k][0], "id", None) != rest[-1].id \
                or getattr(stack[-1][0], "id", None) != rest[0].id:
            return False
        stack.insert(len(stack) - k, (_END_MARK, sc, CTX_LOAD))
        stack.append((_Mark(names), sc, CTX_LOAD))
        for c in reversed(node.children):
            if ACTW[c.kind_id]:
                stack.append((c, sc, CTX_LOAD))
        return True

    def truth(self, sc: int, v: Node | None, at: Node) -> None:
        """``v``'s truth is tested (a condition, an operand of ``not``/``and``/``or``): its class's
        ``__bool__``, else ``__len__``; both sides of a condition's ``and``/``or``."""
        while v is not None:
            k = KN[v.kind_id]
            if k == "parenthesized_expression":
                v = v.named_child(0) if v.named_child_count == 1 else None
            elif k == "not_operator":
                self.truth_seen.add(v.id)
                v = v.child_by_field_id(F_ARGUMENT)
            elif k == "boolean_operator":
                self.truth_seen.add(v.id)  # its own visit adds nothing more
                left = v.child_by_field_id(F_LEFT)
                self.truth(sc, left, at)
                right = v.child_by_field_id(F_RIGHT)
                if self.is_and(v):  # isinstance(x, C) and x.ready: x.ready of a C
                    self.narrowed_by(left, self.truth, sc, right, at)
                    return
                v = right
            else:
                if EK_IDENTIFIER <= EK[v.kind_id] <= EK_ATTRIBUTE:  # a name or an attribute (a call's result costs more than it gives)
                    self.operand(sc, v, at, "__bool__", "__len__")
                return

    def truth_test(self, node: Node, t: str, sc: int) -> None:
        """The condition a statement or expression tests (``TRUTH_TESTS``)."""
        if t == "boolean_operator":  # a value (``x = a or b``): only the left operand is tested
            if node.id not in self.truth_seen:
                self.truth(sc, node.child_by_field_id(F_LEFT), node)
        elif t == "not_operator":
            if node.id not in self.truth_seen:
                self.truth(sc, node.child_by_field_id(F_ARGUMENT), node)
        elif t == "conditional_expression":  # a if cond else b
            if node.named_child_count >= 2:
                self.truth(sc, node.named_child(1), node)
        elif t == "assert_statement":
            if node.named_child_count:
                self.truth(sc, node.named_child(0), node)
        elif t == "if_clause":  # [x for x in xs if cond]
            if node.named_child_count:
                self.truth(sc, node.named_child(0), node)
        else:  # if / elif / while
            self.truth(sc, node.child_by_field_id(F_CONDITION), node)

    def operator(self, node: Node, t: str, sc: int) -> None:
        """The dunders a binary, comparison or unary operator calls (``BINARY_DUNDERS``)."""
        src = self.src
        if t == "binary_operator":
            op = node.child_by_field_id(F_OPERATOR)
            name = BINARY_DUNDERS.get(src[op.start_byte : op.end_byte]) if op is not None else None
            if name is None:
                return
            left = node.child_by_field_id(F_LEFT)
            right = node.child_by_field_id(F_RIGHT)
            if left is not None:
                if KN[left.kind_id] in NUMBER_KINDS:
                    if right is not None:  # 2 * v: int's __mul__ gives way to v's __rmul__
                        self.operand(sc, right, node, f"__r{name}__")
                else:
                    self.operand(sc, left, node, f"__{name}__")
        elif t == "unary_operator":
            op = node.child_by_field_id(F_OPERATOR)
            name = UNARY_DUNDERS.get(src[op.start_byte : op.end_byte]) if op is not None else None
            arg = node.child_by_field_id(F_ARGUMENT)
            if name is not None and arg is not None:
                self.operand(sc, arg, node, name)
        else:  # a < b <= c, k in c, k not in c: each operator's left operand, or the container
            kids = node.children
            for i in range(1, len(kids) - 1):
                c = kids[i]
                if c.is_named:
                    continue
                text = src[c.start_byte : c.end_byte]
                if text == b"in" or (text.startswith(b"not") and text.endswith(b"in")):  # (`not  in` too)
                    self.operand(sc, kids[i + 1], node, "__contains__")
                else:
                    name = COMPARE_DUNDERS.get(text)
                    if name is not None:  # (object.__ne__ inverts __eq__)
                        self.operand(sc, kids[i - 1], node, name, "__eq__" if name == "__ne__" else "")
