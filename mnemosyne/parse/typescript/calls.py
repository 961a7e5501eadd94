"""Call sites (``ParsedFile.sites``) and what calls pass (``ParsedFile.call_args``): calls,
``new``, JSX elements, property reads, spreads, and the callbacks builtins and arrays call.

~630 lines, just over the ~600 of the guide: about 40 of them import the tag vocabulary one a line,
and the site kinds share the visitor's state (the function entry, the flow order, the objects)."""

from __future__ import annotations

from mnemosyne.parse.typescript.grammar import nth
from mnemosyne.parse.typescript.objects import HELPER_ASSIGN, HELPER_SET_PROTO, Objects
from mnemosyne.parse.typescript.tags import (
    ALIT,
    BOUND_CALLS,
    CALL,
    CALLED_AT_ONCE,
    DEFAT,
    EITHER,
    ELEM,
    EXPR,
    FIELD,
    ID,
    IMPORT,
    IMPORT_ALL,
    IMPORT_DEFAULT,
    KEY,
    MIXIN,
    NULL_EXPR,
    OLIT,
    PROP,
    PROTO_KEY,
    PUSHED,
    READS,
    REQUIRE,
    SITE_BCB,
    SITE_CALL,
    SITE_CB,
    SITE_GET,
    SITE_ITER,
    SITE_JSX,
    SITE_NEW,
    SITE_PCB,
    SITE_SUPER,
    SPREAD,
    SPREADS,
    SUPER_EXPR,
    THIS_CLS,
    THIS_EXPR,
    THIS_OBJ,
    THIS_SCLS,
    VAR,
    Expr,
)

# array methods whose first argument is called with elements: which of its parameters they are
ELEMENT_PARAMS = {
    **{m: (0,) for m in ("forEach", "map", "filter", "find", "findLast", "findIndex", "findLastIndex", "some",
                         "every", "flatMap")},
    "reduce": (1,), "reduceRight": (1,), "sort": (0, 1), "toSorted": (0, 1),
}

# the methods of a function that call it (or make a function calling it) with the ``this`` given
# first (``f.call(obj, x)``, ``f.apply(obj, [x])``, ``f.bind(obj)``: the resolver's ``bound_this``)
THIS_BINDERS = ("call", "apply", "bind")

REFLECT_APPLY = (PROP, (ID, "Reflect"), "apply")  # Reflect.apply(f, t, args): f called with this t
# globals that call the function they are given (``Calls.builtin_callback``)
_CALLBACK_GLOBALS = frozenset(
    [(ID, n) for n in ("setTimeout", "setInterval", "setImmediate", "queueMicrotask", "requestAnimationFrame",
                         "requestIdleCallback")]
    + [(PROP, (ID, "process"), "nextTick"), REFLECT_APPLY]
)
# Function.prototype.apply.call(f, t, args) (and .call.call, ...): f called (a "bcb" site of the global Function)
_FUNCTION = (ID, "Function")
_FUNCTION_INVOKERS = frozenset(
    (PROP, (PROP, (PROP, _FUNCTION, "prototype"), m), b) for m in ("call", "apply") for b in ("call", "apply")
)
_REFLECT_CONSTRUCT = (PROP, (ID, "Reflect"), "construct")  # Reflect.construct(C, args): new C(...args)
_REFLECTIONS = frozenset({"construct", "call", "apply"})  # the last names of the two above
_PROMISE_METHODS = frozenset({"then", "catch", "finally"})
_ARRAY_FROM = (PROP, (ID, "Array"), "from")  # Array.from(xs, f) calls f (its second argument)
# builtins calling the function given second: Array.from(xs, f) maps each element, JSON.parse(s,
# reviver) and JSON.stringify(v, replacer) call it for each key
_SECOND_ARG_CALLBACKS = frozenset(
    {_ARRAY_FROM, (PROP, (ID, "JSON"), "parse"), (PROP, (ID, "JSON"), "stringify")}
)
_OBJECT = (ID, "Object")  # Object.assign, Object.defineProperty
_EXPORT_STAR = (ID, "__exportStar")  # tsc's CommonJS `export * from` helper
_ARRAY = (ID, "Array")
# the methods adding values to an array (``push``, ``unshift``), a Set (``add``) or a Map (``set``: its second
# argument): a local array or collection, or a field, holds them
_ADDERS = frozenset({"push", "unshift", "add", "set"})
_ARRAY_PROTOTYPE = (PROP, _ARRAY, "prototype")  # Array.prototype.forEach.call(xs, f) calls f
_PROMISE = (ID, "Promise")  # new Promise(executor)
_DEFINE_PROPERTY = (PROP, _OBJECT, "defineProperty")
_DEFINE_PROPERTIES = (PROP, _OBJECT, "defineProperties")
# ES5 inheritance helpers (``Calls.es5_inherits``)
_INHERITS = (ID, "inherits")
_SET_PROTOTYPE_OF = (PROP, _OBJECT, "setPrototypeOf")
# the last names of the callees above (a call of another name is none of them)
_HELPER_NAMES = frozenset({"__exportStar", "defineProperty", "defineProperties", "inherits", "setPrototypeOf"})
# the last names of every callee ``on_call`` looks at once a call's arguments are recorded: a call
# whose callee ends otherwise (most) is none of them, and two of the tests hash the whole callee
_CALL_TAILS = frozenset(
    {x[-1] for x in (*_CALLBACK_GLOBALS, *_SECOND_ARG_CALLBACKS, _ARRAY_FROM)}  # (a name's or a member's)
    | _REFLECTIONS | _HELPER_NAMES | _ADDERS | _PROMISE_METHODS | set(ELEMENT_PARAMS)
    | {"assign", "call", "apply"}
)


