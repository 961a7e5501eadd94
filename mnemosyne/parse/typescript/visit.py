"""TypeScript / TSX / JavaScript: bytes -> a picklable per-file parse result (no tree-sitter nodes).

One tree-sitter query finds the interesting nodes (definitions, calls, imports, exports,
declarations, assignments, returns) in a single C pass; Python then visits only those, in
document order, keeping a stack of enclosing scopes by byte range. The result records what
the resolver (``mnemosyne.resolve.typescript``) needs: the symbols with their qualified names
(docs/schema.md), the bindings of every function scope (as small tuples, ``expr.Exprs.conv``), the
classes and named object literals with their members, the module's exports, and the call sites
as unresolved expressions.

The result is plain tuples (so it pickles): expressions, bindings, class members, exports and
call sites are tuples tagged by the constants of ``mnemosyne.parse.typescript.tags``, which
describes each tag and its fields (docs/parse-typescript.md).

The package: ``grammar`` (languages, query, parsers, node kinds), ``shims`` (newer syntax
rewritten for the grammar), ``model`` (the result's data classes and fact constructors),
``tags`` (the vocabulary), and the visit, one class per concern, each building on the one
before: ``scopes`` (state, scopes, symbols, anonymous names), ``expr`` (expressions and types),
``objects`` (object literals, patterns, prototypes), ``calls`` (call sites and arguments),
``defs`` (functions, classes, interfaces, namespaces, decorators), ``statements`` (imports,
exports, declarations, assignments, ...) and this module (``run``, ``parse_file``).
"""

from __future__ import annotations

from bisect import bisect_right
from operator import itemgetter

from tree_sitter import Point, QueryCursor

from mnemosyne.parse.metrics import measure_ts
from mnemosyne.parse.typescript import jsdoc
from mnemosyne.parse.typescript.grammar import BY_RANK, LANGUAGE_OF, suffix_of
from mnemosyne.parse.typescript.model import ParsedFile, make_symbol
from mnemosyne.parse.typescript.scopes import Entry
from mnemosyne.parse.typescript.shims import newer_syntax_blanked
from mnemosyne.parse.typescript.statements import Statements
from mnemosyne.parse.typescript.tags import (
    ALIT,
    ALSO,
    DEF,
    DEF_FUNC,
    DEF_OBJ,
    DEFAT,
    ENTRY_MODULE,
    EXPR,
    FIELD,
    GETTER,
    ID,
    IN,
    KEY,
    NEW,
    PARAM,
    PUSHED,
    READS,
    SPREAD,
    SPREADS,
    THIS_CLS,
    VAR,
)
from mnemosyne.parse.typescript.throws import escaping_throws

_first = itemgetter(0)


