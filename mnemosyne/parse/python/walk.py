"""The statement walk: one iterative pass over the tree that records call sites, attribute loads and
stores, ``for`` / ``with`` sites, returns, yields and assignments into the scopes.

~630 lines, over the ~600 of the guide: one iterative walk (its loop and the statement kinds it
dispatches to share the stack and the flow order), and its tag imports take a line each."""

from __future__ import annotations

from typing import Any

from tree_sitter import Node

from mnemosyne.parse.python.expr import ALIAS_HEADS, BINARY_DUNDERS
from mnemosyne.parse.python.grammar import (
    ACT,
    ACTW,
    EK,
    F_ALIAS,
    F_ARGUMENTS,
    F_BODY,
    F_CONSEQUENCE,
    F_FUNCTION,
    F_LEFT,
    F_NAME,
    F_OBJECT,
    F_OPERATOR,
    F_RIGHT,
    F_SUBJECT,
    F_TYPE,
    F_VALUE,
    KN,
    MK,
    TRUTH_TESTS,
)
from mnemosyne.parse.python.model import CALLABLE_KINDS, Scope
from mnemosyne.parse.python.sites import _END_MARK as END_MARK
from mnemosyne.parse.python.sites import NARROWING, SiteRecorder
from mnemosyne.parse.python.sites import _Mark as Mark
from mnemosyne.parse.python.tags import (
    ACT_METRIC,
    ACT_PAREN,
    ACT_SPECIAL,
    ACT_STRING,
    ACT_WALK,
    CALL_PLAIN,
    CALL_RAISE,
    CTX_CALLEE,
    CTX_DEL,
    CTX_LOAD,
    CTX_STORE,
    EK_ATTRIBUTE,
    EK_IDENTIFIER,
    SCOPE_MODULE,
    STORE_DELETER,
    STORE_SETTER,
    STR_LIT,
    T_ANN,
    T_ATTR,
    T_AWITH,
    T_CALL,
    T_DICT,
    T_EXC,
    T_INT,
    T_ITEMS,
    T_ITER,
    T_LIT,
    T_NAME,
    T_NARROWED,
    T_OP,
    T_STR,
    T_SUBSCRIPT,
    T_TUPLE,
    T_TYPE_ALIAS,
    T_WITH,
    UNKNOWN,
    Expr,
)
from mnemosyne.parse.python.text import docstring_of, src_text, string_value, type_comment

# binding values that ``a += b`` leaves of the same kind (``augmented``): literals and displays
_PLAIN_VALUES = frozenset({T_INT, T_LIT, T_STR, T_TUPLE, T_DICT})
_MUTATORS = frozenset({"append", "add", "appendleft", "insert", "setdefault", "extend", "extendleft", "update"})


_SETATTR = (T_NAME, "setattr")  # the builtin whose call with a literal name stores an attribute


