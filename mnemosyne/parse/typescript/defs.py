"""Definitions: functions and methods (with their parameters), classes, interfaces, namespaces
and decorators. ~650 lines: the handlers share the function entry being built (naming, ``this``,
parameters, returns) one visit step at a time; the parameters' binding (``bind_params``, ~110
lines with JSDoc types) is the part to split off next."""

from __future__ import annotations

import re

from mnemosyne.parse.anon import Namer
from mnemosyne.parse.typescript import jsdoc
from mnemosyne.parse.typescript.calls import ELEMENT_PARAMS, Calls
from mnemosyne.parse.typescript.grammar import nth
from mnemosyne.parse.typescript.model import ClassInfo
from mnemosyne.parse.typescript.scopes import DOC_REACH, Entry
from mnemosyne.parse.typescript.tags import (
    CALL,
    CALLED_AT_ONCE,
    CAUGHT,
    DECO,
    DEF,
    DEF_CLASS,
    DEF_FUNC,
    DEF_NS,
    DEFAT,
    ELEM,
    ENTRY_CLASS,
    ENTRY_FUNCTION,
    ENTRY_MODULE,
    ENTRY_NS,
    FIELD,
    GETTER,
    ID,
    IFACE,
    ITERATOR,
    LOCAL,
    METHOD,
    MSIG,
    OLIT,
    PARAM,
    PROP,
    PVAL,
    SETTER,
    SITE_DECORATOR,
    THEN,
    THIS_CLS,
    THIS_MOD,
    THIS_OBJ,
    THIS_SCLS,
    TYPE,
    UNKNOWN,
    VAR,
)
from mnemosyne.parse.typescript.throws import rejecting_callee, thrown_value

# ``async`` before a function's name or parameters (not part of a longer word or a decorator name)
_ASYNC_WORD = re.compile(rb"(?<![\w$@.])async\b")
# a return type annotation ``: Promise<...>``
_PROMISE_TYPE = re.compile(rb":\s*Promise\s*<")
#: what a JavaScript function can be the value of, its JSDoc comment before it (``jsdoc_of``)
_DECLARING = frozenset(
    (
        "variable_declarator", "lexical_declaration", "variable_declaration", "pair", "assignment_expression",
        "expression_statement", "export_statement", "public_field_definition", "field_definition",
    )
)  # fmt: skip
# library types that say nothing of which function a parameter holds: such a parameter holds
# what the callers pass, as an untyped one (``desc: PropertyDescriptor`` in a decorator)
_OPAQUE_TYPES = frozenset(
    (ID, n) for n in ("Function", "CallableFunction", "PropertyDescriptor", "TypedPropertyDescriptor", "Object")
)
_ITERATOR_KEYS = frozenset({b"Symbol.iterator", b"Symbol.asyncIterator"})

_PRIMITIVE_TYPES = frozenset({"string", "number", "boolean", "symbol", "bigint", "void", "never", "undefined", "null"})


def _may_hold_ours(ty) -> bool:
    """Whether a parameter annotated with type node ``ty`` may hold a function or an object of
    the code's own (a callback: parameter flow); not primitives, literals and arrays."""
    stack = [ty]
    n = 0
    while stack and n < 50:
        t = stack.pop()
        n += 1
        if t is None:
            return True
        k = t.type
        if k == "predefined_type":
            if t.text.decode("utf-8", "replace") not in _PRIMITIVE_TYPES:
                return True  # any, unknown, object
        elif k in ("union_type", "intersection_type", "parenthesized_type"):
            stack.extend(t.named_children)
        elif k not in ("literal_type", "template_literal_type", "array_type", "tuple_type"):
            return True
    return False


