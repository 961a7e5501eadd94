"""Flow order in straight-line code: which binding of a variable reaches a call of it.

Bindings are flow-insensitive (``ParsedFile.bindings``: every value a name is given in its scope);
this module narrows a call site's callee, a name (``f()``) or a member of one (``o.m()``), to the
one binding that reaches it where the order is known: the binding was made by an assignment
(``f = b``; a declaration alone is the flow-insensitive answer, and ``const`` has one binding)
sitting directly in a block (or the program), the call comes after it inside that block with no
loop or function between them, and no function other than the one of the binding's scope assigns
the name (a closure called later, a callback), or the only one that does is the use's own and the
variable has no declared type (Babel's `function _setPrototypeOf(o, p) { _setPrototypeOf = ...;
return _setPrototypeOf(o, p) }`). The callee becomes ``('reach', name, scope, i)`` (``REACH``):
binding ``i`` of ``name`` in ``scope`` alone. Elsewhere (loops, branches seen from outside, other
functions) the answer stays flow-insensitive. The same for an object literal's member assigned in
straight-line code (``o.k = a; o.k = b; o.k()``): the callee becomes ``('flow', scope, expr)``
(``FLOW``), the last value assigned, evaluated where it was written.

``FlowOrder`` is kept by the visit (``scopes.Scopes``): it records the binding statements as the
visit meets them, in document order, and the call sites they may reach; ``apply`` rewrites the
sites at the end of the visit, once every reassignment is attached (``visit._Builder.run``).
"""

from __future__ import annotations

from typing import Any

from mnemosyne.parse.typescript.tags import DECL, DEF, FLOW, PARAM, PROP, PVAL, REACH, SPREADS, UNKNOWN, VAR

MAX_FLOW_DEPTH = 24  # a use deeper than this below the block of its binding is not ordered

# what may stand between a binding (a declarator, an assignment) and the block it is directly in
_STATEMENT_PARTS = frozenset({
    "variable_declarator", "lexical_declaration", "variable_declaration", "expression_statement",
    "assignment_expression", "export_statement",
})
_BLOCKS = frozenset({"statement_block", "program"})
# between a use and the block of its binding: code that may run several times, or later
_STOPS = frozenset({
    "for_statement", "for_in_statement", "while_statement", "do_statement", "function_declaration",
    "generator_function_declaration", "function_expression", "function", "generator_function",
    "arrow_function", "method_definition", "class_body", "class_static_block", "program",
})
# the bindings flow order may choose among: variables, parameters and function declarations (not
# imports; only an assignment is chosen: ``cb = noop; cb()`` calls noop, whatever the callers pass)
_ORDERED = frozenset({VAR, DECL, UNKNOWN, PARAM, DEF})



def block_of(node: Any) -> Any:
    """The block (or program) the statement binding at ``node`` sits directly in; None when the
    binding is part of something else (a condition, a loop header, an expression)."""
    a = node.parent
    for _ in range(4):
        if a is None:
            return None
        t = a.type
        if t in _BLOCKS:
            return a
        if t not in _STATEMENT_PARTS:
            return None
        a = a.parent
    return None


def _function_of(scope: int, fqns: list, parent: list) -> int:
    """The function (or module) scope ``scope`` is in: block scopes share their function's name."""
    while scope > 0 and fqns[scope] == fqns[parent[scope]]:
        scope = parent[scope]
    return scope


def within(use: Any, blk_id: int) -> bool:
    """``use`` is inside the block ``blk_id`` with no loop or function between them."""
    a = use.parent
    for _ in range(MAX_FLOW_DEPTH):
        if a is None:
            return False
        if a.id == blk_id:
            return True
        if a.type in _STOPS:
            return False
        a = a.parent
    return False


