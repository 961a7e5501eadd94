"""What the TypeScript parser produces: ``ParsedFile`` (one per file: plain data that pickles,
no tree-sitter nodes) with its ``ClassInfo``; and cheaper constructors of the fact dataclasses
the TypeScript extractor emits in bulk (``make_symbol``, ``make_call``, ``make_import``).

The tuples a ``ParsedFile`` holds are tagged by ``mnemosyne.parse.typescript.tags``
(docs/parse-typescript.md).

Constructors: a frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__`` by
name (~2 us for a ``Symbol``, ~1.8 us for a ``Call``). With ``slots=True`` every field is a slot
descriptor, so setting the slots directly builds the same object (same class, same field values,
equal and hashing alike) in about a third of the time. The field lists are checked at import: a
change to ``mnemosyne.facts`` fails loudly here instead of building wrong objects.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from mnemosyne.facts import Call, Import, Symbol
from mnemosyne.parse.typescript.tags import (
    ID,
    IMPORT,
    IMPORT_ALL,
    IMPORT_DEFAULT,
    PARAM,
    PROP,
    PVAL,
    SITE_CALL,
    VAR,
    Binding,
    Export,
    Expr,
    Member,
    Site,
    This,
    TypeExpr,
)

_SYMBOL_FIELDS = (
    "fqn", "name", "kind", "file", "parent", "line_start", "line_end", "signature", "docstring", "body_hash", "ordinal",
    "complexity", "loc", "params", "nesting",
)
_CALL_FIELDS = ("caller", "callee", "resolution", "confidence", "lines", "external")
_IMPORT_FIELDS = ("file", "target", "target_kind", "ecosystem")
assert tuple(f.name for f in dataclasses.fields(Symbol)) == _SYMBOL_FIELDS
assert tuple(f.name for f in dataclasses.fields(Call)) == _CALL_FIELDS
assert tuple(f.name for f in dataclasses.fields(Import)) == _IMPORT_FIELDS
assert not any(hasattr(c, "__post_init__") for c in (Symbol, Call, Import))


def _setters(cls: type, names: tuple[str, ...]) -> list:
    return [cls.__dict__[n].__set__ for n in names]


_new = object.__new__


def _make_symbol_factory():
    s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14 = _setters(Symbol, _SYMBOL_FIELDS)

    def make_symbol(fqn, name, kind, file, parent, line_start, line_end, signature="", docstring="", body_hash="",
                    ordinal=0, complexity=0, loc=0, params=0, nesting=0):
        """``Symbol(...)`` with the same positional order and defaults."""
        o = _new(Symbol)
        s0(o, fqn)
        s1(o, name)
        s2(o, kind)
        s3(o, file)
        s4(o, parent)
        s5(o, line_start)
        s6(o, line_end)
        s7(o, signature)
        s8(o, docstring)
        s9(o, body_hash)
        s10(o, ordinal)
        s11(o, complexity)
        s12(o, loc)
        s13(o, params)
        s14(o, nesting)
        return o

    return make_symbol


def _make_call_factory():
    s0, s1, s2, s3, s4, s5 = _setters(Call, _CALL_FIELDS)

    def make_call(caller, callee, resolution, confidence, lines=(), external=False):
        """``Call(...)`` with the same positional order and defaults."""
        o = _new(Call)
        s0(o, caller)
        s1(o, callee)
        s2(o, resolution)
        s3(o, confidence)
        s4(o, lines)
        s5(o, external)
        return o

    return make_call


def _make_import_factory():
    s0, s1, s2, s3 = _setters(Import, _IMPORT_FIELDS)

    def make_import(file, target, target_kind, ecosystem=""):
        """``Import(...)`` with the same positional order and defaults."""
        o = _new(Import)
        s0(o, file)
        s1(o, target)
        s2(o, target_kind)
        s3(o, ecosystem)
        return o

    return make_import


make_symbol = _make_symbol_factory()
make_call = _make_call_factory()
make_import = _make_import_factory()


@dataclass
class ClassInfo:
    fqn: str
    path: str
    scope: int  # binding scope index where the heritage expression is evaluated
    extends: Expr | None = None
    has_ctor: bool = False
    # member name -> its entries (tags METHOD, GETTER, SETTER, FIELD, ITEM, DECO, MIXIN, and for an
    # interface's or abstract method MSIG: a method signature, no body, so no Function)
    members: dict[str, list[Member]] = field(default_factory=dict)
    # a class's ``implements`` types; an interface's ``extends`` types
    implements: tuple[TypeExpr, ...] = ()
    is_interface: bool = False


@dataclass
class ParsedFile:
    path: str
    language: str
    module: str
    content_hash: str
    symbols: list[Symbol] = field(default_factory=list)
    scope_parent: list[int] = field(default_factory=list)  # binding scope -> parent scope (-1 at module)
    scope_fqn: list[str] = field(default_factory=list)
    # binding scope -> a key that survives edits elsewhere in the file: (scope fqn, ordinal among
    # the scopes sharing that fqn); other files' recorded reads name scopes by it (resolve/typescript/reads.py)
    scope_key: list[tuple[str, int]] = field(default_factory=list)
    scope_this: list[This | None] = field(default_factory=list)  # THIS_CLS/SCLS/OBJ/MOD, TYPE or None
    bindings: list[dict[str, list[Binding]]] = field(default_factory=list)  # per scope: name -> bindings
    defs_at: dict[int, Binding] = field(default_factory=dict)  # start byte -> ('def', fqn, kind)
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    objects: dict[str, tuple[int, dict[str, Expr]]] = field(default_factory=dict)  # fqn -> (scope, member->expr)
    namespaces: dict[str, list[int]] = field(default_factory=dict)  # TS namespace fqn -> its binding scopes
    # function fqn -> (its scope, the values it returns or yields (YIELD), its declared return type)
    returns: dict[str, tuple[int, list[Expr | None], TypeExpr | None]] = field(default_factory=dict)
    # function fqn -> (its scope, the ``new E()`` its body throws out of it: ``throws.escaping_throws``)
    throws: dict[str, tuple[int, list[Expr]]] = field(default_factory=dict)
    exports: dict[str, Export] = field(default_factory=dict)  # name -> LOCAL | IMPORT | EXPR | DEFAT
    stars: list[str] = field(default_factory=list)  # export * from spec
    cjs_whole: bool = False  # module.exports = X / export = X: require() gives the default export
    specs: list[tuple[str, int]] = field(default_factory=list)  # every imported specifier (spec, line)
    sites: list[Site] = field(default_factory=list)  # (scope, SITE_* kind, expr, line)
    # callee's last name -> (scope, callee expr, argument exprs) of the calls passing arguments that
    # may be functions: where a function's parameters come from (``_Ctx.param_values``)
    call_args: dict[str, list[tuple[int, Expr, tuple[Expr | None, ...]]]] = field(default_factory=dict)
    # (function scope, parameter index) -> its default value (`cb = dflt`), evaluated in that scope:
    # one of the parameter's values, always (``_Ctx.param_values``)
    param_defaults: dict[tuple[int, int], Expr] = field(default_factory=dict)
    asyncs: set[str] = field(default_factory=set)  # functions returning a promise (async, or typed so)
    arrows: set[int] = field(default_factory=set)  # the scopes of arrow functions (``this_owner``)
    # the scopes of anonymous functions written as an unnamed object literal's value for a key
    # (``return { batch: (cb) => ... }``): called as ``o.batch(...)`` (``_Ctx.is_method``, ``called_params``)
    keyed: set[int] = field(default_factory=set)
    warnings: list[str] = field(default_factory=list)
    extended: dict[str, tuple[str, ...]] | None = None  # computed on first use: ``class_names_extended``
    iifes: dict[str, int] | None = None  # computed on first use: ``_Ctx.called_at_once``
    called: dict[int, tuple[int, ...]] | None = None  # computed on first use: ``called_params``
    # function expression fqn -> the sites that may give it its ``this`` (computed on first use:
    # ``_Ctx._this_argument``)
    this_sites: dict[str, list] | None = None


def this_owner(pf: ParsedFile, scope: int) -> int:
    """The scope of the function whose ``this`` code in ``scope`` sees: up through blocks (which
    share their function's fqn) and arrow functions (their ``this`` is lexical); 0 at module level."""
    parent = pf.scope_parent
    while scope > 0 and (scope in pf.arrows or pf.scope_fqn[scope] == pf.scope_fqn[parent[scope]]):
        scope = parent[scope]
    return max(scope, 0)


def extends_name(e: Expr | None) -> str | None:
    """The name an ``extends`` expression ends with (``Base``, ``ns.Base``); None for others
    (a mixin call ``extends Mixin(Base)``)."""
    if e is None:
        return None
    if e[0] == ID:
        return e[1]
    if e[0] == PROP:
        if e[2] == "prototype" and e[1] is not None and e[1][0] in (ID, PROP):
            return extends_name(e[1])  # Base.prototype: an ES5 base (`F.prototype = Object.create(...)`)
        return e[2]
    return None


def class_names_extended(pf: ParsedFile) -> dict[str, tuple[str, ...]]:
    """name -> the fqns of the file's classes (and interfaces) whose ``extends`` or ``implements``
    types end with that name: where the subclasses of a class called ``name``, or the
    implementations of an interface, may be (computed once per parse result)."""
    r = pf.extended
    if r is None:
        out: dict[str, list[str]] = {}
        module = pf.bindings[0] if pf.bindings else {}
        for fqn, info in pf.classes.items():
            for e in (info.extends, *info.implements):
                names = {extends_name(e)}
                if e is not None and e[0] == ID:  # `import { Base as B }; class D extends B`: also under Base
                    names.update(
                        b[2]
                        for b in module.get(e[1], ())
                        if b[0] == IMPORT and b[2] not in (IMPORT_ALL, IMPORT_DEFAULT)
                    )
                for n in names:
                    if n is not None and fqn not in out.get(n, ()):
                        out.setdefault(n, []).append(fqn)
        r = pf.extended = {k: tuple(v) for k, v in out.items()}
    return r


def param_slot(b: Binding) -> tuple[int, int] | None:
    """(index, function scope) of the parameter a binding is: ``('param', i, scope)``, or a typed
    parameter's variable (``cb: () => void``: ``('var', T, ('pval', i, scope), scope)``); else None."""
    if b[0] == PARAM:
        return b[1], b[2]
    if b[0] == VAR and type(b[2]) is tuple and b[2][0] == PVAL:
        return b[2][1], b[2][2]
    return None


def called_params(pf: ParsedFile) -> dict[int, tuple[int, ...]]:
    """function scope -> the indices of its parameters called by name in it or in a function
    written in it (``batch: (cb) => { ... cb() }``), for the scopes of ``ParsedFile.keyed`` (the
    only ones asked about; computed once per parse result, from the call sites in those
    functions only: vite's 1.6 MB bundle has ~30 k sites, a few dozen in keyed functions)."""
    r = pf.called
    if r is None:
        found: dict[int, set[int]] = {}
        keyed = pf.keyed
        if keyed:
            parent = pf.scope_parent
            inside = bytearray(len(parent))  # 1: a keyed function's scope or one written in it
            for s, p in enumerate(parent):  # (a scope comes after its parent)
                if s in keyed or (p >= 0 and inside[p]):
                    inside[s] = 1
            for scope, kind, expr, _line in pf.sites:
                if not inside[scope] or kind != SITE_CALL or expr[0] != ID:
                    continue
                s = scope
                while s >= 0:
                    bl = pf.bindings[s].get(expr[1])
                    if bl:
                        for b in bl:
                            slot = param_slot(b)
                            if slot is not None and slot[0] >= 0 and slot[1] in keyed:
                                found.setdefault(slot[1], set()).add(slot[0])
                        break
                    s = parent[s]
        r = pf.called = {k: tuple(sorted(v)) for k, v in found.items()}
    return r
