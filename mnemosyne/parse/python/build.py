"""``parse_python``: parse, walk, then the file-level tables (flow order kept, call and decorator sites
by name, instance attributes) and the frozen result."""

from __future__ import annotations

from typing import Any

from tree_sitter import Node

from mnemosyne.parse.metrics import measure_python
from mnemosyne.parse.python.grammar import KN, thread_parser
from mnemosyne.parse.python.model import CALLABLE_KINDS, ParsedFile, Scope
from mnemosyne.parse.python.tags import (
    LITERAL_TAGS,
    SCOPE_CLASS,
    SCOPE_FUNCTION,
    SITES_ITEM,
    SITES_LAMBDA,
    T_ATTR,
    T_CALL,
    T_KEYED,
    T_LAMBDA,
    T_NAME,
    T_PARAM,
    T_REACH,
    T_SUBSCRIPT,
)
from mnemosyne.parse.python.text import short_hash
from mnemosyne.parse.python.walk import Walker


def _first_error_line(root: Node) -> int | None:
    stack = [root]
    while stack:
        n = stack.pop()
        if KN[n.kind_id] == "ERROR" or n.is_missing:
            return n.start_point[0] + 1
        if n.has_error:
            stack.extend(reversed(n.children))
    return None


_NOSET: frozenset = frozenset()


def _freeze(scopes: list[Scope], sites: dict, decos: dict) -> None:
    """Lists -> tuples, sets -> frozensets once the file is built. A parse result lives as long as
    its file is in the tree; tuples and dicts of atomic data are untracked by the cyclic GC after
    one pass, lists and sets never are, so this keeps the collector's work (and the cost of every
    full collection in a long-running process) proportional to the number of scopes rather than
    to every expression."""
    for s in scopes:
        s.decorators = tuple(s.decorators) if s.decorators else ()  # type: ignore[assignment]
        s.bases = tuple(s.bases) if s.bases else ()  # type: ignore[assignment]
        s.params = tuple(s.params) if s.params else ()  # type: ignore[assignment]
        s.returns = tuple(s.returns) if s.returns else ()  # type: ignore[assignment]
        s.yields = tuple(s.yields) if s.yields else ()  # type: ignore[assignment]
        s.calls = tuple(s.calls) if s.calls else ()  # type: ignore[assignment]
        s.decos = tuple(s.decos) if s.decos else ()  # type: ignore[assignment]
        s.loads = tuple(s.loads) if s.loads else ()  # type: ignore[assignment]
        s.iters = tuple(s.iters) if s.iters else ()  # type: ignore[assignment]
        s.withs = tuple(s.withs) if s.withs else ()  # type: ignore[assignment]
        s.ops = tuple(s.ops) if s.ops else ()  # type: ignore[assignment]
        s.stores = tuple(s.stores) if s.stores else ()  # type: ignore[assignment]
        s.attr_stores = tuple(s.attr_stores) if s.attr_stores else ()  # type: ignore[assignment]
        s.attr_item_stores = tuple(s.attr_item_stores) if s.attr_item_stores else ()  # type: ignore[assignment]
        s.chain_stores = tuple(s.chain_stores) if s.chain_stores else ()  # type: ignore[assignment]
        s.globals = frozenset(s.globals) if s.globals else _NOSET  # type: ignore[assignment]
        s.nonlocals = frozenset(s.nonlocals) if s.nonlocals else _NOSET  # type: ignore[assignment]
        b = s.bindings
        for k in b:
            b[k] = tuple(b[k])  # type: ignore[assignment]
        if s.item_bindings:
            b = s.item_bindings
            for k in b:
                b[k] = tuple(b[k])  # type: ignore[assignment]
        if s.inst_attrs:
            b = s.inst_attrs
            for k in b:
                b[k] = tuple(b[k])  # type: ignore[assignment]
        if s.inst_items:
            b = s.inst_items
            for k in b:
                b[k] = tuple(b[k])  # type: ignore[assignment]
    for d in (sites, decos):
        for k in d:
            d[k] = tuple(d[k])