class _Builder(Statements):
    """The visit of one file: every handler, and ``run`` which calls them in document order."""

    # -- the walk -------------------------------------------------------------------------------
    def run(self, root) -> None:
        pf = self.pf
        mscope = self.new_scope(self.module, -1)
        if pf.language == "javascript" and (b"@typedef" in self.data or b"@import" in self.data):
            # JSDoc type imports: names for the file's @param / @returns types, bound as imports
            for name, value in jsdoc.type_imports(self.text):
                self.bind(mscope, name, value)
        self.fqns.add(self.module)
        self.pf.symbols.append(
            make_symbol(  # Symbol(fqn, name, kind, file, parent, line_start, line_end, signature, doc, body_hash)
                self.module,
                self.module.rsplit("/", 1)[-1],
                "module",
                self.path,
                self.path,
                1,
                root.end_point[0] + 1,
                "",
                "",
                self.pf.content_hash,
            )
        )
        self.stack.append(Entry(root.end_byte + 1, self.module, ENTRY_MODULE, mscope, None))
        self.fn_throws = escaping_throws(root, self.data)  # what each function throws (``Defs.on_fn``)
        query = self.query
        caps = QueryCursor(query).captures(root)
        self.metric_caps = caps  # its mdec / mblk captures: parse/metrics.py
        handlers = _HANDLERS  # capture name -> _Builder method (called with self)
        # document order; a node before what it contains; captures of one node by rank (_RANK):
        # one int key per capture, (start << w) | (top - end) with top >= every end byte; the
        # captures are added by rank (each name's in capture order) and the stable sort keeps ties
        items: list = []
        w = len(self.data).bit_length()
        top = (1 << w) - 1
        for name in BY_RANK:
            nodes = caps.get(name) if name != "member" and name != "call" else (
                self.member_captures(caps) if name == "member" else self.calls_captured(caps))
            if nodes:
                h = handlers[name]
                items.extend([((n.start_byte << w) | (top - n.end_byte), h, n) for n in nodes])
        items.sort(key=_first)
        stack = self.stack
        for key, handler, node in items:
            start = key >> w
            while start >= stack[-1].end and len(stack) > 1:
                stack.pop()
            try:
                handler(self, node)
            except RecursionError:  # pragma: no cover - guarded by depth limits
                pf.warnings.append(f"{self.path}:{node.start_point[0] + 1}: expression too deeply nested, skipped")
        self.callee_calls = {}  # (keyed by the ids of nodes ``items`` held)
        whole = pf.objects.get(self.module)  # module.exports = {}: members added later are exports too
        if whole is not None:
            for key, member in whole[1].items():
                if key not in pf.exports and key != SPREADS:
                    pf.exports[key] = (EXPR, member, whole[0])
        scope_of: dict[str, int] = {}
        if self.proto_getters:
            for i, f in enumerate(pf.scope_fqn):
                scope_of.setdefault(f, i)
        for owner, key, start in self.proto_getters:  # reading F's k runs the getter; `this` in it is an F
            d = pf.defs_at.get(start)
            if d is not None and d[2] == DEF_FUNC:
                owner.members.setdefault(key, []).append((GETTER, d[1]))
                gs = scope_of.get(d[1])
                if gs is not None and pf.scope_this[gs] is None:
                    pf.scope_this[gs] = (THIS_CLS, owner.fqn)
        for fqn, (bound_in, fields) in self.es5_fields.items():
            # this.x = v in a function of the file that is an ES5 class (prototype members, inherits),
            # or named like one (`function Emitter() {}`): a field of its instances
            info = pf.classes.get(fqn)
            if info is None and fqn.rsplit(".", 1)[-1][:1].isupper():
                info = self.function_class(fqn, bound_in)
            if info is not None:
                proto = set(info.members)  # a member the prototype has wins, as a class's method does
                for key, fscope, x in fields:
                    if key not in proto:
                        info.members.setdefault(key, []).append((FIELD, fscope, x))
        if pf.sites:  # node -> its line
            if self.rows:
                pf.sites = [(sc, k, e, n.start_point[0] + 1) for sc, k, e, n in pf.sites]
            else:
                self.line(0)
                starts = self.newlines
                assert starts is not None
                pf.sites = [(sc, k, e, bisect_right(starts, n.start_byte) + 1) for sc, k, e, n in pf.sites]
        if pf.call_args:
            self.unalias_calls()
        seen: dict[str, int] = {}
        keys = pf.scope_key
        for f in self.key_base:
            n = seen.get(f, 0)
            seen[f] = n + 1
            keys.append((f, n))
        # reassignments: attach to the binding visible from their scope
        flow = self.flow
        attached: list = []  # per reassignment: (scope, binding index) it became, or None (flow order)
        for r in self.reassign:
            scope, name, expr = r[0], r[1], r[2]
            s = scope
            while s >= 0:
                bl = pf.bindings[s].get(name)
                if bl is not None:  # (a = id(f): with the call's own arguments, ``own_arguments``)
                    bl.append((VAR, None, expr, scope) if len(r) == 3 else (VAR, None, expr, scope, r[3]))
                    attached.append((s, len(bl) - 1))
                    break
                s = pf.scope_parent[s]
            else:
                attached.append(None)
        if self.param_stores:
            self.parameter_stores()
        if flow.pending or flow.member_pending:  # flow order: the calls a binding known to reach narrows
            flow.apply(pf.sites, pf.bindings, pf.scope_parent, pf.scope_fqn, self.reassign, attached)
        # xs.push(f): an array literal only ever assigned untyped literals also holds what is pushed,
        # after elements of unknown number (``for (const h of xs) h()`` reaches f; ``xs[0]`` does not)
        onto_params: dict[int, list] = {}  # function scope -> (parameter i, push scope, items pushed)
        for scope, name, expr in self.pushes:
            s = scope
            while s >= 0:
                bl = pf.bindings[s].get(name)
                if bl is not None:
                    if all(b[0] == VAR and b[1] is None and b[2] is not None and _literal(b[2]) for b in bl):
                        bl.append((VAR, None, expr, scope))
                    elif len(bl) == 1 and bl[0][0] == PARAM and bl[0][1] >= 0:
                        onto_params.setdefault(bl[0][2], []).append((bl[0][1], scope, expr[1][1:]))
                    break
                s = pf.scope_parent[s]
        if onto_params:
            self.parameter_pushes(onto_params)

    def calls_captured(self, caps: dict[str, list]) -> list:
        """The callees of the ``call`` captures (each call's named ``function`` child), each call
        kept by its callee's id for ``call_of`` (the callees stay referenced by the visit's items)."""
        f = self.K.f_function
        out = []
        calls = self.callee_calls
        for c in caps.get("call", ()):
            fn = c.child_by_field_id(f)
            if fn is not None and fn.is_named:
                out.append(fn)
                calls[id(fn)] = c
        return out

    def member_captures(self, caps: dict[str, list]) -> list:
        """The ``member`` captures with the member expressions the query leaves to this (see
        grammar.py): an assignment's right side, an arrow's body, an operand of a ternary (``tern``)."""
        K = self.K
        mem = K.member
        out = list(caps.get("member", ()))
        for n in caps.get("assign", ()):
            r = n.child_by_field_id(K.f_right)
            if r is not None and r.kind_id == mem:
                out.append(r)
        arrow = K.k_arrow_function
        for n in caps.get("fn", ()):
            if n.kind_id == arrow:
                b = n.child_by_field_id(K.f_body)
                if b is not None and b.kind_id == mem:
                    out.append(b)
        fields = (K.f_condition, K.f_consequence, K.f_alternative)
        for n in caps.get("tern", ()):
            if n.has_error:  # (a child may be outside the fields then)
                out.extend([c for c in n.named_children if c.kind_id == mem])
                continue
            for f in fields:
                c = n.child_by_field_id(f)
                if c is not None and c.kind_id == mem:
                    out.append(c)
        return out

    def parameter_pushes(self, onto_params: dict[int, list]) -> None:
        """``register(hooks, a)`` with ``function register(list, f) { list.push(f) }`` of this
        file: the caller's local array (a name only bound to literals) also holds what the call
        pushes, a parameter of register being what the call gives there (``xs.push`` in ``run``)."""
        pf = self.pf
        bindings, parent = pf.bindings, pf.scope_parent
        for fscope, pushes in onto_params.items():
            fqn = pf.scope_fqn[fscope]
            name = fqn.rsplit(".", 1)[-1]
            calls = pf.call_args.get(name)
            if not calls:
                continue
            params = {n: bl[0][1] for n, bl in bindings[fscope].items() if len(bl) == 1 and bl[0][0] == PARAM}
            callee = (ID, name)
            for cscope, e, args in calls:
                if e != callee or any(a is not None and a[0] == SPREAD for a in args):
                    continue
                if _lookup(bindings, parent, cscope, name) != [(DEF, fqn, DEF_FUNC)]:
                    continue  # another function of that name
                for i, pscope, items in pushes:
                    target = args[i] if i < len(args) else None
                    if target is None or target[0] != ID:
                        continue
                    bl = _lookup(bindings, parent, cscope, target[1])
                    if not bl or not all(b[0] == VAR and b[1] is None and b[2] is not None and _literal(b[2]) for b in bl):
                        continue
                    given = []
                    for x in items:
                        j = params.get(x[1], -1) if x is not None and x[0] == ID else -1
                        if j >= 0:
                            given.append(args[j] if j < len(args) else None)
                        else:
                            given.append((IN, pscope, x) if x is not None else None)
                    bl.append((VAR, None, (ALIT, (PUSHED, *given)), cscope))


    def parameter_stores(self) -> None:
        """``assign(registry, "load", f)`` with ``function assign(o, k, v) { o[k] = v }`` of this
        file (``Objects.param_store``): the caller's object literal (a name bound once to one)
        gets the member the call names, the value what the call passes (or what the function
        assigns, evaluated there)."""
        pf = self.pf
        bindings, parent = pf.bindings, pf.scope_parent
        for fscope, i, k, v, vscope in self.param_stores:
            fqn = pf.scope_fqn[fscope]
            name = fqn.rsplit(".", 1)[-1]
            params = {n: bl[0][1] for n, bl in bindings[fscope].items() if len(bl) == 1 and bl[0][0] == PARAM}
            callee = (ID, name)
            for cscope, e, args in pf.call_args.get(name, ()):
                if e != callee or any(a is not None and a[0] == SPREAD for a in args):
                    continue
                if _lookup(bindings, parent, cscope, name) != [(DEF, fqn, DEF_FUNC)]:
                    continue  # another function of that name
                target = args[i] if i < len(args) else None
                bl = _lookup(bindings, parent, cscope, target[1]) if target is not None and target[0] == ID else None
                d = pf.defs_at.get(bl[0][2][1]) if bl and len(bl) == 1 and bl[0][0] == VAR and bl[0][2] is not None and bl[0][2][0] == DEFAT else None
                if d is None or d[2] != DEF_OBJ or d[1] not in pf.objects:
                    continue
                if k[0] == PARAM:
                    a = args[k[1]] if k[1] < len(args) else None
                    if a is None or a[0] != KEY:
                        continue
                    key = a[1]
                else:
                    key = k[1]
                j = params.get(v[1], -1) if v[0] == ID else -1
                if j >= 0:
                    given = args[j] if j < len(args) else None
                    if given is None:
                        continue
                    x = (IN, cscope, given)
                else:
                    x = (IN, vscope, v)
                scope0, members = pf.objects[d[1]]
                old = members.get(key)
                if old is not None and old[0] == READS:
                    continue
                members[key] = x if old is None else (ALSO, old, x)
                self.flow.member_changed(d[1], key, True)


