"""Expressions -> tagged values (tags.py): names, attributes, calls, subscripts, displays, literals,
annotations; and the names an ``isinstance`` / ``type(x) is C`` / ``hasattr`` test narrows while
converting. ~650 lines: one converter over the grammar's expression kinds (a dispatch per kind)."""

from __future__ import annotations

from typing import Any

from tree_sitter import Node

from mnemosyne.parse.python.grammar import (
    ACT,
    EK,
    F_ARGUMENT,
    F_ARGUMENTS,
    F_ATTRIBUTE,
    F_BODY,
    F_FUNCTION,
    F_KEY,
    F_LEFT,
    F_NAME,
    F_OBJECT,
    F_OPERATOR,
    F_RIGHT,
    F_SUBSCRIPT,
    F_VALUE,
    KN,
    thread_parser,
)
from mnemosyne.parse.python.tags import (
    CTR_ITEMS,
    CTR_MAPPING,
    CTR_POSITIONS,
    EK_ARGUMENT_LIST,
    EK_ATTRIBUTE,
    EK_CALL,
    EK_COMMENT,
    EK_DICT_SPLAT,
    EK_IDENTIFIER,
    EK_KEYWORD,
    EK_LIST_SPLAT,
    EK_STRING,
    STR_LIT,
    T_ATTR,
    T_CALL,
    T_CLASS_OF,
    T_CONTAINER,
    T_DICT,
    T_INT,
    T_ITEMS,
    T_ITER,
    T_LAMBDA,
    T_LIT,
    T_NAME,
    T_NARROWED,
    T_OP,
    T_OR,
    T_PREFIX,
    T_SENT,
    T_SLICE,
    T_STAR,
    T_STR,
    T_SUBSCRIPT,
    T_TUPLE,
    UNKNOWN,
    Expr,
)
from mnemosyne.parse.python.text import node_text, src_text, string_value

MAX_EXPR_DEPTH = 80  # deeper expressions are recorded as unknown (no recursion-limit crash)
MAX_KEY_LENGTH = 64  # a string argument after the first keeps its value up to this length (a key)

# generic annotations of containers whose items (a mapping's values) are of the type argument
_ITEM_GENERICS = frozenset({
    "list", "List", "Sequence", "MutableSequence", "Iterable", "Iterator", "Collection", "set", "Set", "frozenset",
    "FrozenSet", "AbstractSet", "MutableSet", "tuple", "Tuple", "deque", "Deque", "Generator", "AsyncGenerator",
    "AsyncIterator", "AsyncIterable", "Reversible", "ValuesView",
})
_MAPPING_GENERICS = frozenset({"dict", "Dict", "Mapping", "MutableMapping", "OrderedDict", "DefaultDict", "defaultdict"})

# `X = Dict[str, Node]`: an assignment of a subscript with one of these heads is a type alias
ALIAS_HEADS = _ITEM_GENERICS | _MAPPING_GENERICS | {"Optional", "Union", "Type", "Annotated"}

# operators calling a dunder of their operand's class: binary (the left operand's ``__op__``;
# ``__rop__`` of the right one when the left is a number literal), augmented (``__iop__``, else
# ``__op__``), comparisons, unary. Their result is what it returns (``T_OP``)
BINARY_DUNDERS = {
    b"+": "add", b"-": "sub", b"*": "mul", b"/": "truediv", b"//": "floordiv", b"%": "mod", b"**": "pow",
    b"@": "matmul", b"&": "and", b"|": "or", b"^": "xor", b"<<": "lshift", b">>": "rshift",
}
COMPARE_DUNDERS = {b"==": "__eq__", b"!=": "__ne__", b"<": "__lt__", b"<=": "__le__", b">": "__gt__", b">=": "__ge__"}
UNARY_DUNDERS = {b"-": "__neg__", b"+": "__pos__", b"~": "__invert__"}
NUMBER_KINDS = frozenset({"integer", "float"})
# operand expressions that may be an instance of ours (a literal, display or lambda never is)
OPERAND_TAGS = frozenset({T_NAME, T_ATTR, T_CALL, T_SUBSCRIPT, T_OP})
_CONCAT_KINDS = frozenset({"list", "tuple"})  # displays a ``+`` concatenates (``operation``)

