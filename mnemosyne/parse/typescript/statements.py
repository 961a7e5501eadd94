"""Imports, exports, declarations, assignments, class fields, returns and yields, blocks, loops
and catch clauses."""

from __future__ import annotations

from mnemosyne.parse.typescript import jsdoc
from mnemosyne.parse.typescript.defs import Defs
from mnemosyne.parse.typescript.expr import OBJECT_CREATE, OBJECT_KEYS, symbol_key
from mnemosyne.parse.typescript.grammar import nth
from mnemosyne.parse.typescript.tags import (
    ALIT,
    CALL,
    DECL_BINDING,
    DEF,
    DEF_OBJ,
    DEFAT,
    EITHER,
    ELEM,
    ENTRY_BLOCK,
    ENTRY_CLASS,
    ENTRY_FUNCTION,
    ENTRY_NS,
    EXPR,
    FIELD,
    ID,
    IMPORT,
    IMPORT_ALL,
    IMPORT_DEFAULT,
    LOCAL,
    MIXIN,
    NULL_EXPR,
    PROP,
    PROTO_KEY,
    REQUIRE,
    SITE_ITER,
    SITE_SET,
    SNAP,
    SPREADS,
    THIS_CLS,
    THIS_OBJ,
    THIS_SCLS,
    TYPE,
    UNKNOWN_BINDING,
    VAR,
    YIELD,
    Expr,
)
from mnemosyne.parse.typescript.throws import caught_value

# the calls that make a symbol (``symbol_const``)
_SYMBOL_CALLEES = frozenset({b"Symbol", b"Symbol.for"})
# the right sides written as a definition that a member of a nested object literal takes
# (``app.handlers.click = function () {}``)
_WRITTEN_DEFS = frozenset({"function_expression", "arrow_function", "class", "object"})