class Walker(SiteRecorder):
    """Builds scopes while walking the tree (iteratively)."""

    # ---------------------------------------------------------------- walk
    def run(self, root: Node) -> None:
        self.scopes.append(
            Scope(kind=SCOPE_MODULE, name="", qual="", parent=-1, owner=0, line_start=1, line_end=root.end_point[0] + 1)
        )
        self.scopes[0].docstring = docstring_of(root, self.src)
        self.flow_path = [(root, root.start_byte, root.end_byte, root.id, root.kind_id)]  # (flow order's ``ancestors``)
        # the codes (tags.py) as locals: as cheap to read as literals in the loop below
        LOAD, CALLEE, STORE, DEL = CTX_LOAD, CTX_CALLEE, CTX_STORE, CTX_DEL
        WALK, STRING, PAREN, SPECIAL, METRIC = ACT_WALK, ACT_STRING, ACT_PAREN, ACT_SPECIAL, ACT_METRIC
        # stack of (node, scope, context: a CTX_* code)
        stack: list[tuple[Node, int, int]] = [(root, 0, LOAD)]
        push = stack.append
        pop = stack.pop
        kn = KN
        src = self.src
        act = ACT
        actw = ACTW
        memo = self.memo
        call_kids = self.call_kids
        scopes = self.scopes
        ek = EK
        mk = MK
        mnodes = self.metric_nodes
        reach = self.reach
        while stack:
            node, sc, ctx = pop()
            kid = node.kind_id
            a = act[kid]
            if a == WALK:  # most nodes: just walk their children (Node.children with the anonymous
                # ones filtered out costs less than Node.named_children)
                for c in reversed(node.children):
                    if actw[c.kind_id]:
                        push((c, sc, LOAD))
                continue
            if mk[kid]:  # a decision point or a block: recorded for the metrics (parse/metrics.py)
                mnodes.append((mk[kid], node.start_byte, node.end_byte, sc))
                if a == METRIC:  # nothing else to do with it: walked like WALK
                    for c in reversed(node.children):
                        if actw[c.kind_id]:
                            push((c, sc, LOAD))
                    continue
            if a != SPECIAL:
                if a == STRING:
                    # only f-strings hold code (interpolations); a plain literal is skipped whole
                    pre = src[node.start_byte : node.start_byte + 3]
                    if pre[:1] in (b'"', b"'") or (b"f" not in pre.lower()):
                        continue
                    for c in reversed(node.named_children):
                        if act[c.kind_id]:
                            push((c, sc, LOAD))
                elif a == PAREN:
                    for c in reversed(node.named_children):
                        if act[c.kind_id]:
                            push((c, sc, ctx))
                continue
            t = kn[kid]
            self.at = node
            if t == "call":
                nid = node.id
                e = memo.get(nid)  # self.expr(node)
                if e is None:
                    e = memo[nid] = self._call(node, 0)
                owner_calls = scopes[scopes[sc].owner].calls
                f0 = e[1][0]
                if (f0 == T_NAME or f0 == T_SUBSCRIPT) and reach:
                    r = self.reaching(sc, e[1], node)
                    if r is not None:
                        self.flows.append((scopes[sc].owner, len(owner_calls), sc, e[1][1] if f0 == T_NAME else e[1][1][1], r, False))
                elif f0 == T_CALL and reach:  # d.get("k")()
                    ri = self.reaching_item(sc, e[1], node)
                    if ri is not None:
                        self.flows.append((scopes[sc].owner, len(owner_calls), sc, ri[0], ri[1], False))
                elif f0 == T_ATTR and e[1][1][0] == T_NAME and reach:  # x = A(); x = B(); x.m(): B's m
                    r = self.reaching(sc, e[1][1], node)
                    if r is not None:
                        self.flows.append((scopes[sc].owner, len(owner_calls), sc, e[1][1][1], (T_ATTR, r, e[1][2]), False))
                owner_calls.append((e, node.start_point[0] + 1, CALL_PLAIN, sc))
                if e[1][0] == T_ATTR and e[1][2] in _MUTATORS:
                    self.container_mutation(sc, e)
                elif e[1] == _SETATTR and len(e[2]) == 3 and e[2][0][0] == T_NAME and e[2][1][0] == T_STR:
                    # setattr(obj, "name", v): obj.name = v
                    scopes[sc].attr_stores.append((e[2][0][1], e[2][1][1], e[2][2]))
                ck = call_kids.pop(nid, None)
                if ck is None:  # (not met twice, but should it be)
                    argl = node.child_by_field_id(F_ARGUMENTS)
                    if argl is not None:
                        push((argl, sc, LOAD))
                    fn = node.child_by_field_id(F_FUNCTION)
                else:
                    fn, kids = ck
                    for c in reversed(kids):
                        push((c, sc, LOAD))
                if fn is not None:
                    fk = fn.kind_id
                    if ek[fk] == EK_ATTRIBUTE:  # an attribute callee (CALLEE: no load): the walk enters its object
                        obj = fn.child_by_field_id(F_OBJECT)
                        if obj is not None and act[obj.kind_id]:
                            push((obj, sc, LOAD))
                    elif act[fk]:
                        push((fn, sc, CALLEE))
                continue
            if t == "attribute":
                obj = node.child_by_field_id(F_OBJECT)
                if ctx == LOAD:
                    e = memo.get(node.id)  # self.expr(node)
                    if e is None:
                        e = self.expr(node)
                    scopes[scopes[sc].owner].loads.append((e, node.start_point[0] + 1, sc))
                elif ctx == STORE or ctx == DEL:  # obj.prop = v / del obj.prop: a property's setter / deleter
                    e = self.expr(node)
                    scopes[scopes[sc].owner].stores.append((e, node.start_point[0] + 1, sc, STORE_SETTER if ctx == STORE else STORE_DELETER))
                if obj is not None and act[obj.kind_id]:
                    push((obj, sc, LOAD))
                continue
            if t == "subscript":  # x[k]: __getitem__ (__setitem__ as a target, __delitem__ in del)
                v = node.child_by_field_id(F_VALUE)
                if v is not None:
                    self.operand(sc, v, node, "__getitem__" if ctx < STORE else "__setitem__" if ctx == STORE else "__delitem__")
                for c in reversed(node.children):
                    if actw[c.kind_id]:
                        push((c, sc, LOAD))
                continue
            if t == "binary_operator" or t == "comparison_operator" or t == "unary_operator":
                self.operator(node, t, sc)
                for c in reversed(node.children):
                    if actw[c.kind_id]:
                        push((c, sc, LOAD))
                continue
            if t == "assignment":
                self.assignment(node, sc, push)
                continue
            if t in TRUTH_TESTS:
                self.truth_test(node, t, sc)
                if t in NARROWING and self.narrowing(node, t, sc, stack):
                    continue
                for c in reversed(node.children):
                    if actw[c.kind_id]:
                        push((c, sc, LOAD))
                continue
            if t == "return_statement":
                if node.named_child_count:
                    v = node.named_child(0)
                    scopes[sc].returns.append(self.expr(v))
                    if act[v.kind_id]:
                        push((v, sc, LOAD))
                continue
            if t == "keyword_argument":
                v = node.child_by_field_id(F_VALUE)
                if v is not None and act[v.kind_id]:
                    push((v, sc, LOAD))
                continue
            if t == "augmented_assignment":
                left = node.child_by_field_id(F_LEFT)
                right = node.child_by_field_id(F_RIGHT)
                if sc == 0 and left is not None and KN[left.kind_id] == "identifier" and src_text(self.src, left) == "__all__":
                    self.collect_all(right, extend=True)
                op = node.child_by_field_id(F_OPERATOR)
                name = BINARY_DUNDERS.get(self.src[op.start_byte : op.end_byte - 1]) if op is not None else None
                if name is not None and left is not None:  # a += b: __iadd__, else __add__
                    ops = scopes[scopes[sc].owner].ops
                    at = len(ops)
                    self.operand(sc, left, node, f"__i{name}__", f"__{name}__")
                    if KN[left.kind_id] == "identifier":  # a is now what that returns
                        self.augmented(sc, left, node, name, at if len(ops) > at else -1)
                if left is not None and right is not None and name in ("or", "add"):
                    # d |= {...} / d |= other: d.update(...); xs += [f]: xs.extend([f])
                    rexpr = self.expr(right)
                    if name == "or" or rexpr[0] == T_TUPLE:
                        meth = "update" if name == "or" else "extend"
                        self.container_mutation(sc, (T_CALL, (T_ATTR, self.expr(left), meth), (rexpr,), ()))
                if right is not None:
                    push((right, sc, LOAD))
                if left is not None:
                    push((left, sc, LOAD))
                continue
            if t == "decorated_definition":
                self.definition(node, sc, push)
                continue
            if t == "function_definition" or t == "class_definition":
                self.definition(node, sc, push)
                continue
            if t == "lambda":
                self.lambda_(node, sc, push)
                continue
            if t == "for_statement" or t == "for_in_clause":
                left = node.child_by_field_id(F_LEFT)
                rights = node.children_by_field_id(F_RIGHT)
                right = rights[0] if rights else None
                it = self.expr(right)
                first = node.child(0)
                is_async = first is not None and KN[first.kind_id] == "async"
                self.scopes[self.scopes[sc].owner].iters.append((it, node.start_point[0] + 1, sc, is_async))
                self.bind_target(sc, left, (T_ITER, it))
                kids = [c for c in node.named_children if c != left]
                body = node.child_by_field_id(F_BODY) if t == "for_statement" and left is not None and EK[left.kind_id] == EK_IDENTIFIER else None
                # for name in ("a", "b") / in NAMES: getattr(obj, name) in the body names what this loop
                # iterates (a region, as isinstance narrowing's: loop_name)
                loop = (T_ITER, self.src[left.start_byte : left.end_byte]) if body is not None and (it[0] == T_NAME or (  # type: ignore[union-attr]
                    it[0] == T_TUPLE and it[1] and all(x[0] == T_STR for x in it[1]))) else None
                for c in reversed(kids):
                    if loop is not None and c == body:
                        self.region(stack, c, sc, {loop: (T_ITER, it)})
                        continue
                    push((c, sc, LOAD))
                if left is not None:
                    push((left, sc, STORE))
                continue
            if t == "with_item":
                v = node.child_by_field_id(F_VALUE)
                if v is not None and KN[v.kind_id] == "as_pattern":
                    val = v.named_child(0)
                    alias = v.child_by_field_id(F_ALIAS)
                    e = self.expr(val)
                    is_async = self.add_with(sc, node, e)
                    self.bind_target(sc, alias, (T_AWITH if is_async else T_WITH, e))
                    if val is not None:
                        push((val, sc, LOAD))
                    if alias is not None:
                        push((alias, sc, STORE))
                elif v is not None:
                    self.add_with(sc, node, self.expr(v))
                    push((v, sc, LOAD))
                continue
            if t == "except_clause":
                v = node.child_by_field_id(F_VALUE)
                if v is None:
                    # older grammar shapes: first named child
                    v = node.named_child(0) if node.named_child_count and node.named_child(0).type != "block" else None
                if v is not None and KN[v.kind_id] == "as_pattern":
                    etype = v.named_child(0)
                    alias = v.child_by_field_id(F_ALIAS)
                    classes = self.expr(etype)
                    cl = classes[1] if classes[0] == T_TUPLE else [classes]
                    self.bind_target(sc, alias, (T_EXC, tuple(cl)))
                for c in reversed(node.named_children):
                    push((c, sc, LOAD))
                continue
            if t == "raise_statement":
                ex = node.named_child(0) if node.named_child_count else None
                if ex is not None and KN[ex.kind_id] in ("identifier", "attribute"):
                    # `raise E` instantiates E
                    s = self.scopes[sc]
                    self.scopes[s.owner].calls.append(((T_CALL, self.expr(ex), (), ()), node.start_point[0] + 1, CALL_RAISE, sc))
                for c in reversed(node.named_children):
                    push((c, sc, CALLEE if ex is not None and c == ex and KN[ex.kind_id] in ("identifier", "attribute") else LOAD))
                continue
            if t == "yield":
                s = self.scopes[sc]
                if s.kind in CALLABLE_KINDS:
                    s.is_generator = True
                    vals = [c for c in node.named_children if KN[c.kind_id] != "comment"]
                    if vals:
                        e = self.expr(vals[-1])
                        s.yields.append((T_ITEMS, e) if any(KN[c.kind_id] == "from" for c in node.children) else e)
                for c in reversed(node.named_children):
                    push((c, sc, LOAD))
                continue
            if t == "global_statement" or t == "nonlocal_statement":
                s = self.scopes[sc]
                names = {src_text(self.src, c) for c in node.named_children if KN[c.kind_id] == "identifier"}
                (s.globals if t == "global_statement" else s.nonlocals).update(names)
                continue
            if t == "import_statement":
                self.import_(node, sc)
                continue
            if t == "import_from_statement":
                self.import_from(node, sc)
                continue
            if t == "future_import_statement":
                continue
            if t == "named_expression":
                nm = node.child_by_field_id(F_NAME)
                wv = node.child_by_field_id(F_VALUE)
                # PEP 572: a walrus in a comprehension binds in the enclosing function: same here
                self.bind_target(sc, nm, self.expr(wv))
                if wv is not None:
                    push((wv, sc, LOAD))
                continue
            if t == "interpolation":  # f"{x}": format(x) (object's calls str(x)); f"{x!r}": repr(x)
                kids = node.named_children
                if kids:
                    conv = next((c for c in kids if KN[c.kind_id] == "type_conversion"), None)
                    if conv is None:
                        self.operand(sc, kids[0], node, "__format__", "__str__")
                    else:
                        self.operand(sc, kids[0], node, "__str__" if self.src[conv.end_byte - 1 : conv.end_byte] == b"s" else "__repr__")
                    for c in reversed(kids):
                        if act[c.kind_id]:
                            push((c, sc, LOAD))
                continue
            if t == "delete_statement":  # del x[k]
                for c in reversed(node.named_children):
                    if act[c.kind_id]:
                        push((c, sc, DEL))
                continue
            if t == "type_alias_statement":  # type X = ...: what annotations naming X mean
                left = node.child_by_field_id(F_LEFT)
                if left is not None and left.named_child_count and EK[left.named_child(0).kind_id] == EK_IDENTIFIER:
                    meant = self.ann(node.child_by_field_id(F_RIGHT))
                    if meant:
                        self.bind(sc, src_text(self.src, left.named_child(0)), (T_TYPE_ALIAS, tuple(meant)))
                # walked as before: the grammar also reads `type(obj).name = f()` as this statement
                for c in reversed(node.children):
                    if actw[c.kind_id]:
                        push((c, sc, LOAD))
                continue
            if t == "case_clause" and self.case_narrowing(node, sc, stack):
                continue
            if t == "as_pattern":  # case Circle() | Square() as s: s is an instance of one of them
                par = node.parent
                if par is not None and KN[par.kind_id] == "case_pattern":
                    classes = self.pattern_classes(node.named_child(0))
                    alias = node.named_child(node.named_child_count - 1)  # (no ``alias`` field here)
                    if classes and alias is not None and KN[alias.kind_id] == "identifier":
                        self.bind_target(sc, alias, (T_ANN, classes))
                for c in reversed(node.named_children):
                    if act[c.kind_id]:
                        push((c, sc, LOAD))
                continue
            if t == "<narrow>":  # a narrowing region starts or ends (``narrowing``)
                if node.names is None:  # type: ignore[attr-defined]  # (a sites._Mark)
                    self.narrow = self.narrow_saved.pop()
                else:
                    self.narrow_saved.append(self.narrow)
                    self.narrow = {**self.narrow, **node.names}  # type: ignore[attr-defined]
                continue
            if t == "ERROR":
                pass  # walk inside: extract what parses
            for c in reversed(node.named_children):
                if act[c.kind_id]:
                    push((c, sc, LOAD))

    @staticmethod
    def region(stack: list, node: Node, sc: int, names: dict[Any, Any]) -> None:
        """Pushes ``node`` for the walk inside marks that install ``names`` in ``narrow`` while it
        is walked (a loop's body: ``loop_name``)."""
        stack.append((END_MARK, sc, CTX_LOAD))
        stack.append((node, sc, CTX_LOAD))
        stack.append((Mark(names), sc, CTX_LOAD))

    def case_narrowing(self, node: Node, sc: int, stack: list) -> bool:
        """``case C():`` / ``case A() | B():`` narrows the ``match`` subject, a name, in the clause's
        body as ``isinstance(subject, (A, B))`` does: pushes the clause's children with marks
        around the body (True); False when it narrows nothing."""
        match = node.parent.parent if node.parent is not None else None
        if match is None or KN[match.kind_id] != "match_statement":
            return False
        subj = match.child_by_field_id(F_SUBJECT)
        cons = node.child_by_field_id(F_CONSEQUENCE)
        if subj is None or cons is None or EK[subj.kind_id] != EK_IDENTIFIER:
            return False
        key = self.src[subj.start_byte : subj.end_byte]
        classes = self.pattern_classes(node.named_child(0)) if key not in (b"self", b"cls") else ()
        if not classes:
            return False
        ce = classes[0] if len(classes) == 1 else (T_TUPLE, classes)
        names = {key: (T_NARROWED, self._name(subj), ce)}
        for c in reversed(node.children):
            if c.id == cons.id:
                stack.append((END_MARK, sc, CTX_LOAD))
                stack.append((c, sc, CTX_LOAD))
                stack.append((Mark(names), sc, CTX_LOAD))
            elif ACTW[c.kind_id]:
                stack.append((c, sc, CTX_LOAD))
        return True

    def pattern_classes(self, pat: Node | None) -> tuple:
        """The classes a ``case`` pattern matches instances of: ``Circle()``, ``shapes.Square(side=s)``,
        ``Circle() | Square()``; empty when any alternative is no class pattern."""
        if pat is not None and KN[pat.kind_id] == "case_pattern" and pat.named_child_count == 1:
            pat = pat.named_child(0)
        if pat is None:
            return ()
        kind = KN[pat.kind_id]
        if kind == "union_pattern":
            out: list = []
            for alt in pat.named_children:
                got = self.pattern_classes(alt)
                if not got:
                    return ()
                out.extend(got)
            return tuple(out)
        if kind != "class_pattern" or not pat.named_child_count:
            return ()
        name = pat.named_child(0)
        if KN[name.kind_id] != "dotted_name":
            return ()
        e: Any = None
        for part in name.named_children:
            text = self.src[part.start_byte : part.end_byte].decode("utf-8", "replace")
            e = (T_NAME, text) if e is None else (T_ATTR, e, text)
        return (e,) if e is not None else ()

    def add_with(self, sc: int, item: Node, e: Any) -> bool:
        up = self.ancestors(item)  # (with_item -> with_clause -> with_statement; flow order's chain)
        stmt = up[-3][0] if len(up) >= 3 else None
        is_async = stmt is not None and stmt.child_count > 0 and stmt.child(0).type == "async"
        self.scopes[self.scopes[sc].owner].withs.append((e, item.start_point[0] + 1, is_async, sc))
        return is_async

    def collect_all(self, right: Node | None, extend: bool) -> None:
        if right is None:
            return
        names: list[str] = []
        stack = [right]
        ok = True
        while stack:
            n = stack.pop()
            if KN[n.kind_id] in ("list", "tuple"):
                for c in n.named_children:
                    if KN[c.kind_id] == "string":
                        sv = string_value(c, self.src)
                        if sv is not None:
                            names.append(sv)
                    elif KN[c.kind_id] != "comment":
                        ok = False
            elif KN[n.kind_id] == "binary_operator":
                for f in ("right", "left"):
                    side = n.child_by_field_name(f)
                    if side is not None:
                        stack.append(side)
            else:
                ok = False
        if not ok and not names:
            return
        if extend and self.all_names is not None:
            self.all_names.extend(names)
        else:
            self.all_names = names if not extend else names

    def augmented(self, sc: int, left: Node, node: Node, name: str, op: int) -> None:
        """``a += b`` binds ``a`` to what ``__iadd__`` (else ``__add__``) returns. Its operand (and
        that of the operator site ``op``, an index of the owner's ``ops``) is the ``a`` bound before
        when straight-line code bound it last and the statement is in no loop (``reaching``;
        ``aug_flows``, kept unless another scope binds ``a``), else every binding of ``a``."""
        ln = self._name(left)
        s = self.scopes[sc]
        prior = s.bindings.get(ln[1])
        if prior and ln[1] not in s.globals and ln[1] not in s.nonlocals and all(v[0] in _PLAIN_VALUES for v in prior):
            return  # n = 0; n += 1 / xs = []; xs += ys: a literal or display stays one (no cycle to resolve)
        r = self.reaching(sc, ln, node) if self.reach else None
        self.bind(sc, ln[1], (T_OP, ln, f"__i{name}__", f"__{name}__"))
        if r is not None and ln[1] not in s.globals and ln[1] not in s.nonlocals:
            self.aug_flows.append((sc, ln[1], len(s.bindings[ln[1]]) - 1, s.owner, op, r))

    def assignment(self, node: Node, sc: int, push: Any) -> None:
        lefts: list[Node] = []
        types: list[Node] | None = None
        cur: Node | None = node
        kn = KN
        while cur is not None and kn[cur.kind_id] == "assignment":
            l = cur.child_by_field_id(F_LEFT)
            if l is not None:
                lefts.append(l)
            ty = cur.child_by_field_id(F_TYPE)
            if ty is not None:
                if types is None:
                    types = []
                types.append(ty)
            cur = cur.child_by_field_id(F_RIGHT)
        value_node = cur
        value = self.expr(value_node) if value_node is not None else None
        if value is STR_LIT and value_node is not None and value_node.named_child_count <= 3:  # NAME = "text": kept, a key it may index with
            sv = string_value(value_node, self.src)
            if sv is not None:
                value = (T_STR, sv)
        if types:
            ann: list[Expr] | None = [e for ty in types for e in self.ann(ty)]
        else:  # x = None  # type: Foo
            tc = type_comment(node, self.ancestors(node)[-2][0], self.src) if self.type_comments else None
            ann = (self.ann_text(tc) or None) if tc else None
        alias = self.type_alias(lefts, types, value_node)
        if alias is not None:  # X: TypeAlias = ... / X = Dict[str, Node]: annotations naming X mean these
            ann = None
        ri = self.reaching_item(sc, value, node) if value is not None and self.reach else None
        if value is not None and value[0] == T_TUPLE and self.reach and len(lefts) == 1:
            value = self.swapped(sc, lefts[0], value, node)
        for l in lefts:
            if kn[l.kind_id] == "identifier":  # bind_target's first case, inline
                name = self.src[l.start_byte : l.end_byte].decode("utf-8", "replace")
                if value is not None:
                    self.bind(sc, name, value)
                    s = self.scopes[sc]
                    if ri is not None and name != ri[0] and name not in s.globals and name not in s.nonlocals:
                        self.bind_flows.append((sc, name, len(s.bindings[name]) - 1, ri[0], ri[1]))
                if alias:
                    self.bind(sc, name, (T_TYPE_ALIAS, tuple(alias)))
                if ann:
                    self.bind(sc, name, (T_ANN, tuple(ann)))
                elif value is None:
                    self.bind(sc, name, UNKNOWN)
                if sc == 0 and name == "__all__":
                    self.collect_all(value_node, extend=False)
                continue
            if value is not None:
                self.bind_target(sc, l, value)
            if ann:
                self.bind_target(sc, l, (T_ANN, tuple(ann)))
            elif value is None:
                self.bind_target(sc, l, UNKNOWN)
        act = ACT
        if value_node is not None and act[value_node.kind_id]:
            push((value_node, sc, CTX_LOAD))
        for l in reversed(lefts):
            if act[l.kind_id]:
                push((l, sc, CTX_STORE))

    def swapped(self, sc: int, left: Node, value: Any, node: Node) -> Any:
        """``a, b = b, a``: the right side is read before the targets change, so a name of the
        display that the statement also binds is the binding reaching the statement (flow order's
        ``T_REACH``), when straight-line code says which; else it stays the name (every binding)."""
        if KN[left.kind_id] not in ("pattern_list", "tuple_pattern", "list_pattern"):
            return value
        src = self.src
        names = {src[c.start_byte : c.end_byte].decode("utf-8", "replace")
                 for c in left.named_children if KN[c.kind_id] == "identifier"}  # fmt: skip
        if not any(v[0] == T_NAME and v[1] in names for v in value[1]):
            return value
        elts = []
        for v in value[1]:
            r = self.reaching(sc, v, node) if v[0] == T_NAME and v[1] in names else None
            elts.append(r if r is not None else v)
        return (T_TUPLE, tuple(elts))

    def type_alias(self, lefts: list[Node], types: list[Node] | None, value: Node | None) -> list[Any] | None:
        """The annotation a type alias assignment stands for (``X: TypeAlias = Union[A, B]``, or
        ``X = Dict[str, Node]`` with a typing generic's head), else None."""
        if value is None or len(lefts) != 1 or KN[lefts[0].kind_id] != "identifier":
            return None
        if types:
            if src_text(self.src, types[0]).rsplit(".", 1)[-1] not in ("TypeAlias", "_TypeAlias"):
                return None
        else:
            k = KN[value.kind_id]
            if k != "subscript" and k != "generic_type":
                return None
            head = value.child_by_field_id(F_VALUE) if k == "subscript" else value.named_child(0)
            if head is None or src_text(self.src, head).rsplit(".", 1)[-1] not in ALIAS_HEADS:
                return None
        return self.ann(value)