class Calls(Objects):
    """Call sites and call arguments."""

    def site(self, kind: str, expr: tuple | None, node) -> None:
        if expr is None:
            return
        self.pf.sites.append((self.stack[-1].fe.scope, kind, expr, node))  # node -> line in run()

    def call_of(self, fn):
        """``fn.parent``: the call expression of callee ``fn`` as captured (``calls_captured``), else
        searched for (``Node.parent`` searches from the root)."""
        call = self.callee_calls.get(id(fn))
        return call if call is not None else fn.parent

    def helper_call(self, fn, args) -> None:
        """A call of a package's helper by a name bound to it (``mixin(app, proto)``: ``package_helper``)."""
        helper = self.package_helper(fn)
        if helper == HELPER_ASSIGN:
            self.object_assign(args)
        elif helper == HELPER_SET_PROTO:
            self.es5_inherits(args, True)

    def on_call(self, fn, call=None) -> None:
        """``fn`` is the callee expression of a call_expression (``call``, when given: its
        call_expression, of which ``fn`` is then the last operand of a comma expression)."""
        K = self.K
        ft = fn.kind_id
        if ft == K.k_parenthesized_expression and call is None:
            seq = nth(fn, 0)
            if seq is not None and seq.kind_id == K.k_sequence_expression and seq.named_child_count:
                last = seq.named_child(seq.named_child_count - 1)
                if last.kind_id == K.identifier or last.kind_id == K.member:
                    # (0, format_1.pad)(x), how compiled CommonJS calls an import: a call of format_1.pad
                    self.on_call(last, self.call_of(fn))
                    return
        if ft == K.identifier or ft == K.member or ft == K.call:
            if ft == K.identifier and self.data[fn.start_byte : fn.end_byte] == b"require":
                call = self.call_of(fn) if call is None else call
                spec = self.require_spec(call) if call is not None else None
                if spec is not None:
                    self.pf.specs.append((spec, self.line(fn.start_byte)))
                    return
            e = self.conv(fn)
            if ft == K.member and (e is None or (e[0] == PROP and (e[1][0] == ELEM or e[1][0] == EITHER))):
                # this.handlers[name].push(f): an array under a computed key; also
                # (this.events[name] = this.events[name] || []).push(f), converted to its right side
                self.keyed_call(fn)
            if e is None:
                return
            scope = self.stack[-1].fe.scope
            if ft == K.call and e[0] == CALL and len(e) == 2 and (e[1][0] == ID or e[1][0] == PROP):
                e = self.own_call_args(e, fn)  # id(f)(): what this call of id passes
            self.pf.sites.append((scope, SITE_CALL, e, fn))
            if e[0] == ID or (e[0] == PROP and e[1][0] == ID):  # flow order (flow.py): f(), f.m()
                flow = self.flow
                name = e[1] if e[0] == ID else e[1][1]
                st = flow.state.get(name)
                if st is not None:
                    flow.pending.append((len(self.pf.sites) - 1, name, st, fn, e[2] if e[0] == PROP else None))
                if e[0] == PROP and name in flow.objects:
                    self.flow_member_use(e, fn)
            if e[0] != ID and e[0] != PROP:
                if e[0] == CALL:  # make()(x): what a returned (maybe anonymous) function is given
                    self.record_call_args(scope, e, fn)
                return
            # what the arguments may pass (found once: ``Node.parent`` searches from the root)
            if call is None:
                call = self.call_of(fn)
            args = call.child_by_field_id(K.f_arguments) if call is not None else None
            if args is None or args.kind_id != K.k_arguments or not args.named_child_count:
                return
            rec = self.record_args(scope, e, args)
            if rec is not None and self.var_call is not None and self.var_call[0] == fn.start_byte:
                self.own_arguments(rec)
            if (e[2] if e[0] == PROP else e[1]) not in _CALL_TAILS:  # none of the callees below
                if e[0] == ID and (self.helper_names is None or e[1] in self.helper_names):
                    self.helper_call(fn, args)
                return
            if e in _CALLBACK_GLOBALS:  # setTimeout(f): the runtime calls f for us
                self.builtin_callback(scope, e, args, fn)
                return
            if e[0] == PROP and e[2] in _REFLECTIONS:
                if e == _REFLECT_CONSTRUCT and self.binding_scope("Reflect") < 0:  # (the global's)
                    self.site(SITE_NEW, self.conv(nth(args, 0)), fn)
                if e in _FUNCTION_INVOKERS:
                    self.builtin_callback(scope, _FUNCTION, args, fn)
            if e == _ARRAY_FROM:  # Array.from(iterable) iterates it
                self.site(SITE_ITER, self.conv(nth(args, 0)), fn)
            if e in _SECOND_ARG_CALLBACKS and args.named_child_count > 1:  # Array.from(xs, f): f maps each element
                cb = self.conv(nth(args, 1))
                if cb is not None:
                    self.pf.sites.append((scope, SITE_BCB, (e, cb), fn))
                return
            if e[0] == ID and (self.helper_names is None or e[1] in self.helper_names):  # mixin(app, proto)
                self.helper_call(fn, args)
            tail = e[2] if e[0] == PROP else e[1] if e[0] == ID else None  # (a string test before the tuple ones)
            if tail in _HELPER_NAMES:
                if e == _EXPORT_STAR:  # tsc's __exportStar(require("./x"), exports): export * from "./x"
                    self.export_star(args)
                elif e[0] == PROP and e[1] == _OBJECT:
                    if e == _DEFINE_PROPERTY:
                        self.define_property(args)
                    elif e == _DEFINE_PROPERTIES:
                        self.define_properties(args)
                    elif e == _SET_PROTOTYPE_OF:
                        self.es5_inherits(args, True)
                elif e == _INHERITS or (e[0] == PROP and e[2] == "inherits"):
                    self.es5_inherits(args, False)
            if e[0] != PROP:
                return
            name = e[2]
            if name == "__exportStar":  # tslib_1.__exportStar(require("./x"), exports)
                self.export_star(args)
            if name in _ADDERS and (e[1][0] == ID or (e[1][0] == PROP and e[1][1] == THIS_EXPR)):
                # fns.push(f), s.add(f), m.set(k, f): a local array, Set or Map holds f (``visit.run``);
                # this.listeners.push(f), this.handlers.set(k, f): the field does (items)
                given = args.named_children
                if name == "add" or name == "set":
                    given = given[:1] if name == "add" else given[1:2]
                if e[1][0] == PROP:
                    self.field_items(scope, e[1][2], given)
                elif name != "unshift":
                    items = tuple(self.conv(a) for a in given[:16])
                    if any(x is not None for x in items):
                        key = self.index_key(nth(args, 0)) if name == "set" else None
                        if key is not None:  # m.set("a", f): f is under "a" (``m.get("a")``)
                            items = ((SPREAD, (KEY, key)), *items)
                        self.pushes.append((scope, e[1][1], (ALIT, (PUSHED, *items))))
            elif name in _ADDERS and name != "set" and e[1][0] == PROP and e[1][1][0] == ID:
                # registry.items.push(f) (an object literal's array member), Reg.fs.push(f) (a static)
                given = args.named_children
                holder = fn.child_by_field_id(self.K.f_object)
                holder = holder.child_by_field_id(self.K.f_object) if holder is not None else None
                if holder is not None:
                    self.held_items(scope, holder, e[1][2], given[:1] if name == "add" else given)
            if name == "assign" and e[1] == _OBJECT:
                self.object_assign(args)
            if name in _PROMISE_METHODS:  # fetch(u).then(f): the promise calls f
                for a in args.named_children[:2]:
                    cb = self.conv(a)
                    if cb is not None:
                        self.pf.sites.append((scope, SITE_PCB, (e, cb), fn))
            if (name == "call" or name == "apply") and e[1][0] == PROP and e[1][2] in ELEMENT_PARAMS:
                self.borrowed_array_method(scope, e, args, fn)
            if name in ELEMENT_PARAMS:  # items.map(f): the array calls the function it is given
                cb = self.conv(nth(args, 0))
                if cb is not None:  # ([a, b].forEach(f): the receiver is an ('alit', ...) literal)
                    self.pf.sites.append((scope, SITE_CB, (e, cb), fn))
            return
        t = fn.type
        if t in ("parenthesized_expression", "function_expression", "arrow_function"):
            e = self.conv(fn)
            if e is not None and e[0] == DEFAT:  # (function (cb) { ... })(f): an IIFE's arguments
                self.record_call_args(self.stack[-1].fe.scope, e, fn)
        if t == "import":
            call = self.call_of(fn)
            spec = self.require_spec(call) if call is not None else None
            if spec is not None:
                self.pf.specs.append((spec, self.line(fn.start_byte)))
            return
        if t == "super":
            self.site(SITE_SUPER, SUPER_EXPR, fn)
            return
        self.site(SITE_CALL, self.conv(fn), fn)

    def keyed_call(self, fn) -> None:
        """``o[k].push(f)`` and the like (``keyed_push``), ``fn`` the callee member expression."""
        prop = fn.child_by_field_id(self.K.f_property)
        name = self._t(prop) if prop is not None else None
        if name not in _ADDERS or name == "unshift":
            return
        call = self.call_of(fn)
        args = call.child_by_field_id(self.K.f_arguments) if call is not None else None
        recv = fn.child_by_field_id(self.K.f_object)
        if args is None or recv is None or args.kind_id != self.K.k_arguments:
            return
        given = args.named_children
        if name == "add" or name == "set":
            given = given[:1] if name == "add" else given[1:2]
        self.keyed_push(self.stack[-1].fe.scope, recv, given)

    def export_star(self, args) -> None:
        """``__exportStar(require(spec), exports)`` (TypeScript's CommonJS output): ``export * from spec``."""
        a0, a1 = nth(args, 0), nth(args, 1)
        x = self.conv(a0) if a0 is not None and a1 is not None and a1.text == b"exports" else None
        if x is not None and x[0] == REQUIRE and x[1] not in self.pf.stars:
            self.pf.stars.append(x[1])

    def getter_result(self, fn) -> tuple | None:
        """What a getter returns when its body is one ``return x`` (or an arrow's expression body), as written."""
        body = fn.child_by_field_id(self.K.f_body)
        if body is None:
            return None
        if body.kind_id != self.K.k_statement_block:
            return self.conv(body) if fn.kind_id == self.K.k_arrow_function else None
        if body.named_child_count != 1:
            return None
        ret = nth(body, 0)
        if ret is None or ret.type != "return_statement" or ret.named_child_count != 1:
            return None
        return self.conv(nth(ret, 0))

    def unalias_calls(self) -> None:
        """A call by a name imported under another (``import { run as go }``, ``go(f)``) is filed
        under the imported name too: the name the called function is looked up by."""
        top = self.pf.bindings[0]
        extra: dict[str, list] = {}
        for name, calls in self.pf.call_args.items():
            bl = top.get(name)
            if bl is None or len(bl) != 1 or bl[0][0] != IMPORT or bl[0][2] in (name, IMPORT_DEFAULT, IMPORT_ALL):
                continue
            extra.setdefault(bl[0][2], []).extend(c for c in calls if c[1] == (ID, name))
        for name, calls in extra.items():
            if calls:
                self.pf.call_args.setdefault(name, []).extend(calls)

    def object_assign(self, args) -> None:
        """``Object.assign(target, src, ...)`` with ``target`` an object literal of this file
        (``local_object``) or a class's prototype (``prototype_of``): each source's members
        become members of it (a class's as ``('mixin', scope, src)`` under ``SPREADS``); with
        ``target`` the exports, each object literal source's members are exports."""
        target = nth(args, 0)
        if target is not None and (
            (target.kind_id == self.K.identifier and self._t(target) == "exports")
            or (target.kind_id == self.K.member and target.text == b"module.exports")
        ):  # Object.assign(module.exports, { f, g }): exports.f = f, exports.g = g
            scope = self.stack[-1].fe.scope
            for a in args.named_children[1:]:
                x = self.object_literal(a) if a.kind_id == self.K.k_object else None
                for key, e in x[1] if x is not None else ():
                    if key != SPREADS:
                        self.pf.exports[key] = (EXPR, e, scope)
            return
        if target is not None and target.kind_id == self.K.this:
            self.assign_to_this(args)
            return
        fqn = self.local_object(target)
        info = self.prototype_of(target, functions=True) if fqn is None else None
        if fqn is None and info is None:  # Object.assign(app, proto), app a function: its members
            fqn = self.function_object(target)
        if fqn is None and info is None:
            return
        scope = self.stack[-1].fe.scope
        for a in args.named_children[1:]:
            if a.kind_id == self.K.k_object:
                x = self.object_literal(a)
            else:
                x = self.conv(a)
            if info is not None:  # Object.assign(C.prototype, mixin): C's instances have its members
                if x is not None:
                    info.members.setdefault(SPREADS, []).append((MIXIN, scope, x))
            elif fqn is not None:
                self.add_member(fqn, SPREADS, x)

    def assign_to_this(self, args) -> None:
        """``Object.assign(this, { handler, retries: 3 })``: each member of an object literal
        source is assigned to ``this``, as ``this.handler = handler`` is (a field of the class,
        of the ES5 constructor's instances, or a member of the object literal whose method it is)."""
        scope = self.stack[-1].fe.scope
        this = self.stack[-1].this
        es5 = self.es5_fns.get(self.stack[-1].nm.scope) if this is None else None
        info = self.pf.classes.get(this[1]) if this is not None and (this[0] == THIS_CLS or this[0] == THIS_SCLS) else None
        obj = this[1] if this is not None and this[0] == THIS_OBJ and this[1] in self.pf.objects else None
        sources = args.named_children[1:]
        if info is not None and any(a.kind_id == self.K.identifier for a in sources):
            # Object.assign(this, defaults, options): the members of what the names hold (a
            # parameter: what the callers pass) and of the literals, the last source having one,
            # after the class's own, as mixins' (``spread_member``)
            mixins = info.members.setdefault(SPREADS, [])
            for a in sources:
                x = (ID, self._t(a)) if a.kind_id == self.K.identifier else self.conv(a)
                if x is not None:
                    mixins.append((MIXIN, scope, x))
            return
        for a in sources:
            x = self.object_literal(a) if a.kind_id == self.K.k_object else None
            for key, e in x[1] if x is not None else ():
                if key == SPREADS:
                    continue
                if info is not None:
                    info.members.setdefault(key, []).append((FIELD, scope, e))
                elif obj is not None:
                    self.add_member(obj, key, e)
                elif es5 is not None:
                    self.es5_fields.setdefault(es5[0], (es5[1], []))[1].append((key, scope, e))

    def define_property(self, args) -> None:
        """``Object.defineProperty(o, "k", { value: f })``: ``o.k = f`` for ``exports`` /
        ``module.exports`` (an export), an object literal of this file (a member), ``this`` in a
        class or a class's / constructor function's ``prototype`` (a field); ``{ get() { return x
        } }`` (also ``get: function () {}``) on an object literal or a prototype is a getter
        (reading runs it) and on the exports what it returns (tsc's ``export { x } from``: a
        re-export)."""
        if args.named_child_count >= 3:
            self.define_one(nth(args, 0), self.index_key(nth(args, 1)), nth(args, 2))

    def define_properties(self, args) -> None:
        """``Object.defineProperties(o, { k: { value: f }, ... })``: ``define_property`` for each key."""
        props = nth(args, 1)
        if props is None or props.kind_id != self.K.k_object:
            return
        target = nth(args, 0)
        for ch in props.named_children:
            if ch.kind_id == self.K.k_pair:
                key = self.object_key(ch.child_by_field_id(self.K.f_key))
                self.define_one(target, key, ch.child_by_field_id(self.K.f_value))

    def define_one(self, target, key: str | None, desc) -> None:
        K = self.K
        if target is None or key is None or desc is None or desc.kind_id != K.k_object:
            return
        value: Expr | None = None
        getter = -1
        for ch in desc.named_children:
            if ch.kind_id == K.k_pair:
                name = self.key_name(ch.child_by_field_id(K.f_key))
                val = ch.child_by_field_id(K.f_value)
                if val is not None and name == "value":
                    value = self.conv(val)
                elif val is not None and name == "get" and val.type in ("function_expression", "arrow_function"):
                    getter = val.start_byte
            elif ch.kind_id == K.k_method_definition and self.key_name(ch.child_by_field_id(K.f_name)) == "get":
                getter = ch.start_byte
        if value is None and getter < 0:
            return
        scope = self.stack[-1].fe.scope
        tk = target.kind_id
        if (tk == K.identifier and self._t(target) == "exports") or (tk == K.member and target.text == b"module.exports"):
            if key != "__esModule":
                self.pf.exports[key] = (EXPR, value if value is not None else (CALL, (DEFAT, getter)), scope)
            else:  # the flag the interop helpers read (``('interop', spec, wildcard)``): a primitive
                self.pf.exports[key] = (EXPR, NULL_EXPR, scope)
            return
        fqn = self.local_object(target)
        if fqn is not None:
            if value is not None:
                self.add_member(fqn, key, value)
            else:
                self.pf.objects[fqn][1][key] = (READS, (DEFAT, getter))
            return
        info = self.prototype_of(target, functions=True)
        if value is None:
            if info is not None:  # a getter on F.prototype (tsc's ES5 class getters): F's, at the end of the visit
                self.proto_getters.append((info, key, getter))
            return
        if info is None and tk == K.this:
            this = self.stack[-1].this
            info = self.pf.classes.get(this[1]) if this is not None and this[0] == THIS_CLS else None
        if info is not None:
            info.members.setdefault(key, []).append((FIELD, scope, value))

    def es5_inherits(self, args, prototypes: bool) -> None:
        """``util.inherits(F, Base)`` (also ``inherits`` of the npm package, any callee of that
        name) and ``Object.setPrototypeOf(F.prototype, Base.prototype)``, F a class or constructor
        function of this file: F extends Base, as with ``F.prototype = Object.create(Base.prototype)``;
        ``Object.setPrototypeOf(o, base)``, o an object literal of this file, gives it ``__proto__: base``."""
        if args.named_child_count != 2:
            return
        target, base = nth(args, 0), nth(args, 1)
        obj = self.local_object(target) if prototypes else None
        if obj is None and prototypes:  # Object.setPrototypeOf(app, proto), app a function: app.m() is proto's m
            obj = self.function_object(target)
        if obj is not None:  # Object.setPrototypeOf(o, base), o an object literal: as its `__proto__: base`
            if PROTO_KEY not in self.pf.objects[obj][1]:
                self.add_member(obj, PROTO_KEY, self.conv(base))
            return
        info = self.prototype_of(target, functions=True) if prototypes else self.class_named(target, functions=True)
        x = self.conv(base)
        if info is None or x is None or info.extends is not None:
            return
        if not prototypes:
            x = (PROP, x, "prototype")
        if x[0] == PROP and x[2] == "prototype":
            info.extends = x

    def own_call_args(self, e: tuple, call) -> tuple:
        """``id(f)()``: the callee ``('call', id)`` with the inner call's own arguments,
        ``('call', id, ('alit', args))``, so a helper returning its parameter gives what this call
        passes (``returned_argument``), not what another call of it in the scope does."""
        args = call.child_by_field_id(self.K.f_arguments)
        if args is None or args.kind_id != self.K.k_arguments or not args.named_child_count:
            return e
        return (CALL, e[1], (ALIT, tuple(self.conv(a) for a in args.named_children[:8])))

    def record_call_args(self, scope: int, e: tuple, fn) -> None:
        """``record_args`` for a call of a function that has no name there (``make()(x)``, an
        IIFE): filed under ``CALLED_AT_ONCE``."""
        call = self.call_of(fn)
        args = call.child_by_field_id(self.K.f_arguments) if call is not None else None
        if args is not None and args.kind_id == self.K.k_arguments and args.named_child_count:
            self.record_args(scope, e, args, CALLED_AT_ONCE)

    def own_arguments(self, args: tuple) -> None:
        """``const a = f(x)`` (or ``h.f(x)``, or ``a = f(x)``) with its arguments recorded
        (``args``): a's binding keeps them, ``('var', None, ('call', f), scope, args)``, so a helper
        returning its parameter gives what this call passes, not what another call of it in the
        scope does."""
        _start, scope, name, at = self.var_call  # type: ignore[misc]
        self.var_call = None
        if at >= 0:  # a = f(x): the reassignment, made a binding at the end of the visit
            r = self.reassign[at]
            self.reassign[at] = (r[0], r[1], r[2], args)
            return
        bl = self.pf.bindings[scope].get(name)
        if bl and bl[-1][0] == VAR and len(bl[-1]) == 4 and bl[-1][1] is None:
            bl[-1] = (*bl[-1], args)

    def record_args(self, scope: int, e: tuple, args, name: str | None = None) -> tuple | None:
        """``pf.call_args`` for a call (or ``new``) of ``e`` (a name or a member) with the
        arguments node ``args`` (not empty), when an argument may be a function: a name, a member,
        a function or arrow written there, an object literal, a ``new`` or a call; string literals
        are keys (``KEY``: ``o[k]`` in the callee), recorded alone for a call of a plain name or of a
        method through ``this``."""
        if name is None:
            name = e[2] if e[0] == PROP else e[1]
        out: list[Expr | None] = []
        some = keys = this = False
        K = self.K
        for a in args.named_children:
            ak = a.kind_id
            if ak == K.this:  # f.call(this), xs.forEach(function () {}, this): the `this` given
                out.append(THIS_EXPR)
                this = True
                continue
            if ak == K.k_object:
                x = self.object_literal(a)
            elif ak == K.k_spread_element:  # f(...args): the elements of args, in place
                inner = nth(a, 0)
                x = self.conv(inner) if inner is not None else None
                x = (SPREAD, x) if x is not None else None
            elif ak == K.identifier or ak == K.member or ak in K.defs or ak == K.new or ak == K.call or ak == K.k_array:
                x = self.conv(a)
            elif a.type == "comment":
                continue
            elif ak == K.k_string:  # call(o, "start"): a key the callee may index with (o[k])
                s = self._sv(a)
                x = (KEY, s) if s is not None else None
                out.append(x)
                keys |= x is not None
                continue
            else:
                out.append(None)
                continue
            some |= x is not None
            out.append(x)
        if some or this or (keys and (e[0] == ID or e[1] == THIS_EXPR or name == "emit")):
            # keys alone (dispatch("start"), this.emit("start")), for a plain function, a method
            # called through `this` or an `emit` (bus.emit("ready"): an EventEmitter's listeners)
            rec = tuple(out)
            self.pf.call_args.setdefault(name, []).append((scope, e, rec))
            if name in THIS_BINDERS and e[0] == PROP:  # f.call(t, x): also filed under f's name
                target = rec[0] if e == REFLECT_APPLY and rec else e[1]
                if target is not None and (target[0] == ID or target[0] == PROP):
                    key = BOUND_CALLS + (target[1] if target[0] == ID else target[2])
                    self.pf.call_args.setdefault(key, []).append((scope, e, rec))
            return rec
        return None

    def on_new(self, node) -> None:
        ctor = node.child_by_field_id(self.K.f_constructor)
        e = self.conv(ctor)
        if e is not None:
            scope = self.stack[-1].fe.scope
            self.pf.sites.append((scope, SITE_NEW, e, node))
            args = node.child_by_field_id(self.K.f_arguments)
            if (e[0] == ID or e[0] == PROP) and args is not None and args.named_child_count:
                self.record_args(scope, e, args)  # new C(cb): what C's constructor is given
                if e == _PROMISE:  # new Promise(executor): called right away
                    self.builtin_callback(scope, e, args, ctor)

    def borrowed_array_method(self, scope: int, e: tuple, args, node) -> None:
        """``Array.prototype.forEach.call(xs, f)``, ``[].map.apply(xs, [f])``: the array method
        calls ``f`` whatever ``xs`` is (a NodeList, ``arguments``): a "bcb" site of the global
        ``Array`` (no edge if it is a local), or a "cb" site of the literal ``[]``."""
        owner = e[1][1]
        if owner != _ARRAY_PROTOTYPE and not (owner[0] == ALIT and not owner[1]):
            return
        cb = self.conv(nth(args, 1)) if args.named_child_count > 1 else None
        if cb is not None and e[2] == "apply":  # apply(xs, [f]): the first of the arguments array
            cb = cb[1][0] if cb[0] == ALIT and cb[1] else None
        if cb is None or cb[0] == SPREAD:
            return
        if owner == _ARRAY_PROTOTYPE:
            self.pf.sites.append((scope, SITE_BCB, (_ARRAY, cb), node))
        else:
            self.pf.sites.append((scope, SITE_CB, (e[1], cb), node))

    def builtin_callback(self, scope: int, e: tuple, args, node) -> None:
        """A "bcb" site at ``node``: the first of ``args``, given to a builtin that calls it
        (``new Promise(f)``, ``setTimeout(f)``), resolved only if the callee is the builtin
        (``_Ctx.run_site``)."""
        cb = self.conv(nth(args, 0))
        if cb is not None:
            self.pf.sites.append((scope, SITE_BCB, (e, cb), node))

    def on_jsx(self, node) -> None:
        nm = node.child_by_field_id(self.K.f_name)
        if nm is None:
            return
        if nm.type == "identifier":
            s = self._t(nm)
            if not s or not (s[0].isupper() or s[0] == "_" or s[0] == "$"):
                return
            e: tuple = (ID, s)
            self.site(SITE_JSX, e, node)
        elif nm.type in ("member_expression", "nested_identifier"):
            parts = self._t(nm).split(".")
            e = (ID, parts[0])
            for p in parts[1:]:
                e = (PROP, e, p)
            self.site(SITE_JSX, e, node)
        else:
            return
        self.jsx_props(e, node)

    def jsx_props(self, e: tuple, node) -> None:
        """``<Button onClick={handle} />``: a call of the component with one argument, the props
        object (``pf.call_args``): what a component's ``props.onClick`` / ``{ onClick }`` holds."""
        members = []
        for ch in node.named_children:
            if ch.type != "jsx_attribute":
                continue
            key = nth(ch, 0)
            val = nth(ch, 1)
            if key is None or val is None or key.type != "property_identifier" or val.type != "jsx_expression":
                continue
            x = self.conv(nth(val, 0)) if val.named_child_count else None
            if x is not None:
                members.append((self._t(key), x))
        if members:
            name = e[2] if e[0] == PROP else e[1]
            self.pf.call_args.setdefault(name, []).append((self.stack[-1].fe.scope, e, ((OLIT, tuple(members)),)))

    def on_member(self, node) -> None:
        """A property read that is not part of a longer chain: may run a getter."""
        e = self.conv(node)  # the query only captures reads in value positions
        if e is not None:
            self.pf.sites.append((self.stack[-1].fe.scope, SITE_GET, e, node))

    def on_spread(self, node) -> None:
        """``[...xs]`` / ``f(...xs)``: iterating xs (an "iter" site: its ``[Symbol.iterator]``)."""
        inner = nth(node, 0)
        self.site(SITE_ITER, self.conv(inner) if inner is not None else None, node)
