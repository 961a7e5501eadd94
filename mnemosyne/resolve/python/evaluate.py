"""Expression values of the Python resolver (``Evaluate``): ``eval`` and what it builds on:
attributes, calls' results, subscripts, containers and their items, iteration, narrowing.

Over ~600 lines: ``eval`` and the value kinds it dispatches to are one hot path; operator results
and prefixed ``getattr`` names live in classes.py (attribute lookups) to keep it from growing."""

from __future__ import annotations

from typing import Any

from mnemosyne.parse.python.tags import (
    LITERAL_TAGS,
    SCOPE_CLASS,
    SCOPE_FUNCTION,
    T_ATTR,
    T_CALL,
    T_DEF,
    T_DICT,
    T_IMPORT_FROM,
    T_INT,
    T_ITEMS,
    T_ITER,
    T_KEYED,
    T_LAMBDA,
    T_NAME,
    T_NARROWED,
    T_OP,
    T_OR,
    T_PARAM,
    T_PREFIX,
    T_REACH,
    T_REACH_ITEM,
    T_SENT,
    T_SLICE,
    T_STAR,
    T_STR,
    T_SUBSCRIPT,
    T_TUPLE,
    T_TYPE_ALIAS,
    UNKNOWN,
)
from mnemosyne.resolve.python import bounds
from mnemosyne.resolve.python.fixpoint import (
    KEY_BINDINGS,
    KEY_EXPR,
    KEY_ITEMS,
    KEY_ITER,
    KEY_MODULE_ATTR,
    KEY_RETURNS,
    Fixpoint,
)
from mnemosyne.resolve.python.known import (
    ANY_TYPES,
    BINDERS,
    COPY_NAMES,
    ENTER_SUFFIXES,
    ITEM_BUILTINS,
    LIBRARY_RESULTS,
    may_derive,
    unrelated_stdlib,
)
from mnemosyne.resolve.python.params import LITERAL_KEYS
from mnemosyne.resolve.python.values import (
    BUILTIN_KINDS,
    EMPTY,
    EXPR_ANN_ITEM,
    EXPR_STORED_PARAM,
    OPERATOR_GETTERS,
    RET_ATTR,
    RET_NEW,
    RET_SELF,
    VAL_ALIAS,
    VAL_ATTR_GETTER,
    VAL_BUILTIN,
    VAL_CLASS,
    VAL_DISPLAY,
    VAL_EXT,
    VAL_EXT_INST,
    VAL_EXT_MEMBER,
    VAL_FUNC,
    VAL_GLOBALS,
    VAL_INST,
    VAL_METHOD_CALLER,
    VAL_MODULE,
    VAL_PAIR,
    VAL_SUPER,
    VAL_VIEW,
    class_of,
    make_display,
    make_external,
    make_module,
    make_super,
)

NAMED_STRINGS = (T_NAME, T_ITER)  # getattr's name argument that may hold known strings (``held_strings``)
LEAF_TAGS = LITERAL_TAGS  # expressions that evaluate to no value of the program
DISPLAY_TAGS = (T_TUPLE, T_DICT)  # a tuple / list / set or dict display
MEMBER_VALUES = ("value", "_value_")  # an enum member's value (``member_value``)
MEMBER_EXPRS = (T_ATTR, T_SUBSCRIPT)  # a member named on its class: ``Op.ADD``, ``Op["ADD"]``