def _lookup(bindings: list, parent: list, scope: int, name: str) -> list | None:
    """The bindings ``name`` finds from ``scope``."""
    while scope >= 0:
        bl = bindings[scope].get(name)
        if bl is not None:
            return bl
        scope = parent[scope]
    return None


def _literal(e: tuple) -> bool:
    """An untyped array literal, or a ``new Map()`` / ``new Set()`` (held as the literal of its values)."""
    return e[0] == ALIT or (e[0] == NEW and len(e) > 2)


_HANDLERS = {
    "fn": _Builder.on_fn,
    "cls": _Builder.on_cls,
    "iface": _Builder.on_iface,
    "call": _Builder.on_call,
    "new": _Builder.on_new,
    "jsx": _Builder.on_jsx,
    "dec": _Builder.on_dec,
    "import": _Builder.on_import,
    "export": _Builder.on_export,
    "var": _Builder.on_var,
    "assign": _Builder.on_assign,
    "field": _Builder.on_field,
    "ret": _Builder.on_ret,
    "yield": _Builder.on_yield,
    "spread": _Builder.on_spread,
    "forin": _Builder.on_forin,
    "catch": _Builder.on_catch,
    "member": _Builder.on_member,
    "ns": _Builder.on_ns,
    "block": _Builder.on_block,
    "sblock": _Builder.on_static_block,
}


