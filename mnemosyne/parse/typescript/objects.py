"""Object literals and their members, destructuring patterns, and the prototypes of classes and
constructor functions (ES5 classes) that members are added to.

~640 lines, over the ~600 of the guide: one concern (what the parser records about objects and the
members written to them); the writes from outside a holder (``keyed_push`` to ``instance_member``,
about 150 lines) are the part to split off next."""

from __future__ import annotations

import re

from mnemosyne.parse.typescript.expr import Exprs
from mnemosyne.parse.typescript.grammar import nth
from mnemosyne.parse.typescript.model import ClassInfo
from mnemosyne.parse.typescript.tags import (
    ALIT,
    ALSO,
    ANY_KEY,
    AT,
    DEF,
    DEF_CLASS,
    DEF_FUNC,
    DEF_OBJ,
    DEFAT,
    FIELD,
    FROM,
    ID,
    IMPORT,
    IMPORT_DEFAULT,
    IN,
    ITEM,
    KEY,
    KEYED,
    NEW,
    NULL,
    PARAM,
    PROP,
    PUSHED,
    READS,
    REQUIRE,
    SITE_ITER,
    SPREADS,
    SPREADS_OF,
    THIS_CLS,
    THIS_OBJ,
    THIS_SCLS,
    UNKNOWN_BINDING,
    VAR,
    Expr,
)

# npm packages whose default export is a builtin (``Objects.package_helper``): ``Object.assign``
# (each source's own properties copied onto the target, as Express's ``mixin(app, proto)``) or
# ``Object.setPrototypeOf``
HELPER_ASSIGN = "assign"
HELPER_SET_PROTO = "setPrototypeOf"
PACKAGE_HELPERS = {
    "object-assign": HELPER_ASSIGN,
    "merge-descriptors": HELPER_ASSIGN,
    "utils-merge": HELPER_ASSIGN,
    "setprototypeof": HELPER_SET_PROTO,
}
# what precedes the quoted name of such a package where a name is bound to it: `NAME =
# require("pkg")` / `import NAME from "pkg"` (``package_helper``: the names worth a lookup)
_HELPER_BINDING = re.compile(rb"""(?:([A-Za-z_$][\w$]*)\s*=\s*require\(\s*|import\s+([A-Za-z_$][\w$]*)\s+from\s*)["']$""")


