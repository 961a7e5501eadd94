"""Edge emission of the TypeScript resolver: a call site of the file to its call edges."""

from __future__ import annotations

from typing import Any

from mnemosyne.facts import Resolution
from mnemosyne.parse.typescript import ParsedFile
from mnemosyne.parse.typescript.tags import (
    ALIT,
    ANY_KEY,
    CALL,
    DYNAMIC_IMPORT,
    ELEM,
    ID,
    KEY,
    NEW,
    PROP,
    SITE_BCB,
    SITE_CALL,
    SITE_CB,
    SITE_DECORATOR,
    SITE_GET,
    SITE_ITER,
    SITE_JSX,
    SITE_NEW,
    SITE_PCB,
    SITE_SET,
    SITE_SUPER,
    THIS_CLS,
    THIS_EXPR,
    VAR,
)
from mnemosyne.resolve.typescript.builtins import (
    ARRAY_MAKER_NAMES,
    ARRAY_MAKERS,
    ARRAY_RESULTS,
    EMITTER_EMITS,
    FOREACH_COLLECTIONS,
    LISTENER_ADDERS,
    PROMISE_CHAIN,
    PROMISE_MAKERS,
    SAME_ELEMENTS,
)
from mnemosyne.resolve.typescript.reads import READ_CALL_SITES, READ_LOOKUP, READ_RETURNS
from mnemosyne.resolve.typescript.state import CtxState
from mnemosyne.resolve.typescript.values import (
    FLAG_IMPORT,
    FLAG_INFERRED,
    FLAG_PARTIAL,
    FLAG_SELF,
    FLAG_SUPER,
    INST_OR_OBJ,
    V_ABSM,
    V_ALIT,
    V_ARR,
    V_BUILTIN,
    V_CLASS,
    V_EXT,
    V_EXTM,
    V_FUNC,
    V_IFM,
    V_IINST,
    V_NULL,
    V_OBJ,
    V_UNI,
    alternatives,
    funcs,
)

CONFIDENCE: dict[Resolution, float] = {"inferred": 0.9, "subclass": 0.9}  # every other resolution: 1.0 (nothing here is a guess)
# how indirect a resolution is: an edge found several ways keeps its most direct one
_INDIRECT: dict[Resolution, int] = {"inferred": 1, "subclass": 2}
# resolutions an edge to an external callee keeps (any other is 'external')
_KEPT_FOR_EXTERNAL = ("jsx", "implicit", "constructor")
# values ``new`` makes an edge to as they are (a class: its constructor, ``ctor_edge``)
_CONSTRUCTED = (V_FUNC, V_EXT, V_BUILTIN)
# a receiver of ``split`` that is not ours: its result is an array (``is_array``)
_NOT_OURS = (V_BUILTIN, V_NULL, V_EXTM)