def parse_file(path: str, data: bytes, digest: str | None = None) -> ParsedFile:
    """Parse one source file. Never raises on bad input: problems become warnings.
    ``digest``: ``content_hash(data)`` when the caller has it already."""
    if digest is None:
        from mnemosyne.hashing import content_hash

        digest = content_hash(data)
    language = LANGUAGE_OF.get(suffix_of(path), "typescript")
    b = _Builder(path, data, language)
    b.pf.content_hash = digest
    warnings = b.pf.warnings
    if not b.ascii:  # ASCII is valid UTF-8
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            warnings.append(f"{path}: not valid UTF-8 (byte {exc.start}); undecodable bytes replaced")
    tree = b.parser.parse(data)
    root = tree.root_node
    if root.has_error:
        spans: list[tuple[int, int]] = []
        patched = newer_syntax_blanked(data, spans)
        if patched != data:
            old = _edited_copy(b, tree, spans)
            retry = b.parser.parse(patched) if old is None else b.parser.parse(patched, old)
            # variance / const modifiers, generic call signatures: kept when it is a better parse
            if not retry.root_node.has_error or _error_nodes(root, _error_nodes(retry.root_node)) > 0:
                tree, root = retry, retry.root_node
                b.rows = old is not None  # None: a replacement blanked a newline
    if root.has_error:
        line = _first_error_line(root)
        warnings.append(f"{path}: syntax error near line {line}; extracted what parsed")
    b.run(root)
    if b.fn_spans:  # code metrics of the functions and methods (parse/metrics.py)
        syms = b.pf.symbols
        for i, m in measure_ts(root, data, b.fn_spans, b.metric_caps).items():
            s = syms[i]  # dataclasses.replace(s, complexity=..., ...), without its per-call introspection
            syms[i] = make_symbol(s.fqn, s.name, s.kind, s.file, s.parent, s.line_start, s.line_end, s.signature,
                                  s.docstring, s.body_hash, s.ordinal, m[0], m[1], m[2], m[3])
    return b.pf