_ATTR_BUILTINS = frozenset({b"getattr", b"hasattr"})  # calls whose second argument names an attribute

# the node types ExprConverter._other makes something of (any other is unknown)
SENT = (T_SENT,)  # the value of every ``yield`` expression
_OTHER_KINDS = frozenset({
    "parenthesized_expression", "await", "subscript", "lambda", "tuple", "list", "set", "expression_list",
    "pattern_list", "tuple_pattern", "list_pattern", "dictionary", "conditional_expression", "boolean_operator",
    "named_expression", "string", "integer", "float", "true", "false", "none", "concatenated_string",
    "list_comprehension", "set_comprehension", "generator_expression", "dictionary_comprehension",
})

_NOT_NARROWED = frozenset({b"self", b"cls"})

_SPLAT_OR_KEYWORD = frozenset({EK_KEYWORD, EK_LIST_SPLAT, EK_DICT_SPLAT})
_TYPE_TESTS = frozenset({"is", "=="})  # ``type(x) is C`` / ``type(x) == C`` narrows x as ``isinstance`` does


class ExprConverter:
    """Converts the expressions of one file's source (memoised per node)."""

    def __init__(self, src: bytes) -> None:
        self.src = src
        self.memo: dict[int, Any] = {}  # attribute / call node id -> its expression
        self.names: dict[bytes, tuple[str, str]] = {}  # one shared (T_NAME, name) per distinct name
        self.lambda_ord: dict[int, int] = {}  # start byte -> ordinal, in order of first encounter
        # call node id -> (function node, the nodes the walk enters below its argument list):
        # read while converting the call, so the walk does not list the arguments again
        self.call_kids: dict[int, tuple[Node | None, list[Node]]] = {}
        # names an enclosing ``isinstance`` test narrowed (raw name -> (T_NARROWED, name, class expr)), and
        # the maps of the regions around this one
        self.narrow: dict[Any, Any] = {}
        self.narrow_saved: list[dict[Any, Any]] = []

    def expr(self, node: Node | None, depth: int = 0) -> Expr:
        if node is None or depth > MAX_EXPR_DEPTH:
            return UNKNOWN
        k = EK[node.kind_id]
        if k == EK_IDENTIFIER:
            raw = self.src[node.start_byte : node.end_byte]
            r = self.names.get(raw)
            if r is None:  # one shared tuple per distinct name of the file
                r = self.names[raw] = (T_NAME, raw.decode("utf-8", "replace"))
            return r
        if k == EK_ATTRIBUTE or k == EK_CALL:  # memoised (the walk meets them again)
            nid = node.id
            r = self.memo.get(nid)
            if r is None:
                r = self._attribute(node, depth) if k == EK_ATTRIBUTE else self._call(node, depth)
                self.memo[nid] = r
            return r
        return self._other(node, KN[node.kind_id], depth)

    def _name(self, node: Node) -> Expr:
        """expr() of an identifier node."""
        raw = self.src[node.start_byte : node.end_byte]
        r = self.names.get(raw)
        if r is None:
            r = self.names[raw] = (T_NAME, raw.decode("utf-8", "replace"))
        return r

    def _attribute(self, node: Node, depth: int) -> Expr:
        obj = node.child_by_field_id(F_OBJECT)
        attr = node.child_by_field_id(F_ATTRIBUTE)
        if attr is None:
            return UNKNOWN
        src = self.src
        if obj is not None and depth < MAX_EXPR_DEPTH and EK[obj.kind_id] == EK_IDENTIFIER:
            raw = src[obj.start_byte : obj.end_byte]
            o = self.names.get(raw)
            if o is None:
                o = self.names[raw] = (T_NAME, raw.decode("utf-8", "replace"))
            if self.narrow:  # x.m() where isinstance(x, C) holds: (T_NARROWED, x, C)
                o = self.narrow.get(raw, o)
        else:
            o = self.expr(obj, depth + 1)
            if self.narrow and EK[obj.kind_id] == EK_ATTRIBUTE:  # type: ignore[union-attr]  # self.node.m() where isinstance(self.node, C) holds
                o = self.narrow.get(o, o)
        return (T_ATTR, o, src[attr.start_byte : attr.end_byte].decode("utf-8", "replace"))

    def _call(self, node: Node, depth: int) -> Expr:
        fn = node.child_by_field_id(F_FUNCTION)
        argl = node.child_by_field_id(F_ARGUMENTS)
        args: list[Any] = []
        kwargs: list[Any] = []
        # what the walk enters below the argument list: its children the walk does not skip, a
        # keyword argument replaced by its value (the walk enters nothing else of it)
        kids: list[Node] = []
        # getattr(obj, "name"): the name is kept, like a first literal argument
        named_attr = fn is not None and EK[fn.kind_id] == EK_IDENTIFIER and self.src[fn.start_byte : fn.end_byte] in _ATTR_BUILTINS
        if argl is not None and EK[argl.kind_id] == EK_ARGUMENT_LIST:
            d1 = depth + 1
            ek = EK
            act = ACT
            for a in argl.named_children:
                at = ek[a.kind_id]
                if at == EK_IDENTIFIER and d1 <= MAX_EXPR_DEPTH:
                    args.append(self.loop_name(a) if named_attr and len(args) == 1 and self.narrow else self._name(a))
                    continue
                if named_attr and len(args) == 1 and at != EK_COMMENT:  # getattr(obj, "visit_" + kind)
                    pfx = self.name_prefix(a)
                    if pfx is not None:
                        args.append((T_PREFIX, *pfx))
                        if act[a.kind_id]:
                            kids.append(a)
                        continue
                if at == EK_KEYWORD:
                    nm = a.child_by_field_id(F_NAME)
                    v = a.child_by_field_id(F_VALUE)
                    kwargs.append((
                        self.src[nm.start_byte : nm.end_byte].decode("utf-8", "replace") if nm else None,
                        self.key_literal(v, d1),
                    ))
                    if v is not None and act[v.kind_id]:
                        kids.append(v)
                    continue
                if at == EK_LIST_SPLAT:
                    args.append((T_STAR, self.expr(a.named_child(0), d1)))
                elif at == EK_DICT_SPLAT:
                    kwargs.append((None, self.expr(a.named_child(0), d1)))
                elif at == EK_STRING:
                    # a literal first argument is kept (mapping.get("key")); others when short
                    # enough to be a key the callee indexes by (``run(table, "load")``)
                    sv = string_value(a, self.src) if a.named_child_count <= 3 else None
                    if sv is not None and len(sv) > MAX_KEY_LENGTH and args and not (named_attr and len(args) == 1):
                        sv = None
                    args.append((T_STR, sv) if sv is not None else STR_LIT)
                    pre = self.src[a.start_byte : a.start_byte + 3]
                    if pre[:1] in (b'"', b"'") or (b"f" not in pre.lower()):
                        continue  # the walk enters f-strings only
                elif at != EK_COMMENT:
                    args.append(self.expr(a, d1))
                if act[a.kind_id]:
                    kids.append(a)
        elif argl is not None:  # generator expression argument
            args.append(UNKNOWN)
            kids.append(argl)
        self.call_kids[node.id] = (fn, kids)
        return (T_CALL, self.expr(fn, depth + 1), tuple(args), tuple(kwargs))

    def operation(self, node: Node, t: str, depth: int) -> Expr:
        """An operator's result (``T_OP``): what the dunder of its operand's class returns (``a + b``,
        ``2 * v``, ``-a``, ``a < b``); unknown for an operand that is never an instance of ours, and
        for ``in``, ``is``, ``not``, chained comparisons (booleans). A concatenation with a list or
        tuple display (``xs + [f]``, ``(a,) + rest``) is a display of both operands' items."""
        src = self.src
        op: Node | None
        if t == "comparison_operator":
            if node.child_count != 3:
                return UNKNOWN
            op = node.child(1)
            name = COMPARE_DUNDERS.get(src[op.start_byte : op.end_byte]) if op is not None else None
            operand: Node | None = node.child(0)
        else:
            op = node.child_by_field_id(F_OPERATOR)
            if op is None:
                return UNKNOWN
            if t == "unary_operator":
                name = UNARY_DUNDERS.get(src[op.start_byte : op.end_byte])
                operand = node.child_by_field_id(F_ARGUMENT)
            else:
                optext = src[op.start_byte : op.end_byte]
                left, right = node.child_by_field_id(F_LEFT), node.child_by_field_id(F_RIGHT)
                if optext == b"+" and left is not None and right is not None and (
                    KN[left.kind_id] in _CONCAT_KINDS or KN[right.kind_id] in _CONCAT_KINDS
                ):  # xs + [f]: a list (tuple) of both operands' items (a display's spelled out)
                    parts: list[Expr] = []
                    for side in (left, right):
                        se = self.expr(side, depth + 1)
                        if KN[side.kind_id] in _CONCAT_KINDS and se[0] == T_TUPLE:
                            parts.extend(se[1])
                        else:
                            parts.append((T_STAR, se))
                    return (T_TUPLE, tuple(parts))
                bname = BINARY_DUNDERS.get(optext)
                operand = left
                name = f"__{bname}__" if bname is not None else None
                if operand is not None and KN[operand.kind_id] in NUMBER_KINDS:
                    operand = node.child_by_field_id(F_RIGHT)  # 2 * v: v's __rmul__
                    name = f"__r{bname}__" if bname is not None else None
        if name is None or operand is None:
            return UNKNOWN
        e = self.expr(operand, depth + 1)
        return (T_OP, e, name, "") if e[0] in OPERAND_TAGS else UNKNOWN

    def name_prefix(self, node: Node) -> tuple[str, str, Expr] | None:
        """The literal start and end of a name built from a string with one hole (``"visit_" +
        kind``, ``"as_" + v + "_sql"``, ``"_get_%s_perms" % v``, ``f"do_{cmd}"``, ``"on_{}".format(e)``),
        when the start is not empty and both are parts of an identifier, and the hole: a name
        (``kind``: the resolver may know the strings it holds), else unknown; else None."""
        t = KN[node.kind_id]
        src = self.src
        head: str | None = None
        tail = ""
        hole: Node | None = None
        if t == "binary_operator":
            left = node.child_by_field_id(F_LEFT)
            op = node.child_by_field_id(F_OPERATOR)
            opt = src[op.start_byte : op.end_byte] if op is not None else b""
            if left is None or opt not in (b"+", b"%"):
                return None
            if KN[left.kind_id] == "binary_operator" and opt == b"+":  # ("as_" + v) + "_sql"
                right = node.child_by_field_id(F_RIGHT)
                inner = self.name_prefix(left)
                tv = string_value(right, src) if right is not None and KN[right.kind_id] == "string" else None
                if inner is None or inner[1] or tv is None:
                    return None
                return (inner[0], tv, inner[2]) if (inner[0] + "x" + tv).isidentifier() else None
            elif KN[left.kind_id] == "string":
                sv = string_value(left, src)
                if sv is None:
                    return None
                hole = node.child_by_field_id(F_RIGHT)
                if opt == b"+":
                    head = sv
                elif sv.count("%") == 1 and sv.split("%", 1)[1][:1] in ("s", "d", "r"):
                    head, tail = sv.split("%", 1)[0], sv.split("%", 1)[1][1:]
        elif t == "string":
            raw = src_text(src, node)
            i = 0
            while i < 2 and raw[i : i + 1].isalpha():
                i += 1
            q = raw[i : i + 3] if raw[i : i + 3] in ('"""', "'''") else raw[i : i + 1]
            body = raw[i + len(q) : len(raw) - len(q)]
            if "f" in raw[:i].lower() and body.count("{") == 1 and body.count("}") == 1:
                head, tail = body.split("{", 1)[0], body.split("}", 1)[1]
                hole = next((c.named_child(0) for c in node.named_children if KN[c.kind_id] == "interpolation" and c.named_child_count), None)
        elif t == "call":
            fn = node.child_by_field_id(F_FUNCTION)
            obj = fn.child_by_field_id(F_OBJECT) if fn is not None and KN[fn.kind_id] == "attribute" else None
            if fn is None or obj is None or KN[obj.kind_id] != "string":
                return None
            if not src_text(src, fn).endswith(".format"):
                return None
            sv = string_value(obj, src)
            if sv is not None and sv.count("{") == 1 and sv.count("}") == 1:
                head, tail = sv.split("{", 1)[0], sv.split("}", 1)[1]
                argl = node.child_by_field_id(F_ARGUMENTS)
                hole = argl.named_child(0) if argl is not None and argl.named_child_count == 1 else None
        if not head or not (head + "x" + tail).isidentifier():
            return None
        return head, tail, self.loop_name(hole) if hole is not None and EK[hole.kind_id] == EK_IDENTIFIER else UNKNOWN

    def loop_name(self, node: Node) -> Expr:
        """A name naming an attribute (``getattr(obj, name)``, ``"do_" + name``): in the body of a
        ``for name in ...`` over a display of strings or over a name, what that loop iterates,
        ``(T_ITER, iterable)`` (the walk's region, ``narrow``); else the name."""
        raw = self.src[node.start_byte : node.end_byte]
        return self.narrow.get((T_ITER, raw)) or self._name(node)

    def key_literal(self, node: Node | None, depth: int = 0) -> Expr:
        """``expr``, where a short plain string literal keeps its value: a keyword argument's or a
        parameter default's, which a callee may index by (``by_keyword(key="dump")``)."""
        if node is not None and EK[node.kind_id] == EK_STRING and node.named_child_count <= 3:
            sv = string_value(node, self.src)
            return (T_STR, sv) if sv is not None and len(sv) <= MAX_KEY_LENGTH else STR_LIT
        return self.expr(node, depth)

    def _other(self, node: Node, t: str, depth: int) -> Expr:
        if t == "string":
            # the resolver only reads a string's value as a key: subscripts, dict displays, call
            # arguments and parameter defaults (``key_literal``) compute it themselves
            return STR_LIT
        if t not in _OTHER_KINDS:
            if t == "yield":  # fn = yield: what gen.send(v) passes in (not ``yield from``: the subgenerator's return)
                return UNKNOWN if any(KN[c.kind_id] == "from" for c in node.children) else SENT
            if t == "unary_operator":  # -1: a literal index
                txt = src_text(self.src, node).replace(" ", "")
                if txt[:1] == "-" and txt[1:].isdigit():
                    return (T_INT, int(txt))
            if t == "binary_operator" or t == "unary_operator" or t == "comparison_operator":
                r = self.memo.get(node.id)  # memoised: the walk converts a + b + c's operands again
                if r is None:
                    r = self.memo[node.id] = self.operation(node, t, depth)
                return r
            return UNKNOWN
        if t in ("float", "true", "false", "none", "concatenated_string"):
            return (T_LIT, t)
        if t == "parenthesized_expression" or t == "await":
            return self.expr(node.named_child(0) if node.named_child_count else None, depth + 1)
        if t == "subscript":
            base = self.expr(node.child_by_field_id(F_VALUE), depth + 1)
            subs = node.children_by_field_id(F_SUBSCRIPT)
            key: Any = UNKNOWN
            if len(subs) == 1:
                k = subs[0]
                if KN[k.kind_id] == "string":
                    sv = string_value(k, self.src)
                    key = (T_STR, sv) if sv is not None else UNKNOWN
                elif KN[k.kind_id] == "integer":
                    try:
                        key = (T_INT, int(src_text(self.src, k), 0))
                    except ValueError:
                        key = UNKNOWN
                elif KN[k.kind_id] == "unary_operator" and src_text(self.src, k).replace(" ", "").lstrip("-").isdigit():
                    key = (T_INT, int(src_text(self.src, k).replace(" ", "")))
                elif KN[k.kind_id] == "slice":
                    key = _slice_key(k)
                elif EK[k.kind_id] == EK_IDENTIFIER:  # a name: the resolver may find it is a constant
                    key = self._name(k)
            return (T_SUBSCRIPT, base, key)
        if t == "lambda":
            return (T_LAMBDA, self.lambda_ord.setdefault(node.start_byte, len(self.lambda_ord)))
        if t in ("tuple", "list", "set", "expression_list", "pattern_list", "tuple_pattern", "list_pattern"):
            return (T_TUPLE, tuple([
                (T_STAR, self.expr(c.named_child(0) if c.named_child_count else None, depth + 1))
                if EK[c.kind_id] == EK_LIST_SPLAT else self.key_literal(c, depth + 1)  # [*xs, f]: the items of xs; ("a", "b") keeps its strings
                for c in node.named_children if KN[c.kind_id] != "comment"
            ]))
        if t == "dictionary":
            items = []
            for c in node.named_children:
                if KN[c.kind_id] == "pair":
                    kn = c.child_by_field_id(F_KEY)
                    kv: Any = UNKNOWN
                    if kn is not None and KN[kn.kind_id] == "string":
                        sv = string_value(kn, self.src)
                        kv = (T_STR, sv) if sv is not None else UNKNOWN
                    elif kn is not None and KN[kn.kind_id] == "integer":
                        try:
                            kv = (T_INT, int(src_text(self.src, kn), 0))
                        except ValueError:
                            kv = UNKNOWN
                    items.append((kv, self.expr(c.child_by_field_id(F_VALUE), depth + 1)))
                elif KN[c.kind_id] == "dictionary_splat" and c.named_child_count:
                    # {**base, "k": v}: base's items, under its keys (('*', base)), its values any of them
                    sub = self.expr(c.named_child(0), depth + 1)
                    items.append(((T_STAR, sub), (T_ITEMS, (T_CALL, (T_ATTR, sub, "values"), (), ()))))
            return (T_DICT, tuple(items))
        if t == "conditional_expression":
            ch = node.named_children
            if len(ch) >= 3:  # (a narrowed where the condition is an isinstance test)
                return (T_OR, (self.narrowed_by(ch[1], self.expr, ch[0], depth + 1), self.expr(ch[2], depth + 1)))
            return UNKNOWN
        if t == "boolean_operator":
            left = node.child_by_field_id(F_LEFT)
            right = node.child_by_field_id(F_RIGHT)
            if self.is_and(node):
                return (T_OR, (self.expr(left, depth + 1), self.narrowed_by(left, self.expr, right, depth + 1)))
            return (T_OR, (self.expr(left, depth + 1), self.expr(right, depth + 1)))
        if t == "named_expression":
            return self.expr(node.child_by_field_id(F_VALUE), depth + 1)
        if t == "string":
            # the resolver only reads a string's value as a key: subscripts, dict displays, call
            # arguments and parameter defaults (``key_literal``) compute it themselves
            return STR_LIT
        if t == "integer":
            try:
                return (T_INT, int(src_text(self.src, node), 0))
            except ValueError:
                return (T_LIT, "int")
        if t in ("float", "true", "false", "none", "concatenated_string"):
            return (T_LIT, t)
        if t in ("list_comprehension", "set_comprehension", "generator_expression"):
            # its items, at unknown positions (comprehension variables bind in this scope)
            body = node.child_by_field_id(F_BODY)
            return (T_TUPLE, ((T_STAR, UNKNOWN), self.expr(body, depth + 1))) if body is not None else (T_LIT, t)
        if t == "dictionary_comprehension":
            body = node.child_by_field_id(F_BODY)
            if body is not None and KN[body.kind_id] == "pair":
                return (T_DICT, ((UNKNOWN, self.expr(body.child_by_field_id(F_VALUE), depth + 1)),))
            return (T_LIT, t)
        return UNKNOWN

    def ann_text(self, sv: str, depth: int = 0) -> list[Expr]:
        """An annotation written as text (a string annotation, a ``# type:`` comment)."""
        if "[" not in sv:
            return [e for e in (_dotted_expr(p.strip()) for p in sv.split("|")) if e is not None]
        # "Optional[Foo]", "list[Bar]": the text parsed as an annotation of its own
        sub = sv.strip().encode()
        expr = thread_parser().parse(sub).root_node.named_child(0)
        if expr is None or KN[expr.kind_id] != "expression_statement" or not expr.named_child_count:
            return []
        return ExprConverter(sub).ann(expr.named_child(0), depth + 1)

    def ann(self, node: Node | None, depth: int = 0) -> list[Expr]:
        """Annotation -> the class expressions it may denote (Optional/Union/| unpacked)."""
        if node is None or depth > 20:
            return []
        t = KN[node.kind_id]
        if t == "type":
            return self.ann(node.named_child(0) if node.named_child_count else None, depth + 1)
        if t in ("identifier", "attribute"):
            return [self.expr(node)]
        if t == "string":
            sv = string_value(node, self.src)
            return [] if sv is None else self.ann_text(sv, depth)
        if t == "binary_operator":
            return self.ann(node.child_by_field_id(F_LEFT), depth + 1) + self.ann(node.child_by_field_id(F_RIGHT), depth + 1)
        if t == "generic_type" or t == "subscript":
            head = node.named_child(0) if t == "generic_type" else node.child_by_field_id(F_VALUE)
            hname = src_text(self.src, head).rsplit(".", 1)[-1] if head is not None else ""
            if hname in _ITEM_GENERICS or hname in _MAPPING_GENERICS:
                # a container of instances: ('ctr', CTR_ITEMS | CTR_MAPPING, item annotations); a mapping's
                # items are its values, an iterator's / generator's what it yields
                if t == "generic_type":
                    tp = node.named_child(1) if node.named_child_count > 1 else None
                    args = tp.named_children if tp is not None else []
                else:
                    args = node.children_by_field_id(F_SUBSCRIPT)
                if hname in _MAPPING_GENERICS:
                    args = args[1:2]
                elif hname not in ("tuple", "Tuple"):
                    args = args[:1]
                elif args and b"..." not in (src_text(self.src, a).encode() for a in args):
                    # tuple[A, B]: item i is an A / a B (CTR_POSITIONS: one annotation per position), so
                    # `a, b = pair()` and `pair()[1]` pick theirs
                    return [(T_CONTAINER, CTR_POSITIONS, tuple(tuple(self.ann(a, depth + 1)) for a in args))]
                items = tuple(e for a in args for e in self.ann(a, depth + 1))
                return [(T_CONTAINER, CTR_MAPPING if hname in _MAPPING_GENERICS else CTR_ITEMS, items)] if items else []
            if hname in ("Optional", "Union", "Annotated", "Final", "ClassVar", "Type", "type"):
                out: list[Any] = []
                if t == "generic_type":
                    tp = node.named_child(1) if node.named_child_count > 1 else None
                    args = tp.named_children if tp is not None else []
                else:
                    args = node.children_by_field_id(F_SUBSCRIPT)
                if hname == "Annotated" or hname in ("Final", "ClassVar"):
                    args = args[:1]
                for a in args:
                    out.extend(self.ann(a, depth + 1))
                if hname in ("Type", "type"):
                    return [(T_CLASS_OF, e) for e in out]
                return out
            return []
        return []

    def is_and(self, node: Node) -> bool:
        """``node`` (a boolean operator) is an ``and``."""
        op = node.child_by_field_id(F_OPERATOR)
        return op is not None and self.src[op.start_byte : op.end_byte] == b"and"

    def narrowed_by(self, cond: Node | None, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` with the names an ``isinstance`` in ``cond`` narrows: for what is converted
        (and memoised) where ``cond`` holds before the walk meets it (``a if cond else b``, the
        right operand of ``and``)."""
        names = self.narrowed_names(cond) if cond is not None else None
        if not names:
            return fn(*args)
        saved = self.narrow
        self.narrow = {**saved, **names}
        try:
            return fn(*args)
        finally:
            self.narrow = saved

    def narrowed_names(self, cond: Node | None, single: bool = False) -> dict[Any, Any]:
        """What ``cond`` narrows when true: ``isinstance(x, C)``, also in an ``and`` chain (not
        with ``single``) -> {raw x: (T_NARROWED, x, C's expression)}, not ``self``/``cls``; for an
        attribute ``isinstance(self.node, C)``, keyed by the attribute's expression."""
        out: dict[Any, Any] = {}
        todo = [cond]
        while todo:
            v = todo.pop()
            if v is None:
                continue
            k = KN[v.kind_id]
            if k == "parenthesized_expression":
                todo.append(v.named_child(0) if v.named_child_count == 1 else None)
            elif k == "boolean_operator" and not single:
                if self.is_and(v):
                    todo += (v.child_by_field_id(F_RIGHT), v.child_by_field_id(F_LEFT))
            elif k == "call" or (k == "comparison_operator" and self.src.startswith(b"type(", v.start_byte)):
                args = self._narrowing_args(v) if k == "call" else self._type_test_args(v)
                if args is None:
                    continue
                ek = EK[args[0].kind_id]
                if ek == EK_IDENTIFIER:  # a name: keyed by its text
                    key: Any = self.src[args[0].start_byte : args[0].end_byte]
                    if key in _NOT_NARROWED:
                        continue
                    target = self._name(args[0])
                elif ek == EK_ATTRIBUTE:  # an attribute (self.node): keyed by its expression
                    key = target = self.expr(args[0], 1)
                    if target is UNKNOWN:
                        continue
                else:
                    continue
                if key not in out:
                    # (hasattr's literal name: ``("str", "m")``)
                    ce = self.key_literal(args[1], 1)
                    if ce[0] == T_STR or KN[args[1].kind_id] != "string":
                        out[key] = (T_NARROWED, target, ce)
        return out


    def _narrowing_args(self, v: Node) -> list[Node] | None:
        """``isinstance(x, C)``: [x, C]; ``hasattr(x, "m")``: [x, "m"] (a literal name); None for
        another call."""
        fn = v.child_by_field_id(F_FUNCTION)
        argl = v.child_by_field_id(F_ARGUMENTS)
        if fn is None or argl is None:
            return None
        name = self.src[fn.start_byte : fn.end_byte]
        if name != b"isinstance" and name != b"hasattr":
            return None
        args = [a for a in argl.named_children if EK[a.kind_id] != EK_COMMENT]
        if len(args) != 2 or EK[args[1].kind_id] in _SPLAT_OR_KEYWORD:
            return None
        if name == b"hasattr" and KN[args[1].kind_id] != "string":
            return None
        return args

    def _type_test_args(self, v: Node) -> list[Node] | None:
        """``type(x) is C`` / ``type(x) == C`` (narrowing as ``isinstance(x, C)`` does: x is a C,
        or of a subclass of C for ``==`` on a metaclass's ``__eq__``): [x, C]; None otherwise."""
        if v.child_count != 3:
            return None
        call, test = v.child(0), v.child(1)
        if call is None or test is None or EK[call.kind_id] != EK_CALL or KN[test.kind_id] not in _TYPE_TESTS:
            return None
        fn = call.child_by_field_id(F_FUNCTION)
        argl = call.child_by_field_id(F_ARGUMENTS)
        if fn is None or argl is None or self.src[fn.start_byte : fn.end_byte] != b"type":
            return None
        args = [a for a in argl.named_children if EK[a.kind_id] != EK_COMMENT]
        if len(args) != 1 or EK[args[0].kind_id] in _SPLAT_OR_KEYWORD:
            return None
        right = v.child(2)
        return [args[0], right] if right is not None else None


def _slice_key(node: Node) -> Expr:
    """``x[lo:hi]`` -> ``('sl', lo, hi)`` with int literals or None for a missing bound; any
    other slice (a step, computed bounds) -> ``('sl',)``."""
    parts: list[Node | None] = [None, None, None]
    pos = 0
    for c in node.children:
        if KN[c.kind_id] == ":":
            pos += 1
        elif pos < 3 and KN[c.kind_id] != "comment":
            parts[pos] = c
    if parts[2] is not None:
        return (T_SLICE,)
    bounds: list[int | None] = []
    for b in parts[:2]:
        if b is None:
            bounds.append(None)
            continue
        txt = node_text(b).replace(" ", "")
        if KN[b.kind_id] in ("integer", "unary_operator") and txt.lstrip("-").isdigit():
            bounds.append(int(txt))
        else:
            return (T_SLICE,)
    return (T_SLICE, bounds[0], bounds[1])


def _dotted_expr(s: str) -> Expr | None:
    parts = s.split(".")
    if not parts or not all(p.isidentifier() for p in parts):
        return None
    e: Any = (T_NAME, parts[0])
    for p in parts[1:]:
        e = (T_ATTR, e, p)
    return e
