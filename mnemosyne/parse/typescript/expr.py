"""Expressions and types -> the tagged tuples of ``tags`` (``Exprs.conv``, ``Exprs.conv_type``),
and the keys and string constants they name."""

from __future__ import annotations

from mnemosyne.parse.typescript import jsdoc
from mnemosyne.parse.typescript.grammar import nth
from mnemosyne.parse.typescript.scopes import Scopes
from mnemosyne.parse.typescript.tags import (
    ALIT,
    AT,
    CALL,
    COLLECTIONS,
    DEFAT,
    DYNAMIC_IMPORT,
    EITHER,
    ELEM,
    FROM,
    ID,
    IMPORT,
    IMPORT_ALL,
    IMPORT_DEFAULT,
    INTEROP,
    KEY,
    MAPPED,
    NEW,
    NULL_EXPR,
    OLIT,
    PROP,
    REQUIRE,
    SPREAD,
    SUPER_EXPR,
    THIS_EXPR,
    TYPE,
    TYPE_ARRAY,
    TYPEOF,
    UNION,
    Expr,
)

# `(this && this.__importDefault) || function (mod) {...}`: tsc's helpers, reused when tslib's
# were put on `this`; in a module `this` is no such object, so the value is the function
_THIS_AND = b"(this && this."
_MAX_DEPTH = 64  # longer member/call chains are pathological (minified code): unknown
_WRAPPERS = (b"memo", b"forwardRef", b"observer")
# Babel's, tsc's and swc's CommonJS interop helpers (``_interopRequireDefault(require(spec))``):
# name -> whether it is the wildcard one (``import * as`` / default and named imports mixed)
_INTEROP = {
    b"_interopRequireDefault": False,
    b"__importDefault": False,
    b"_interop_require_default._": False,  # swc's, from @swc/helpers
    b"_interopRequireWildcard": True,
    b"__importStar": True,
    b"_interop_require_wildcard._": True,
}
_WRAPPERS_OR_INTEROP = _WRAPPERS + tuple(_INTEROP)
_ARRAY_FROM = (PROP, (ID, "Array"), "from")  # Array.from(xs): the elements of xs (its first argument)
OBJECT_CREATE = (PROP, (ID, "Object"), "create")
OBJECT_KEYS = (PROP, (ID, "Object"), "keys")
# Object.assign(t, a, b) and tsc's helper for it (``var __assign = ... Object.assign || function``):
# all their arguments are kept (the result has the members of each, the last one having a key)
_ASSIGNS = frozenset({(PROP, (ID, "Object"), "assign"), (ID, "__assign")})
_ARRAY_OF = (PROP, (ID, "Array"), "of")  # Array.of(a, b): the array [a, b]
# Object.keys / values / entries(o): the keys, values or [key, value] pairs of o (its first argument)
# (and the other lists of its keys, Object.getOwnPropertyNames(o), Reflect.ownKeys(o),
# Object.getOwnPropertySymbols(o))
_OBJECT_WALKS = frozenset({
    OBJECT_KEYS, (PROP, (ID, "Object"), "values"), (PROP, (ID, "Object"), "entries"),
    (PROP, (ID, "Object"), "getOwnPropertyNames"), (PROP, (ID, "Reflect"), "ownKeys"),
    (PROP, (ID, "Object"), "getOwnPropertySymbols"),
})
_PROMISE_ALL = (PROP, (ID, "Promise"), "all")  # Promise.all([f(), g()]): resolves to the array of their values
# the calls whose first argument is kept, by member name first (a string test before the tuple ones)
_PROMISE_RESOLVE = (PROP, (ID, "Promise"), "resolve")  # Promise.resolve(f): resolves to f
_FROM_ENTRIES = (PROP, (ID, "Object"), "fromEntries")  # Object.fromEntries([["k", f]]): { k: f }
_ARG_CALLS = frozenset({OBJECT_CREATE, _PROMISE_ALL, _PROMISE_RESOLVE, *_OBJECT_WALKS})
_ARG_CALL_NAMES = frozenset(c[2] for c in _ARG_CALLS)
# external functions that return (a wrapper rendering) their first argument
WRAPPER_CALLEES = frozenset(
    {
        "react.memo",
        "react.forwardRef",
        "mobx-react.observer",
        "mobx-react-lite.observer",
    }
)
# array literals with more elements are data tables, not tuples of values (``array_literal``)
_MAX_ARRAY_LITERAL = 16