class Defs(Calls):
    """Functions, classes, interfaces, namespaces, decorators."""

    def on_fn(self, node) -> None:
        K = self.K
        t = node.kind_id
        parent = node.parent
        ptype = parent.kind_id if parent is not None else -1
        cur = self.stack[-1]
        top = cur.nm  # self.naming()
        fe = cur.fe  # self.func_entry()
        cls: ClassInfo | None = None
        is_ctor = False
        acc = METHOD
        this = None
        kind = "function"
        name: str | None = None
        fqn: str | None = None
        member_of: str | None = None
        ordinal = 0
        es5 = False  # a function declared or bound to a variable, with its own `this`: maybe a constructor
        keyed = False  # an anonymous function written as an object literal's value for a key
        if t == K.k_method_definition:
            name_node = node.child_by_field_id(K.f_name)
            key = self.key_name(name_node)
            if ptype == K.k_class_body and top.kind == ENTRY_CLASS and top.cls is not None:
                cls = top.cls
                kind = "method"
                name = key or None
                static = False
                if name is not None:
                    fqn = f"{top.fqn}.{name}"
                    is_ctor = name == "constructor"
                    # modifiers before the name: static / async / get / set / override / accessibility
                    mods = self.data[node.start_byte : name_node.start_byte].split()
                    static = b"static" in mods
                    if b"get" in mods:
                        acc = GETTER
                    elif b"set" in mods:
                        acc = SETTER
                    cls.members.setdefault(name, []).append((acc, fqn))
                    if is_ctor:
                        cls.has_ctor = True
                this = (THIS_SCLS if static else THIS_CLS, top.fqn)  # in a static method `this` is the class
                member_of = top.fqn
            elif ptype == K.k_object:
                prefix = self.obj_prefix.get(parent.start_byte)
                if prefix is not None and key is not None:
                    name = key
                    fqn = f"{prefix}.{key}"
                    this = (THIS_OBJ, prefix)
                else:  # Shape.prototype = { area() { this } }
                    this = self.prototype_literal_this(parent)
                    keyed = prefix is None and key is not None
            if fqn is None:
                fqn, ordinal = self.anon(top, "function", node, parent)
                name = fqn.rsplit(".", 1)[-1]
                kind = "lambda"
                if key is None and self.iterator_key(name_node):  # [Symbol.iterator]() { ... }
                    if cls is not None:
                        cls.members.setdefault(ITERATOR, []).append((METHOD, fqn))
                    elif ptype == K.k_object:
                        prefix = self.obj_prefix.get(parent.start_byte)
                        if prefix is not None:
                            self.pf.objects[prefix][1][ITERATOR] = (DEFAT, node.start_byte)
                elif key is None and cls is not None:  # [KEY]() { ... }, KEY a const Symbol() or string
                    computed = self.object_key(name_node)
                    if computed is not None:
                        cls.members.setdefault(computed, []).append((METHOD, fqn))
        else:
            arrow = t == K.k_arrow_function
            own = node.child_by_field_id(K.f_name)
            if t == K.k_function_declaration or t == K.k_generator_function_declaration:
                if own is not None:
                    name = self._t(own)
                    fqn = f"{top.fqn}.{name}"
                    self.bind(fe.scope, name, (DEF, fqn, DEF_FUNC))
                if ptype == K.k_export_statement and self.is_default_export(parent):
                    self.pf.exports["default"] = (LOCAL, name) if name else (DEFAT, node.start_byte)
                if fqn is None:  # a declaration without a name (syntax error)
                    fqn, ordinal = self.anon(top, "function", node, parent)
                    name = fqn.rsplit(".", 1)[-1]
                    kind = "lambda"
            else:
                if ptype == K.k_variable_declarator:
                    nm = parent.child_by_field_id(K.f_name)
                    if nm is not None and nm.kind_id == K.identifier:
                        name = self._t(nm)
                        fqn = f"{top.fqn}.{name}"
                elif ptype == K.k_pair:
                    obj = parent.parent
                    prefix = self.obj_prefix.get(obj.start_byte) if obj is not None else None
                    key = self.key_name(parent.child_by_field_id(K.f_key))
                    if prefix is not None and key is not None:
                        name = key
                        fqn = f"{prefix}.{key}"
                        if not arrow:
                            this = (THIS_OBJ, prefix)
                    elif not arrow and obj is not None:  # Shape.prototype = { area: function () { this } }
                        this = self.prototype_literal_this(obj)
                    keyed = prefix is None and key is not None
                elif ptype == K.k_public_field_definition and top.kind == ENTRY_CLASS and top.cls is not None:
                    key = self.key_name(parent.child_by_field_id(K.f_name))
                    if key is not None:
                        name = key
                        fqn = f"{top.fqn}.{key}"
                        kind = "method"
                        cls = top.cls
                        cls.members.setdefault(key, []).append((METHOD, fqn))
                        member_of = top.fqn
                elif ptype == K.k_export_statement:
                    name = "default"
                    fqn = f"{self.module}.default"
                    self.pf.exports["default"] = (DEFAT, node.start_byte)
                elif ptype == K.k_assignment_expression:
                    left = parent.child_by_field_id(K.f_left)
                    target = self.cjs_target(left)
                    if target == "" and own is not None:
                        name = self._t(own)
                        fqn = f"{self.module}.{name}"
                    elif target == "":
                        name = "default"
                        fqn = f"{self.module}.default"
                    elif target:
                        name = target
                        fqn = f"{self.module}.{target}"
                        if not arrow:  # exports.f = function () { this.g() }: called as m.f(), `this` is the exports
                            this = (THIS_MOD, self.module)
                    elif not arrow:  # C.prototype.m = function () { this ... }: `this` is a C
                        proto = self.prototype_member(left)
                        if proto is not None:
                            this = (THIS_CLS, proto[0].fqn)
                        elif left is not None and left.kind_id == K.member:
                            # app.init = function () { this.boot() }: `this` is the object literal app
                            holder = left.child_by_field_id(K.f_object)
                            # (proto.handle = function () {}, proto a function: its members, as an object's)
                            o = self.local_object(holder) or self.function_object(holder)
                            if o is not None:
                                this = (THIS_OBJ, o)
                if fqn is None and own is not None:
                    name = self._t(own)
                    fqn = f"{top.fqn}.{name}"
                if fqn is None:
                    fqn, ordinal = self.anon(top, "arrow" if arrow else "function", node, parent)
                    name = fqn.rsplit(".", 1)[-1]
                    kind = "lambda"
            if arrow:
                this = top.this  # lexical this (a class entry's this is the class)
            elif this is None and (t == K.k_function_declaration or ptype == K.k_variable_declarator):
                es5 = True
        assert fqn is not None and name is not None
        self.pf.defs_at[node.start_byte] = (DEF, fqn, DEF_FUNC)
        body = node.child_by_field_id(K.f_body)
        parent_key = member_of or (self.path if top.kind in (ENTRY_MODULE, ENTRY_NS) else top.fqn)
        self.add_symbol(node, fqn, name, kind, parent_key, body, ordinal)
        scope = self.new_scope(fqn, fe.scope, this)
        if t == K.k_arrow_function:
            self.pf.arrows.add(scope)
        if keyed:
            self.pf.keyed.add(scope)
        if es5:
            self.es5_fns[scope] = (fqn, fe.scope)
        entry = Entry(node.end_byte, fqn, ENTRY_FUNCTION, scope, this)
        self.stack.append(entry)
        doc = self.jsdoc_of(node, parent) if self.pf.language == "javascript" else ""
        self.bind_params(scope, node, cls, is_ctor, cur.scope, parent, jsdoc.param_types(doc) if doc else None)
        entry.this = self.pf.scope_this[scope]  # a declared `this: T` parameter is seen by arrows
        rt = node.child_by_field_id(K.f_return_type)
        ann, doc_promise = (self.conv_type(rt), False) if rt is not None else jsdoc.return_type(doc)
        if doc_promise or self.returns_promise(node, rt, body):
            self.pf.asyncs.add(fqn)
        rets: list = []
        if body is not None and body.kind_id != K.k_statement_block:
            rets.append(self.returned(body))
        if acc != SETTER or fqn not in self.pf.returns:  # a setter shares its getter's FQN
            self.pf.returns[fqn] = (scope, rets, ann)
        thrown = self.fn_throws.get((node.start_byte, node.end_byte))  # throw new E(): a catch around a call gets it
        news = [x for n in thrown if (x := thrown_value(n, self.conv, self.K, self.data)) is not None] if thrown else None
        if news:
            self.pf.throws[fqn] = (scope, news)

    def returns_promise(self, node, rt, body) -> bool:
        """The function at ``node`` is ``async`` or declared to return ``Promise<...>``: what a
        call of it gives is a promise (``p.then(f)`` calls ``f``)."""
        data = self.data
        if rt is not None and _PROMISE_TYPE.match(data, rt.start_byte, rt.end_byte):
            return True
        K = self.K
        head = node.child_by_field_id(K.f_name) or node.child_by_field_id(K.f_parameters)
        head = head or node.child_by_field_id(K.f_parameter) or body
        end = head.start_byte if head is not None else node.end_byte
        return _ASYNC_WORD.search(data, node.start_byte, end) is not None

    def is_default_export(self, export_node) -> bool:
        default = self.K.k_default
        for c in export_node.children:
            if c.kind_id == default:
                return True
            if c.is_named:
                return False
        return False

    def cjs_target(self, left) -> str | None:
        """'' for module.exports, 'x' for exports.x / module.exports.x, else None."""
        if left is None or left.type != "member_expression":
            return None
        obj = left.child_by_field_id(self.K.f_object)
        prop = left.child_by_field_id(self.K.f_property)
        if obj is None or prop is None:
            return None
        if obj.type == "identifier" and obj.text == b"module" and prop.text == b"exports":
            return ""
        if obj.type == "identifier" and obj.text == b"exports":
            return self._t(prop)
        if obj.type == "member_expression" and obj.text == b"module.exports":
            return self._t(prop)
        return None

    def on_cls(self, node) -> None:
        parent = node.parent
        ptype = parent.type if parent is not None else ""
        top = self.naming()
        fe = self.func_entry()
        own = node.child_by_field_id(self.K.f_name)
        ordinal = 0
        if (
            node.type == "class"
            and ptype == "variable_declarator"
            and (nm := parent.child_by_field_id(self.K.f_name)) is not None
            and nm.type == "identifier"
        ):
            name = self._t(nm)  # const A = class B {}: bound to A, like function expressions
        elif own is not None:
            name = self._t(own)
        elif ptype == "export_statement":
            name = "default"
        else:
            anon_fqn, ordinal = self.anon(top, "class", node, parent)
            name = anon_fqn.rsplit(".", 1)[-1]
        fqn = f"{top.fqn}.{name}" if not (ptype == "export_statement" and own is None) else f"{self.module}.default"
        if node.type != "class" and own is not None:
            self.bind(fe.scope, name, (DEF, fqn, DEF_CLASS))
        if ptype == "export_statement":
            if own is None:
                self.pf.exports["default"] = (DEFAT, node.start_byte)
            elif self.is_default_export(parent):
                self.pf.exports["default"] = (LOCAL, name)
        self.pf.defs_at[node.start_byte] = (DEF, fqn, DEF_CLASS)
        info = ClassInfo(fqn=fqn, path=self.path, scope=fe.scope)
        for ch in node.named_children:
            if ch.type == "class_heritage":
                for h in ch.named_children:
                    if h.type == "extends_clause":
                        info.extends = self.conv(h.child_by_field_id(self.K.f_value))
                    elif h.type == "implements_clause":
                        info.implements = tuple(t for t in (self.conv_type(x) for x in h.named_children) if t is not None)
                    else:
                        info.extends = self.conv(h)
                break
        body = node.child_by_field_id(self.K.f_body)
        for m in body.named_children if body is not None else ():
            if m.type == "abstract_method_signature":  # `abstract m(): T;`: what subclasses implement
                nm = self.key_name(m.child_by_field_id(self.K.f_name))
                if nm is not None:
                    self.add_signature(info, nm, m)
        prev = self.pf.classes.get(fqn)
        if prev is None or prev.is_interface:  # a class outranks an interface merged with it
            self.pf.classes[fqn] = info
        else:
            info = prev
        parent_key = self.path if top.kind in (ENTRY_MODULE, ENTRY_NS) else top.fqn
        self.add_symbol(node, fqn, name, "class", parent_key, None, ordinal)
        ce = Entry(node.end_byte, fqn, ENTRY_CLASS, fe.scope, (THIS_CLS, fqn), info)
        ce.fe = fe
        self.stack.append(ce)

    def add_signature(self, info: ClassInfo, name: str, m) -> None:
        """A method signature without a body (an interface's, an abstract method): member
        ``('msig', declared return type)``."""
        rt = m.child_by_field_id(self.K.f_return_type)
        info.members.setdefault(name, []).append((MSIG, self.conv_type(rt) if rt is not None else None))

    def on_iface(self, node) -> None:
        """``interface I { m(): T; p: U }`` (or ``type I = { ... }``): a type whose members' types
        name what calls through it return (``repo.find(1).run()``), and whose implementations a
        call may reach. Bound as ``('iface', fqn)``, which a value of the same name outranks
        (declaration merging)."""
        own = node.child_by_field_id(self.K.f_name)
        if own is None:
            return
        top = self.naming()
        fe = self.func_entry()
        name = self._t(own)
        fqn = f"{top.fqn}.{name}"
        self.bind(fe.scope, name, (IFACE, fqn))
        info = self.pf.classes.get(fqn)
        if info is None:
            info = self.pf.classes[fqn] = ClassInfo(fqn=fqn, path=self.path, scope=fe.scope, is_interface=True)
        elif not info.is_interface:
            return  # a class merged with an interface: the class is what its name denotes
        for ch in node.named_children:
            if ch.type == "extends_type_clause":
                info.implements += tuple(t for t in (self.conv_type(x) for x in ch.named_children) if t is not None)
            elif ch.type == "interface_body" or ch.type == "object_type":
                for m in ch.named_children:
                    nm = self.key_name(m.child_by_field_id(self.K.f_name))
                    if nm is None:
                        continue
                    if m.type == "method_signature":
                        self.add_signature(info, nm, m)
                    elif m.type == "property_signature":
                        ty = m.child_by_field_id(self.K.f_type)
                        tyexpr = self.conv_type(ty) if ty is not None else None
                        if tyexpr is not None:
                            info.members.setdefault(nm, []).append((FIELD, fe.scope, (TYPE, tyexpr)))

    def on_ns(self, node) -> None:
        """``namespace N { ... }``: members are named ``<scope>.N.x``; its code belongs to the caller."""
        nm = node.child_by_field_id(self.K.f_name)
        if nm is None:
            return
        top = self.naming()
        fe = self.func_entry()
        name = self._t(nm)
        fqn = f"{top.fqn}.{name}"
        scope = self.new_scope(self.pf.scope_fqn[fe.scope], fe.scope, None, fqn + "{ns}")
        if nm.type == "identifier":
            self.bind(fe.scope, name, (DEF, fqn, DEF_NS))
        self.pf.namespaces.setdefault(fqn, []).append(scope)
        self.stack.append(Entry(node.end_byte, fqn, ENTRY_NS, scope, None))

    def iterator_key(self, name_node) -> bool:
        """``[Symbol.iterator]`` (or ``asyncIterator``) as a method's name."""
        if name_node is None or name_node.type != "computed_property_name":
            return False
        inner = nth(name_node, 0)
        return inner is not None and self.data[inner.start_byte : inner.end_byte] in _ITERATOR_KEYS

    def element_params(self, fn, args) -> tuple[tuple | None, tuple[int, ...]]:
        """A callback passed first to an array method (``items.map(x => ...)``): the receiver's
        expression and which parameters are its elements (contextual typing); for
        ``p.then(v => ...)``, ``('then', p)`` and the first parameter; else (None, ()).
        ``args``: ``fn.parent`` (the caller has it: ``Node.parent`` searches from the root)."""
        K = self.K
        if args is None or args.kind_id != K.k_arguments or nth(args, 0) != fn:
            return None, ()
        call = args.parent
        callee = call.child_by_field_id(K.f_function) if call is not None and call.kind_id == K.call else None
        if callee is None or callee.kind_id != K.member:
            return None, ()
        prop = callee.child_by_field_id(self.K.f_property)
        pname = self._t(prop) if prop is not None else None
        if pname == "then":  # promise.then(v => ...): v is what the promise resolves to
            recv = self.then_result(callee.child_by_field_id(self.K.f_object))
            return ((THEN, recv), (0,)) if recv is not None else (None, ())
        if pname == "catch":  # load().catch(e => ...): e is what load throws
            recv = self.conv(rejecting_callee(callee.child_by_field_id(self.K.f_object), self.data))
            return ((CAUGHT, (), (recv,), True), (0,)) if recv is not None else (None, ())
        which = ELEMENT_PARAMS.get(pname) if pname is not None else None
        if which is None:
            return None, ()
        recv = self.conv(callee.child_by_field_id(self.K.f_object))
        return (recv, which) if recv is not None else (None, ())

    def then_result(self, p) -> tuple | None:
        """What promise ``p`` resolves to, as an expression: for ``q.then(f)``, what calling f
        returns (``p.then(() => g).then((fn) => fn())``: g); else ``p`` itself."""
        K = self.K
        if p is not None and p.kind_id == K.call:
            fn = p.child_by_field_id(K.f_function)
            prop = fn.child_by_field_id(K.f_property) if fn is not None and fn.kind_id == K.member else None
            if prop is not None and self.data[prop.start_byte : prop.end_byte] == b"then":
                args = p.child_by_field_id(K.f_arguments)
                cb = self.conv(nth(args, 0)) if args is not None and args.named_child_count else None
                return (CALL, cb) if cb is not None else None
        return self.conv(p)

    def bind_typed_param(self, scope: int, name: str, i: int, tyexpr: tuple) -> None:
        """Parameter ``i`` declared of type ``tyexpr``; of a named type (``h: Hook``: an alias of
        a function type says nothing of which one), also what the callers pass, when the type
        gives nothing."""
        self.bind(scope, name, (VAR, tyexpr, (PVAL, i, scope) if tyexpr[0] == ID else None, scope))

    def jsdoc_of(self, fn, parent) -> str:
        """The JSDoc comment of a JavaScript function: before the function, or before the
        declaration, property, assignment or export it is the value of."""
        if self.data.find(b"*/", max(0, fn.start_byte - 2 * DOC_REACH), fn.start_byte) < 0:
            return ""  # no comment near enough to be the function's or its declaration's
        top, p = fn, parent
        for _ in range(4):
            if p is None or p.type not in _DECLARING:
                break
            top, p = p, p.parent
        return self.doc_before(top.start_byte)

    def bind_params(self, scope: int, fn, cls: ClassInfo | None, is_ctor: bool, outer: int = -1, parent=None,
                    doc_types: dict[str, tuple] | None = None) -> None:  # fmt: skip
        """``parent``: ``fn.parent``; ``doc_types``: a JavaScript function's JSDoc ``@param``
        types by name (``jsdoc.param_types``), read as annotations are."""
        K = self.K
        ft = fn.kind_id
        if ft == K.k_arrow_function or ft == K.k_function_expression:
            recv, elems = self.element_params(fn, parent)
        else:
            recv, elems = None, ()
        # evaluated where the call is (a rejection: as a catch parameter)
        elem = (VAR, None, recv if recv[0] == CAUGHT else (ELEM, recv), outer) if recv is not None else None
        single = fn.child_by_field_id(K.f_parameter)
        if single is not None:
            if elem is not None and single.kind_id == K.identifier:
                self.bind(scope, self._t(single), elem)
            elif single.kind_id == K.identifier:
                name = self._t(single)
                te = doc_types.get(name) if doc_types else None
                if te is not None:
                    self.bind_typed_param(scope, name, 0, te)
                else:
                    self.bind(scope, name, (PARAM, 0, scope))
            else:
                self.bind_pattern(scope, single)
            return
        params = fn.child_by_field_id(K.f_parameters)
        if params is None:
            return
        if ft != K.k_arrow_function and self.mentions_arguments(fn.start_byte, fn.end_byte):
            # `arguments[0]()`: the arguments of each call, as a rest parameter from position 0 (arrows see their
            # enclosing function's); bound only where the word occurs (a binding per function costs)
            self.bind(scope, "arguments", (PARAM, -1, scope))
        i = -1
        req, opt = K.k_required_parameter, K.k_optional_parameter
        for p in params.named_children:
            pk = p.kind_id
            if pk != req and pk != opt:
                continue
            i += 1
            pat = p.child_by_field_id(K.f_pattern)
            if pat is None:
                continue
            if pat.kind_id == K.identifier:
                ty = p.child_by_field_id(K.f_type)
                name = self._t(pat)
                tyexpr = self.conv_type(ty) if ty is not None else doc_types.get(name) if doc_types else None
                if tyexpr in _OPAQUE_TYPES:  # `desc: PropertyDescriptor`: what the callers pass
                    tyexpr = None
                if tyexpr is None and elem is not None and i in elems:
                    self.bind(scope, name, elem)
                    continue
                # a parameter of no type we can name: what the callers pass (a callback: ``param_values``)
                if tyexpr is not None:
                    self.bind_typed_param(scope, name, i, tyexpr)
                elif ty is None or _may_hold_ours(nth(ty, 0)):
                    self.bind(scope, name, (PARAM, i, scope))
                    dflt = p.child_by_field_id(K.f_value)
                    dexpr = self.conv(dflt) if dflt is not None else None
                    if dexpr is not None:  # `cb = dflt`: one of the parameter's values
                        self.pf.param_defaults[(scope, i)] = dexpr
                else:  # `n: number`, `s: "a" | "b"`: never one of our functions or objects (its
                    self.bind(scope, name, (UNKNOWN, i, scope))  # slot: the string keys callers pass)
                if is_ctor and cls is not None:
                    first = nth(p, 0)
                    if first is not None and first.type in ("accessibility_modifier", "override_modifier") or any(
                        c.type == "readonly" for c in p.children
                    ):  # a parameter property: typed, or holding what `new C(...)` passes (a callback)
                        field = (TYPE, tyexpr) if tyexpr is not None else (ID, name)
                        cls.members.setdefault(name, []).append((FIELD, scope, field))
            elif pat.kind_id == K.this:  # function (this: T, ...): a declared `this`
                ty = p.child_by_field_id(self.K.f_type)
                tyexpr = self.conv_type(ty) if ty is not None else None
                if tyexpr is not None:
                    self.pf.scope_this[scope] = (TYPE, tyexpr)
            elif pat.kind_id == K.k_rest_pattern and p.child_by_field_id(K.f_type) is None:
                inner = nth(pat, 0)  # function all(...fns): the arguments from i on, an array literal per call
                if inner is not None and inner.kind_id == K.identifier:
                    self.bind(scope, self._t(inner), (PARAM, -1 - i, scope))
            elif elem is not None and i in elems and p.child_by_field_id(K.f_type) is None:
                # pairs.forEach(([k, f]) => ...): each element destructured, evaluated where the call is
                self.bind_pattern(scope, pat, elem[2], elem[3])
            else:  # function f({ onDone }): members of what the callers pass (``_Ctx.param_path``)
                self.bind_pattern(scope, pat, (PVAL, i, scope))

    def on_dec(self, node) -> None:
        # decorators run when the class is defined: inside a method (parameter decorators) the
        # calls belong to the scope enclosing the class, so push a transparent entry until the end
        if self.stack[-1].kind != ENTRY_CLASS:
            for ent in reversed(self.stack):
                if ent.kind == ENTRY_CLASS:
                    if ent.counters is None:
                        ent.counters = Namer()
                    d = Entry(node.end_byte, ent.fqn, ENTRY_CLASS, ent.scope, None, ent.cls)
                    d.fe = ent.fe
                    d.counters = ent.counters
                    self.stack.append(d)
                    break
        inner = nth(node, 0)
        if inner is None:
            return
        args = self.decorated(node)
        scope = self.stack[-1].fe.scope
        if inner.type == "call_expression":  # @retry(3): the runtime calls what retry(3) returns
            fn = inner.child_by_field_id(self.K.f_function)
            e = self.conv(fn) if fn is not None else None
            if e is not None:
                callee = (CALL, e)
                self.site(SITE_DECORATOR, callee, node)
                if args is not None:
                    self.pf.call_args.setdefault(CALLED_AT_ONCE, []).append((scope, callee, args))
                    self.decorated_method(node, scope, (CALL, callee))
                    self.decorated_class(node, scope, (CALL, callee))
            return
        e = self.conv(inner)
        self.site(SITE_DECORATOR, e, node)
        if args is not None and e is not None and (e[0] == ID or e[0] == PROP):
            name = e[2] if e[0] == PROP else e[1]
            self.pf.call_args.setdefault(name, []).append((scope, e, args))
            self.decorated_method(node, scope, (CALL, e))
            self.decorated_class(node, scope, (CALL, e))

    def decorated_class(self, node, scope: int, result: tuple) -> None:
        """``@d class C``: C's name is also bound to what the decorator's call returns
        (``('deco', scope, call)``: a class it returns replaces C; ``_Ctx._eval_bindings``)."""
        parent = node.parent
        if parent is None or parent.type not in ("class_declaration", "abstract_class_declaration"):
            return
        nm = parent.child_by_field_id(self.K.f_name)
        if nm is not None:
            self.bind(scope, self._t(nm), (DECO, scope, result))

    def decorated_method(self, node, scope: int, result: tuple) -> None:
        """A method decorator: the method's member also holds what the decorator's call returns
        (``('deco', scope, call)``: a function it returns replaces the method; ``_Ctx.class_member``)."""
        top = self.naming()
        m = node.next_named_sibling
        while m is not None and m.type == "decorator":
            m = m.next_named_sibling
        if top.kind != ENTRY_CLASS or top.cls is None or m is None or m.type != "method_definition":
            return
        key = self.key_name(m.child_by_field_id(self.K.f_name))
        if key is not None:
            top.cls.members.setdefault(key, []).append((DECO, scope, result))

    def decorated(self, node) -> tuple | None:
        """What the runtime passes to decorator ``node``: a class decorator the class; a method
        decorator the method, and as a third argument a descriptor whose ``value`` is the method
        (legacy TypeScript decorators are given (prototype, key, descriptor), standard ones
        (method, context)); None for other decorators."""
        parent = node.parent
        if parent is None:
            return None
        pt = parent.type
        if pt in ("class_declaration", "class", "abstract_class_declaration"):
            return ((DEFAT, parent.start_byte),)
        if pt != "class_body":
            return None
        m = node.next_named_sibling
        while m is not None and m.type == "decorator":
            m = m.next_named_sibling
        if m is None or m.type != "method_definition":
            return None
        method = (DEFAT, m.start_byte)
        return (method, None, (OLIT, (("value", method),)))