class FlowOrder:
    """The reaching bindings met so far (document order) and the call sites they may narrow.
    Kept cheap during the visit (a name's latest binding event, whatever its scope: a use whose
    name finds another scope is left alone); the blocks are found at the end (``apply``), for the
    names bound more than once only: ``Node.parent`` searches from the root."""

    __slots__ = ("state", "members", "objects", "pending", "member_pending", "dirty")

    def __init__(self) -> None:
        # name -> (index among the visit's reassignments, end byte, node) of its latest
        # binding when that is an assignment (``f = b``: its binding is appended at the end of the
        # visit), or None (a binding of another kind: a declaration, a pattern, a parameter)
        self.state: dict[str, tuple[int, int, Any] | None] = {}
        # (object fqn, key) -> (scope, expr, end byte, node) or None: a member assigned
        self.members: dict[tuple[str, str], tuple[int, Any, int, Any] | None] = {}
        self.objects: set[str] = set()  # the names of the objects ``members`` has a member of
        # (site index, name, its state, use node, member name or None)
        self.pending: list[tuple[int, str, tuple[int, int, Any], Any, str | None]] = []
        # (site index, object fqn, key, object's scope, object's name, scope, expr, binding node, use node)
        self.member_pending: list[tuple[int, str, str, int, str, int, Any, Any, Any]] = []
        self.dirty: set[tuple[str, str]] = set()  # members added from another function, or spreads

    # -- bindings (the visit writes ``state[name]`` itself: ``Scopes.bind``, ``on_var``, ``on_assign``) --
    def member_set(self, fqn: str, name: str, key: str, scope: int, e: Any, node: Any) -> None:
        """``name.key = e`` on the object literal ``fqn``, written at ``node`` in ``scope``."""
        self.members[(fqn, key)] = (scope, e, node.end_byte, node) if e is not None else None
        self.objects.add(name)

    def member_changed(self, fqn: str, key: str, elsewhere: bool) -> None:
        """Object ``fqn`` got member ``key`` another way (``elsewhere``: from another function)."""
        k = (fqn, key)
        if k in self.members:
            self.members[k] = None
        if elsewhere:
            self.dirty.add(k)

    # -- uses -----------------------------------------------------------------------------------
    def member_used(self, site: int, fqn: str, key: str, oscope: int, oname: str, use: Any) -> None:
        st = self.members.get((fqn, key))
        if st is not None and use.start_byte >= st[2]:
            self.member_pending.append((site, fqn, key, oscope, oname, st[0], st[1], st[3], use))

    # -- the end of the visit -------------------------------------------------------------------
    def apply(self, sites: list, bindings: list, parent: list, fqns: list, reassign: list, attached: list) -> None:
        """Rewrite the call sites whose callee's reaching binding is known (``sites`` already
        carry lines; ``attached``: the (scope, binding index) each of the visit's reassignments
        ``reassign`` became in ``bindings``, or None)."""
        blocks: dict[int, Any] = {}  # binding node id -> its block (None: not directly in one)
        names = {p[1] for p in self.pending}
        # (scope, name) assigned from inside another function -> those functions: its order is not
        # known, unless the only such function is the use's own (Babel's `function _setPrototypeOf(o, p)
        # { _setPrototypeOf = ...; return _setPrototypeOf(o, p) }` calls what it was just assigned)
        tainted: dict[tuple[int, str], set[int]] = {}
        for r, a in zip(reassign, attached):
            if a is not None and r[1] in names:
                s = r[0]
                while s != a[0] and s > 0:
                    if fqns[s] != fqns[parent[s]]:
                        tainted.setdefault((a[0], r[1]), set()).add(_function_of(r[0], fqns, parent))
                        break
                    s = parent[s]
        for site, name, (ri, end, at), use, prop in self.pending:
            a = attached[ri]
            if a is None or use.start_byte < end:
                continue
            t = tainted.get((a[0], name))
            if t is not None and (len(t) > 1 or _function_of(sites[site][0], fqns, parent) not in t):
                continue
            bscope, i = a
            bl = bindings[bscope].get(name)
            if t is not None and bl is not None and any(b[0] == VAR and b[1] is not None for b in bl):
                continue  # `let sub: Subscription | null` assigned in the use's function: the type says more
            if bl is None or len(bl) < 2 or any(
                b[0] not in _ORDERED or (b[0] == VAR and b[2] is not None and b[2][0] == PVAL) for b in bl
            ):
                continue
            sc, kind, _e, line = sites[site]
            s = sc  # the name finds that scope's bindings from the site (not another's, no later `var`)
            while s >= 0 and name not in bindings[s]:
                s = parent[s]
            if s != bscope or not self._reaches(blocks, at, use):
                continue
            reach = (REACH, name, bscope, i)
            sites[site] = (sc, kind, reach if prop is None else (PROP, reach, prop), line)
        for site, fqn, key, oscope, oname, scope, x, at, use in self.member_pending:
            if (fqn, key) in self.dirty or (fqn, SPREADS) in self.dirty:
                continue
            if len(bindings[oscope].get(oname, ())) != 1 or not self._reaches(blocks, at, use):
                continue
            sc, kind, _e, line = sites[site]
            sites[site] = (sc, kind, (FLOW, scope, x), line)

    @staticmethod
    def _reaches(blocks: dict[int, Any], at: Any, use: Any) -> bool:
        """What the statement at ``at`` binds reaches ``use`` (which comes after it)."""
        blk = blocks.get(at.id, False)
        if blk is False:
            blk = blocks[at.id] = block_of(at)
        return blk is not None and within(use, blk.id)