class Objects(Exprs):
    """Objects, patterns and prototypes."""

    # -- objects --------------------------------------------------------------------------------
    def returned(self, node) -> Expr | None:
        """What ``return x`` (or an arrow's expression body) gives: an object literal its members,
        evaluated where written (``return { f: f, run }`` in a factory or an IIFE module pattern:
        ``M.f()`` calls that ``f``; also ``return { ... } as const``, query-core's notifyManager),
        as one passed as an argument; else the expression."""
        obj = self.literal_of(node)
        if obj is not None:
            lit = self.object_literal(obj)
            if lit is not None:
                return lit
        return self.conv(node)

    def literal_of(self, value):
        """The object literal node ``value`` is, also through ``{ ... } as const``, ``{ ... }
        satisfies T`` and parentheses (the variable is the literal: ``ACTIONS.run()``); else None."""
        K = self.K
        while True:
            t = value.kind_id
            if t == K.k_object:
                return value
            if t == K.as_expr:  # `as const` (an unnamed token); `as T`: the declared type says what it is
                if value.named_child_count != 1 or value.child(value.child_count - 1).type != "const":
                    return None
            elif value.type not in ("satisfies_expression", "parenthesized_expression"):
                return None
            inner = nth(value, 0)
            if inner is None:
                return None
            value = inner

    def register_object(self, node, prefix: str, scope: int, depth: int = 0) -> None:
        if depth > 60 or node.start_byte in self.obj_prefix:
            return
        self.obj_prefix[node.start_byte] = prefix
        self.pf.defs_at[node.start_byte] = (DEF, prefix, DEF_OBJ)
        members: dict[str, tuple] = {}
        spreads: list[tuple] = []
        for ch in node.named_children:
            t = ch.type
            if t == "spread_element":  # { ...a, k: f }: a's members too
                x = self.conv(nth(ch, 0))
                if x is not None:
                    spreads.append(x)
                continue
            if t == "pair":
                key = self.object_key(ch.child_by_field_id(self.K.f_key))
                val = ch.child_by_field_id(self.K.f_value)
                if key is None or val is None:
                    continue
                if val.type == "object":
                    self.register_object(val, f"{prefix}.{key}", scope, depth + 1)
                e = self.conv(val)
                if e is not None:
                    members[key] = e
            elif t == "method_definition":
                nm = ch.child_by_field_id(self.K.f_name)
                key = self.key_name(nm)
                if key is None and nm is not None and nm.type == "computed_property_name":
                    key = self.object_key(nm)  # [KEY]() {}, KEY a const Symbol() or string
                if key is not None:
                    mods = self.data[ch.start_byte : nm.start_byte].split()
                    if b"set" in mods:  # a setter: its getter's, if any (reading runs that)
                        members.setdefault(key, UNKNOWN_BINDING)
                    elif b"get" in mods:  # { get value() {} }: reading o.value runs it
                        members[key] = (READS, (DEFAT, ch.start_byte))
                    else:
                        members[key] = (DEFAT, ch.start_byte)
            elif t == "shorthand_property_identifier":
                name = self._t(ch)
                members[name] = (ID, name)
        if spreads:
            members[SPREADS] = (SPREADS_OF, tuple(spreads))
        self.pf.objects[prefix] = (scope, members)

    def object_choices(self, node, depth: int = 0) -> list:
        """The object literals a value written as a choice may be (``c && { m() {} }``,
        ``a || { m: f }``, ``a ?? { ... }``, ``c ? { m: f } : { m: g }``, through parentheses and
        casts), in source order: what a variable assigned it is named after (``register_choices``)."""
        K = self.K
        while node is not None and (node.kind_id in K.unwrap or node.kind_id == K.as_expr) and depth < 8:
            node = nth(node, 0)
            depth += 1
        if node is None or depth > 8:
            return []
        t = node.kind_id
        if t == K.k_object:
            return [node]
        if t == K.ternary:
            parts = [node.child_by_field_id(K.f_consequence), node.child_by_field_id(K.f_alternative)]
        elif t == K.binary:
            op = node.child_by_field_id(K.f_operator)
            opt = self.data[op.start_byte : op.end_byte] if op is not None else b""
            if opt == b"&&":  # (the left side is a condition: no object we call)
                parts = [node.child_by_field_id(K.f_right)]
            elif opt == b"||" or opt == b"??":
                parts = [node.child_by_field_id(K.f_left), node.child_by_field_id(K.f_right)]
            else:
                return []
        else:
            return []
        return [o for p in parts for o in self.object_choices(p, depth + 1)]

    def register_choices(self, nodes: list, prefix: str, scope: int) -> None:
        """Each object literal of ``nodes`` (what one variable may hold) as the named object
        ``prefix``: the first registers it, a later one adds its members (``('also', ...)``: either
        object's; its methods share the names of the first one's)."""
        objects = self.pf.objects
        for n in nodes:
            if n.start_byte in self.obj_prefix:
                continue
            old = objects.get(prefix)
            self.register_object(n, prefix, scope)
            if old is None:
                continue
            _s, added = objects[prefix]
            members = dict(old[1])
            for k, e in added.items():
                if scope != old[0]:
                    e = (SPREADS_OF, tuple((IN, scope, x) for x in e[1])) if k == SPREADS else (IN, scope, e)
                prev = members.get(k)
                if prev is None:
                    members[k] = e
                elif k == SPREADS:
                    members[k] = (SPREADS_OF, prev[1] + e[1])
                else:
                    members[k] = (ALSO, prev, e)
            objects[prefix] = (old[0], members)

    def local_object(self, node) -> str | None:
        """The fqn of the object literal that name ``node`` holds, when it is bound (so far, in an
        enclosing scope) once, to an object literal: ``const registry = {}``."""
        found = self.sole_binding(node)
        if found is None:
            return None
        b = found[0]
        if b[0] != VAR or b[2] is None or b[2][0] != DEFAT:
            return None
        d = self.pf.defs_at.get(b[2][1])
        return d[1] if d is not None and d[2] == DEF_OBJ and d[1] in self.pf.objects else None

    def bound_def(self, node) -> tuple[tuple, int] | None:
        """(the ``DEF``, the binding's scope) of the definition of this file that name ``node``
        holds, bound once (so far) in an enclosing scope: declared, or a variable given a
        function, class or object literal written there."""
        found = self.sole_binding(node)
        if found is None:
            return None
        b, s = found
        d = self.pf.defs_at.get(b[2][1]) if b[0] == VAR and b[2] is not None and b[2][0] == DEFAT else b
        return (d, s) if d is not None and d[0] == DEF else None

    def function_object(self, node) -> str | None:
        """The fqn of the function of this file that name ``node`` holds (``bound_def``), its
        members' entry of ``ParsedFile.objects`` made on first use; None for anything else."""
        found = self.bound_def(node)
        if found is None or found[0][2] != DEF_FUNC:
            return None
        fqn = found[0][1]
        if fqn not in self.pf.objects:
            self.pf.objects[fqn] = (found[1], {})
        return fqn

    def package_helper(self, fn) -> str | None:
        """What the builtin that callee ``fn`` (a name) holds is, when it is bound once to the
        default export of a package of ``PACKAGE_HELPERS`` (``var mixin =
        require("merge-descriptors")``, ``import setPrototypeOf from "setprototypeof"``)."""
        if self.helper_names is None:  # once per file: the names bound so, before each quoted name
            data = self.data
            names = set()
            for pkg in PACKAGE_HELPERS:
                at = data.find(pkg.encode())
                while at > 0:
                    m = _HELPER_BINDING.search(data, max(0, at - 80), at)
                    if m is not None and data[at + len(pkg) : at + len(pkg) + 1] in (b'"', b"'"):
                        names.add((m.group(1) or m.group(2)).decode())
                    at = data.find(pkg.encode(), at + 1)
            self.helper_names = frozenset(names)
        found = self.sole_binding(fn) if self._t(fn) in self.helper_names else None
        if found is None:
            return None
        b = found[0]
        if b[0] == VAR and b[2] is not None and b[2][0] == REQUIRE:
            return PACKAGE_HELPERS.get(b[2][1])
        if b[0] == IMPORT and b[2] == IMPORT_DEFAULT:
            return PACKAGE_HELPERS.get(b[1])
        return None

    def function_member(self, node, key: str, e: tuple | None) -> None:
        """``F.key = e`` with F a name holding (bound once, so far, in an enclosing scope) a
        function of this file (``function make() {}``, ``const tool = () => {}``) or a class: a
        function's members are an entry of ``ParsedFile.objects`` under its fqn, made on first use
        (``make.helper = function () {}``: ``make.helper()`` reaches it), a class's a ``FIELD``
        (``Base.create = function () {}``: a static)."""
        found = self.bound_def(node)
        if found is None:
            return
        d, s = found
        if d[2] == DEF_FUNC:
            if d[1] not in self.pf.objects:
                self.pf.objects[d[1]] = (s, {})
            self.add_member(d[1], key, e)
        elif d[2] == DEF_CLASS and e is not None:
            info = self.pf.classes.get(d[1])
            if info is not None:
                info.members.setdefault(key, []).append((FIELD, self.stack[-1].fe.scope, e))

    def add_member(self, fqn: str, key: str, e: tuple | None) -> None:
        """Object ``fqn`` gets member ``key`` = ``e`` (written in the current scope) later
        (``registry.onLog = log``): for a key it had, one more of its values (``('also', ...)``:
        those known of them; as before such assignments were read, an unknown one adds nothing);
        ``Object.assign(o, src)`` with key ``SPREADS``: ``e`` is one more source of members."""
        scope0, members = self.pf.objects[fqn]
        scope = self.stack[-1].fe.scope
        fqns = self.pf.scope_fqn  # (flow order: a member set another way, or from another function)
        self.flow.member_changed(fqn, key, key == SPREADS or fqns[scope] != fqns[scope0])
        if e is not None and scope != scope0:
            e = (IN, scope, e)
        old = members.get(key)
        if old is not None and old[0] == READS:
            return  # o.value = x with a `get value()` (and a setter): the getter still answers reads
        if key == SPREADS:
            members[key] = (SPREADS_OF, (old[1] if old is not None else ()) + ((e,) if e is not None else ()))
        elif old is None:
            members[key] = e if e is not None else UNKNOWN_BINDING
        elif e is not None:  # the values known of those assigned (as an unknown one added none)
            members[key] = (ALSO, old, e)

    def flow_member_use(self, e: tuple, fn) -> None:
        """Flow order (flow.py): the last call site calls ``o.m`` (``e``, at ``fn``), ``o`` the
        name of an object literal whose members straight-line code assigns."""
        if fn.kind_id != self.K.member:
            return
        obj = fn.child_by_field_id(self.K.f_object)
        fqn = self.local_object(obj)
        if fqn is not None and (fqn, e[2]) in self.flow.members:
            found = self.sole_binding(obj)
            if found is not None:
                self.flow.member_used(len(self.pf.sites) - 1, fqn, e[2], found[1], e[1][1], fn)

    # -- patterns -------------------------------------------------------------------------------
    def bind_pattern(self, scope: int, node, value: tuple | None = None, at: int = -1) -> None:
        """Bind every name a destructuring pattern introduces (``pattern_names``) in ``scope``,
        each to its part of ``value``, evaluated in scope ``at`` (default: ``scope``)."""
        out: list[tuple[str, tuple | None]] = []
        self.pattern_names(node, value, out, 0)
        where = scope if at < 0 else at
        for name, v in out:
            self.bind(scope, name, (VAR, None, v, where) if v is not None else UNKNOWN_BINDING)

    def pattern_names(self, node, value: tuple | None, out: list, depth: int) -> None:
        """The names a destructuring pattern of ``value`` assigns, each with what it gets (None:
        unknown): object keys keep a member path (``('prop', value, key)``), array elements their
        position (``('at', value, i)``), a rest element the ones after (``('from', ...)``); an
        element with a default may also hold the default (``defaulted``)."""
        if node is None or depth > 60:
            return
        t = node.type
        if t in ("identifier", "shorthand_property_identifier_pattern"):
            out.append((self._t(node), value))
        elif t == "object_pattern":
            for ch in node.named_children:
                ct = ch.type
                if ct == "shorthand_property_identifier_pattern":
                    name = self._t(ch)
                    out.append((name, (PROP, value, name) if value is not None else None))
                elif ct == "pair_pattern":
                    key = self.key_name(ch.child_by_field_id(self.K.f_key))
                    sub = (PROP, value, key) if (value is not None and key is not None) else None
                    self.pattern_names(ch.child_by_field_id(self.K.f_value), sub, out, depth + 1)
                elif ct == "object_assignment_pattern":  # { cb = dflt }: the member, or the default
                    left = ch.child_by_field_id(self.K.f_left)
                    sub = None
                    if value is not None and left is not None and left.kind_id == self.K.k_shorthand_property_identifier_pattern:
                        sub = (PROP, value, self._t(left))
                    self.pattern_names(left, self.defaulted(sub, ch), out, depth + 1)
                elif ct == "rest_pattern":  # { x, ...others }: the other members, those of the value
                    inner = nth(ch, 0)
                    if inner is not None and inner.type == "identifier":
                        out.append((self._t(inner), value))
                else:
                    self.pattern_names(ch, None, out, depth + 1)
        elif t == "array_pattern":  # const [value, toggle] = useToggle(): each element by position
            if value is not None and value[0] != ALIT:  # destructuring iterates: an iterable's [Symbol.iterator]
                self.pf.sites.append((self.stack[-1].fe.scope, SITE_ITER, value, node))
            pos = 0
            for ch in node.children:
                if ch.is_named:
                    if ch.kind_id != self.K.k_comment:
                        if value is None:
                            at: Expr | None = None
                        elif ch.kind_id == self.K.k_rest_pattern:  # [x, ...rest]: the elements from here on
                            at = (FROM, value, pos, None, False)
                        else:
                            at = (AT, value, pos)
                        self.pattern_names(ch, at, out, depth + 1)
                elif ch.type == ",":
                    pos += 1
        elif t == "rest_pattern":  # the value is what the enclosing array pattern gives it
            for ch in node.named_children:
                self.pattern_names(ch, value if value is not None and value[0] == FROM else None, out, depth + 1)
        elif t == "assignment_pattern":  # [first = fallback], { handler: h = renamed }
            self.pattern_names(node.child_by_field_id(self.K.f_left), self.defaulted(value, node), out, depth + 1)

    def defaulted(self, value: Expr | None, node) -> Expr | None:
        """What a pattern element with a default (``cb = dflt``) may hold: the value it is given or
        the default, ``('also', value, default)`` (a primitive default, ``retries = 3``, adds
        nothing: ``value``, and an unknown one leaves the element unknown)."""
        right = node.child_by_field_id(self.K.f_right)
        d = self.conv(right) if right is not None else None
        if d is None:
            return None
        if d[0] == NULL or d[0] == KEY:
            return value
        return (ALSO, value, d)

    def prototype_member(self, left) -> tuple[ClassInfo, str] | None:
        """(the constructor's ClassInfo, m) for an assignment target ``F.prototype.m`` with F a
        class, or a function of this file (``function Shape() {}``, ``ns.Widget = function
        () {}``): F's instances have the member (ES5 classes; ``_Ctx.eval`` of ``new F()``)."""
        if left is None or left.kind_id != self.K.member:
            return None
        prop = left.child_by_field_id(self.K.f_property)
        if prop is None or prop.type != "property_identifier":
            return None
        info = self.prototype_of(left.child_by_field_id(self.K.f_object), functions=True)
        return (info, self._t(prop)) if info is not None else None

    def prototype_of(self, node, functions: bool = False) -> ClassInfo | None:
        """The class of this file whose ``prototype`` ``node`` is (``C.prototype``, C bound to the
        class declaration in an enclosing scope); with ``functions``, also a constructor
        function's (``function_class``: ``F.prototype``, ``ns.F.prototype``)."""
        if node is not None and node.kind_id == self.K.identifier and functions:
            if not self.proto_names:
                return None
            name = self._t(node)  # var proto = F.prototype
            return self.class_called(name, functions, proto=True) if name in self.proto_names else None
        if node is None or node.kind_id != self.K.member:
            return None
        prop = node.child_by_field_id(self.K.f_property)
        obj = node.child_by_field_id(self.K.f_object)
        if prop is None or obj is None or self._t(prop) != "prototype":
            return None
        if obj.kind_id == self.K.member and functions:  # ns.Widget.prototype
            fqn = self.local_object(obj.child_by_field_id(self.K.f_object))
            key = obj.child_by_field_id(self.K.f_property)
            x = self.pf.objects[fqn][1].get(self._t(key)) if fqn is not None and key is not None else None
            if x is not None and x[0] == IN:
                x = x[2]
            d = self.pf.defs_at.get(x[1]) if x is not None and x[0] == DEFAT else None
            if d is None or d[2] != DEF_FUNC or fqn is None:
                return None
            return self.function_class(d[1], self.pf.objects[fqn][0])
        return self.class_named(obj, functions)

    def class_named(self, obj, functions: bool = False) -> ClassInfo | None:
        """The class of this file that the identifier ``obj`` is bound to in an enclosing scope;
        with ``functions``, also a constructor function's (``function_class``)."""
        if obj.kind_id != self.K.identifier:
            return None
        return self.class_called(self._t(obj), functions)

    def class_called(self, name: str, functions: bool, proto: bool = False) -> ClassInfo | None:
        """``class_named`` of a name; with ``proto``, the class whose prototype the name holds
        (``var proto = Router.prototype``: ``proto.use = function () {}`` is Router's member)."""
        s = self.stack[-1].fe.scope
        while s >= 0:
            bl = self.pf.bindings[s].get(name)
            if bl is not None:
                d = bl[0] if len(bl) == 1 else None
                x = d[2] if d is not None and d[0] == VAR else None
                if proto:
                    if x is None or x[0] != PROP or x[2] != "prototype" or x[1][0] != ID:
                        return None
                    return self.class_called(x[1][1], functions)
                if x is not None and x[0] == DEFAT:
                    d = self.pf.defs_at.get(x[1])  # var Shape = function () {}
                if d is None or d[0] != DEF:
                    return None
                if d[2] == DEF_CLASS:
                    return self.pf.classes.get(d[1])
                return self.function_class(d[1], s) if d[2] == DEF_FUNC and functions else None
            s = self.pf.scope_parent[s]
        return None

    def prototype_literal_this(self, obj) -> tuple | None:
        """``this`` in a function written in object literal ``obj``: an instance of F when the
        literal is assigned to ``F.prototype`` (F a class or a constructor function of the file)."""
        a = obj.parent
        if a is None or a.kind_id != self.K.k_assignment_expression:
            return None
        info = self.prototype_of(a.child_by_field_id(self.K.f_left), functions=True)
        return (THIS_CLS, info.fqn) if info is not None else None

    def function_class(self, fqn: str, scope: int) -> ClassInfo:
        """The ClassInfo of a constructor function (its prototype's members), made on first use."""
        info = self.pf.classes.get(fqn)
        if info is None:
            info = self.pf.classes[fqn] = ClassInfo(fqn=fqn, path=self.path, scope=scope)
        return info

    def keyed_push(self, scope: int, recv, given: list) -> None:
        """``o[k].push(f)`` (also ``(o[k] ||= []).push(f)``, ``(o[k] = o[k] || []).push(f)``) with
        k no literal, ``o`` an object literal of the file (``local_object``) or a field of ``this``:
        an array under an unknown key holds f (member ``KEYED`` of the object, ``ITEM`` of the field
        ``('alit', (PUSHED, f))``): a hand-written event emitter's handlers."""
        K = self.K
        node = recv
        for _ in range(4):  # (o[k] ||= []) / (o[k] = o[k] || []) / (o[k] || (o[k] = [])): o[k]
            t = node.type
            if t == "parenthesized_expression":
                node = nth(node, 0)
            elif t in ("augmented_assignment_expression", "assignment_expression", "binary_expression"):
                node = node.child_by_field_id(K.f_left)
            else:
                break
            if node is None:
                return
        if node.kind_id != K.subscript:
            return
        idx = node.child_by_field_id(K.f_index)
        if idx is None or idx.kind_id == K.k_number or self.index_key(idx) is not None:
            return  # a key we read: a member of its own
        # each value as written in this scope: a parameter there is what the callers pass (``IN``)
        items = tuple((IN, scope, x) if x is not None else None for x in (self.conv(a) for a in given[:16]))
        if all(x is None for x in items):
            return
        lit = (ALIT, (PUSHED, *items))
        obj = node.child_by_field_id(K.f_object)
        if obj is None:
            return
        if obj.kind_id == K.identifier:
            fqn = self.local_object(obj)
            if fqn is not None:
                self.add_member(fqn, KEYED, lit)
        elif obj.kind_id == K.member and nth(obj, 0) is not None and nth(obj, 0).kind_id == K.this:
            this = self.stack[-1].this
            info = self.pf.classes.get(this[1]) if this is not None and this[0] == THIS_CLS else None
            prop = obj.child_by_field_id(K.f_property)
            if info is not None and prop is not None:
                info.members.setdefault(self._t(prop), []).append((ITEM, scope, lit))

    def keyed_assign(self, obj, right) -> None:
        """``handlers[type] = fn`` with a key we cannot read, ``obj`` an object literal of the file
        (``local_object``) or one a field of ``this`` holds (``this.map = {}``: the object
        ``C.map``): fn is one of the values under unknown keys (member ``ANY_KEY``, which
        ``o[k]()`` with k no literal calls): a hand-written registry."""
        if obj is None or right is None:
            return
        fqn = None
        if obj.kind_id == self.K.identifier:
            fqn = self.local_object(obj)
        elif obj.kind_id == self.K.member and nth(obj, 0) is not None and nth(obj, 0).kind_id == self.K.this:
            this = self.stack[-1].this
            prop = obj.child_by_field_id(self.K.f_property)
            if this is not None and this[0] == THIS_CLS and prop is not None:
                fqn = f"{this[1]}.{self._t(prop)}"
        if fqn is not None and fqn in self.pf.objects:
            e = self.conv(right)
            if e is not None:
                self.add_member(fqn, ANY_KEY, e)

    def param_store(self, obj, key, right) -> None:
        """``o[k] = v`` / ``o.k = v`` with ``o`` a parameter of the function (and ``k`` a parameter
        of it, or a literal key ``key``): the calls of the function in this file that pass an object
        literal of the file there (and a string literal for k) add the member to it
        (``visit.parameter_stores``: ``assign(registry, "load", f)``)."""
        found = self.sole_binding(obj) if right is not None else None
        if found is None or found[0][0] != PARAM or found[0][1] < 0:
            return
        b, s = found
        if isinstance(key, str):
            k: tuple = (KEY, key)
        else:
            kf = self.sole_binding(key)
            if kf is None or kf[1] != s or kf[0][0] != PARAM or kf[0][1] < 0:
                return
            k = (PARAM, kf[0][1])
        v = self.conv(right)
        if v is not None:
            self.param_stores.append((s, b[1], k, v, self.stack[-1].fe.scope))

    def field_items(self, scope: int, name: str, given: list) -> None:
        """``this.listeners.push(cb)``, ``this.handlers.set(k, cb)`` in a method (``given``: the
        argument nodes of the values added): the field holds them, as items (``("item", scope,
        expr)`` class members; ``for (const l of this.listeners) l()``); in a static method or
        block, of the class's static field (read like a static); in a method of an object literal
        (``{ hs: [], on(h) { this.hs.push(h) } }``), of its member (``literal_items``)."""
        this = self.stack[-1].this
        info = self.pf.classes.get(this[1]) if this is not None and (this[0] == THIS_CLS or this[0] == THIS_SCLS) else None
        if info is None:
            if this is not None and this[0] == THIS_OBJ and this[1] in self.pf.objects:
                self.literal_items(this[1], name, given)
            return
        for a in given:
            x = self.conv(a)
            if x is not None:
                info.members.setdefault(name, []).append((ITEM, scope, x))

    def held_items(self, scope: int, holder, name: str, given: list) -> None:
        """``registry.items.push(f)`` with ``registry`` a name bound once to an object literal
        whose member ``items`` is an array literal (``literal_items``), or ``Reg.fs.push(f)`` with
        ``Reg`` a class of the file (its static field ``fs`` holds f, as ``this.fs.push(f)`` in a
        static method does: ``field_items``); ``holder`` the name's node."""
        fqn = self.local_object(holder)
        if fqn is not None:
            self.literal_items(fqn, name, given)
            return
        found = self.bound_def(holder)
        if found is None or found[0][2] != DEF_CLASS:
            return
        info = self.pf.classes.get(found[0][1])
        if info is None:
            return
        for a in given:
            x = self.conv(a)
            if x is not None:
                info.members.setdefault(name, []).append((ITEM, scope, x))

    def literal_items(self, fqn: str, name: str, given: list) -> None:
        """Object literal ``fqn``'s member ``name``, an array literal (``{ items: [] }``, or one
        already added to), also holds the values ``given`` pushed: one more of its values, the
        literal ``('alit', (PUSHED, f))`` as a push onto a local array adds (``visit.run``)."""
        old = self.pf.objects[fqn][1].get(name)
        while old is not None and old[0] == ALSO:
            old = old[2] if old[2][0] != IN else old[2][2]
        if old is None or old[0] != ALIT:
            return
        items = tuple(self.conv(a) for a in given[:16])
        if any(x is not None for x in items):
            self.add_member(fqn, name, (ALIT, (PUSHED, *items)))

    def instance_member(self, node, key: str, e: tuple | None) -> None:
        """``t.cb = f`` with ``t`` a name bound once, untyped, to ``new C()`` of a class ``C`` of
        the file: a field of C's instances (as ``this.cb = f`` in a method is: ``this.cb()`` in
        C's methods calls f)."""
        found = self.sole_binding(node)
        if found is None or e is None:
            return
        b = found[0]
        if b[0] != VAR or b[1] is not None or b[2] is None or b[2][0] != NEW or b[2][1][0] != ID:
            return
        s = found[1]
        name = b[2][1][1]
        while s >= 0:
            bl = self.pf.bindings[s].get(name)
            if bl is not None:
                if len(bl) == 1 and bl[0][0] == DEF and bl[0][2] == DEF_CLASS:
                    info = self.pf.classes.get(bl[0][1])
                    if info is not None:
                        info.members.setdefault(key, []).append((FIELD, self.stack[-1].fe.scope, e))
                return
            s = self.pf.scope_parent[s]

    def nested_object(self, node) -> str | None:
        """The fqn of the object literal that member expression ``node`` names when it is a
        member of a name bound once to an object literal, written there as an object literal
        (``app.handlers`` with ``const app = { handlers: {} }``), at any depth; else None."""
        K = self.K
        if node is None:
            return None
        if node.kind_id == K.identifier:
            return self.local_object(node)
        if node.kind_id != K.member:
            return None
        prop = node.child_by_field_id(K.f_property)
        outer = self.nested_object(node.child_by_field_id(K.f_object))
        if outer is None or prop is None:
            return None
        m = self.pf.objects[outer][1].get(self._t(prop))
        d = self.pf.defs_at.get(m[1]) if m is not None and m[0] == DEFAT else None
        return d[1] if d is not None and d[2] == DEF_OBJ and d[1] in self.pf.objects else None