class EmitMixin(CtxState):
    """Edges from the file's call sites (``run_site``), with the tests implicit callbacks need."""

    __slots__ = ()

    def run_site(self, scope: int, kind: str, expr: Any, line: int) -> None:
        """The edges of one call site of the file (``ParsedFile.sites``: ``expr`` is None for ``super``)."""
        pf = self.pf
        self.caller = pf.scope_fqn[scope]
        self.line = line
        self.flags = 0
        self.emit = True
        if kind == SITE_CALL:
            v = self.eval(pf, scope, expr)
            if v is not None and v[0] == V_IINST and (expr[0] == ID or expr[0] == PROP):
                v = None  # mw(next) with `mw: Middleware`, an interface's call signature: what is passed
            if v is not None:
                partial = self.flags & FLAG_PARTIAL
                self.edge_to(v, None)
                if v[0] == V_EXTM and v[1] in EMITTER_EMITS and expr[0] == PROP:  # bus.emit("ready")
                    self.emit_listeners(pf, scope, expr)
                if partial and expr[0] == ID:  # `let handler = noop` and `function on(fn) { handler = fn }`
                    for x in funcs(self.assigned_passed(pf, scope, expr[1])):
                        self.add_edge(x[1], "inferred", False)
            elif expr[0] == ID or expr[0] == PROP:  # cb(), opts.onDone(): what the callers pass
                vals = self.passed(pf, scope, expr)
                if vals is None and expr[0] == ID:  # handler() with `function on(fn) { handler = fn }`
                    vals = self.assigned_passed(pf, scope, expr[1])
                for x in funcs(vals):
                    self.add_edge(x[1], "inferred", False)
            elif expr[0] == ELEM and len(expr) > 2:  # for (k in hooks) hooks[k](): each object passed's members
                for x in funcs(self.walked_parameter(pf, scope, expr)):
                    self.add_edge(x[1], "inferred", False)
            if expr[0] == ELEM:  # handlers[type](): what is assigned under keys we cannot read
                base = self.eval(pf, scope, expr[1])
                for o in alternatives(base):
                    if o[0] == V_OBJ:
                        for x in funcs(self.member(o, ANY_KEY)):
                            self.add_edge(x[1], "inferred", False)
            if expr is not None and expr[0] == PROP and expr[1] == THIS_EXPR:
                this = pf.scope_this[scope]
                if this is not None and this[0] == THIS_CLS:
                    for m in self.overrides(this[1], pf.path, expr[2]):
                        self.add_edge(m, "subclass", False)
        elif kind == SITE_NEW:
            v = self.eval(pf, scope, expr)
            if v is None and (expr[0] == ID or expr[0] == PROP):  # new cls(): a class the callers pass
                for x in alternatives(self.passed(pf, scope, expr)):
                    if x[0] == V_CLASS:
                        self.ctor_edge(x, "inferred")
                return
            if v is None:
                return
            for x in alternatives(v):
                if x[0] == V_CLASS:
                    self.ctor_edge(x)
                elif x[0] in _CONSTRUCTED:
                    self.edge_to(x, "constructor")
        elif kind == SITE_SUPER:
            this = pf.scope_this[scope]
            if this is None or this[0] != THIS_CLS:
                return
            b = self.base_of(this[1], pf.path)
            if b is None:
                return
            if b[0] == V_CLASS:
                self.ctor_edge(b, "super")
        elif kind == SITE_JSX:
            v = self.eval(pf, scope, expr)
            if v is None:
                return
            if v[0] == V_CLASS:
                self.ctor_edge(v)
                for r in funcs(self.class_member(v[1], v[2], "render", set())):
                    self.add_edge(r[1], "jsx", False)
            else:
                self.edge_to(v, "jsx")
        elif kind == SITE_DECORATOR:
            v = self.eval(pf, scope, expr)
            if v is not None:
                self.edge_to(v, "implicit")
        elif kind == SITE_SET:
            if expr[0] != PROP:
                return
            base = self.eval(pf, scope, expr[1])
            if base is not None:
                s = self.setter_of(base, expr[2])
                if s is not None:
                    self.add_edge(s, "implicit", False)
        elif kind == SITE_GET:
            self.eval(pf, scope, expr)
        elif kind == SITE_ITER:  # for (x of obj) / [...obj]: obj[Symbol.iterator]() and its next()
            for v in alternatives(self.eval(pf, scope, expr)):
                it = self.iterator(v)
                if it is None:
                    continue
                self.add_edge(it[0][1], "implicit", False)
                for r in alternatives(it[1]):
                    n = self.member(r, "next") if r[0] in INST_OR_OBJ else None
                    if n is not None and n[0] == V_FUNC:
                        self.add_edge(n[1], "implicit", False)
        elif kind == SITE_CB or kind == SITE_BCB or kind == SITE_PCB:
            # items.map(f) with items an array, setTimeout(f), new Promise(f), fetch(u).then(f):
            # f is called for us
            callee, cb = expr
            if kind == SITE_CB:
                if not self.is_array(pf, scope, callee[1], callee[2]):
                    return
            elif kind == SITE_PCB:
                if not self.is_promise(pf, scope, callee[1]):
                    return
            else:
                b = self.eval(pf, scope, callee)
                if b is None or b[0] != V_BUILTIN:  # a local named setTimeout: not the global
                    return
            v = self.eval(pf, scope, cb)
            how: Resolution = "implicit"
            if v is None and (cb[0] == ID or cb[0] == PROP):  # setTimeout(cb), xs.forEach(opts.each): what is passed
                v = self.passed_few(pf, scope, cb)
                how = "inferred"
            for x in funcs(v):  # a builtin or external one passed is not an edge
                self.add_edge(x[1], how, False)

    def emit_listeners(self, pf: ParsedFile, scope: int, expr: tuple) -> None:
        """``bus.emit("ready")`` of node's EventEmitter calls the listeners registered for that
        name (``LISTENER_ADDERS``: ``bus.on("ready", f)``, in any file) on the same emitter: a
        receiver of the same value, an instance or object of ours (``this.on`` in a subclass's
        method and ``bus.emit`` outside), else the same name bound in the same scope of this file
        (``em``, a ``new EventEmitter()``); the names are the string literals of this scope's ``emit``
        calls of that receiver. Edges resolution ``inferred``."""
        names = {
            a[0][1] for sc, e, a in pf.call_args.get("emit", ()) if sc == scope and e == expr and a and a[0] is not None and a[0][0] == KEY
        }
        if not names:
            return
        recv = self.eval(pf, scope, expr[1])
        ours = recv is not None and recv[0] in INST_OR_OBJ
        name: str = expr[1][1] if expr[1][0] == ID and not ours else ""  # `em`: a name bound in one scope
        bound_in = self.raw_bindings(pf, scope, name)[1] if name else -1
        for adder in LISTENER_ADDERS:
            for path in self.callers_of(adder):
                cpf = self.file_read(path, (READ_CALL_SITES, adder))
                if cpf is None:
                    continue
                for sc, ce, args in cpf.call_args.get(adder, ()):
                    if ce[0] != PROP or len(args) < 2 or args[0] is None or args[0][0] != KEY or args[0][1] not in names:
                        continue
                    if ours:
                        if self.eval(cpf, sc, ce[1]) != recv:
                            continue
                    elif bound_in < 0 or cpf is not pf or ce[1] != expr[1] or self.raw_bindings(pf, sc, name)[1] != bound_in:
                        continue
                    for f in funcs(self.eval(cpf, sc, args[1])):
                        self.add_edge(f[1], "inferred", False)

    def add_edge(self, callee: str, resolution: Resolution, external: bool) -> None:
        key = (self.caller, callee)
        ent = self.edges.get(key)
        if ent is None:
            self.edges[key] = [resolution, {self.line}, external]
        else:
            ent[1].add(self.line)
            if _INDIRECT.get(resolution, 0) < _INDIRECT.get(ent[0], 0):
                ent[0] = resolution  # keep the most direct way the edge was found

    def how(self, default: Resolution = "exact") -> Resolution:
        f = self.flags
        if f & FLAG_INFERRED:
            return "inferred"
        if f & FLAG_SUPER:
            return "super"
        if f & FLAG_SELF:
            return "self"
        if f & FLAG_IMPORT:
            return "import"
        return default

    def edge_to(self, v: tuple, resolution: Resolution | None) -> None:
        k = v[0]
        if k == V_UNI:  # one of several: an edge to each
            for x in v[1]:
                self.edge_to(x, resolution)
            return
        if k == V_FUNC:
            self.add_edge(v[1], resolution or self.how(), False)
        elif k == V_IFM:  # through an interface: each implementation it may reach
            for m in self.implementations(v[1], v[2], v[3]):
                self.add_edge(m, "subclass", False)
        elif k == V_ABSM:  # an abstract method: each override below the receiver's class
            for m in self.overrides(v[1], v[2], v[3]):
                self.add_edge(m, "subclass", False)
        elif k == V_EXT or (k == V_EXTM and not v[1].startswith("<builtin>.")):
            self.add_edge(v[1], resolution if resolution in _KEPT_FOR_EXTERNAL else "external", True)
        elif k == V_EXTM:
            self.add_edge(v[1], "builtin", True)
        elif k == V_BUILTIN:
            self.add_edge(f"<builtin>.{v[1]}", "builtin", True)

    def ctor_edge(self, cls: tuple, resolution: Resolution = "constructor") -> None:
        """Edge to the constructor declared in the class or its internal base chain, if any."""
        seen: set = set()
        cur = cls
        while cur is not None and cur[0] == V_CLASS and (cur[1], cur[2]) not in seen and len(seen) < 50:
            seen.add((cur[1], cur[2]))
            _pf, info = self.class_info(cur[1], cur[2])
            if info is None:
                return
            if info.has_ctor:
                self.add_edge(f"{cur[1]}.constructor", resolution, False)
                return
            cur = self.base_of(cur[1], cur[2])

    def is_promise(self, pf: ParsedFile, scope: int, r: tuple | None, depth: int = 0) -> bool:
        """Whether expression ``r`` is known to be a promise: ``new Promise(...)``, ``fetch(...)``, ``import(...)``,
        ``Promise.resolve``/``all``/... ``(...)``, a call of an async function of ours (or one
        declared to return ``Promise<...>``, or one whose every ``return`` gives a promise, up to
        three calls deep), or ``then``/``catch``/``finally`` of one."""
        while r is not None and r[0] == CALL and r[1] is not None and r[1][0] == PROP and r[1][2] in PROMISE_CHAIN:
            r = r[1][1]
        if r is not None and r[0] == ID and depth < 3:  # const p = load(); p.then(f): bound once to one
            bl, s = self.raw_bindings(pf, scope, r[1])
            if bl is None or len(bl) != 1 or bl[0][0] != VAR or bl[0][1] is not None:
                return False
            return self.is_promise(pf, bl[0][3], bl[0][2], depth + 1)
        if r is not None and r[0] == DYNAMIC_IMPORT:  # import("./m").then((m) => ...), a module found
            return self.resolve_spec(r[1], pf.path) is not None
        if r is None or (r[0] != CALL and r[0] != NEW) or r[1] is None:
            return False
        v = self.eval(pf, scope, r[1])
        if v is None:
            return False
        if r[0] == CALL and v[0] == V_FUNC:  # a call of an async function of ours
            fpf = self.file_read(v[2], (READ_RETURNS, v[1]))
            if fpf is None:
                return False
            if v[1] in fpf.asyncs:
                return True
            ret = fpf.returns.get(v[1])  # function load() { return fetch(u) }: a promise too
            if ret is None or not ret[1] or depth >= 3:
                return False
            saved_flags, saved_emit = self.flags, self.emit
            self.emit = False
            yes = all(x is not None and self.is_promise(fpf, ret[0], x, depth + 1) for x in ret[1])
            self.flags, self.emit = saved_flags, saved_emit
            return yes
        if v[0] != V_BUILTIN:
            return False
        return v[1] == "Promise" if r[0] == NEW else v[1] in PROMISE_MAKERS

    def is_array(self, pf: ParsedFile, scope: int, r: tuple | None, method: str = "", depth: int = 0) -> bool:
        """Whether expression ``r`` is known to be an array: typed so (``T[]``, ``Array<T>``), an
        array literal, ``Object.keys``/``values``/``entries(...)``, ``Array.from``/``of(...)``,
        ``new Array(...)``, ``s.split(...)`` (of anything not ours), what ``filter``/``map``/
        ``slice``/``fill``/``flat``/... of an array returns, a variable only ever bound to one of
        these, or a parameter the callers pass arrays to. For ``method`` ``forEach``, also a
        ``new Set(...)`` / ``new Map(...)``."""
        while r is not None and r[0] == CALL and r[1] is not None and r[1][0] == PROP:
            name = r[1][2]
            if name in SAME_ELEMENTS or name == "map" or name == "flatMap" or name in ARRAY_RESULTS:
                r = r[1][1]  # items.filter(...).map(...): still an array, if items is one
                continue
            if name in ARRAY_MAKER_NAMES:
                f = self.eval(pf, scope, r[1])
                if f is not None and f[0] == V_BUILTIN and f[1] in ARRAY_MAKERS:
                    return True
            if name == "split":  # "a,b".split(","): an array, unless split is a method of ours
                recv = self.eval(pf, scope, r[1][1])
                return recv is None or recv[0] in _NOT_OURS
            break
        if r is None:
            return False
        if r[0] == ALIT:
            return True
        if r[0] == NEW:  # new Array(n), and for forEach new Set(...) / new Map(...)
            c = self.eval(pf, scope, r[1])
            return c is not None and c[0] == V_BUILTIN and (
                c[1] == "Array" or (method == "forEach" and c[1] in FOREACH_COLLECTIONS)
            )
        v = self.eval(pf, scope, r)
        if v is not None:  # (one of several arrays: a rest parameter given one literal per call)
            return all(x[0] == V_ARR or x[0] == V_ALIT for x in alternatives(v))
        if r[0] == ID and depth < 4:  # const copy = Array.from(xs): what it is bound to
            bl, s = self.raw_bindings(pf, scope, r[1])
            if bl and all(b[0] == VAR and b[1] is None and b[2] is not None for b in bl):
                return all(self.is_array(pf, b[3], b[2], method, depth + 1) for b in bl)
        if r[0] == ID or r[0] == PROP:  # a parameter: what the callers pass
            vals = alternatives(self.passed(pf, scope, r))
            return bool(vals) and all(x[0] == V_ARR or x[0] == V_ALIT for x in vals)
        return False

    def raw_bindings(self, pf: ParsedFile, scope: int, name: str) -> tuple[list | None, int]:
        """The bindings ``name`` finds from ``scope`` (recorded like ``lookup``) and their scope."""
        if pf is not self.pf:
            self.read(pf, (READ_LOOKUP, pf.scope_key[scope], name))
        s = scope
        while s >= 0:
            bl = pf.bindings[s].get(name)
            if bl is not None:
                return bl, s
            s = pf.scope_parent[s]
        return None, -1
