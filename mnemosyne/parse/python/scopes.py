"""Scopes and bindings: def / class / lambda scopes with their parameters and decorators, imports,
assignment targets, container items, and the flow order of bindings (which reach a use). ~665
lines: binding a target and recording its flow order are one walk over the statement; the flow
order (which binding reaches a use, by block) is the part to split off next."""

from __future__ import annotations

from typing import Any

from tree_sitter import Node

from mnemosyne.parse.anon import Namer
from mnemosyne.parse.display import one_line
from mnemosyne.parse.python.expr import MAX_EXPR_DEPTH, ExprConverter
from mnemosyne.parse.python.grammar import (
    F_ALIAS,
    F_ATTRIBUTE,
    F_BODY,
    F_DEFINITION,
    F_MODULE_NAME,
    F_NAME,
    F_OBJECT,
    F_PARAMETERS,
    F_RETURN_TYPE,
    F_SUPERCLASSES,
    F_TYPE,
    F_VALUE,
    KN,
    LANGUAGE,
)
from mnemosyne.parse.python.model import CALLABLE_KINDS, ImportStmt, Scope, fresh_scope
from mnemosyne.parse.python.tags import (
    CTX_CALLEE,
    CTX_LOAD,
    PARAM_DSTAR,
    PARAM_PLAIN,
    PARAM_STAR,
    SCOPE_CLASS,
    SCOPE_FUNCTION,
    SCOPE_LAMBDA,
    T_ANN,
    T_AT,
    T_ATTR,
    T_CALL,
    T_DEF,
    T_DICT,
    T_IMPORT,
    T_IMPORT_FROM,
    T_INDEX,
    T_INT,
    T_ITEMS,
    T_ITER,
    T_KEYED,
    T_NAME,
    T_PARAM,
    T_REACH,
    T_REACH_ITEM,
    T_SLICE,
    T_STAR,
    T_STR,
    T_SUBSCRIPT,
    T_TUPLE,
    UNKNOWN,
)
from mnemosyne.parse.python.text import docstring_of, lambda_context, short_hash, src_text

MAX_FLOW_DEPTH = 24  # flow order: a use / binding nested deeper in its scope is not ordered

# tags of the literal keys flow order follows (``x['k']`` / ``x[0]``: subscripts, stored items)
_KEY_TAGS = frozenset({T_STR, T_INT})
# the objects, not names, an attribute store is recorded through (``Scope.chain_stores``): ``self.state.cb = f``,
# ``make().cb = f``, ``hooks[k].cb = f``; as node kinds (a target) and as expression tags (a mutator's receiver)
CHAIN_OBJECTS = frozenset({"attribute", "call", "subscript"})
CHAIN_EXPRS = (T_ATTR, T_CALL, T_SUBSCRIPT)

# flow order (``ScopeBuilder.straight``): code under one of these may run zero or several times, so a
# binding there is not known to reach what follows; scope nodes end the walk up
_BRANCHY = frozenset({
    "for_statement", "while_statement", "if_statement", "elif_clause", "else_clause", "try_statement",
    "except_clause", "except_group_clause", "finally_clause", "match_statement", "case_clause",
    "conditional_expression", "boolean_operator", "list_comprehension", "set_comprehension",
    "dictionary_comprehension", "generator_expression", "for_in_clause", "if_clause", "ERROR",
})
_LOOPS = frozenset({
    "for_statement", "while_statement", "list_comprehension", "set_comprehension", "dictionary_comprehension",
    "generator_expression", "for_in_clause", "ERROR",
})
_SCOPE_NODES = frozenset({"module", "function_definition", "class_definition", "lambda"})
_KIND_IDS = (*range(LANGUAGE.node_kind_count), 65535)  # the kind ids of nodes (65535: ERROR)


def _verdicts(kinds: frozenset[str]) -> tuple[bool | None, ...]:
    """Kind id -> what an ancestor of that kind says in ``straight``: True (a scope node: the node
    runs whenever its scope does), False (one of ``kinds``), None (look further up). (Tuples: the
    collector stops tracking a tuple of atoms.)"""
    t: list[bool | None] = [None] * 65536
    for i in _KIND_IDS:
        if KN[i] in _SCOPE_NODES:
            t[i] = True
        elif KN[i] in kinds:
            t[i] = False
    return tuple(t)


_VERDICTS = {id(_BRANCHY): _verdicts(_BRANCHY), id(_LOOPS): _verdicts(_LOOPS)}


