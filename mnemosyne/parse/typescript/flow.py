"""Flow order in straight-line code: which binding of a variable reaches a call of it.

Bindings are flow-insensitive (``ParsedFile.bindings``: every value a name is given in its scope);
this module narrows a call site's callee, a name (``f()``) or a member of one (``o.m()``), to the
one binding that reaches it where the order is known: the binding was made by a statement sitting
directly in a block (or the program), the call comes after it inside that block with no loop or
function between them, and no function other than the one of the binding's scope assigns the name
(a closure called later, a callback). The callee becomes ``('reach', name, scope, i)`` (``REACH``):
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

from mnemosyne.parse.typescript.tags import DECL, FLOW, ID, PROP, PVAL, REACH, SPREADS, UNKNOWN, VAR

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
# the bindings flow order may choose among: variables (not parameters, imports, declarations)
_ORDERED = frozenset({VAR, DECL, UNKNOWN})

# a binding's reference: ("d", index in its scope's list) for a declaration, ("r", index in the
# visit's reassignments) for an assignment (its binding is appended at the end of the visit)
Ref = tuple[str, int]


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
    The blocks are found at the end (``apply``), for the names bound more than once only:
    ``Node.parent`` searches from the root."""

    __slots__ = ("state", "names", "members", "pending", "member_pending", "reassigned", "tainted", "dirty")

    def __init__(self) -> None:
        # (scope, name) -> (ref, end byte of the binding, its node) or None (not known)
        self.state: dict[tuple[int, str], tuple[Ref, int, Any] | None] = {}
        self.names: set[str] = set()  # the names ``state`` has an entry for
        # (object fqn, key) -> (scope, expr, end byte, node) or None: a member assigned
        self.members: dict[tuple[str, str], tuple[int, Any, int, Any] | None] = {}
        # (site index, scope, name, ref, binding node, use node, member name or None)
        self.pending: list[tuple[int, int, str, Ref, Any, Any, str | None]] = []
        # (site index, object fqn, key, object's scope, object's name, scope, expr, binding node, use node)
        self.member_pending: list[tuple[int, str, str, int, str, int, Any, Any, Any]] = []
        self.reassigned: dict[int, tuple[int, int]] = {}  # reassignment index -> (scope, binding index)
        self.tainted: set[tuple[int, str]] = set()  # assigned from another function
        self.dirty: set[tuple[str, str]] = set()  # members added from another function, or spreads

    # -- bindings -------------------------------------------------------------------------------
    def bound(self, scope: int, name: str, ref: Ref | None, node: Any) -> None:
        """``name`` of ``scope`` bound at ``node`` (ref None: a binding we do not order)."""
        key = (scope, name)
        if ref is None:
            if key in self.state:
                self.state[key] = None
            return
        self.state[key] = (ref, node.end_byte, node)
        self.names.add(name)

    def member_set(self, fqn: str, key: str, scope: int, e: Any, node: Any) -> None:
        """``o.key = e`` on the object literal ``fqn``, written at ``node`` in ``scope``."""
        self.members[(fqn, key)] = (scope, e, node.end_byte, node) if e is not None else None

    def member_changed(self, fqn: str, key: str, elsewhere: bool) -> None:
        """Object ``fqn`` got member ``key`` another way (``elsewhere``: from another function)."""
        k = (fqn, key)
        if k in self.members:
            self.members[k] = None
        if elsewhere:
            self.dirty.add(k)

    # -- uses -----------------------------------------------------------------------------------
    def used(self, site: int, e: tuple, use: Any, bscope: int) -> None:
        """Call site ``site`` calls ``e`` (``f`` or ``f.m``, f found in ``bscope``) at ``use``."""
        name = e[1] if e[0] == ID else e[1][1]
        st = self.state.get((bscope, name))
        if st is not None and use.start_byte >= st[1]:
            self.pending.append((site, bscope, name, st[0], st[2], use, e[2] if e[0] == PROP else None))

    def member_used(self, site: int, fqn: str, key: str, oscope: int, oname: str, use: Any) -> None:
        st = self.members.get((fqn, key))
        if st is not None and use.start_byte >= st[2]:
            self.member_pending.append((site, fqn, key, oscope, oname, st[0], st[1], st[3], use))

    # -- the end of the visit -------------------------------------------------------------------
    def reassignment(self, index: int, scope: int, bscope: int, bindex: int, name: str, fqns: list, parent: list) -> None:
        """Reassignment ``index`` (written in ``scope``) became binding ``bindex`` of ``bscope``;
        from inside another function it taints the name (its order is not known)."""
        self.reassigned[index] = (bscope, bindex)
        s = scope
        while s != bscope and s > 0:
            if fqns[s] != fqns[parent[s]]:
                self.tainted.add((bscope, name))
                return
            s = parent[s]

    def apply(self, sites: list, bindings: list, parent: list) -> None:
        """Rewrite the call sites whose callee's reaching binding is known (``sites`` already
        carry lines; the reassignments are attached to ``bindings``)."""
        blocks: dict[int, Any] = {}  # binding node id -> its block (None: not directly in one)
        for site, bscope, name, ref, at, use, prop in self.pending:
            if (bscope, name) in self.tainted:
                continue
            bl = bindings[bscope].get(name)
            if bl is None or len(bl) < 2 or any(
                b[0] not in _ORDERED or (b[0] == VAR and b[2] is not None and b[2][0] == PVAL) for b in bl
            ):
                continue
            if ref[0] == "d":
                i = ref[1]
            else:
                r = self.reassigned.get(ref[1])
                if r is None or r[0] != bscope:
                    continue
                i = r[1]
            sc, kind, _e, line = sites[site]
            s = sc  # the name still finds that scope's bindings from the site (no later `var`)
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