class Statements(Defs):
    """Module-level and statement constructs."""

    def on_import(self, node) -> None:
        K = self.K
        src = self._sv(node.child_by_field_id(K.f_source))
        if src is None:
            req = nth(node, 0)
            if req is None or req.kind_id != K.k_import_require_clause:
                return
            src = self._sv(req.child_by_field_id(K.f_source))
            if src is None:
                return
        self.pf.specs.append((src, node.start_point[0] + 1))
        scope = 0
        for clause in node.named_children:
            if clause.kind_id == K.k_import_require_clause:  # import x = require("y")
                ident = nth(clause, 0)
                if ident is not None:
                    self.bind(scope, self._t(ident), (VAR, None, (REQUIRE, src), 0))
                continue
            if clause.kind_id != K.k_import_clause:
                continue
            for ch in clause.named_children:
                ct = ch.kind_id
                if ct == K.identifier:
                    self.bind(scope, self._t(ch), (IMPORT, src, IMPORT_DEFAULT))
                elif ct == K.k_namespace_import:
                    ident = nth(ch, 0)
                    if ident is not None:
                        self.bind(scope, self._t(ident), (IMPORT, src, IMPORT_ALL))
                elif ct == K.k_named_imports:
                    for sp in ch.named_children:
                        if sp.kind_id != K.k_import_specifier:
                            continue
                        nm = sp.child_by_field_id(K.f_name)
                        al = sp.child_by_field_id(K.f_alias)
                        if nm is None:
                            continue
                        imported = self._sv(nm) if nm.kind_id == K.k_string else self._t(nm)
                        if imported is None:
                            continue
                        self.bind(scope, self._t(al) if al is not None else imported, (IMPORT, src, imported))

    def on_export(self, node) -> None:
        K = self.K
        pf = self.pf
        if self.func_entry().kind == ENTRY_NS:
            return  # exported from a namespace, not from the module
        src = self._sv(node.child_by_field_id(K.f_source))
        if src is not None:
            pf.specs.append((src, node.start_point[0] + 1))
            star = True
            for ch in node.named_children:
                if ch.kind_id == K.k_export_clause:
                    star = False
                    for sp in ch.named_children:
                        if sp.kind_id != K.k_export_specifier:
                            continue
                        nm = sp.child_by_field_id(K.f_name)
                        al = sp.child_by_field_id(K.f_alias)
                        if nm is None:
                            continue
                        imported = self.key_name(nm) or self._t(nm)
                        exported = self.key_name(al) or self._t(al) if al is not None else imported
                        pf.exports[exported] = (IMPORT, src, imported)
                elif ch.kind_id == K.k_namespace_export:
                    star = False
                    ident = nth(ch, 0)
                    if ident is not None:
                        pf.exports[self.key_name(ident) or self._t(ident)] = (IMPORT, src, IMPORT_ALL)
            if star:
                pf.stars.append(src)
            return
        decl = node.child_by_field_id(K.f_declaration)
        if decl is not None:
            dt = decl.kind_id
            if dt == K.k_lexical_declaration or dt == K.k_variable_declaration:
                for d in decl.named_children:
                    if d.kind_id == K.k_variable_declarator:
                        nm = d.child_by_field_id(K.f_name)
                        if nm is not None and nm.kind_id == K.identifier:
                            pf.exports[self._t(nm)] = (LOCAL, self._t(nm))
            else:
                nm = decl.child_by_field_id(K.f_name)
                if nm is not None and not self.is_default_export(node):
                    pf.exports[self._t(nm)] = (LOCAL, self._t(nm))
            return
        value = node.child_by_field_id(K.f_value)
        if value is not None:
            vt = value.type
            if vt == "identifier":
                pf.exports["default"] = (LOCAL, self._t(value))
            elif vt == "object":
                self.register_object(value, f"{self.module}.default", 0)
                pf.exports["default"] = (DEFAT, value.start_byte)
            elif vt in ("arrow_function", "function_expression", "class", "function"):
                pass  # named 'default' by on_fn / on_cls
            else:
                pf.exports["default"] = (EXPR, self.conv(value), self.func_entry().scope)
            return
        for ch in node.named_children:
            if ch.kind_id == K.k_export_clause:
                for sp in ch.named_children:
                    if sp.kind_id != K.k_export_specifier:
                        continue
                    nm = sp.child_by_field_id(K.f_name)
                    al = sp.child_by_field_id(K.f_alias)
                    if nm is None:
                        continue
                    local = self._t(nm)
                    pf.exports[self._t(al) if al is not None else local] = (LOCAL, local)
            elif ch.kind_id == K.identifier:  # export = x
                pf.exports["default"] = (LOCAL, self._t(ch))
                pf.cjs_whole = True

    def created_object(self, value, vexpr: tuple, fqn: str, scope: int) -> tuple:
        """``var res = Object.create(proto)``: an object of its own, as a literal is (members
        assigned later, ``res.json = function () { this.send() }``, are its members and their
        ``this`` is it), that has proto's members (express's response and request objects)."""
        members: dict[str, tuple] = {PROTO_KEY: vexpr[2]} if len(vexpr) > 2 and vexpr[2] is not None else {}
        self.pf.defs_at[value.start_byte] = (DEF, fqn, DEF_OBJ)
        self.pf.objects[fqn] = (scope, members)
        return (DEFAT, value.start_byte)

    def may_hold_objects(self, node) -> bool:
        """``node`` is a conditional or logical expression (or one wrapped) with an object literal in
        its text: ``c && { m() {} }``, ``a || { m: f }``, ``c ? { m: f } : { m: g }`` (``object_choices``)."""
        K = self.K
        return (node.kind_id == K.ternary or node.kind_id == K.binary or node.kind_id in K.unwrap) and (
            self.data.find(b"{", node.start_byte, node.end_byte) >= 0
        )

    def string_choices(self, node, depth: int) -> list[str] | None:
        """The string literals a (nested) conditional of string literals may give
        (``c ? "a" : d ? "b" : "c"``); None if a branch is anything else."""
        K = self.K
        while node.type == "parenthesized_expression" and node.named_child_count == 1:
            node = node.named_children[0]
        if node.kind_id == K.k_string:
            sv = self._sv(node)
            return [sv] if sv is not None else None
        if node.kind_id != K.ternary or depth > 4:
            return None
        out: list[str] = []
        for f in (K.f_consequence, K.f_alternative):
            branch = node.child_by_field_id(f)
            got = self.string_choices(branch, depth + 1) if branch is not None else None
            if got is None:
                return None
            out += got
        return out

    def symbol_const(self, node, value, scope: int, name: str) -> None:
        """``const KEY = Symbol("k")`` (or ``Symbol.for``): the member key ``[KEY]`` (``symbol_key``)
        is what ``{ [KEY]: f }``, ``[KEY]() {}``, ``o[KEY]`` and ``m.set(KEY, f)`` name (``strs``)."""
        fn = value.child_by_field_id(self.K.f_function) if value.kind_id == self.K.call else None
        if fn is None or self.data[fn.start_byte : fn.end_byte] not in _SYMBOL_CALLEES:
            return
        decl = node.parent
        if decl is not None and decl.kind_id == self.K.k_lexical_declaration and decl.child(0).type == "const":
            self.strs[(scope, name)] = symbol_key(name)

    def on_var(self, node) -> None:
        nm = node.child_by_field_id(self.K.f_name)
        if nm is None:
            return
        K = self.K
        fe = self.func_entry()
        value = node.child_by_field_id(K.f_value)
        ident = nm.kind_id == K.identifier
        # the declaration, fetched once when something below reads it (``Node.parent`` searches
        # from the root: ~4 K instructions in vite's bundle, and a JavaScript name read it twice)
        decl = node.parent if fe.kind == ENTRY_BLOCK or (ident and (self.pf.language == "javascript" or (
            value is not None and (value.kind_id == K.k_string or value.kind_id == K.ternary or value.kind_id == K.k_number)))) else None
        if fe.kind == ENTRY_BLOCK and decl is not None and decl.kind_id == K.k_variable_declaration:
            fe = self.var_entry()  # `var` is function-scoped
        ty = node.child_by_field_id(K.f_type)
        if ident:
            name = self._t(nm)
            vexpr = None
            if value is not None and value.kind_id == K.k_string:
                if decl is not None and decl.kind_id == K.k_lexical_declaration and decl.child(0).type == "const":
                    sv = self._sv(value)
                    if sv is not None:  # const KEY = "run": what `{ [KEY]: f }` and `o[KEY]` name
                        self.strs[(fe.scope, name)] = sv
            elif value is not None and value.kind_id == K.k_number and value.text.isdigit():
                if decl is not None and decl.kind_id == K.k_lexical_declaration and decl.child(0).type == "const":
                    self.nums[(fe.scope, name)] = int(value.text)  # const i = 1: what `fns[i]` names
            elif value is not None and value.kind_id == K.ternary:
                if decl is not None and decl.kind_id == K.k_lexical_declaration and decl.child(0).type == "const":
                    choices = self.string_choices(value, 0)
                    if choices:  # const method = post ? "post" : "get": what `client[method]` names
                        self.str_choices[(fe.scope, name)] = tuple(dict.fromkeys(choices))
            elif self.symbols and value is not None and self.data.startswith(b"Symbol", value.start_byte):
                self.symbol_const(node, value, fe.scope, name)
            if value is not None:
                literal = self.literal_of(value)
                if literal is not None:
                    self.register_object(literal, f"{self.naming().fqn}.{name}", fe.scope)
                elif self.may_hold_objects(value):
                    # const x = c && { m() {} } / a || { m: f } / c ? { m: f } : { m: g }: the named object(s)
                    self.register_choices(self.object_choices(value), f"{self.naming().fqn}.{name}", fe.scope)
                vexpr = self.conv(value)
                if literal is None and vexpr is not None and vexpr[0] == CALL and vexpr[1] == OBJECT_CREATE:
                    vexpr = self.created_object(value, vexpr, f"{self.naming().fqn}.{name}", fe.scope)
            texpr = self.conv_type(ty) if ty is not None else None
            if texpr is None and self.pf.language == "javascript" and decl is not None:
                doc = self.doc_before(decl.start_byte)  # /** @type {T} */ const x = ...
                texpr = jsdoc.declared_type(doc) if doc else None
            if vexpr is None and texpr is None:
                self.bind(fe.scope, name, DECL_BINDING if value is None else UNKNOWN_BINDING)
            else:
                self.bind(fe.scope, name, (VAR, texpr, vexpr, fe.scope))
            if vexpr is not None or texpr is not None:
                if vexpr is not None and vexpr[0] == CALL and len(vexpr) == 2 and (vexpr[1][0] == ID or vexpr[1][0] == PROP):
                    # const a = f(x), h.f(x): the call's own arguments, if it records them (``own_arguments``)
                    self.var_call = (value.start_byte, fe.scope, name, -1)
                if vexpr is not None and vexpr[0] == PROP and vexpr[2] == "prototype":
                    self.proto_names.add(name)  # var proto = F.prototype (``Objects.prototype_of``)
        else:
            vexpr = self.conv(value) if value is not None else None
            self.bind_pattern(fe.scope, nm, vexpr)

    def on_assign(self, node) -> None:
        left = node.child_by_field_id(self.K.f_left)
        right = node.child_by_field_id(self.K.f_right)
        if left is None:
            return
        fe = self.func_entry()
        lt = left.type
        if lt == "identifier":
            if right is not None and (right.kind_id == self.K.k_object or self.may_hold_objects(right)):
                # x = { m() {} } / x = c && { ... }: the named object x (also merged with the one declared)
                self.register_choices(self.object_choices(right), f"{self.naming().fqn}.{self._t(left)}", fe.scope)
            rexpr = self.conv(right) if right is not None else None
            if rexpr is not None and rexpr[0] == CALL and len(rexpr) == 2 and (rexpr[1][0] == ID or rexpr[1][0] == PROP):
                # a = f(x): the call's own arguments, if it records them (``own_arguments``)
                self.var_call = (right.start_byte, fe.scope, "", len(self.reassign))
            name = self._t(left)
            if (rexpr is not None and rexpr[0] == EITHER and len(rexpr) == 3 and rexpr[1] == (ID, name)
                    and rexpr[2] is not None and rexpr[2][0] in (ID, PROP, DEFAT)):  # (a function: cb || noop)
                # cb = cb || noop / cb = cb ?? dflt: cb keeps what it held (its other bindings say so)
                # or gets noop (the self-reference, a cycle, would make the whole unknown); no flow
                # order then: what reaches the next call is both
                rexpr = rexpr[2]
                self.flow.state.pop(name, None)
            else:  # flow order: this binding reaches what follows it in its block (flow.py)
                self.flow.state[name] = (len(self.reassign), node.end_byte, node)
            self.reassign.append((fe.scope, name, rexpr))
            return
        if lt == "array_pattern" or lt == "object_pattern":  # [p, q] = [q, p]: each name reassigned
            out: list[tuple[str, tuple | None]] = []
            rv = self.conv(right) if right is not None else None
            self.pattern_names(left, rv, out, 0)
            if rv is not None and rv[0] == ALIT:
                # a swap: the right side is read before the names change, so a name assigned here
                # and read on the right is the values it had so far (``('snap', ...)``)
                names = {n for n, _v in out}
                snap = (ALIT, tuple(self.snapshot(x, names, fe.scope) for x in rv[1]))
                if snap != rv:
                    out = []
                    self.pattern_names(left, snap, out, 0)
            for name, v in out:
                if name in self.flow.state:
                    self.flow.state[name] = None
                self.reassign.append((fe.scope, name, v))
            return
        if lt == "subscript_expression":  # registry["on-trace"] = f
            idx = left.child_by_field_id(self.K.f_index)
            key = self.index_key(idx)
            if key is None and idx is not None and idx.kind_id != self.K.k_number:
                self.keyed_assign(left.child_by_field_id(self.K.f_object), right)
                self.param_store(left.child_by_field_id(self.K.f_object), idx, right)  # set(o, k, f) { o[k] = f }
                return
            obj = self.local_object(left.child_by_field_id(self.K.f_object)) if key is not None else None
            if obj is not None and key is not None:
                self.add_member(obj, key, self.conv(right) if right is not None else None)
            elif key is not None:
                self.param_store(left.child_by_field_id(self.K.f_object), key, right)
            return
        if lt != "member_expression":
            return
        target = self.cjs_target(left)
        if target is not None:
            pf = self.pf
            if target == "":
                if right is not None and right.type == "object":
                    self.register_object(right, self.module, 0)
                    _scope, members = pf.objects[self.module]
                    e: Expr | None
                    for k, e in members.items():
                        pf.exports[k] = (EXPR, e, 0)
                elif right is not None and right.type in ("arrow_function", "function_expression", "class"):
                    pf.exports["default"] = (DEFAT, right.start_byte)
                    pf.cjs_whole = True
                elif right is not None:
                    pf.exports["default"] = (EXPR, self.conv(right), fe.scope)
                    pf.cjs_whole = True
            elif right is not None:
                pf.exports[target] = (EXPR, self.conv(right), fe.scope)
            return
        obj = left.child_by_field_id(self.K.f_object)
        prop = left.child_by_field_id(self.K.f_property)
        if right is not None and prop is not None and prop.type == "property_identifier" and self._t(prop) == "prototype":
            info = self.prototype_of(left, functions=True)
            if info is not None:  # Shape.prototype = { ... } / Object.create(Base.prototype): its members
                x = self.object_literal(right) if right.kind_id == self.K.k_object else self.conv(right)
                if (
                    x is not None and x[0] == CALL and x[1] == OBJECT_CREATE and len(x) > 2
                    and x[2] is not None and x[2][0] == PROP and x[2][2] == "prototype" and info.extends is None
                ):  # Square.prototype = Object.create(Shape.prototype): Square extends Shape (ES5)
                    info.extends = x[2]
                elif x is not None:
                    info.members.setdefault(SPREADS, []).append((MIXIN, fe.scope, x))
        proto = self.prototype_member(left)
        if proto is not None:  # Shape.prototype.area = function () {}: a method of Shape's instances
            e = self.conv(right) if right is not None else None
            proto[0].members.setdefault(proto[1], []).append((FIELD, fe.scope, e))
        if obj is not None and obj.kind_id == self.K.identifier and prop is not None:
            fqn = self.local_object(obj)  # registry.onLog = log: a member added to an object literal
            if fqn is not None:
                rx = self.conv(right) if right is not None else None
                self.add_member(fqn, self._t(prop), rx)
                self.flow.member_set(fqn, self._t(obj), self._t(prop), fe.scope, rx, node)  # (flow order: flow.py)
            elif self._t(prop) != "prototype":  # make.helper = function () {}: to a function or class
                rx = self.conv(right) if right is not None else None
                self.function_member(obj, self._t(prop), rx)
                self.instance_member(obj, self._t(prop), rx)  # t.cb = f, t = new T(): a field of T's instances
                self.param_store(obj, self._t(prop), right)  # install(app) { app.handler = f }
        elif obj is not None and obj.kind_id == self.K.member and prop is not None and right is not None:
            # app.handlers.click = f: a member added to a nested literal, when f is a function or class
            # of the file (data written back, vite's `server.fs.allow = allowDirs` with `let allowDirs =
            # server.fs.allow`, would make the member a cycle: unknown)
            if right.type in _WRITTEN_DEFS or (right.kind_id == self.K.identifier and self.bound_def(right) is not None):
                fqn = self.nested_object(obj)
                if fqn is not None:
                    self.add_member(fqn, self._t(prop), self.conv(right))
        if obj is not None and obj.type == "this" and prop is not None:
            this = self.stack[-1].this
            if this is not None and this[0] == THIS_OBJ and this[1] in self.pf.objects:
                # { set(fn) { this.fn = fn } }: a member of the object literal, assigned in its method
                self.add_member(this[1], self._t(prop), self.conv(right) if right is not None else None)
            if this is not None and (this[0] == THIS_CLS or this[0] == THIS_SCLS):  # (a static's `this`: a
                info = self.pf.classes.get(this[1])  # field read like a static, `Model.registry`)
                if info is not None:
                    if right is not None and right.kind_id == self.K.k_object:
                        self.field_object(right, f"{this[1]}.{self._t(prop)}", fe.scope)
                    e = self.conv(right) if right is not None else None
                    fields = info.members.setdefault(self._t(prop), [])
                    fields.append((FIELD, fe.scope, e))
                    stmt = node.parent
                    if self.pf.language == "javascript" and stmt is not None and stmt.type == "expression_statement":
                        doc = self.doc_before(stmt.start_byte)  # /** @type {T[]} */ this.xs = []
                        te = jsdoc.declared_type(doc) if doc else None
                        if te is not None:
                            fields.append((FIELD, fe.scope, (TYPE, te)))
            elif this is None and (f := self.es5_fns.get(self.stack[-1].nm.scope)) is not None:
                # function Emitter(cb) { this.cb = cb }: a field of its instances, if it is a constructor
                fields = self.es5_fields.setdefault(f[0], (f[1], []))[1]
                fields.append((self._t(prop), fe.scope, self.conv(right) if right is not None else None))
        le = self.conv(left)
        if le is not None:
            self.site(SITE_SET, le, left)

    def snapshot(self, x: tuple | None, names: set[str], scope: int) -> tuple | None:
        """``('snap', name, scope, n)``: the first ``n`` bindings of ``name`` (those so far) in
        the scope it is bound in, when ``x`` is a name in ``names``; else ``x``."""
        if x is None or x[0] != ID or x[1] not in names:
            return x
        s = scope
        while s >= 0:
            bl = self.pf.bindings[s].get(x[1])
            if bl is not None:
                return (SNAP, x[1], s, len(bl))
            s = self.pf.scope_parent[s]
        return x

    def on_field(self, node) -> None:
        top = self.naming()
        if top.kind != ENTRY_CLASS or top.cls is None:
            return
        key = self.key_name(node.child_by_field_id(self.K.f_name))
        if key is None:
            return
        value = node.child_by_field_id(self.K.f_value)
        if value is not None and value.type in ("arrow_function", "function_expression"):
            return  # a method-like member, recorded by on_fn
        ty = node.child_by_field_id(self.K.f_type)
        texpr = self.conv_type(ty) if ty is not None else None
        fe = self.func_entry()
        members = top.cls.members.setdefault(key, [])
        if texpr is not None:
            members.append((FIELD, fe.scope, (TYPE, texpr)))
        if value is not None:
            if value.type == "object":
                self.register_object(value, f"{top.fqn}.{key}", fe.scope)
            members.append((FIELD, fe.scope, self.conv(value)))

    def on_ret(self, node) -> None:
        e = self.stack[-1].nm
        if e.kind != ENTRY_FUNCTION:
            return
        r = self.pf.returns.get(e.fqn)
        if r is None:
            return
        val = nth(node, 0)
        r[1].append(self.returned(val) if val is not None else NULL_EXPR)

    def on_yield(self, node) -> None:
        """``yield x`` in a generator: ``('yield', x)`` among its returns (a call of it gives the
        values yielded, ``_Ctx._call_result``); ``yield* xs``: the elements of xs."""
        e = self.stack[-1].nm
        r = self.pf.returns.get(e.fqn) if e.kind == ENTRY_FUNCTION else None
        if r is None:
            return
        val = nth(node, 0)
        x = self.conv(val) if val is not None else None
        if x is not None and any(c.type == "*" for c in node.children):
            x = (ELEM, x)
        r[1].append((YIELD, x))

    def on_block(self, node) -> None:
        self.push_block(node.end_byte)  # the query captures no function or namespace bodies

    def field_object(self, node, fqn: str, scope: int) -> None:
        """``this.handlers = { open() {} }``: the object literal ``C.handlers`` (as a field
        initialiser's is), for its members and keys (``for (const k in this.handlers)``); the
        first one assigned names it."""
        if fqn not in self.pf.objects:
            self.register_object(node, fqn, scope)

    def on_static_block(self, node) -> None:
        """``static { ... }`` in a class body: a block whose ``this`` is the class (as in a static
        method); its calls stay the enclosing scope's, as a field initialiser's do."""
        top = self.naming()
        cls = top.fqn if top.kind == ENTRY_CLASS and top.cls is not None else None
        b = self.push_block(node.end_byte)
        if cls is not None:
            b.this = self.pf.scope_this[b.scope] = (THIS_SCLS, cls)

    def on_forin(self, node) -> None:
        left = node.child_by_field_id(self.K.f_left)
        kind = node.child_by_field_id(self.K.f_kind)
        if kind is not None and kind.type == "var":
            scope = self.var_entry().scope
        else:
            scope = self.push_block(node.end_byte).scope
        op = node.child_by_field_id(self.K.f_operator)
        if op is not None and op.type == "of":  # for (x of obj): obj[Symbol.iterator]() and its next()
            self.site(SITE_ITER, self.conv(node.child_by_field_id(self.K.f_right)), node)
        if left is not None and left.type == "identifier" and op is not None and op.type == "of":
            right = self.conv(node.child_by_field_id(self.K.f_right))
            if right is not None:  # for (const x of items): an element of items
                self.bind(scope, self._t(left), (VAR, None, (ELEM, right), scope))
                return
        if op is not None and op.type == "of":  # for (const [k, f] of pairs): each element destructured
            right = self.conv(node.child_by_field_id(self.K.f_right))
            self.bind_pattern(scope, left, (ELEM, right) if right is not None else None)
            return
        if op is not None and op.type == "in" and kind is not None and left is not None and left.type == "identifier":
            right = self.conv(node.child_by_field_id(self.K.f_right))
            if right is not None:  # for (const k in o): a key of o, as of Object.keys(o) (o[k])
                self.bind(scope, self._t(left), (VAR, None, (ELEM, (CALL, OBJECT_KEYS, right)), scope))
                return
        self.bind_pattern(scope, left)

    def on_catch(self, node) -> None:
        """``catch (e)``: ``e`` is one of the instances the try block throws itself (``throw new
        E()``, ``thrown``) or that the functions it calls throw (``CAUGHT``), evaluated where the
        try statement is; unknown when it throws none."""
        p = node.child_by_field_id(self.K.f_parameter)
        if p is not None:
            outer = self.stack[-1].fe.scope
            tr = node.parent  # (once: ``Node.parent`` searches from the root)
            body = tr.child_by_field_id(self.K.f_body) if tr is not None else None
            value = caught_value(body, self.conv, self.K, self.data) if body is not None else None
            self.bind_pattern(self.push_block(node.end_byte).scope, p, value, outer if value is not None else -1)