def _stops(verdicts: tuple[bool | None, ...], block: bool) -> tuple[bool | None, ...]:
    """Kind id -> where ``block_of`` (``block``) / ``within`` stops: True at a block (``block_of``)
    or at a kind ``verdicts`` decides on (``within``: a loop or a scope node); ``block_of``: None
    at a kind ``verdicts`` decides on (a branch or a scope node); else False."""
    t: list[bool | None] = [False] * 65536
    for i in _KIND_IDS:
        if verdicts[i] is not None:
            t[i] = None if block else True
        elif block and KN[i] == "block":
            t[i] = True
    return tuple(t)


_BLOCK_STOPS = _stops(_VERDICTS[id(_BRANCHY)], True)
_WITHIN_STOPS = _stops(_VERDICTS[id(_LOOPS)], False)


class ScopeBuilder(ExprConverter):
    """Builds the scopes of a file and what they bind."""

    def __init__(self, src: bytes) -> None:
        super().__init__(src)
        self.scopes: list[Scope] = []
        self.fn_spans: list[tuple[int, int, int]] = []  # (start byte, end byte, scope) of each def: metrics
        self.metric_nodes: list[tuple[int, int, int, int]] = []  # (kind bits, start, end, scope): metrics
        self.imports: list[ImportStmt] = []
        self.lambdas: dict[int, int] = {}
        self.lambda_namers: dict[int, Namer] = {}  # scope -> the names of its lambdas
        self.all_names: list[str] | None = None
        self.star_imports: list[tuple[str, int]] = []
        self.warnings: list[str] = []
        # flow order: the special node being walked (where a binding happens), and per (scope,
        # name) the bindings known to reach the code that follows (``bind``): [first, last,
        # statement node id, end byte, {literal key: stored item index | None}, unknown store?],
        # None once a binding in a loop / branch makes it unknown
        self.at: Node | None = None
        # a file with no "type:" anywhere has no type comment: its assignments skip the search
        self.type_comments = b"type:" in self.src
        self.reach: dict[tuple[int, str], list | None] = {}
        self.tainted: set[tuple[int, str]] = set()  # bound from another scope (global / nonlocal / inner store)
        self.flows: list[tuple[int, int, int, str, Any, bool]] = []  # (owner, index, scope, name, repl, deco?)
        # flow order's ancestors (``ancestors``): the chain (node, start byte, end byte, id) from the
        # root to the node last asked about, moved to the next one asked; tree-sitter finds a node's
        # parent by a search from the root, so each ``Node.parent`` cost as much as the file's size
        # above it (the walk sets the root: ``Walker.run``)
        self.flow_path: list[tuple[Node, int, int, int, int]] = []
        self._at_flow: tuple[Node | None, tuple[bool, int | None]] = (None, (False, None))  # (``at_flow``)
        # ``f = d["k"]`` / ``f = d.get("k")`` in straight-line code: (scope, name, binding index,
        # container name, the stored item reaching it): the binding becomes that item (``build``)
        self.bind_flows: list[tuple[int, str, int, str, Any]] = []
        # a += b: (scope, a, binding index, owner, operator site index or -1, the a reaching it)
        self.aug_flows: list[tuple[int, str, int, int, int, Any]] = []

    # ---------------------------------------------------------------- scopes
    def new_scope(self, kind: str, name: str, parent: int, node: Node, start_node: Node) -> int:
        p = self.scopes[parent] if parent >= 0 else None
        qual = name if p is None or p.qual == "" else f"{p.qual}.{name}"
        idx = len(self.scopes)
        owner = idx if kind != SCOPE_CLASS else (p.owner if p is not None else 0)
        s = fresh_scope(
            kind, name, qual, parent, owner, start_node.start_point[0] + 1, node.end_point[0] + 1,
            short_hash(self.src[start_node.start_byte : node.end_byte]),
        )
        self.scopes.append(s)
        if kind == SCOPE_FUNCTION:
            self.fn_spans.append((start_node.start_byte, node.end_byte, idx))
        if p is not None and name not in p.children:
            p.children[name] = idx
        return idx

    def bind(self, scope: int, name: str, value: Any) -> None:
        if self.narrow and (T_ITER, name.encode()) in self.narrow:
            self.unloop(name)
        s = self.scopes[scope]
        target = scope
        if name in s.globals:
            s = self.scopes[0]
            target = 0
        elif name in s.nonlocals:
            p = s.parent
            while p > 0:
                ps = self.scopes[p]
                if ps.kind in CALLABLE_KINDS and name in ps.bindings:
                    break
                p = ps.parent
            target = max(p, 0)
            s = self.scopes[target]
        if target != scope:
            root = value
            while root[0] in (T_ATTR, T_CALL, T_SUBSCRIPT):
                root = root[1]
            if root[0] == T_NAME and root[1] != name and root[1] in self.scopes[scope].bindings:
                value = (T_AT, scope, value)  # ``nonlocal cb; cb = f``: f is the function's own
        b = s.bindings.get(name)
        if b is None:
            b = s.bindings[name] = [value]
        else:
            b.append(value)
        if target != scope:
            self.tainted.add((target, name))
            return
        at = self.at
        key = (scope, name)
        ok, blk = self.at_flow(at) if at is not None else (False, None)
        if at is not None and (ok or blk is not None):
            st = self.reach.get(key)
            if st is not None and st[2] == at.id:  # `x: C = v`: one statement, several bindings
                st[1] = len(b) - 1
            else:  # (in a block of a branch: reaches the rest of that block, ``block_of``)
                self.reach[key] = [len(b) - 1, len(b) - 1, at.id, at.end_byte, {}, False, blk, {}]
        else:
            self.reach[key] = None

    def at_flow(self, at: Node) -> tuple[bool, int | None]:
        """Flow order at the special node the walk is at: ``straight(at)``, and when not,
        ``block_of(at)``; once per node (a def binds its name and each parameter there)."""
        last = self._at_flow
        if last[0] is at:
            return last[1]
        ok = self.straight(at)
        r = (ok, None if ok else self.block_of(at))
        self._at_flow = (at, r)
        return r

    def ancestors(self, node: Node) -> list[tuple[Node, int, int, int, int]]:
        """``node``'s ancestors as the end of a chain (node, start byte, end byte, id, kind id) from
        the root, ``node`` last: the chain of the node asked about before, cut where it stops
        holding ``node`` and extended down to it (``Node.child_with_descendant``), so that questions
        asked in the walk's order each walk down a step or two. Up to MAX_FLOW_DEPTH + 1 ancestors
        by ``Node.parent`` where no such chain leads to ``node`` (an empty node, a descendant of the
        same span on the chain)."""
        path = self.flow_path
        nid = node.id
        s, e = node.start_byte, node.end_byte
        if path and s < e:
            while True:
                top = path[-1]
                if top[3] == nid:
                    return path
                if len(path) == 1 or (top[1] <= s and e <= top[2]):
                    break
                path.pop()
            a = top[0]
            while True:
                c = a.child_with_descendant(node)
                if c is None:
                    break
                cid = c.id
                path.append((c, c.start_byte, c.end_byte, cid, c.kind_id))
                if cid == nid:
                    return path
                a = c
        chain = [(node, s, e, nid, node.kind_id)]  # (short of the root: the questions read MAX_FLOW_DEPTH at most)
        p = node.parent
        while p is not None and len(chain) <= MAX_FLOW_DEPTH + 1:
            chain.append((p, p.start_byte, p.end_byte, p.id, p.kind_id))
            p = p.parent
        chain.reverse()
        return chain

    def block_of(self, at: Node) -> int | None:
        """The id of the block statement ``at`` sits directly in (an ``if``/``else``/``try``/...
        body), when the block itself is within MAX_FLOW_DEPTH of its scope: what ``at`` binds
        reaches the statements after it in that block (``within``), wherever the block runs."""
        path = self.ancestors(at)
        i = len(path) - 2  # (its parent; the root at 0)
        stop = i - MAX_FLOW_DEPTH
        stops = _BLOCK_STOPS
        while i > stop and i >= 0:
            a = path[i]
            v = stops[a[4]]
            if v is None:
                return None
            if v:
                return a[3]
            i -= 1
        return None

    def within(self, use: Node, blk: int) -> bool:
        """``use`` is inside block ``blk`` with no loop (or scope) between them."""
        path = self.ancestors(use)
        i = len(path) - 2
        stop = i - MAX_FLOW_DEPTH
        stops = _WITHIN_STOPS
        while i > stop and i >= 0:
            a = path[i]
            if a[3] == blk:
                return True
            if stops[a[4]]:
                return False
            i -= 1
        return False

    def straight(self, node: Node, kinds: frozenset[str] = _BRANCHY) -> bool:
        """``node`` runs once, in order, whenever its scope runs (no loop or branch between them):
        among its nearest MAX_FLOW_DEPTH ancestors, a scope node (or the root) comes before any of
        ``kinds``; deeper is not known (False)."""
        if KN[node.kind_id] in kinds:
            return False
        verdicts = _VERDICTS.get(id(kinds)) or _verdicts(kinds)
        path = self.ancestors(node)
        i = len(path) - 2
        stop = i - MAX_FLOW_DEPTH
        while i > stop:
            if i < 0:  # above the root
                return True
            v = verdicts[path[i][4]]
            if v is not None:
                return v
            i -= 1
        return False

    def reaching(self, sc: int, fn: Any, use: Node) -> Any:
        """Flow order: the callee ``fn`` (a name, or a name indexed by a literal) used at ``use``
        in scope ``sc`` as the expression of the binding (or stored item) that reaches it, when
        straight-line code of that scope bound it last and the use is in no loop; else None."""
        if fn[0] == T_NAME:
            name, key = fn[1], None
        elif fn[0] == T_SUBSCRIPT and fn[1][0] == T_NAME and fn[2][0] in _KEY_TAGS:
            name, key = fn[1][1], fn[2]
        else:
            return None
        st = self.reach.get((sc, name))
        if st is None or use.start_byte < st[3]:
            return None
        if not (self.straight(use, _LOOPS) if st[6] is None else self.within(use, st[6])):
            return None
        if key is None:
            return (T_REACH, name, st[0], st[1])
        if st[5]:
            return None
        j = st[4].get(key, -1)
        if j is None:
            return None
        kb = st[7].get(key)
        if kb is not None and not self.within(use, kb):
            return None  # stored in a block the use is not in
        if j >= 0:
            return (T_REACH_ITEM, name, j)
        return (T_SUBSCRIPT, (T_REACH, name, st[0], st[1]), key)

    def reaching_item(self, sc: int, e: Any, use: Node) -> tuple[str, Any] | None:
        """Flow order of a dict entry read at ``use``: ``d["k"]`` or ``d.get("k")`` (no default) as
        (d, the stored item or display lookup that reaches it), or None (``reaching``)."""
        if e[0] == T_CALL and e[1][0] == T_ATTR and e[1][2] == "get" and len(e[2]) == 1 and not e[3]:
            e = (T_SUBSCRIPT, e[1][1], e[2][0])
        if e[0] != T_SUBSCRIPT or e[1][0] != T_NAME or e[2][0] not in _KEY_TAGS:
            return None
        r = self.reaching(sc, e, use)
        return (e[1][1], r) if r is not None else None

    def stored(self, target: int, sc: int, name: str, key: Any, j: int) -> None:
        """Flow order: item ``j`` of ``name`` (bound in ``target``) stored from scope ``sc`` under
        ``key`` (a literal, or unknown)."""
        if target != sc:
            self.tainted.add((target, name))
            return
        st = self.reach.get((sc, name))
        if st is None:
            return
        at = self.at
        if key[0] not in _KEY_TAGS:
            st[5] = True
            return
        ok, blk = self.at_flow(at) if at is not None else (False, None)
        if ok:
            st[4][key] = j
            st[7].pop(key, None)
        elif blk is not None:
            st[4][key] = j  # (reaches the rest of its block only)
            st[7][key] = blk
        else:
            st[4][key] = None

    def bind_target(self, scope: int, target: Node | None, value: Any, depth: int = 0) -> None:
        if target is None or depth > MAX_EXPR_DEPTH:
            return
        t = KN[target.kind_id]
        if t == "identifier":
            self.bind(scope, self.src[target.start_byte : target.end_byte].decode("utf-8", "replace"), value)
        elif t in ("pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "expression_list"):
            elts = [c for c in target.named_children if KN[c.kind_id] != "comment"]
            n = len(elts)
            star = next((i for i, c in enumerate(elts) if KN[c.kind_id] in ("list_splat_pattern", "list_splat")), -1)
            vals = value[1] if value[0] == T_TUPLE and not any(v[0] == T_STAR for v in value[1]) else None
            if vals is not None and (len(vals) != n if star < 0 else len(vals) < n - 1):
                vals = None  # a count that does not match: positions unknown
            for i, c in enumerate(elts):
                if i == star:  # `a, *rest, z = ...`: rest is a list of the middle items
                    inner = c.named_child(0) if c.named_child_count else None
                    mid = (T_TUPLE, vals[i : len(vals) - (n - 1 - i)]) if vals is not None else (T_TUPLE, ((T_STAR, value),))
                    self.bind_target(scope, inner, mid, depth + 1)
                    continue
                k = i if star < 0 or i < star else i - n  # after a starred target: from the end
                self.bind_target(scope, c, vals[k] if vals is not None else (T_INDEX, value, k), depth + 1)
        elif t in ("parenthesized_expression", "as_pattern_target"):
            self.bind_target(scope, target.named_child(0) if target.named_child_count else None, value, depth + 1)
        elif t == "attribute":
            obj = target.child_by_field_id(F_OBJECT)
            attr = target.child_by_field_id(F_ATTRIBUTE)
            if obj is not None and attr is not None:
                if KN[obj.kind_id] == "identifier":
                    self.scopes[scope].attr_stores.append((src_text(self.src, obj), src_text(self.src, attr), value))
                elif KN[obj.kind_id] in CHAIN_OBJECTS:  # self.state.cb = f
                    self.scopes[scope].chain_stores.append((self.expr(obj), src_text(self.src, attr), value, False))
        elif t == "subscript":
            base = target.child_by_field_id(F_VALUE)
            if base is not None and KN[base.kind_id] == "subscript":
                # d["a"]["b"] = v: d holds a container holding v
                self.bind_target(scope, base, (T_TUPLE, (value,)), depth + 1)
            elif base is not None and KN[base.kind_id] == "identifier":
                self.add_item(scope, src_text(self.src, base), value, self.expr(target)[2])
            elif base is not None and KN[base.kind_id] == "attribute":
                obj = base.child_by_field_id(F_OBJECT)
                attr = base.child_by_field_id(F_ATTRIBUTE)
                if obj is not None and attr is not None and KN[obj.kind_id] == "identifier":
                    aname = src_text(self.src, attr)
                    key = self.expr(target)[2] if aname == "__dict__" else None
                    if key is not None and key[0] == T_STR:  # self.__dict__["name"] = v: self.name = v
                        self.scopes[scope].attr_stores.append((src_text(self.src, obj), key[1], value))
                    else:
                        self.add_attr_item(scope, src_text(self.src, obj), aname, value, self.expr(target)[2])
                elif obj is not None and attr is not None and KN[obj.kind_id] in CHAIN_OBJECTS:  # self.state.d[k] = v
                    self.scopes[scope].chain_stores.append((self.expr(obj), src_text(self.src, attr), value, True))

    def add_item(self, sc: int, name: str, value: Any, key: Any = UNKNOWN) -> None:
        """``name[k] = value`` / ``name.append(value)``: an item of the container bound to name,
        recorded in the scope that binds the name (so every reader finds it)."""
        target = self.item_scope(sc, name)
        if target != sc:
            value = (T_AT, sc, value)  # evaluated where it was stored
        if key[0] == T_STR or key[0] == T_INT:  # d["load"] = f: read back by that key (or an unknown one)
            value = (T_KEYED, key, value)
        items = self.scopes[target].item_bindings.setdefault(name, [])
        items.append(value)
        self.stored(target, sc, name, key, len(items) - 1)

    def unloop(self, name: str) -> None:
        """``name``, a loop's variable, is bound again in the loop's body: from here on in the body
        it no longer names what the loop iterates (``loop_name``)."""
        key = (T_ITER, name.encode())
        self.narrow = {k: v for k, v in self.narrow.items() if k != key}
        self.narrow_saved = [{k: v for k, v in m.items() if k != key} if key in m else m for m in self.narrow_saved]

    def item_scope(self, sc: int, name: str) -> int:
        """The scope whose items of ``name`` a store in ``sc`` adds to (the one binding it)."""
        scopes = self.scopes
        target = 0
        if name not in scopes[sc].globals:
            cur = sc
            first = True
            while cur > 0:
                s = scopes[cur]
                if (first or s.kind != SCOPE_CLASS) and name in s.bindings:
                    target = cur
                    break
                first = False
                cur = s.parent
        return target

    def container_mutation(self, sc: int, e: Any) -> None:
        """``x.append(v)``, ``x.add(v)``, ``x.insert(i, v)``, ``x.extend(vs)``, ``x.setdefault(k, v)``
        on a name or on ``obj.attr``: v becomes an item of that container."""
        fn, args = e[1], e[2]
        meth = fn[2]
        if meth in ("append", "add", "appendleft") and len(args) == 1:
            v = args[0]
        elif meth in ("insert", "setdefault") and len(args) == 2:
            v = args[1]
        elif meth in ("extend", "extendleft") and len(args) == 1:
            v = (T_ITER, args[0])
        elif meth == "update":  # d.update({"k": v}) / d.update(k=v): items under their keys
            items = list(args[0][1]) if len(args) == 1 and args[0][0] == T_DICT else []
            items += [((T_STR, k), v) for k, v in e[3] if k is not None]
            if len(args) == 1 and args[0][0] in (T_NAME, T_ATTR):
                # d.update(other): other's values, under keys not known here
                items.append((UNKNOWN, (T_ITEMS, (T_CALL, (T_ATTR, args[0], "values"), (), ()))))
            elif len(args) > 1 or (args and args[0][0] != T_DICT) or any(k is None for k, _ in e[3]):
                items.append((UNKNOWN, UNKNOWN))  # what else it stores is not known
            base = fn[1]
            for k, v in items:
                if base[0] == T_NAME:
                    if v is UNKNOWN:
                        self.stored(self.item_scope(sc, base[1]), sc, base[1], UNKNOWN, -1)
                    else:
                        self.add_item(sc, base[1], v, k)
                elif base[0] == T_ATTR and base[1][0] == T_NAME and v is not UNKNOWN:
                    self.add_attr_item(sc, base[1][1], base[2], v, k)
                elif base[0] == T_ATTR and base[1][0] in CHAIN_EXPRS and v is not UNKNOWN:
                    self.scopes[sc].chain_stores.append((base[1], base[2], v, True))
            return
        else:
            return
        if v[0] == T_STAR:
            return
        base = fn[1]
        key: Any = UNKNOWN
        if base[0] == T_SUBSCRIPT and base[2][0] != T_SLICE or (
            base[0] == T_CALL and base[1][0] == T_ATTR and base[1][2] == "setdefault" and base[2]
        ):
            # d[k].append(v) / d.setdefault(k, []).append(v): d holds a container holding v
            key = base[2] if base[0] == T_SUBSCRIPT else base[2][0]
            v = (T_TUPLE, ((T_STAR, v[1]),)) if v[0] == T_ITER else (T_TUPLE, (v,))
            base = base[1] if base[0] == T_SUBSCRIPT else base[1][1]
            if key[0] not in _KEY_TAGS:
                key = UNKNOWN
        if base[0] == T_NAME:
            self.add_item(sc, base[1], v, key)
        elif base[0] == T_ATTR and base[1][0] == T_NAME:
            self.add_attr_item(sc, base[1][1], base[2], v, key)
        elif base[0] == T_ATTR and base[1][0] in CHAIN_EXPRS:  # self.state.items.append(v)
            self.scopes[sc].chain_stores.append((base[1], base[2], v, True))

    def add_attr_item(self, sc: int, obj: str, attr: str, value: Any, key: Any = UNKNOWN) -> None:
        """``obj.attr[k] = value`` / ``obj.attr.append(value)`` / ...: an item of the container
        ``obj.attr``; under a literal key, ``self.handlers["a"] = f``, read back by that key (or an
        unknown one) only, as ``add_item`` records it for a name."""
        if key[0] in _KEY_TAGS:
            value = (T_KEYED, key, value)
        self.scopes[sc].attr_item_stores.append((obj, attr, value))

    def definition(self, node: Node, sc: int, push: Any) -> int | None:
        decorators: list[Node] = []
        outer = node
        if KN[node.kind_id] == "decorated_definition":
            decorators = [c for c in node.named_children if KN[c.kind_id] == "decorator"]
            d = node.child_by_field_id(F_DEFINITION)
            if d is None:
                for c in reversed(node.named_children):
                    push((c, sc, CTX_LOAD))
                return None
            node = d
        name_node = node.child_by_field_id(F_NAME)
        name = src_text(self.src, name_node) if name_node is not None else "<anonymous>"
        body = node.child_by_field_id(F_BODY)
        kind = SCOPE_CLASS if KN[node.kind_id] == "class_definition" else SCOPE_FUNCTION
        idx = self.new_scope(kind, name, sc, node, outer)
        s = self.scopes[idx]
        s.docstring = docstring_of(body, self.src)
        self.bind(sc, name, (T_DEF, idx))
        deco_exprs = []
        for dn in decorators:
            e = self.expr(dn.named_child(0) if dn.named_child_count else None)
            deco_exprs.append(e)
            odecos = self.scopes[self.scopes[sc].owner].decos
            if e[0] == T_NAME:
                r = self.reaching(sc, e, dn)
                if r is not None:
                    self.flows.append((self.scopes[sc].owner, len(odecos), sc, e[1], r, True))
            odecos.append((e, idx, dn.start_point[0] + 1))
        s.decorators = deco_exprs
        pending: list[tuple[Node, int, int]] = []
        for dn in decorators:
            if dn.named_child_count:
                pending.append((dn.named_child(0), sc, CTX_CALLEE if dn.named_child(0).type != "call" else CTX_LOAD))
        if kind == SCOPE_CLASS:
            sup = node.child_by_field_id(F_SUPERCLASSES)
            if sup is not None:
                bases = []
                for c in sup.named_children:
                    k = KN[c.kind_id]
                    if k == "keyword_argument":
                        nm = c.child_by_field_id(F_NAME)
                        if nm is not None and src_text(self.src, nm) == "metaclass":
                            s.metaclass = self.expr(c.child_by_field_id(F_VALUE))
                        continue
                    if k in ("comment", "dictionary_splat", "list_splat"):
                        continue
                    bases.append(self.expr(c))
                s.bases = bases
                s.signature = one_line(src_text(self.src, sup))
                pending.append((sup, sc, CTX_LOAD))
        else:
            s.is_async = node.child_count > 0 and KN[node.child(0).kind_id] == "async"
            params = node.child_by_field_id(F_PARAMETERS)
            rt = node.child_by_field_id(F_RETURN_TYPE)
            sig = self.params(params, idx, sc, pending)
            if rt is not None:
                s.return_ann = (T_ANN, tuple(self.ann(rt)))
                sig += " -> " + one_line(src_text(self.src, rt))
                pending.append((rt, sc, CTX_LOAD))
            s.signature = sig
        if body is not None:
            pending.append((body, idx, CTX_LOAD))
        for item in reversed(pending):
            push(item)
        return idx

    def params(self, params: Node | None, idx: int, outer: int, pending: list[tuple[Node, int, int]]) -> str:
        s = self.scopes[idx]
        parts: list[str] = []
        if params is None:
            return "()"
        for p in params.named_children:
            t = KN[p.kind_id]
            name = ""
            star = PARAM_PLAIN
            ann_node = None
            default = None
            if t == "identifier":
                name = src_text(self.src, p)
                parts.append(name)
            elif t == "typed_parameter":
                inner = p.named_child(0)
                ann_node = p.child_by_field_id(F_TYPE)
                if inner is not None and KN[inner.kind_id] == "list_splat_pattern":
                    star, name = PARAM_STAR, src_text(self.src, inner.named_child(0)) if inner.named_child_count else ""
                elif inner is not None and KN[inner.kind_id] == "dictionary_splat_pattern":
                    star, name = PARAM_DSTAR, src_text(self.src, inner.named_child(0)) if inner.named_child_count else ""
                else:
                    name = src_text(self.src, inner) if inner is not None else ""
                parts.append(f"{star}{name}: {one_line(src_text(self.src, ann_node))}" if ann_node is not None else f"{star}{name}")
            elif t == "default_parameter":
                nm = p.child_by_field_id(F_NAME)
                default = p.child_by_field_id(F_VALUE)
                name = src_text(self.src, nm) if nm is not None else ""
                parts.append(f"{name}={one_line(src_text(self.src, default))}" if default is not None else name)
            elif t == "typed_default_parameter":
                nm = p.child_by_field_id(F_NAME)
                default = p.child_by_field_id(F_VALUE)
                ann_node = p.child_by_field_id(F_TYPE)
                name = src_text(self.src, nm) if nm is not None else ""
                a = one_line(src_text(self.src, ann_node)) if ann_node is not None else ""
                d = one_line(src_text(self.src, default)) if default is not None else ""
                parts.append(f"{name}: {a} = {d}")
            elif t == "list_splat_pattern":
                star = PARAM_STAR
                name = src_text(self.src, p.named_child(0)) if p.named_child_count else ""
                parts.append("*" + name)
            elif t == "dictionary_splat_pattern":
                star = PARAM_DSTAR
                name = src_text(self.src, p.named_child(0)) if p.named_child_count else ""
                parts.append("**" + name)
            elif t == "keyword_separator":
                parts.append("*")
                continue
            elif t == "positional_separator":
                parts.append("/")
                continue
            elif t == "tuple_pattern":  # py2-style, ignore
                parts.append(one_line(src_text(self.src, p)))
                continue
            else:
                continue
            if not name:
                continue
            ann = (T_ANN, tuple(self.ann(ann_node))) if ann_node is not None else None
            dexpr = self.key_literal(default) if default is not None else None
            s.params.append((name, star, ann, dexpr))
            self.bind(idx, name, (T_PARAM, idx, len(s.params) - 1))
            if ann_node is not None:
                pending.append((ann_node, outer, CTX_LOAD))
            if default is not None:
                pending.append((default, outer, CTX_LOAD))
        return "(" + ", ".join(parts) + ")"

    def lambda_(self, node: Node, sc: int, push: Any) -> int:
        namer = self.lambda_namers.get(sc)
        if namer is None:
            namer = self.lambda_namers[sc] = Namer()
        name, ordinal = namer.name("lambda", lambda_context(node, self.src))
        idx = self.new_scope(SCOPE_LAMBDA, name, sc, node, node)
        self.scopes[idx].ordinal = ordinal
        self.lambdas[self.lambda_ord.setdefault(node.start_byte, len(self.lambda_ord))] = idx
        s = self.scopes[idx]
        pending: list[tuple[Node, int, int]] = []
        params = node.child_by_field_id(F_PARAMETERS)
        s.signature = self.params(params, idx, sc, pending) if params is not None else "()"
        body = node.child_by_field_id(F_BODY)
        if body is not None:
            s.returns.append(self.expr(body))
            pending.append((body, idx, CTX_LOAD))
        for item in reversed(pending):
            push(item)
        return idx

    def import_(self, node: Node, sc: int) -> None:
        names: list[tuple[str, str]] = []
        for c in node.children_by_field_id(F_NAME):
            if KN[c.kind_id] == "dotted_name":
                mod = one_line(src_text(self.src, c)).replace(" ", "")
                names.append((mod, mod.split(".")[0]))
                self.bind(sc, mod.split(".")[0], (T_IMPORT, mod.split(".")[0]))
            elif KN[c.kind_id] == "aliased_import":
                nm = c.child_by_field_id(F_NAME)
                al = c.child_by_field_id(F_ALIAS)
                if nm is None or al is None:
                    continue
                mod = src_text(self.src, nm).replace(" ", "")
                names.append((mod, src_text(self.src, al)))
                self.bind(sc, src_text(self.src, al), (T_IMPORT, mod))
        self.imports.append(ImportStmt(sc, node.start_point[0] + 1, "", 0, names, False))

    def import_from(self, node: Node, sc: int) -> None:
        mn = node.child_by_field_id(F_MODULE_NAME)
        if mn is None:
            return
        level = 0
        module = ""
        if KN[mn.kind_id] == "relative_import":
            for c in mn.named_children:
                if KN[c.kind_id] == "import_prefix":
                    level = src_text(self.src, c).count(".")
                elif KN[c.kind_id] == "dotted_name":
                    module = src_text(self.src, c).replace(" ", "")
        else:
            module = src_text(self.src, mn).replace(" ", "")
        star = any(KN[c.kind_id] == "wildcard_import" for c in node.named_children)
        names: list[tuple[str, str]] = []
        for c in node.children_by_field_id(F_NAME):
            if KN[c.kind_id] == "dotted_name":
                nm = src_text(self.src, c).replace(" ", "")
                names.append((nm, nm))
                self.bind(sc, nm, (T_IMPORT_FROM, module, nm, level))
            elif KN[c.kind_id] == "aliased_import":
                nm_n = c.child_by_field_id(F_NAME)
                al = c.child_by_field_id(F_ALIAS)
                if nm_n is None or al is None:
                    continue
                nm = src_text(self.src, nm_n).replace(" ", "")
                names.append((nm, src_text(self.src, al)))
                self.bind(sc, src_text(self.src, al), (T_IMPORT_FROM, module, nm, level))
        if star:
            self.star_imports.append((module, level))
        self.imports.append(ImportStmt(sc, node.start_point[0] + 1, module, level, names, True, star))
