"""The Python parser's result: a per-file parse result made of plain, picklable data.

The result (``ParsedFile``) describes the file's scopes (module, classes, functions, lambdas)
with what the resolver needs to name and resolve calls: bindings (flow-insensitive: a name maps
to every value expression ever bound to it in the scope; where straight-line code orders a call or
a decorator after the bindings, ``Scope.flow`` / ``Scope.deco_flow`` say which reach it), call sites, attribute loads (property
getters), ``for``/``with`` sites (implicit dunder calls), return expressions, parameters,
decorators, bases and import statements. It holds no tree-sitter object, depends only on the
bytes (not on the path), so it is cached by content hash and can cross process boundaries.

The values in it are tagged tuples (``tags.Expr``): each tag, its fields and meaning are in ``tags.py``
and docs/parse-python.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mnemosyne.parse.metrics import NO_METRICS
from mnemosyne.parse.python.tags import SCOPE_FUNCTION, SCOPE_LAMBDA


@dataclass(slots=True)
class Scope:
    kind: str  # 'module' | 'class' | 'function' | 'lambda'
    name: str  # local name ('' for the module, '<lambda:sorted(key=)>' for lambdas: parse/anon.py)
    qual: str  # dotted name inside the module ('' for the module)
    parent: int  # enclosing scope index, -1 for the module
    owner: int  # the scope its calls are attributed to (class bodies -> enclosing function/module)
    line_start: int
    line_end: int
    signature: str = ""
    docstring: str = ""
    body_hash: str = ""
    is_async: bool = False
    is_generator: bool = False
    decorators: list[Any] = field(default_factory=list)  # exprs, evaluated in the parent scope
    bases: list[Any] = field(default_factory=list)  # exprs, evaluated in the parent scope
    metaclass: Any = None  # a class's ``metaclass=`` expr, evaluated in the parent scope
    params: list[tuple[str, str, Any, Any]] = field(default_factory=list)  # (name, '', '*', '**'; annotation; default)
    return_ann: Any = None  # ('ann', [...]) or None
    returns: list[Any] = field(default_factory=list)
    yields: list[Any] = field(default_factory=list)  # yield exprs; ``yield from x`` -> ('itm', x)
    bindings: dict[str, list[Any]] = field(default_factory=dict)
    item_bindings: dict[str, list[Any]] = field(default_factory=dict)  # name[...] = value
    globals: set[str] = field(default_factory=set)
    nonlocals: set[str] = field(default_factory=set)
    # (base name, attr, value): base.attr = value, setattr(base, "attr", value)
    attr_stores: list[tuple[str, str, Any]] = field(default_factory=list)
    attr_item_stores: list[tuple[str, str, Any]] = field(default_factory=list)  # base.attr[k] = value / .append(value)
    # (object expr, attr, value, item?): the same through an object that is not a name (``self.state.cb = f``,
    # ``self.state.items.append(f)``: an attribute chain, a call's result, a subscript)
    chain_stores: list[tuple[Any, str, Any, bool]] = field(default_factory=list)
    # sites attributed to this scope (the owner); the last item is the scope the site sits in
    # (a class body nested in the owner), where its names are evaluated
    calls: list[tuple[Any, int, str, int]] = field(default_factory=list)  # (('c', ...), line, '' | 'raise', scope)
    decos: list[tuple[Any, int, int]] = field(default_factory=list)  # (decorator expr, decorated scope, line)
    loads: list[tuple[Any, int, int]] = field(default_factory=list)  # attribute loads (property getters)
    iters: list[tuple[Any, int, int, bool]] = field(default_factory=list)  # for x in expr (async?)
    withs: list[tuple[Any, int, bool, int]] = field(default_factory=list)  # with expr (async?)
    # operators on a value (``a + b``, ``x[k]``, ``k in c``, ``-a``, ``a += b``): (operand expr, line,
    # dunder, fallback dunder or '', scope): the operand's class's dunder is called (implicit)
    ops: list[tuple[Any, int, str, str, int]] = field(default_factory=list)
    # attribute stores and deletions (``obj.prop = v``, ``del obj.prop``): property setters / deleters
    stores: list[tuple[Any, int, int, str]] = field(default_factory=list)  # (expr, line, scope, 'setter' | 'deleter')
    children: dict[str, int] = field(default_factory=dict)  # local name -> first scope of that name
    # classes: attributes assigned through a method's first parameter: attr -> [(method scope, value)]
    inst_attrs: dict[str, list[tuple[int, Any]]] = field(default_factory=dict)
    inst_items: dict[str, list[tuple[int, Any]]] = field(default_factory=dict)  # items stored in self.attr
    ordinal: int = 0  # a lambda's source order among the lambdas of its scope (Symbol.ordinal)
    metrics: tuple[int, int, int, int] = NO_METRICS  # functions: parse/metrics.py (complexity, loc, params, nesting)
    # flow order: call index (in ``calls``) / decorator index (in ``decos``) -> the callee expression
    # to evaluate instead, where straight-line code says which binding reaches it (``ScopeBuilder.reaching``):
    # ('R', name, first, last) the name's bindings first..last; ('RI', name, j) its j-th stored item
    flow: dict[int, Any] = field(default_factory=dict)
    deco_flow: dict[int, Any] = field(default_factory=dict)


@dataclass(slots=True)
class ImportStmt:
    scope: int
    line: int
    module: str  # dotted module ('' for `from . import x`)
    level: int  # leading dots of a relative import
    names: list[tuple[str, str]]  # (imported name, bound alias); for `import a.b` -> [('a.b', 'a')]
    is_from: bool
    star: bool = False


@dataclass(slots=True)
class ParsedFile:
    scopes: list[Scope]
    imports: list[ImportStmt]
    lambdas: dict[int, int]  # lambda ordinal (see ('L', k)) -> scope index
    all_names: list[str] | None  # literal __all__, if any
    star_imports: list[tuple[str, int]]  # (module, level) of `from m import *` at module level
    warnings: list[str]
    line_count: int
    # call sites by the last name of their callee expression: name -> [(scope, call expr)]; calls of
    # a lambda expression under SITES_LAMBDA, of a subscript under SITES_ITEM
    sites_by_name: dict[str, list[tuple[int, Any]]] = field(default_factory=dict)
    # decorator sites by the decorator's (or decorator factory's) last name: name -> [(expr, decorated scope)]
    decos_by_name: dict[str, list[tuple[Any, int]]] = field(default_factory=dict)
    # aliases: a name (str) or a lambda's scope index (int) -> the names bound to it outside class
    # bodies (``h = handler``, ``h = lambda ...``, ``a, b = f, g``, ``h = f or g``) and the
    # attributes assigned it (``obj.h = handler``): where else its call sites may be found
    aliases: dict[Any, tuple[str, ...]] | None = None  # computed on first use: ``file_aliases``
    # names of parameters called inside their function (``def run(cb): cb(x)``): a function passed
    # for one of them receives the arguments of those calls
    param_calls: tuple[str, ...] | None = None  # computed on first use: ``file_param_calls``
    # names (and lambdas' scope indices) passed as a call's argument as they are (``run(job)``)
    passed: frozenset[Any] | None = None  # computed with param_calls
    # names of parameters their function stores on an object (``self.cb = cb``,
    # ``self.views[rule] = view``, ``self.listeners.append(listener)``): other modules' sites may pass them
    stored_params: frozenset[str] | None = None  # (into an attribute the file calls or iterates) ``file_stored_params``
    # classes by the last name of each of their bases (``class D(pkg.Base[T])`` -> ``Base``): where
    # the subclasses of a class called ``Base`` may be, without evaluating anything
    subclasses: dict[str, tuple[int, ...]] | None = None  # computed on first use: ``file_subclasses``
    # the file's classes that it also calls by their name (``sites_by_name``): name -> class scopes
    called_classes: dict[str, tuple[int, ...]] | None = None  # computed on first use: ``file_called_classes``
    # the file's classes (at any depth) whose body binds a name or assigns ``self.name``: name ->
    # class scopes (sorted): the only classes whose answer for that name is not their next class's
    member_classes: dict[str, tuple[int, ...]] | None = None  # computed on first use: ``file_member_classes``
    # (scope index -> (qual, ordinal among same-qual scopes), inverse): names that survive edits
    # elsewhere in the file; computed on first use by ``mnemosyne.resolve.python.reads.scope_keys``
    scope_keys: tuple | None = None
    # ``name.attr = value`` statements: (base name, attr) -> ((scope, value), ...)
    attr_stores: dict[tuple[str, str], tuple[tuple[int, Any], ...]] | None = None  # ``file_attr_stores``
    # ``name = partial(f, a)`` / ``obj.name = partial(f, a)``: f's name (``"." + attr`` for
    # ``partial(self.m, a)``) -> ((name, positional arguments bound, scope), ...): where the later
    # calls of the partial object are, and how far they shift the arguments
    partials: dict[str, tuple[tuple[str, int, int], ...]] | None = None  # ``file_partials``
    # stores onto an attribute of an object other than a method's own first parameter (``obj.cb = f``,
    # ``self.state.items.append(g)``, ``def setter(s): s.cb = f``), whose value may be the program's (not a
    # literal): attr -> ((scope, (object expr, value, item?)), ...); the resolver gives the value to the
    # attribute of the instances the object evaluates to (``Classes.object_stores``)
    obj_stores: dict[str, tuple[tuple[int, tuple[Any, Any, bool]], ...]] = field(default_factory=dict)


def fresh_scope(
    kind: str, name: str, qual: str, parent: int, owner: int, line_start: int, line_end: int, body_hash: str,
    _new: Any = object.__new__,
) -> Scope:
    """``Scope(kind=..., ..., body_hash=...)`` with every other field at its default, without the
    dataclass __init__'s default-factory calls (a scope per def / class / lambda)."""
    s = _new(Scope)
    s.kind = kind
    s.name = name
    s.qual = qual
    s.parent = parent
    s.owner = owner
    s.line_start = line_start
    s.line_end = line_end
    s.signature = ""
    s.docstring = ""
    s.body_hash = body_hash
    s.is_async = False
    s.is_generator = False
    s.decorators = []
    s.bases = []
    s.metaclass = None
    s.params = []
    s.return_ann = None
    s.returns = []
    s.yields = []
    s.bindings = {}
    s.item_bindings = {}
    s.globals = set()
    s.nonlocals = set()
    s.attr_stores = []
    s.attr_item_stores = []
    s.chain_stores = []
    s.calls = []
    s.decos = []
    s.loads = []
    s.iters = []
    s.withs = []
    s.ops = []
    s.stores = []
    s.children = {}
    s.inst_attrs = {}
    s.inst_items = {}
    s.ordinal = 0
    s.metrics = NO_METRICS
    s.flow = {}
    s.deco_flow = {}
    return s


# scope kinds with parameters
CALLABLE_KINDS = frozenset({SCOPE_FUNCTION, SCOPE_LAMBDA})