def _edited_copy(b: _Builder, tree, spans: list[tuple[int, int]]):
    """A copy of ``tree`` told of the replacements ``spans`` (same length, ``newer_syntax_blanked``),
    for an incremental parse of the patched bytes: the parser reuses the subtrees they do not
    touch (about half the cost of parsing the copy afresh; the same tree). The copy keeps
    ``tree`` intact for when the retry is not better. None (a fresh parse) when a replacement
    blanks a newline (``in`` newline ``out``): the rows after it move."""
    data = b.data
    if any(data.find(b"\n", s0, e0) >= 0 for s0, e0 in spans):
        return None
    old = tree.copy()
    b.line(0)
    starts = b.newlines
    assert starts is not None
    for s0, e0 in spans:
        r = bisect_right(starts, s0)  # 0-based row of the replacement (all on one line)
        col = s0 - (starts[r - 1] if r else 0)
        p0, p1 = Point(r, col), Point(r, col + e0 - s0)
        old.edit(start_byte=s0, old_end_byte=e0, new_end_byte=e0, start_point=p0, old_end_point=p1, new_end_point=p1)
    return old


def _error_nodes(root, minus: int = 0) -> int:
    """ERROR and MISSING nodes in the tree (only subtrees that have errors are entered), less
    ``minus``; the count stops at 1 (enough to say the tree has more than ``minus``)."""
    n = -minus
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            n += 1
            if n > 0 and minus:
                return n
        if node.has_error:
            stack.extend(node.children)
    return n


def _first_error_line(root) -> int:
    cur = root.walk()
    while True:
        n = cur.node
        if n.type == "ERROR" or n.is_missing:
            return n.start_point[0] + 1
        if n.has_error and cur.goto_first_child():
            continue
        while not cur.goto_next_sibling():
            if not cur.goto_parent():
                return root.start_point[0] + 1