def parse_python(data: bytes, digest: str | None = None) -> ParsedFile:
    """Parse one Python file's bytes (any encoding; invalid UTF-8 is replaced in names/texts).
    ``digest``: their ``content_hash`` when the caller has it (the module's body hash is that: the
    bytes are not hashed again)."""
    tree = thread_parser().parse(data)
    root = tree.root_node
    conv = Walker(data)
    conv.run(root)
    if root.has_error:
        line = _first_error_line(root)
        conv.warnings.append(f"syntax error near line {line}; extracted what parses" if line else "syntax error; extracted what parses")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as err:
        conv.warnings.append(f"not valid UTF-8 (byte {err.start}); undecodable bytes replaced")
    conv.scopes[0].body_hash = digest if digest is not None else short_hash(data)
    scopes = conv.scopes
    if conv.fn_spans:
        for idx, m in measure_python(data, conv.fn_spans, conv.metric_nodes, scopes).items():
            scopes[idx].metrics = m
    for owner, i, sc, name, r, is_deco in conv.flows:
        # kept where it narrows something: the name bound more than once / items stored into it,
        # and nothing binds it from another scope (global / nonlocal / an inner function's store)
        if (sc, name) in conv.tainted:
            continue
        if (r[0] == T_REACH or (r[0] == T_ATTR and r[1][0] == T_REACH)) and len(scopes[sc].bindings.get(name, ())) < 2:
            continue  # (``x.m()``: the object's binding reaching it)
        if r[0] == T_SUBSCRIPT and not scopes[sc].item_bindings.get(name) and len(scopes[sc].bindings.get(name, ())) < 2:
            continue
        (scopes[owner].deco_flow if is_deco else scopes[owner].flow)[i] = r
    for sc, name, k, cname, r in conv.bind_flows:  # f = d["k"]: the item reaching the binding
        if (sc, cname) in conv.tainted or (sc, name) in conv.tainted:
            continue
        if r[0] == T_SUBSCRIPT and not scopes[sc].item_bindings.get(cname) and len(scopes[sc].bindings.get(cname, ())) < 2:
            continue
        scopes[sc].bindings[name][k] = r
    for sc, name, k, owner, op, r in conv.aug_flows:  # a += b: its operand is the a bound before
        if (sc, name) in conv.tainted:
            continue
        b = scopes[sc].bindings[name]
        b[k] = (b[k][0], r, *b[k][2:])
        if op >= 0:
            ops = scopes[owner].ops
            ops[op] = (r, *ops[op][1:])
    sites: dict[str, list[tuple[int, Any]]] = {}
    decos: dict[str, list[tuple[Any, int]]] = {}
    for s in scopes:
        for de, didx, _line in s.decos:
            head = de[1] if de[0] == T_CALL else de
            nm = head[1] if head[0] == T_NAME else head[2] if head[0] == T_ATTR else None
            if nm is not None:
                decos.setdefault(nm, []).append((de, didx))
        for e, _line, flag, sc in s.calls:
            if flag:
                continue
            fn = e[1]
            f0 = fn[0]
            if f0 == T_NAME:
                nm = fn[1]
            elif f0 == T_ATTR:
                nm = fn[2]
            elif f0 == T_LAMBDA:  # (lambda g: g())(f): the lambda's parameters get the arguments
                nm = SITES_LAMBDA
            elif f0 == T_SUBSCRIPT:  # HANDLERS[kind](x): the items' parameters get the arguments
                nm = SITES_ITEM
            else:
                continue
            lst = sites.get(nm)
            if lst is None:
                sites[nm] = [(sc, e)]
            else:
                lst.append((sc, e))
    obj_stores: dict[str, list[tuple[int, tuple[Any, Any, bool]]]] = {}
    for i, s in enumerate(scopes):
        if not (s.attr_stores or s.attr_item_stores or s.chain_stores):
            continue
        selfname: str | None = None  # the method's own first parameter, when it is that one here
        clsname: str | None = None  # its class's name
        ia: dict[str, list[tuple[int, Any]]] = {}
        ii: dict[str, list[tuple[int, Any]]] = {}
        if s.kind in CALLABLE_KINDS:
            meth = _method_of(scopes, i)
            if meth >= 0 and (meth == i or _free_in(scopes, i, meth, scopes[meth].params[0][0])):
                selfname = scopes[meth].params[0][0]
                cls = scopes[meth].parent
                clsname = scopes[cls].name
                ia = scopes[cls].inst_attrs
                ii = scopes[cls].inst_items
        for base, attr, v in s.attr_stores:
            if base == selfname:
                ia.setdefault(attr, []).append((i, v))
            elif v[0] not in LITERAL_TAGS and traced(scopes, i, (T_NAME, base), selfname, 0):
                obj_stores.setdefault(attr, []).append((i, ((T_NAME, base), v, False)))
        for base, attr, v in s.attr_item_stores:
            # self.attr[k] = v, and the class's own attribute by its name (Plugin.registry[k] = cls)
            if base == selfname or base == clsname:
                ii.setdefault(attr, []).append((i, v))
            elif (v[2] if v[0] == T_KEYED else v)[0] not in LITERAL_TAGS and traced(scopes, i, (T_NAME, base), selfname, 0):
                obj_stores.setdefault(attr, []).append((i, ((T_NAME, base), v, True)))
        for obj, attr, v, item in s.chain_stores:
            if v[0] not in LITERAL_TAGS and traced(scopes, i, obj, selfname, 0):
                obj_stores.setdefault(attr, []).append((i, (obj, v, item)))
    _freeze(scopes, sites, decos)
    for st in conv.imports:
        st.names = tuple(st.names)  # type: ignore[assignment]
    return ParsedFile(
        scopes=conv.scopes,
        imports=conv.imports,
        lambdas=conv.lambdas,
        all_names=tuple(conv.all_names) if conv.all_names is not None else None,  # type: ignore[arg-type]
        star_imports=tuple(conv.star_imports),  # type: ignore[arg-type]
        warnings=conv.warnings,
        line_count=root.end_point[0] + 1,
        sites_by_name=sites,
        decos_by_name=decos,
        obj_stores={k: tuple(v) for k, v in obj_stores.items()},
    )