def symbol_key(name: str) -> str:
    """The member key of the symbol ``const name = Symbol(...)`` holds: ``[name]``, which no name
    can be (only the string literal ``"[name]"`` could). A name imported by name from another
    file (``import { kRun } from "./symbols"``) is taken for the symbol that file's ``const`` of
    the exported name holds, ``[kRun]`` (a string constant imported so still names one key)."""
    return f"[{name}]"


# the last byte before a JSDoc cast's parenthesis: its comment's `/` or the space after it
_BEFORE_CAST = frozenset({b"/", b" ", b"\n", b"\t", b"\r"})


class Exprs(Scopes):
    """Expression and type encoding (``tags``: expressions, type expressions)."""

    # -- expressions ----------------------------------------------------------------------------
    def jsdoc_cast(self, node) -> tuple | None:
        """The type of a JSDoc cast ``/** @type {Help} */ (x)`` (a parenthesized expression right
        after a ``/** ... */`` comment with ``@type``), or None."""
        data = self.data
        j = node.start_byte
        if node.type != "parenthesized_expression":
            return None
        while j > 0 and data[j - 1] in b" \t\r\n":
            j -= 1
        if not data.endswith(b"*/", 0, j):
            return None
        c0 = data.rfind(b"/*", 0, j - 2)
        if c0 < 0 or not data.startswith(b"/**", c0) or data.find(b"@type", c0, j) < 0:
            return None
        return jsdoc.declared_type(data[c0 + 3 : j - 2].decode("utf-8", "replace"))

    def conv(self, node, depth: int = 0) -> tuple | None:
        """The expression encoding of a node (``tags``); calls are memoised by node, so a
        call chain ``a.b().c().d()`` costs linear time although each of its calls is a site."""
        K = self.K
        text = self.text
        while node is not None:
            if depth > _MAX_DEPTH:
                return None
            t = node.kind_id
            if t == K.identifier:
                name = text[node.start_byte : node.end_byte]
                if not name.isascii():
                    name = self._t(node)
                if name == "undefined":
                    return NULL_EXPR
                return (ID, name)
            if t == K.member:
                # a chain a.b.c: walk down to its base, then build ('prop', ...) upwards
                member = K.member
                f_object = K.f_object
                f_property = K.f_property
                props = [node.child_by_field_id(f_property)]
                base = node.child_by_field_id(f_object)
                while base is not None and base.kind_id == member and depth + len(props) <= _MAX_DEPTH:
                    props.append(base.child_by_field_id(f_property))
                    base = base.child_by_field_id(f_object)
                bk = base.kind_id if base is not None and depth + len(props) <= _MAX_DEPTH else -1
                if bk == K.identifier:  # inline conv of the common bases
                    name = text[base.start_byte : base.end_byte]
                    if not name.isascii():
                        name = self._t(base)
                    obj: Expr | None = NULL_EXPR if name == "undefined" else (ID, name)
                elif bk == K.this:
                    obj = THIS_EXPR
                else:
                    obj = self.conv(base, depth + len(props))
                if obj is None:
                    return None
                for prop in reversed(props):
                    if prop is None:
                        return None
                    name = text[prop.start_byte : prop.end_byte]
                    obj = (PROP, obj, name if name.isascii() else self._t(prop))
                return obj
            if t == K.call:
                key = node.id
                cache = self.conv_cache
                if key in cache:
                    return cache[key]
                r = cache[key] = self._conv_call(node, depth)
                return r
            if t == K.new:
                inner = self.conv(node.child_by_field_id(K.f_constructor), depth + 1)
                if inner is None:
                    return None
                if inner[0] == ID and inner[1] in COLLECTIONS:  # new Set([a, b]): also the values
                    return (NEW, inner, self.collection(node, inner[1], depth))
                return (NEW, inner)
            if t == K.this:
                return THIS_EXPR
            if t == K.super:
                return SUPER_EXPR
            if t in K.unwrap:
                if self.data[node.start_byte - 1 : node.start_byte] in _BEFORE_CAST and self.pf.language == "javascript":
                    ty = self.jsdoc_cast(node)
                    if ty is not None:  # /** @type {Help} */ (x): x as Help
                        return (TYPE, ty)
                node = nth(node, 0)
                depth += 1
                continue
            if t == K.as_expr:
                ty = self.conv_type(nth(node, 1))
                if ty is not None:
                    return (TYPE, ty)
                node = nth(node, 0)
                depth += 1
                continue
            if t in K.defs:
                return (DEFAT, node.start_byte)
            if t == K.k_sequence_expression:  # (0, m.f): the value of its last operand
                node = node.named_child(node.named_child_count - 1) if node.named_child_count else None
                depth += 1
                continue
            if t == K.k_assignment_expression:  # a = b = f: the value assigned
                node = node.child_by_field_id(K.f_right)
                depth += 1
                continue
            if t == K.ternary or t == K.binary:
                # `c ? a : b`, `a ?? b`, `a || b`: one of two values
                if t == K.ternary:
                    a, b = node.child_by_field_id(K.f_consequence), node.child_by_field_id(K.f_alternative)
                else:
                    op = node.child_by_field_id(K.f_operator)
                    opt = self.data[op.start_byte : op.end_byte] if op is not None else b""
                    left = node.child_by_field_id(K.f_left)
                    if opt == b"&&" and left is not None and left.type != "this":
                        # `supported && function () {}`: the right value (a falsy left one is no
                        # object to call or read); not tsc's `(this && this.__assign) || ...`
                        node = node.child_by_field_id(K.f_right)
                        depth += 1
                        continue
                    if opt not in (b"??", b"||"):
                        return None
                    a, b = node.child_by_field_id(K.f_left), node.child_by_field_id(K.f_right)
                ea = self.conv(a, depth + 1) if a is not None else None
                eb = self.conv(b, depth + 1) if b is not None else None
                if ea is None and eb is not None and self.data.startswith(_THIS_AND, a.start_byte):
                    return eb  # tsc's `var __importDefault = (this && this.__importDefault) || function ...`
                return (EITHER, ea, eb) if ea is not None and eb is not None else None
            if t in K.nulls or t in K.literals:
                return NULL_EXPR
            if t == K.k_array:
                return self.array_literal(node, depth)
            t = node.type
            if t == "subscript_expression":
                idx = node.child_by_field_id(self.K.f_index)
                key = self.index_key(idx)
                obj = self.conv(node.child_by_field_id(self.K.f_object), depth + 1)
                if obj is None:
                    return None
                if key is None and idx is not None and idx.kind_id == K.k_number and idx.text.isdigit():
                    return (AT, obj, int(idx.text))  # pair[1]: that element, if pair is a literal
                n = self.const_num(self._t(idx)) if key is None and idx is not None and idx.kind_id == K.identifier else None
                if n is not None:  # fns[i] with const i = 1: as fns[1]
                    return (AT, obj, n)
                if key is not None:
                    return (PROP, obj, key)
                choices = self.const_choices(self._t(idx)) if idx is not None and idx.kind_id == K.identifier else None
                if choices:  # o[k] with const k = c ? "a" : "b": o.a or o.b
                    return (EITHER, *[(PROP, obj, c) for c in choices])
                if idx is not None and idx.kind_id == K.identifier:  # o[k]: also the members k names
                    return (ELEM, obj, (ID, self._t(idx)))
                return (ELEM, obj)
            return None
        return None

    def array_literal(self, node, depth: int) -> tuple | None:
        """``[a, f, ...rest]``: ``('alit', elements)``, each element's expression at its position
        (None: a hole or not an expression we encode; ``('spread', e)``: a spread, after which
        positions are unknown). Longer literals are data, not a tuple of values: None."""
        if node.named_child_count > _MAX_ARRAY_LITERAL:
            return None
        K = self.K
        out: list = []
        pending = True  # no element yet since the last comma
        for ch in node.children:
            ck = ch.kind_id
            if ch.is_named:
                if ck == K.k_comment:
                    continue
                if ck == K.k_spread_element:
                    inner = nth(ch, 0)
                    out.append((SPREAD, self.conv(inner, depth + 1)) if inner is not None else None)
                elif ck == K.k_object and ch.start_byte not in self.obj_prefix:
                    # [{ run: f }, ...]: an object element's members, evaluated where written
                    out.append(self.object_literal(ch, depth + 1))
                else:
                    out.append(self.conv(ch, depth + 1))
                pending = False
            elif ch.type == ",":
                if pending:
                    out.append(None)  # a hole: [, b]
                pending = True
        return (ALIT, tuple(out))

    def collection(self, node, kind: str, depth: int) -> tuple:
        """``new Set(xs)`` / ``new Map([[k, v], ...])``: the ALIT of the values it starts with (a
        Set's: the elements of xs; a Map's: the second element of each pair of an array literal,
        after the ``MAPPED`` mark, each preceded by ``('spread', ('key', k))`` when its key is a
        string we read)."""
        args = node.child_by_field_id(self.K.f_arguments)
        a0 = nth(args, 0) if args is not None else None
        if kind == "Set" or kind == "WeakSet":
            return (ALIT, ((SPREAD, self.conv(a0, depth + 1)),) if a0 is not None else ())
        items: list = [MAPPED]
        if a0 is not None and a0.kind_id == self.K.k_array and a0.named_child_count <= _MAX_ARRAY_LITERAL:
            for pair in a0.named_children:
                v = nth(pair, 1) if pair.kind_id == self.K.k_array else None
                key = self.index_key(nth(pair, 0)) if v is not None else None
                if key is not None:  # ["home", f]: f is under "home" (``m.get("home")``)
                    items.append((SPREAD, (KEY, key)))
                items.append(self.conv(v, depth + 1) if v is not None else None)
        elif a0 is not None:
            items.append((SPREAD, None))  # values we cannot read
        return (ALIT, tuple(items))

    def entries_object(self, node, depth: int) -> tuple | None:
        """``Object.fromEntries([["start", run], ["stop", halt]])`` (call ``node``): the object
        literal ``('olit', (("start", run), ("stop", halt)))``, when its argument is an array
        literal of pairs whose keys are all strings we read; else None."""
        args = node.child_by_field_id(self.K.f_arguments)
        a0 = nth(args, 0) if args is not None and args.named_child_count == 1 else None
        if a0 is None or a0.kind_id != self.K.k_array or a0.named_child_count > _MAX_ARRAY_LITERAL:
            return None
        members = []
        for pair in a0.named_children:
            v = nth(pair, 1) if pair.kind_id == self.K.k_array and pair.named_child_count == 2 else None
            key = self.index_key(nth(pair, 0)) if v is not None else None
            if key is None or v is None:
                return None
            e = self.conv(v, depth + 1)
            if e is not None:
                members.append((key, e))
        return (OLIT, tuple(members))

    def _conv_call(self, node, depth: int) -> tuple | None:
        K = self.K
        fn = node.child_by_field_id(K.f_function)
        if fn is None:
            return None
        data = self.data
        fe = fn.end_byte
        fk = fn.kind_id
        if fk == K.identifier and data[fn.start_byte : fe] == b"require":
            spec = self.require_spec(node)
            return (REQUIRE, spec) if spec is not None else None
        if fk == K.import_:
            spec = self.require_spec(node)
            return (DYNAMIC_IMPORT, spec) if spec is not None else None
        inner = self.conv(fn, depth + 1)
        if inner is None:
            return None
        if inner[0] == PROP and inner[2] == "slice":
            cut = self._slice_bounds(node)
            if cut is not None:  # xs.slice(1): the elements from 1 on, if xs is a known literal
                return (FROM, inner[1], *cut, True)
        if inner == _ARRAY_FROM:  # Array.from(new Set([a, b])): its elements, if a known literal
            args = node.child_by_field_id(K.f_arguments)  # (not with a mapping function: its results)
            if args is not None and args.named_child_count == 1:
                return (CALL, inner, self.conv(nth(args, 0), depth + 1))
        if inner[0] == PROP and inner[2] == "get":  # m.get("a"): a Map's value under a key we read
            args = node.child_by_field_id(K.f_arguments)
            key = self.index_key(nth(args, 0)) if args is not None and args.named_child_count == 1 else None
            if key is not None:
                return (CALL, inner, (KEY, key))
        if inner == _FROM_ENTRIES:  # Object.fromEntries([["start", run], ...]): the object literal of the pairs
            lit = self.entries_object(node, depth)
            if lit is not None:
                return lit
        if inner == _ARRAY_OF or (inner[0] == PROP and inner[2] == "concat"):
            # Array.of(a, b), xs.concat(ys, f): ('call', callee, ('alit', arguments)), the elements they add
            args = node.child_by_field_id(K.f_arguments)
            if args is not None and args.kind_id == K.k_arguments and args.named_child_count <= 8:
                return (CALL, inner, (ALIT, tuple(self.conv(a, depth + 1) for a in args.named_children)))
        if inner in _ASSIGNS:  # Object.assign({}, a, { k: f }): ('call', callee, ('alit', arguments))
            args = node.child_by_field_id(K.f_arguments)
            if args is not None and args.kind_id == K.k_arguments and args.named_child_count:
                return (CALL, inner, (ALIT, tuple(
                    self.object_literal(a, depth + 1) if a.kind_id == K.k_object else self.conv(a, depth + 1)
                    for a in args.named_children[:8]
                )))
        # Object.create(proto): inherits proto's members; Object.values(o), Promise.all(xs): of their argument
        if inner[0] == PROP and inner[2] in _ARG_CALL_NAMES and inner in _ARG_CALLS:
            args = node.child_by_field_id(K.f_arguments)
            if args is not None and args.named_child_count:
                return (CALL, inner, self.conv(nth(args, 0), depth + 1))
        if data.endswith(_WRAPPERS_OR_INTEROP, 0, fe):
            # memo(C) / forwardRef(fn) / observer(C): keep the wrapped component
            args = node.child_by_field_id(K.f_arguments)
            a0 = nth(args, 0)
            if a0 is not None:
                if not data.endswith(_WRAPPERS, 0, fe):
                    return self._interop(inner, data[fn.start_byte : fe], a0)
                return (CALL, inner, self.conv(a0, depth + 1))
        return (CALL, inner)

    def _interop(self, inner: tuple, callee: bytes, arg) -> tuple:
        """``_interopRequireDefault(require(spec))`` (and the other ``_INTEROP`` helpers, also as
        ``tslib_1.__importStar``): ``('interop', spec, wildcard)``; another argument: a plain call."""
        K = self.K
        wildcard = next((w for name, w in _INTEROP.items() if callee.endswith(name)), None)
        if wildcard is not None and arg.kind_id == K.call:
            fn = arg.child_by_field_id(K.f_function)
            if fn is not None and fn.kind_id == K.identifier and fn.text == b"require":
                spec = self.require_spec(arg)
                if spec is not None:
                    return (INTEROP, spec, wildcard)
        return (CALL, inner)

    def _slice_bounds(self, call) -> tuple[int, int | None] | None:
        """(start, end) of ``x.slice(start[, end])`` with non-negative integer literals, else None."""
        args = call.child_by_field_id(self.K.f_arguments)
        if args is None or not 1 <= args.named_child_count <= 2:
            return None
        bounds = []
        for a in args.named_children:
            if a.kind_id != self.K.k_number or not a.text.isdigit():
                return None
            bounds.append(int(a.text))
        return bounds[0], (bounds[1] if len(bounds) > 1 else None)

    def conv_type(self, node, depth: int = 0) -> tuple | None:
        K = self.K
        while node is not None and depth < 50:
            t = node.kind_id
            if t == K.k_type_annotation:
                node = nth(node, 0)
            elif t == K.k_type_identifier or t == K.identifier:
                return (ID, self._t(node))
            elif t == K.k_nested_type_identifier:
                mod = node.child_by_field_id(K.f_module)
                name = node.child_by_field_id(K.f_name)
                inner = self.conv(mod, depth + 1) if mod is not None else None
                if inner is None or name is None:
                    return None
                return (PROP, inner, self._t(name))
            elif t == K.k_generic_type:
                name = node.child_by_field_id(K.f_name)
                nt = name.text if name is not None else b""
                if nt in (b"Promise", b"Array", b"ReadonlyArray"):
                    args = node.child_by_field_id(K.f_type_arguments)
                    node = nth(args, 0) if args is not None and args.named_child_count == 1 else None
                    if nt != b"Promise":  # an array, of elements of a known type or not
                        return (TYPE_ARRAY, self.conv_type(node, depth + 1) if node is not None else None)
                else:
                    node = name
            elif t == K.k_array_type:
                return (TYPE_ARRAY, self.conv_type(nth(node, 0), depth + 1))
            elif t == K.k_readonly_type:
                node = nth(node, 0)
            elif t == K.k_parenthesized_type:
                node = nth(node, 0)
            elif t == K.k_type_query:  # typeof X: the value X itself, not an instance
                inner = self.conv(nth(node, 0))
                return (TYPEOF, inner) if inner is not None else None
            elif t == K.k_union_type:
                # `T | undefined` / `T | null` is T; `A | B` a union of known types
                rest: list = []
                stack = [node]
                union, literal, predefined, nulls = K.k_union_type, K.k_literal_type, K.k_predefined_type, K.nulls
                while stack and len(rest) < 9:
                    u = stack.pop()
                    for ch in u.named_children:
                        ck = ch.kind_id
                        if ck == union:
                            stack.append(ch)
                        elif ck == literal and ch.named_child_count and ch.named_child(0).kind_id in nulls:
                            continue
                        elif ck == predefined and self._t(ch) in ("undefined", "null", "void"):
                            continue
                        else:
                            rest.append(ch)
                if len(rest) == 1:
                    node = rest[0]
                elif 1 < len(rest) < 9:
                    # `A | B`: each member type, if every one is known (for `x.m()` to reach each `m`)
                    members = tuple(self.conv_type(r, depth + 1) for r in rest)
                    return (UNION, members) if all(m is not None for m in members) else None
                else:
                    node = None
            else:
                return None
            depth += 1
        return None

    def require_spec(self, call) -> str | None:
        args = call.child_by_field_id(self.K.f_arguments)
        if args is None or args.named_child_count != 1:
            return None
        return self._sv(nth(args, 0))

    def index_key(self, node) -> str | None:
        """The key ``o[node]`` names: a string literal, or a name holding one (``const_str``), or
        a constant of a namespace import (``namespace_key``)."""
        if node is not None and node.kind_id == self.K.identifier:
            return self.const_str(self._t(node))
        if node is not None and node.kind_id == self.K.member:
            return self.namespace_key(node)
        return self._sv(node)

    def namespace_key(self, node) -> str | None:
        """``S.kRun`` with ``import * as S from "./symbols"``: the key the other file's constant
        ``kRun`` names, as for ``import { kRun }`` (``symbol_key``); else None."""
        K = self.K
        obj = node.child_by_field_id(K.f_object)
        prop = node.child_by_field_id(K.f_property)
        if obj is None or prop is None or obj.kind_id != K.identifier or prop.type != "property_identifier":
            return None
        found = self.sole_binding(obj)
        ok = found is not None and found[0][0] == IMPORT and found[0][2] == IMPORT_ALL
        return symbol_key(self._t(prop)) if ok else None

    def object_key(self, node) -> str | None:
        """A key of an object literal: a name, a string, or a computed ``["k"]`` / ``[K]`` with
        ``const K = "k"`` (``const_str``)."""
        if node is not None and node.type == "computed_property_name":
            inner = nth(node, 0)
            if inner is None:
                return None
            if inner.kind_id == self.K.identifier:
                return self.const_str(self._t(inner))
            if inner.kind_id == self.K.member:
                return self.namespace_key(inner)
            return self._sv(inner)
        return self.key_name(node)

    def const_str(self, name: str) -> str | None:
        """The string a name declared so far holds when it is a ``const`` of a string literal."""
        s = self.stack[-1].fe.scope
        bindings, parents = self.pf.bindings, self.pf.scope_parent
        while s >= 0:
            if name in bindings[s]:
                bl = bindings[s][name]
                if len(bl) != 1:
                    return None
                v = self.strs.get((s, name))
                if v is None and bl[0][0] == IMPORT and bl[0][2] != IMPORT_DEFAULT and bl[0][2] != IMPORT_ALL:
                    return symbol_key(bl[0][2])  # `import { kRun }`: the other file's symbol
                return v
            s = parents[s]
        return None

    def const_num(self, name: str) -> int | None:
        """The number a name declared so far holds when it is a ``const`` of a non-negative
        integer literal (``const i = 1``)."""
        s = self.stack[-1].fe.scope
        bindings, parents = self.pf.bindings, self.pf.scope_parent
        while s >= 0:
            bl = bindings[s].get(name)
            if bl is not None:
                return self.nums.get((s, name)) if len(bl) == 1 else None
            s = parents[s]
        return None

    def const_choices(self, name: str) -> tuple[str, ...] | None:
        """The strings a name declared so far may hold when it is a ``const`` of a conditional of
        string literals (``const k = flag ? "left" : "right"``: ``str_choices``)."""
        s = self.stack[-1].fe.scope
        bindings, parents = self.pf.bindings, self.pf.scope_parent
        while s >= 0:
            if name in bindings[s]:
                return self.str_choices.get((s, name)) if len(bindings[s][name]) == 1 else None
            s = parents[s]
        return None

    def key_name(self, node) -> str | None:
        if node is None:
            return None
        t = node.kind_id
        if t in self.K.key_kinds:
            return self._t(node)
        if t == self.K.k_string:
            return self._sv(node)
        return None

    def object_literal(self, node, depth: int = 0) -> tuple | None:
        """An object literal passed as an argument, ``('olit', ((key, expr), ...))`` (nested
        literals alike): what a parameter's members hold (``_Ctx.passed``)."""
        if depth > 8:
            return None
        members = []
        K = self.K
        for ch in node.named_children:
            ck = ch.kind_id
            if ck == K.k_pair:
                key = self.object_key(ch.child_by_field_id(K.f_key))
                val = ch.child_by_field_id(K.f_value)
                if key is None or val is None:
                    continue
                e = self.object_literal(val, depth + 1) if val.kind_id == K.k_object else self.conv(val)
                if e is not None:
                    members.append((key, e))
            elif ck == K.k_method_definition:
                key = self.key_name(ch.child_by_field_id(K.f_name))
                if key is not None:
                    members.append((key, (DEFAT, ch.start_byte)))
            elif ch.type == "shorthand_property_identifier":
                name = self._t(ch)
                members.append((name, (ID, name)))
        return (OLIT, tuple(members)) if members else None