class Evaluate(Fixpoint):
    """What expressions evaluate to."""

    __slots__ = ()

    def eval(self, path: str, idx: int, e: Any) -> frozenset:
        tag = e[0]
        if tag == T_NAME:  # ``lookup`` inlined up to its memo hits: the hottest path
            name = e[1]
            k = (path, idx, name)
            cur = self.lk_memo.get(k)
            if cur is None:
                cur = self.lk_memo[k] = self._lookup_scope(path, idx, name)
            if cur == 0:
                r = self.memo.get((KEY_MODULE_ATTR, self.ix._module_of[path], name, True))
                return r if r is not None else self.module_name_lookup(path, name)
            bk = (KEY_BINDINGS, path, cur, name)
            r = self.memo.get(bk)
            return r if r is not None else self.memoized(bk, True, self._eval_bindings, path, cur, name)
        if tag in LEAF_TAGS:
            return EMPTY
        # the hottest path: memoized(key, True, self._eval, ...) written out (a call less per
        # expression, measurably slower through the helper)
        key = (KEY_EXPR, path, idx, e)
        r = self.memo.get(key)
        if r is not None:
            return r
        prov = self.prov
        if prov and key in prov:  # (the emptiness tests spare hashing a deep key again)
            return self.prov_hit(prov[key])
        active = self.active
        serial = self.serial + 1
        if active.setdefault(key, serial) != serial:  # already being computed (a lower serial)
            return self.cycle_hit(key)
        if self.depth >= self.max_depth:
            del active[key]
            self.truncated = True
            return EMPTY
        self.serial = serial
        lows = self.lows
        lows.append(serial)
        self.depth += 1
        if self.depth > self.peak:
            self.peak = self.depth
        mark = len(prov)
        r = frozenset(self._eval(path, idx, e))
        if self.cycles and key in self.cycles:
            r = self.cycled(key, serial, r, mark, self._eval, (path, idx, e))
        self.depth -= 1
        low = lows.pop()  # finish(), written out: the hottest path
        del active[key]
        if low < serial:
            self.prov[key] = (r, low)
            if low < lows[-1]:
                lows[-1] = low
        else:
            self.memo[key] = r
        return r

    def _eval(self, path: str, idx: int, e: Any) -> set:
        tag = e[0]
        if tag == T_ATTR:
            if e[2] in MEMBER_VALUES:
                inner = e[1][0]
                if inner in MEMBER_EXPRS:
                    mv = self.member_value(path, idx, e)
                elif inner == T_NAME or inner == T_REACH:
                    mv = self.held_member_value(path, idx, e)
                else:
                    mv = None
                if mv is not None:
                    return mv
            out: set = set()
            for b in self.eval(path, idx, e[1]):
                out |= self.getattr(b, e[2])[0]
            base = e[1][1] if e[1][0] == T_NARROWED else e[1]  # (a narrowed name is the same variable)
            if base[0] == T_NAME:
                out |= self.stored_attr(path, idx, base[1], e[2])
            return out
        if tag == T_CALL:
            fn = e[1]
            out = set()
            for f in self.eval(path, idx, fn):
                r = self.call_result(path, idx, f, e)
                if fn[0] == T_ATTR and f[0] == VAL_FUNC:
                    if self.receiver_returns(f[1], f[2]):
                        r = self.receiver_result(path, idx, fn, f, r)
                out |= r
            if fn[0] == T_ATTR and fn[2] in ("get", "pop", "setdefault") and e[2] and e[2][0][0] != T_STAR:
                # mapping.get(key): the values of a dict display / items stored into the container
                key = e[2][0] if e[2][0][0] in LITERAL_KEYS else UNKNOWN
                mapping = False
                for c in self.eval(path, idx, fn[1]):
                    if c[0] == VAL_DISPLAY and c[3][0] == T_DICT:
                        out |= self.container_item(c, key)
                        mapping = True
                    elif c[0] == VAL_GLOBALS:  # globals().get("name")
                        gk = e[2][0]
                        out |= self.global_item(c, self.constant(path, idx, gk[1]) if gk[0] == T_NAME else gk)
                        mapping = True
                out |= self.keyed_items(path, idx, fn[1], (key,))
                if mapping and fn[2] in ("get", "pop") and len(e[2]) > 1 and e[2][1][0] != T_STAR:
                    out |= self.eval(path, idx, e[2][1])  # the default of a dict's get / pop
            if fn[0] == T_ATTR and fn[2] == "copy" and not e[2] and not e[3]:  # d.copy(): the same display
                out.update(c for c in self.eval(path, idx, fn[1]) if c[0] == VAL_DISPLAY)
            if fn[0] == T_ATTR and fn[2] == "send" and len(e[2]) == 1:  # gen.send(v): what the generator yields next
                if any(c[0] == VAL_DISPLAY for c in self.eval(path, idx, fn[1])):
                    out |= self.iter_values(path, idx, fn[1])
            if fn[0] == T_ATTR and fn[2] in ("values", "items") and not e[2] and not e[3]:
                # a view of a dict display's / a container's values: ('VW', kind, values)
                vals: set = set()
                for c in self.eval(path, idx, fn[1]):
                    if c[0] == VAL_DISPLAY and c[3][0] == T_DICT:
                        vals |= self.container_item(c, UNKNOWN)
                vals |= self.stored_items(path, idx, fn[1])
                if vals:
                    out.add((VAL_VIEW, fn[2], frozenset(vals)))
            return out
        if tag == T_SUBSCRIPT:
            return self.subscript(path, idx, e)
        if tag == T_OP:
            return self.operation(path, idx, e)
        if tag == T_LAMBDA:
            li = self.lambda_scope(path, e[1])
            return {(VAL_FUNC, path, li)} if li is not None else set()
        if tag in DISPLAY_TAGS:
            return {(VAL_DISPLAY, path, idx, e)}
        if tag == EXPR_ANN_ITEM:  # an item of an annotated container: instances of the annotations
            return set(self.ann_values(path, idx, e[1]))
        if tag == EXPR_STORED_PARAM:  # a stored parameter's values from other modules (``stored_items``)
            return set(self.stored_param_values(path, idx, (T_NAME, e[1])))
        if tag == T_ITEMS:  # the items of iterating e[1] (built by ``call_result`` for builtins)
            return set(self.iter_values(path, idx, e[1]))
        if tag == T_OR:
            out = set()
            for x in e[1]:
                out |= self.eval(path, idx, x)
            return out
        if tag == T_NARROWED:
            return self.narrowed(path, idx, e)
        if tag == T_REACH or tag == T_REACH_ITEM:  # flow order: the bindings (a stored item) reaching a use
            reach = self.binds(path, idx, e[1]) if tag == T_REACH else self.ibinds(path, idx, e[1])
            out = set()
            for v in (reach or ())[e[2] : (e[3] if tag == T_REACH else e[2]) + 1]:
                out |= self.eval_binding(path, idx, v)
            return out
        if tag == T_TYPE_ALIAS:  # a type alias: what annotations naming it mean (``ann_values``)
            return {(VAL_ALIAS, path, idx, e[1])}
        if tag == T_STAR:
            return set()
        if tag == T_SENT:
            return self.sent_values(path, idx)
        return set()

    def sent_values(self, path: str, idx: int) -> set:
        """The value of a ``yield`` expression in scope ``idx`` (``fn = yield``): the first argument of
        the ``gen.send(v)`` calls of the module whose receiver holds a generator object of the
        enclosing generator function (flow-insensitive; ``next(gen)`` sends None)."""
        gen = idx
        while gen >= 0 and self.hdr(path, gen).kind != SCOPE_FUNCTION:
            gen = self.hdr(path, gen).parent
        if gen < 0 or not self.hdr(path, gen).is_generator:
            return set()
        objs = self.returns(path, gen)
        out: set = set()
        for sc, e in self.sites(path, "send"):
            fn = e[1]
            if fn[0] != T_ATTR or len(e[2]) != 1 or e[2][0][0] == T_STAR:
                continue
            if not objs.isdisjoint(self.eval(path, sc, fn[1])):
                out |= self.eval(path, sc, e[2][0])
        return out

    def narrowed(self, path: str, idx: int, e: Any) -> set:
        """``x`` where ``isinstance(x, C)`` holds (``("N", x, C)``, the object of an attribute in
        the narrowed region): x's instances of C or of its subclasses (a program class deriving
        from an external C too), and its instances of external classes, or of program classes
        with an external base (not a declaration of ``typing`` / ``abc`` / ``enum``), when C is
        external (which may derive from C: not known), else an instance of C (as the annotation ``x: C`` gives);
        C a tuple of classes too. A builtin class: nothing known (methods of builtin values are
        not edges); an unknown one: x's values unchanged."""
        vals = self.eval(path, idx, e[1])
        ce = e[2]
        if ce[0] == T_STR:  # hasattr(x, "m")
            return self.having(vals, ce[1])
        classes: set = set()
        for c in ce[1] if ce[0] == T_TUPLE else (ce,):
            if c[0] != T_STAR:
                for v in self.eval(path, idx, c):
                    if v[0] == VAL_ALIAS:  # isinstance(x, Alias) of a Union alias: its classes
                        classes.update(x for x in map(class_of, self.ann_values(v[1], v[2], v[3])) if x is not None)
                    else:
                        classes.add(v)
        if not classes:
            return set(vals)
        prog = [(c[1], c[2]) for c in classes if c[0] == VAL_CLASS]
        ext = {c[1] for c in classes if (c[0] == VAL_EXT or c[0] == VAL_EXT_MEMBER) and c[1] not in ANY_TYPES}
        bset = {c[1] for c in classes if c[0] == VAL_BUILTIN}
        keep = set()
        for v in vals:
            k = v[0]
            if k == VAL_INST:
                mro, externals, _ = self.mro(v[1], v[2])
                if any(c in mro for c in prog) or any(
                    (x[1] in ext or (ext and may_derive(x[1]))) if x[0] == VAL_EXT or x[0] == VAL_EXT_MEMBER
                    else x[0] == VAL_BUILTIN and x[1] in bset
                    for x in externals
                ):
                    keep.add(v)  # (an outside base other than C: it may derive from C, not known)
            elif k == VAL_EXT_INST:
                if ext and (v[1] in ext or not unrelated_stdlib(v[1], ext)):
                    keep.add(v)  # may derive from the external class: not known
            elif bset and k != VAL_SUPER and k != VAL_MODULE:  # displays, classes, functions: builtin instances
                keep.add(v)
        if keep:
            return keep
        return {(VAL_INST, cp, ci) for cp, ci in prog} | {(VAL_EXT_INST, x) for x in ext}

    def having(self, vals: frozenset, attr: str) -> set:
        """``x`` where ``hasattr(x, attr)`` holds (``("N", x, ("str", attr))``): x's instances and
        classes of the program whose classes have attr (or answer it: a property, ``__getattr__``),
        for one that lacks it its subclasses' that have it (for a class that at most
        ``bounds.NARROW_MAX_SUBCLASSES`` classes name as a base, else the class itself); x's other
        values unchanged."""
        out: set = set()
        for v in vals:
            if v[0] != VAL_INST and v[0] != VAL_CLASS:
                out.add(v)
            elif any(self.getattr(v, attr)) or self.mro(v[1], v[2])[1]:
                out.add(v)  # (a property, a ``__getattr__``; a class with a base outside the program may have it)
            elif self.named_subclasses(v[1], v[2]) > bounds.NARROW_MAX_SUBCLASSES:
                out.add(v)  # (a base of many: not searched)
            else:
                subs = self.subclasses(v[1], v[2])
                out.update((v[0], sp, si) for sp, si in subs if self.class_lookup(sp, si, attr))
        return out

    def receiver_returns(self, path: str, fidx: int) -> tuple:
        """The returns of method ``fidx`` that depend on the receiver it is called through, when
        its first parameter is not rebound in the body: ``('new',)`` for a classmethod returning
        ``cls(...)`` (directly or through a local) or a method returning ``self.__class__(...)`` /
        ``type(self)(...)``, ``('self',)`` for ``return self`` (a fluent
        interface), ``('attr', name)`` for ``return self.name`` (which a subclass may define)."""
        key = (path, fidx)
        r = self.selfret_memo.get(key)
        if r is None:
            r = self.selfret_memo[key] = self._receiver_returns(path, fidx)
        return r

    def _receiver_returns(self, path: str, fidx: int) -> tuple:
        s = self.hdr(path, fidx)
        if s.kind != SCOPE_FUNCTION or s.parent < 0 or self.hdr(path, s.parent).kind != SCOPE_CLASS:
            return ()
        deco = self.method_decorators(path, fidx) if s.decorators else set()
        params = self.params_of(path, fidx)
        if not params or "staticmethod" in deco:
            return ()
        me = params[0][0]
        if any(v[0] != T_PARAM for v in self.binds(path, fidx, me) or ()):
            return ()  # ``cls = Base`` / ``self = other`` in the body: not the receiver
        rets = self.rets(path, fidx)[0]
        if "classmethod" in deco:

            def is_cls_call(e: Any) -> bool:
                return e[0] == T_CALL and e[1] == (T_NAME, me)

            for e in rets:
                if is_cls_call(e) or (e[0] == T_NAME and any(is_cls_call(v) for v in self.binds(path, fidx, e[1]) or ())):
                    return ((RET_NEW,),)
            return ()
        own_class = ((T_ATTR, (T_NAME, me), "__class__"), (T_CALL, (T_NAME, "type"), ((T_NAME, me),), ()))
        out: list[tuple] = []
        for e in rets:
            if e == (T_NAME, me):
                out.append((RET_SELF,))
            elif e[0] == T_ATTR and e[1] == (T_NAME, me):
                out.append((RET_ATTR, e[2]))
            elif e[0] == T_CALL and e[2][:1] == ((T_NAME, me),) and e[1][0] in (T_NAME, T_ATTR) and e[1][-1] in COPY_NAMES:
                out.append((RET_SELF,))  # return copy.copy(self): an instance of the receiver's class
        if any(e[0] == T_CALL and e[1] in own_class for e in rets):  # self.__class__(...) / type(self)(...)
            out.insert(0, (RET_NEW,))
        return tuple(out)

    def receiver_result(self, path: str, idx: int, fn: Any, f: Any, r: set) -> set:
        """``fn(...)`` (``recv.m``) where method ``f`` may be inherited from a base and its result
        depends on the receiver (``receiver_returns``): through a ``Sub`` receiver, an instance
        of ``Sub`` (``Sub.create()`` returning ``cls(...)``, ``sub.step()`` returning ``self``),
        or ``Sub``'s attribute for ``return self.name``; not only what the method's own
        evaluation, done once with its own class, found."""
        rr = self.receiver_returns(f[1], f[2])
        own = (VAL_INST, f[1], self.hdr(f[1], f[2]).parent)
        kinds = (VAL_CLASS, VAL_INST) if rr[0][0] == RET_NEW else (VAL_INST,)
        recv = {
            (VAL_INST, b[1], b[2]) for b in self.eval(path, idx, fn[1])
            if b[0] in kinds and f in self.class_lookup(b[1], b[2], fn[2])
        }
        if rr[0][0] == RET_NEW and recv:  # cls() of the classes it is called through elsewhere (``called_through``): not this call's
            r = set(r) - {(VAL_INST, c[1], c[2]) for c in self.param_values(f[1], f[2], 0) if c[0] == VAL_CLASS} | (r & recv)
        subs = recv - {own}
        if not subs:
            return r
        out = set(r)
        for e in rr:
            if e[0] == RET_ATTR:
                for sub in subs:
                    out |= self.getattr(sub, e[1])[0]
            else:  # the receiver's own instance, not (only) the base's
                if own not in recv:
                    out.discard(own)
                out |= recv
        return out

    def stored_attr(self, path: str, idx: int, name: str, attr: str) -> set:
        """``name.attr`` also holds what ``name.attr = value`` statements of the file stored, where
        ``name`` is the same variable, not a parameter (``app = App(); app.handler = on_event;
        app.handler()``); a method's ``self.attr`` is the class's instance attribute instead
        (``getattr``), and a decorator's ``cls.m = wrapper`` after ``orig = cls.m`` would make the
        wrapper call itself in this flow-insensitive view."""
        bs = self.binding_scope(path, idx, name)
        binds = self.binds(path, bs, name) or () if bs is not None else ()
        if any(v[0] == T_PARAM for v in binds):
            return set()  # an object passed in, patched (``cls.setUp = setUp`` after reading it): not followed
        out: set = set()
        for j, v in self.astores(path, name, attr):
            if self.binding_scope(path, j, name) == bs:
                out |= self.eval(path, j, v)
        for b in binds:  # ``from plugins import registry``: what plugins stores on its registry
            mpath = self.import_source(path, b)
            if mpath is not None and mpath != path:
                for j, v in self.astores(mpath, b[2], attr):
                    if self.binding_scope(mpath, j, b[2]) in (None, 0):
                        out |= self.eval(mpath, j, v)
        return out

    def import_source(self, path: str, b: Any) -> str | None:
        """The file of the internal module a ``from m import name`` binding ``b`` reads from."""
        if b[0] != T_IMPORT_FROM:
            return None
        mod = self.absolute(path, b[1], b[3], b[2])
        return self.mod_path(mod) if mod is not None and self.is_internal(mod) else None

    def subscript(self, path: str, idx: int, e: Any) -> set:
        base, key = e[1], e[2]
        out: set = set()
        if key[0] == T_SLICE:
            # a slice of a list/tuple display is a list of some of its elements (the exact ones
            # with literal bounds; else any of them, at unknown positions: a leading unknown
            # splat), not an element; items stored into a container are read back through the
            # slice expression (``_stored_items``)
            for c in self.eval(path, idx, base):
                if c[0] == VAL_DISPLAY and c[3][0] == T_TUPLE:
                    elts = c[3][1]
                    if len(key) == 3 and not any(x[0] == T_STAR for x in elts):
                        out.add((VAL_DISPLAY, c[1], c[2], (T_TUPLE, tuple(elts[key[1] : key[2]]))))
                    else:
                        out.add((VAL_DISPLAY, c[1], c[2], (T_TUPLE, ((T_STAR, UNKNOWN), *elts))))
            return out
        keys = self.constants(path, idx, key[1]) if key[0] == T_NAME else (key,)
        for c in self.eval(path, idx, base):
            if c[0] == VAL_DISPLAY:
                for k in keys:
                    out |= self.container_item(c, k)
            elif c[0] == VAL_CLASS and any(k[0] == T_STR or k == UNKNOWN for k in keys) and self.is_enum(c[1], c[2]):
                out.add((VAL_INST, c[1], c[2]))  # Color["RED"], Color[name]: a member
            elif c[0] == VAL_GLOBALS:
                for k in keys:
                    out |= self.global_item(c, k)
        out |= self.keyed_items(path, idx, base, keys)
        return out

    def keyed_items(self, path: str, idx: int, base: Any, keys: Any) -> frozenset:
        """``stored_items`` of ``base`` read by a subscript (or ``get``) of ``keys``: when every key
        is a literal and base a name, not the items stored under another literal key
        (``d["sync"] = sync`` is not ``d["load"]``: ``T_KEYED``)."""
        if base[0] == T_ATTR and keys and all(k[0] in LITERAL_KEYS for k in keys):
            return self.keyed_attr_items(path, idx, base, keys)
        if base[0] != T_NAME or not keys or not all(k[0] in LITERAL_KEYS for k in keys):
            return self.stored_items(path, idx, base)
        bscope = self.binding_scope(path, idx, base[1])
        vals = self.ibinds(path, bscope, base[1]) if bscope is not None else None
        if bscope is None or not vals or not any(v[0] == T_KEYED for v in vals):
            return self.stored_items(path, idx, base)
        out: set = set()
        for v in vals:
            if v[0] != T_KEYED or v[1] in keys:
                out |= self.eval_binding(path, bscope, v)
        return frozenset(out)

    def keyed_attr_items(self, path: str, idx: int, base: Any, keys: Any) -> frozenset:
        """``self.handlers["a"]``: the items stored into the instance's (or class's) attribute,
        but those stored under another literal key (``self.handlers["b"] = g``: ``T_KEYED``)."""
        all_items = self.stored_items(path, idx, base)
        return frozenset(self.attr_items(path, idx, base, keys)) if all_items else all_items

    def member_value(self, path: str, idx: int, e: Any) -> set | None:
        """``Op.ADD.value`` / ``Op["ADD"]._value_``: the value the enum's body assigns to that
        member, not any member's (``enum_values``); None when the object is no enum class of the
        program (the ordinary attribute lookup then)."""
        inner = e[1]
        if inner[0] == T_ATTR:
            member = inner[2]
        elif inner[2][0] == T_STR:
            member = inner[2][1]
        else:
            return None
        objs = self.eval(path, idx, inner[1])
        if not any(c[0] == VAL_CLASS and self.is_enum(c[1], c[2]) for c in objs):
            return None
        out: set = set()
        for c in objs:
            if c[0] == VAL_CLASS and not member.startswith("_") and self.is_enum(c[1], c[2]):
                bs = self.binds(c[1], c[2], member)
                walk = self.mro(c[1], c[2])[2]
                if bs and all(v[0] != T_DEF for v in bs) and self._first_binder(walk, e[2], False) is None:
                    out |= self.eval_bindings(c[1], c[2], member)
                    continue
            for b in self.eval(path, idx, inner):
                out |= self.getattr(b, e[2])[0]
            break
        return out

    def held_member_value(self, path: str, idx: int, e: Any) -> set | None:
        """``op.value`` with every binding of the name ``op`` (those reaching the use, in flow
        order) naming one member on its class (``op = Op.ADD``, ``op = Op["SUB"]``): those
        members' values (``member_value``); None when a binding is anything else (a parameter,
        ``Op[name]``, a loop variable: the ordinary lookup, any member's value)."""
        ne = e[1]
        if ne[0] == T_NAME:
            bs = self.binding_scope(path, idx, ne[1])
            if bs is None:
                return None
            binds = list(self.binds(path, bs, ne[1]) or ())
        else:  # flow order: the bindings reaching the use
            bs = idx
            binds = list(self.binds(path, idx, ne[1]) or ())[ne[2] : ne[3] + 1]
        if not binds or not all(b[0] in MEMBER_EXPRS for b in binds):
            return None
        out: set = set()
        for b in binds:
            mv = self.member_value(path, bs, (T_ATTR, b, e[2]))
            if mv is None:
                return None
            out |= mv
        return out

    def global_item(self, c: Any, key: Any) -> frozenset:
        """``globals()[key]`` of module ``c[1]`` (``VAL_GLOBALS``): the module-level name a literal
        string key names; any other key is not followed (any name of the module)."""
        return self.module_attr(c[1], key[1])[0] if key[0] == T_STR else EMPTY

    def constants(self, path: str, idx: int, name: str) -> Any:
        """The literals a name used as an index may be: those a parameter is passed
        (``param_keys``: ``def run(table, key): table[key]()`` called as ``run(T, "a")``), else
        the one ``constant`` finds."""
        bs = self.binding_scope(path, idx, name)
        vals = self.binds(path, bs, name) if bs is not None else None
        if vals and len(vals) == 1 and vals[0][0] == T_PARAM:
            return tuple(sorted(self.param_keys(path, vals[0][1], vals[0][2]), key=repr))
        return (self.constant(path, idx, name),)

    def name_literals(self, path: str, idx: int, name: str) -> list[str] | None:
        """The strings name ``name`` may hold when every binding says (``getattr(obj, name)``): a
        string literal, or the literals every call site passes a parameter (``param_keys``), or a
        loop variable over a display of string literals (``for n in ("setup", "teardown")``, also
        through a name bound only to such displays: ``display_strings``); None when a binding is
        anything else."""
        bs = self.binding_scope(path, idx, name)
        vals = self.binds(path, bs, name) if bs is not None else None
        if not vals or bs is None:
            return None
        out: list[str] = []
        for v in vals:
            if v[0] == T_STR:
                out.append(v[1])
            elif v[0] == T_ITER:
                strs = self.display_strings(path, bs, v[1], 0)
                if strs is None:
                    return None
                out += strs
            elif v[0] == T_PARAM and len(vals) == 1:
                keys = self.param_keys(path, v[1], v[2])
                if not all(k[0] == T_STR for k in keys):
                    return None
                out += [k[1] for k in keys]
            else:
                return None
        return sorted(set(out))

    def held_strings(self, path: str, idx: int, e: Any) -> list[str] | None:
        """The strings an attribute name ``e`` may be: a name's (``name_literals``), or, for
        ``(T_ITER, iterable)`` (the parser's loop variable in its loop's body, ``loop_name``), the
        strings of that loop's display (``display_strings``); None when not known."""
        if e[0] == T_NAME:
            return self.name_literals(path, idx, e[1])
        return self.display_strings(path, idx, e[1], 0) if e[0] == T_ITER else None

    def display_strings(self, path: str, idx: int, e: Any, depth: int) -> list[str] | None:
        """The strings of a tuple/list/set display of string literals (``("a", "b")``), or of the
        displays a name is only ever bound to (one name deep); None for anything else."""
        if e[0] == T_TUPLE:
            return [x[1] for x in e[1]] if e[1] and all(x[0] == T_STR for x in e[1]) else None
        if e[0] != T_NAME or depth:
            return None
        bs = self.binding_scope(path, idx, e[1])
        vals = self.binds(path, bs, e[1]) if bs is not None else None
        if not vals or bs is None:
            return None
        out: list[str] = []
        for v in vals:
            strs = self.display_strings(path, bs, v, depth + 1)
            if strs is None:
                return None
            out += strs
        return out

    def constant(self, path: str, idx: int, name: str) -> Any:
        """A name used as an index (``handlers[KIND]``) as the literal it is always bound to, in
        its scope or, through ``from m import KIND``, in m's module scope; else unknown."""
        bs = self.binding_scope(path, idx, name)
        vals = self.binds(path, bs, name) if bs is not None else None
        if vals and len(vals) == 1 and vals[0][0] == T_IMPORT_FROM:
            mpath = self.import_source(path, vals[0])
            vals = self.binds(mpath, 0, vals[0][2]) if mpath is not None else None
        if vals and all(v[0] in LITERAL_KEYS for v in vals) and len(set(vals)) == 1:
            return vals[0]
        return UNKNOWN

    def stored_items(self, path: str, idx: int, e: Any) -> frozenset:
        """Items put into the container ``e`` names by ``e[k] = v`` / ``e.append(v)`` / ...:
        ``e`` a name (items recorded in the scope binding it) or ``obj.attr`` of an instance."""
        return self.memoized((KEY_ITEMS, path, idx, e), False, self._stored_items, path, idx, e)

    def _stored_items(self, path: str, idx: int, e: Any) -> set:
        out: set = set()
        if e[0] == T_SUBSCRIPT and e[2][0] == T_SLICE:
            return set(self.stored_items(path, idx, e[1]))  # some of the items of the sliced one
        if e[0] == T_NAME:
            bscope = self.binding_scope(path, idx, e[1])
            if bscope is not None:
                for v in self.ibinds(path, bscope, e[1]) or ():
                    out |= self.eval_binding(path, bscope, v)
        elif e[0] == T_ATTR:
            out = self.attr_items(path, idx, e, None)
        return out

    def attr_items(self, path: str, idx: int, e: Any, keys: Any) -> set:
        """The items stored into attribute ``e`` (``obj.attr``) of the instances and classes obj
        may be, with ``keys`` (literals) but those stored under another literal key."""
        out: set = set()
        for b in self.eval(path, idx, e[1]):
            if b[0] == VAL_INST or b[0] == VAL_CLASS:  # a class reads what its methods store (cls.registry[k] = cls)
                for cp, ci in self.mro(b[1], b[2])[0]:
                    for fi, v in self.iitems(cp, ci, e[2]):
                        if v[0] == T_KEYED:  # (stored under a literal key: read by it or an unknown one)
                            if keys is not None and v[1] not in keys:
                                continue
                            v = v[2]
                        out |= self.eval_binding(cp, fi, v)
                        if v[0] == T_NAME:  # a parameter stored: what other modules pass it too
                            out |= self.stored_param_values(cp, fi, v)
                        elif v[0] == T_TUPLE and len(v[1]) == 1 and v[1][0][0] == T_NAME:
                            # d.setdefault(k, []).append(p): a list of what they pass
                            if self.stored_param_values(cp, fi, v[1][0]):
                                out.add(make_display(cp, fi, (T_TUPLE, ((EXPR_STORED_PARAM, v[1][0][1]),))))
                if b[0] == VAL_INST:  # stored through another object: ``self.state.items.append(f)``
                    out |= self.object_stores(b, e[2], True, keys)
        return out

    def binding_scope(self, path: str, idx: int, name: str) -> int | None:
        k = (path, idx, name)
        r = self.bs_memo.get(k, -1)
        if r == -1:
            r = self.bs_memo[k] = self._binding_scope(path, idx, name)
        return r

    def _binding_scope(self, path: str, idx: int, name: str) -> int | None:
        if path == self.path:  # own file: the same walk, without the recording accessors
            scopes = self.scopes
            if name in scopes[idx].globals:
                return 0
            cur = idx
            first = True
            while cur >= 0:
                sc = scopes[cur]
                if (first or sc.kind != SCOPE_CLASS) and (
                    sc.bindings.get(name) is not None or sc.item_bindings.get(name) is not None
                ):
                    return cur
                first = False
                cur = sc.parent
            return None
        if name in self.globs(path, idx).globals:
            return 0
        cur = idx
        first = True
        while cur >= 0:
            sc = self.hdr(path, cur)
            if (first or sc.kind != SCOPE_CLASS) and (
                self.binds(path, cur, name) is not None or self.ibinds(path, cur, name) is not None
            ):
                return cur
            first = False
            cur = sc.parent
        return None

    def container_item(self, c: Any, key: Any, seen: frozenset = EMPTY) -> set:
        """The items of display ``c`` a subscript by ``key`` reads (``seen``: the displays whose
        ``**base`` led here, ``x = {**x, "k": v}`` holding itself)."""
        _, cpath, cidx, disp = c
        out: set = set()
        if disp[0] == T_TUPLE:
            elts = disp[1]
            if key[0] == T_INT and -len(elts) <= key[1] < len(elts) and not any(
                x[0] == T_STAR for x in (elts[: key[1] + 1] if key[1] >= 0 else elts[key[1] :])
            ):  # (an index before the first ``*xs``, or from the end after the last one, is exact)
                return set(self.eval(cpath, cidx, elts[key[1]]))
            for x in elts:
                out |= self.iter_values(cpath, cidx, x[1]) if x[0] == T_STAR else self.eval(cpath, cidx, x)
        elif disp[0] == T_DICT:
            items = disp[1]
            if key[0] in LITERAL_KEYS:
                matched = [v for k, v in items if k == key]
                if matched or all(k[0] in LITERAL_KEYS or k[0] == T_STAR for k, _ in items):
                    last = max((j for j, (k, _v) in enumerate(items) if k == key), default=-1)
                    shadowed = False  # a later **base surely holding the key replaces the pair
                    for k, _v in items[last + 1 :]:
                        if k[0] == T_STAR:  # {**base, ...}[key]: base's item of that key (not a later pair's)
                            subs = self.eval(cpath, cidx, k[1])
                            for sub in subs:
                                if sub[0] == VAL_DISPLAY and sub != c and sub not in seen:
                                    out |= self.container_item(sub, key, seen | {c})
                            stored = self.stored_items(cpath, cidx, k[1])  # (base[k] = v: under any key)
                            out |= stored
                            shadowed = shadowed or (bool(subs) and all(
                                sub[0] == VAL_DISPLAY and sub[3][0] == T_DICT and any(kk == key for kk, _ in sub[3][1]) for sub in subs
                            ))
                    if last >= 0 and not shadowed:  # {"a": f, "a": g}["a"] is g: the last pair of that key
                        out |= self.eval(cpath, cidx, items[last][1])
                    return out
            for _, v in items:
                out |= self.eval(cpath, cidx, v)
        return out

    def iter_values(self, path: str, idx: int, e: Any) -> frozenset:
        """The items iterating ``e`` gives (memoised: ``xs = [*xs, x]`` is a cycle)."""
        return self.memoized((KEY_ITER, path, idx, e), True, self._iter_values, path, idx, e)

    def _iter_values(self, path: str, idx: int, e: Any) -> frozenset:
        out: set = set(self.stored_items(path, idx, e))
        for c in self.eval(path, idx, e):
            if c[0] == VAL_VIEW:
                if c[1] == "values":
                    out |= c[2]
                else:
                    out.add((VAL_PAIR, c[2]))
            elif c[0] == VAL_DISPLAY:
                disp = c[3]
                if disp[0] == T_TUPLE:
                    for x in disp[1]:
                        out |= self.iter_values(c[1], c[2], x[1]) if x[0] == T_STAR else self.eval(c[1], c[2], x)
                else:
                    for k, _v in disp[1]:
                        out |= self.eval(c[1], c[2], k)
            elif c[0] == VAL_CLASS and self.is_enum(c[1], c[2]):
                out.add((VAL_INST, c[1], c[2]))  # iterating an enum class gives its members
            elif c[0] == VAL_INST:
                for it in self.class_lookup(c[1], c[2], "__iter__"):
                    if it[0] != VAL_FUNC:
                        continue
                    for itv in self.returns(it[1], it[2]):
                        if itv[0] == VAL_DISPLAY:  # a generator __iter__: what it yields
                            for x in itv[3][1]:
                                out |= self.iter_values(itv[1], itv[2], x[1]) if x[0] == T_STAR else self.eval(itv[1], itv[2], x)
                        elif itv[0] == VAL_INST:
                            for nx in self.class_lookup(itv[1], itv[2], "__next__"):
                                if nx[0] == VAL_FUNC:
                                    out |= self.returns(nx[1], nx[2])
        return frozenset(out)

    # ------------------------------------------------------------------ calls
    def call_result(self, path: str, idx: int, f: Any, e: Any) -> set:
        k = f[0]
        if k == VAL_FUNC:
            if e[0] == T_CALL:
                r = self.identity_result(path, idx, f, e)
                if r is not None:
                    return r
            return set(self.returns(f[1], f[2]))
        if k == VAL_CLASS:
            return {(VAL_INST, f[1], f[2])}
        if k == VAL_INST:
            out: set = set()
            for m in self.class_lookup(f[1], f[2], "__call__"):
                if m[0] == VAL_FUNC:
                    out |= self.returns(m[1], m[2])
            return out
        if k == VAL_EXT or k == VAL_EXT_MEMBER:
            name = f[1]
            if name in LIBRARY_RESULTS or (k == VAL_EXT_MEMBER and name.endswith(ENTER_SUFFIXES)):
                return self.library_result(path, idx, name, e)  # copy.copy(p), cast(C, x), stack.enter_context(cm)
            if name in BINDERS and e[2]:  # partial(f, x), MethodType(f, obj): f
                a0 = e[2][0]
                return set(self.eval(path, idx, a0)) if a0[0] != T_STAR else set()
            if name == "importlib.import_module" and e[2] and e[2][0][0] == T_STR:
                return self.imported_module(e)
            og = OPERATOR_GETTERS.get(name)
            if og is not None:  # methodcaller("run") / attrgetter("f"): a literal name without dots
                a0 = e[2][0] if e[2] else None
                if a0 is not None and a0[0] == T_STR and "." not in a0[1] and (og == VAL_METHOD_CALLER or len(e[2]) == 1):
                    return {(og, a0[1])}
                return set()
            last = name.rsplit(".", 1)[-1]
            if last[:1].isupper():
                return {(VAL_EXT_INST, name)}
            return set()
        if k == VAL_ATTR_GETTER or k == VAL_METHOD_CALLER:  # getter(obj): obj.name (called)
            out = set()
            if len(e[2]) == 1 and e[2][0][0] != T_STAR:
                for b in self.eval(path, idx, e[2][0]):
                    for m in self.getattr(b, f[1])[0]:
                        if k == VAL_ATTR_GETTER:
                            out.add(m)
                        elif m[0] != VAL_METHOD_CALLER and m[0] != VAL_ATTR_GETTER:
                            out |= self.call_result(path, idx, m, e)
            return out
        if k in BUILTIN_KINDS:
            if f[1] == "super":
                return self.super_value(path, idx, e)
            if f[1] == "globals" and not e[2] and not e[3]:
                return {(VAL_GLOBALS, self.modname(path))}
            if f[1] == "type" and len(e[2]) == 1 and not e[3] and e[2][0][0] != T_STAR:
                return {(VAL_CLASS, v[1], v[2]) for v in self.eval(path, idx, e[2][0]) if v[0] == VAL_INST}
            if f[1] in ("staticmethod", "classmethod") and len(e[2]) == 1 and e[2][0][0] != T_STAR:
                return set(self.eval(path, idx, e[2][0]))
            if f[1] == "getattr" and len(e[2]) >= 2 and e[2][1][0] == T_STR and e[2][0][0] != T_STAR:
                # getattr(obj, "name"[, default]): obj.name, or the default
                out = set()
                for b in self.eval(path, idx, e[2][0]):
                    out |= self.getattr(b, e[2][1][1])[0]
                if len(e[2]) > 2 and e[2][2][0] != T_STAR:
                    out |= self.eval(path, idx, e[2][2])
                return out
            pfx = e[2][1] if f[1] == "getattr" and len(e[2]) >= 2 and e[2][1][0] == T_PREFIX and e[2][0][0] != T_STAR else None
            holes = self.held_strings(path, idx, pfx[3]) if pfx is not None else None
            if pfx is not None and holes is None:
                return self.prefixed_attrs(path, idx, e)
            if f[1] == "getattr" and len(e[2]) >= 2 and (e[2][1][0] in NAMED_STRINGS or holes is not None) and e[2][0][0] != T_STAR:
                # getattr(obj, name) with name bound to literals, a parameter every site passes one,
                # a loop's variable over strings; getattr(obj, "do_" + name) with name so: those names
                names = [pfx[1] + h + pfx[2] for h in holes] if pfx is not None and holes is not None else self.held_strings(path, idx, e[2][1])
                if names is None:
                    return set()
                out = set()
                for b in self.eval(path, idx, e[2][0]):
                    for nm in names:
                        out |= self.getattr(b, nm)[0]
                if len(e[2]) > 2 and e[2][2][0] != T_STAR:
                    out |= self.eval(path, idx, e[2][2])
                return out
            if k == VAL_BUILTIN and f[1] == "dict" and len(e[2]) <= 1 and (not e[2] or e[2][0][0] == T_DICT):
                # dict(k=v) / dict({"k": v}, k2=v2): a dict display of those items
                named = tuple(((T_STR, nm), a) for nm, a in e[3] if nm is not None)
                if len(named) == len(e[3]) and (named or e[2]):
                    return {make_display(path, idx, (T_DICT, (*(e[2][0][1] if e[2] else ()), *named)))}
                return set()
            if k == VAL_BUILTIN and f[1] in ITEM_BUILTINS:
                return self.items_result(path, idx, f[1], e)
            return set()
        return set()

    def imported_module(self, e: Any) -> set:
        """``importlib.import_module("a.b")`` (or ``(".b", "a")`` / ``package="a"``): that module,
        the program's or an external one (a literal name; a relative one needs a literal package)."""
        mod = e[2][0][1]
        if mod.startswith("."):
            pkg = e[2][1] if len(e[2]) > 1 else next((v for k, v in e[3] if k == "package"), None)
            if pkg is None or pkg[0] != T_STR:
                return set()
            level = len(mod) - len(mod.lstrip("."))
            parts = pkg[1].split(".")
            if level - 1 >= len(parts):
                return set()
            mod = ".".join([*parts[: len(parts) - level + 1], *([mod.lstrip(".")] if mod.lstrip(".") else [])])
        if self.is_internal(mod):
            return {make_module(mod)}
        if self.is_internal(mod.split(".", 1)[0]):
            return set()  # a missing module of one of the repository's packages
        return {make_external(mod)}

    def items_result(self, path: str, idx: int, name: str, e: Any) -> set:
        """What a builtin that passes items on returns: ``next(it)`` an item; ``list(x)`` /
        ``tuple(x)`` x's display itself (same positions); ``sorted``, ``reversed``, ``set``,
        ``iter``, ``filter``, ... a container of x's items at unknown positions; ``enumerate(x)``
        (index, item) pairs; ``zip(a, b)`` (item of a, item of b) tuples; ``map(f, xs)`` what f
        returns given an item of xs."""
        args = e[2]
        if not args or any(a[0] == T_STAR for a in args):
            return set()
        if name == "next":
            out = set(self.iter_values(path, idx, args[0]))
            if len(args) > 1:
                out |= self.eval(path, idx, args[1])
            return out
        if name == "iter" and len(args) == 2:  # iter(f, sentinel): what calling f returns
            item: Any = (T_CALL, args[0], (), ())
        elif name == "map":  # map(f, xs, ys): what f returns, called on their items
            if len(args) < 2:
                return set()
            item = (T_CALL, args[0], tuple((T_ITEMS, a) for a in args[1:]), ())
        elif name == "zip":
            item = (T_TUPLE, tuple((T_ITEMS, a) for a in args))
        elif name == "enumerate":
            item = (T_TUPLE, (UNKNOWN, (T_ITEMS, args[0])))
        else:
            src = args[1] if name == "filter" else args[0]
            if name in ("list", "tuple") and len(args) == 1:
                vals = self.eval(path, idx, src)
                out = {v for v in vals if v[0] == VAL_DISPLAY and v[3][0] == T_TUPLE}
                if out and len(out) == len(vals) and not self.stored_items(path, idx, src):
                    return out
            item = (T_ITEMS, src)
        return {(VAL_DISPLAY, path, idx, (T_TUPLE, ((T_STAR, UNKNOWN), item)))}

    def super_value(self, path: str, idx: int, e: Any) -> set:
        args = e[2]
        if args:
            out = set()
            for c in self.eval(path, idx, args[0]):
                if c[0] == VAL_CLASS:
                    out.add(make_super(c[1], c[2]))
            return out
        cur = idx
        while cur >= 0:
            s = self.hdr(path, cur)
            if s.kind == SCOPE_FUNCTION and s.parent >= 0 and self.hdr(path, s.parent).kind == SCOPE_CLASS:
                return {make_super(path, s.parent)}
            cur = s.parent
        return set()

    def returns(self, path: str, fidx: int, but: str = "") -> frozenset:
        """What calling function ``fidx`` gives; with ``but``, what its returns other than
        ``return but`` (a parameter returned as it is: ``identity_result``) give."""
        if but:
            return self.memoized((KEY_RETURNS, path, fidx, but), False, self._returns, path, fidx, but)
        return self.memoized((KEY_RETURNS, path, fidx), False, self._returns, path, fidx)

    def _returns(self, path: str, fidx: int, but: str = "") -> set:
        s = self.hdr(path, fidx)
        out: set = set()
        returns, return_ann, yields = self.rets(path, fidx)
        if s.is_generator:
            # a generator object: a container of what it yields (iteration, next())
            out.add(make_display(path, fidx, (T_TUPLE, ((T_STAR, UNKNOWN), *yields))))
            return out
        for e in returns:
            if but and e[0] == T_NAME and e[1] == but:
                continue
            out |= self.eval(path, fidx, e)
            if e[0] == T_CALL and e[1][0] == T_NAME:  # ``return h()``, h a parameter: also what other modules pass
                for f in self.callee_cross_values(path, fidx, e[1]):
                    out |= self.call_result(path, fidx, f, e)
        if return_ann is not None and s.parent >= 0:
            out |= self.ann_values(path, s.parent, return_ann[1])
        return out