# how many aliases / attribute chains deep ``traced`` follows an object's name
MAX_TRACE = 4


def traced(scopes: list[Scope], i: int, e: Any, selfname: str | None, depth: int) -> bool:
    """An object store's object (in scope ``i``) is one whose instances the resolver finds without
    following a local's flow through calls' results, loops or subscripts (``ParsedFile.obj_stores``
    keeps those only: every file reading the attribute on an instance evaluates each store's object,
    and Django's stores through such locals, ``child`` in ``Query.get_child_with_renamed_prefix``,
    tripled its resolution). An attribute chain (``self.state``, ``box.inner``) whose root is the
    method's own first parameter, a name bound at module level, a parameter of a function that is
    not a method (``def install(conn)``: what its module passes it), or a local bound only to a call
    of a name that is no parameter (``p = Pipeline()``) or to such a chain or name (``reg =
    self.registry``)."""
    while e[0] == T_ATTR:
        e = e[1]
    if e[0] != T_NAME or depth > MAX_TRACE:
        return False
    name = e[1]
    if name == selfname:
        return True
    cur = i
    first = True
    while cur > 0:  # the scope binding the name (class bodies are not enclosing scopes)
        sc = scopes[cur]
        if name in sc.globals:
            return True
        if (first or sc.kind != SCOPE_CLASS) and name in sc.bindings:
            break
        first = False
        cur = sc.parent
    if cur <= 0:
        return True  # bound at module level (or a builtin)
    sc = scopes[cur]
    for v in sc.bindings[name]:
        t = v[0]
        if t == T_PARAM:
            if sc.parent >= 0 and scopes[sc.parent].kind == SCOPE_CLASS:
                return False  # a method's parameter: its callers are everywhere
        elif t == T_CALL:  # a call of a name, not of a parameter (``cls()`` in a classmethod: any subclass)
            if v[1][0] != T_NAME or any(b[0] == T_PARAM for b in sc.bindings.get(v[1][1], ())):
                return False
        elif t == T_ATTR or t == T_NAME:
            if not traced(scopes, cur, v, selfname if cur == i else None, depth + 1):
                return False
        else:
            return False
    return True


def _method_of(scopes: list[Scope], i: int) -> int:
    """The method (a function scope of a class body, with parameters) that function scope ``i``
    is or is nested in through functions and lambdas only; -1 if none."""
    cur = i
    while cur >= 0:
        sc = scopes[cur]
        if sc.kind not in CALLABLE_KINDS or sc.parent < 0:
            return -1
        if scopes[sc.parent].kind == SCOPE_CLASS:
            return cur if sc.kind == SCOPE_FUNCTION and sc.params else -1
        cur = sc.parent
    return -1


def _free_in(scopes: list[Scope], i: int, m: int, name: str) -> bool:
    """``name`` (method ``m``'s first parameter) is the method's own in its nested scope ``i``:
    neither ``i`` nor a scope between them binds it (``self.routes[k] = fn`` in a decorator the
    method returns stores on the method's instance)."""
    cur = i
    while cur != m:
        sc = scopes[cur]
        if name in sc.bindings or any(p[0] == name for p in sc.params):
            return False
        cur = sc.parent
    return True
