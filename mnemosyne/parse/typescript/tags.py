"""The TypeScript parser's vocabulary: every tag of the tagged tuples a ``ParsedFile`` holds.

A parse result is plain tuples (so it pickles, compares and hashes cheaply); the first item of
each tuple is a tag from this module, the rest its fields. The resolver
(``mnemosyne.resolve.typescript``) reads the same string values. docs/parse-typescript.md
lists every constant (tests/extract_ts/test_parse_tags_doc.py checks it).

No two constants share a value (a value means one thing wherever it stands): the expression
``('import()', spec)`` and the binding ``('import', spec, name)``, the expression ``CALL`` and the
site kind ``SITE_CALL``, a ``DEF``'s kind ``DEF_OBJ`` and a scope's ``THIS_OBJ``, a ``SPREAD``
element and the member key ``SPREADS``, ``DEF_CLASS`` and the walk's ``ENTRY_CLASS``: each has its
own string. A constant meant as another spelling of one would be written ``ALIAS = NAME`` (there
is none today); the same test fails on two equal values otherwise.

No constructors: the visit builds these tuples once per node, and a call per tuple would cost
more than the budget of the parser allows; the tuple literals use the constants instead.
"""

from __future__ import annotations

from typing import Any, TypeAlias

# -- expressions (``Expr``): what a value is, as written; None is unknown ----------------------
ID = "id"  # ('id', name): the value of a name, looked up from the expression's scope
THIS = "this"  # ('this',): the scope's ``this`` (``ParsedFile.scope_this``)
SUPER = "super"  # ('super',): the base class, in a class's method
PROP = "prop"  # ('prop', expr, name): member ``name`` of expr (``a.b``, ``a["b"]``)
CALL = "call"  # ('call', expr) | ('call', expr, arg): what calling expr returns; ``arg``: the first
#                argument of a wrapper (``memo(C)``, ``forwardRef(fn)``, ``observer(C)``), ``Array.from(xs)``,
#                ``Object.create(p)``, ``Promise.all(xs)`` or ``Object.keys``/``values``/``entries(o)``;
#                ``('key', k)`` for ``m.get("k")`` (a Map's value under a string key); ``('alit', args)``:
#                the arguments of ``Object.assign`` / tsc's ``__assign``
NEW = "new"  # ('new', expr): an instance of class (or constructor function) expr; ('new', ('id', C), alit)
#              with C one of ``COLLECTIONS`` (``new Map(...)``): also the ALIT of the values it starts with
DEFAT = "defat"  # ('defat', start_byte): the function, class or object literal defined in this file
#                  at that byte (``ParsedFile.defs_at`` names it)
REQUIRE = "require"  # ('require', spec): ``require(spec)``, what the module exports
DYNAMIC_IMPORT = "import()"  # ('import()', spec): ``import(spec)``, the module namespace
# ('interop', spec, wildcard): ``_interopRequireDefault(require(spec))`` / ``__importDefault(...)``
# (wildcard False), ``_interopRequireWildcard`` / ``__importStar`` (True): Babel's and tsc's CommonJS
# interop, the module itself when it is flagged ``__esModule``, else an object whose ``default`` it is
INTEROP = "interop"
ELEM = "elem"  # ('elem', expr) | ('elem', expr, ('id', k)): an element of array expr (``x[i]``, ``for (x of
#                  xs)``, ``yield* xs``); with a name as index (``o[k]``), also the members k may name
AT = "at"  # ('at', expr, i): element i of expr when expr is an array literal (``pair[1]``, ``[a, b] = ...``)
FROM = "from"  # ('from', expr, start, end|None, is_slice): the elements of array expr from ``start``
#                (to ``end``): a rest element ``[x, ...rest]`` (is_slice False), ``xs.slice(1, 2)`` (True)
ALIT = "alit"  # ('alit', (expr|None, ...)): an array literal, each element at its position; the values a
#                push adds to a local array, ``xs.push(f)``: ``('alit', (('spread', ('null',)), f))`` (no position)
SPREAD = "spread"  # ('spread', expr): a spread element ``...xs`` in an ALIT or among a call's arguments
OLIT = "olit"  # ('olit', ((key, expr), ...)): an object literal passed as an argument, its members
TYPE = "type"  # ('type', texpr): a value of the declared type texpr (``x as T``, a typed field);
#                also a scope's ``this`` declared ``this: T``
NULL = "null"  # ('null',): null, undefined or a primitive literal: never a function or object of ours
EITHER = "either"  # ('either', a, b): one of two values (``c ? a : b``, ``a ?? b``, ``a || b``)
SNAP = "snap"  # ('snap', name, scope, n): the values of the first n bindings of name in scope (the
#                right side of a swap ``[p, q] = [q, p]``, read before the names change)
REACH = "reach"  # ('reach', name, scope, i): binding i of name in scope alone, the one that reaches a call
#                  in straight-line code (flow order: ``flow.FlowOrder``; the callee ``f`` of ``f = b; f()``)
FLOW = "flow"  # ('flow', scope, expr): the value an object literal's member was last assigned in
#                straight-line code before a call of it (``o.k = b; o.k()``), evaluated in scope
IN = "in"  # ('in', scope, expr): an object member assigned from another scope of the file: expr is
#            evaluated there
ALSO = "also"  # ('also', expr, expr): an object member assigned again: the known values of both
READS = "get()"  # ('get()', ('defat', start)): an object literal's ``get name() {}``: reading runs it
THEN = "then"  # ('then', expr): what promise expr resolves to (the parameter of ``p.then(v => ...)``)
SPREADS_OF = "spreads"  # ('spreads', (expr, ...)): the sources of an object literal's spreads and
#                         ``Object.assign`` calls (member ``SPREADS``)
PVAL = "pval"  # ('pval', i, scope): what the callers pass as parameter i of the function of scope
#                (a destructured parameter ``f({ onDone })``: its members)
KEY = "key"  # ('key', text): a string literal passed as an argument (a key the callee may index with,
#              ``o[k]`` with ``call(o, "start")``); as a value, a primitive (NULL)
YIELD = "yield"  # ('yield', expr|None): a value a generator yields (among ``ParsedFile.returns``)
CAUGHT = "caught"  # ('caught', (new, ...), (callee, ...)): a catch parameter: one of the instances its
#                   try block throws itself or that the functions it calls throw (``ParsedFile.throws``);
#                   ('caught', (), (callee,), True): a ``.catch`` callback's, what an async callee throws

# -- type expressions (``TypeExpr``): ID and PROP name a type; these add ----------------------
TYPE_ARRAY = "array"  # ('array', texpr|None): an array of elements of type texpr (None: unknown)
TYPEOF = "typeof"  # ('typeof', expr): ``typeof X``, the type of the value X itself
UNION = "union"  # ('union', (texpr, ...)): ``A | B``, each member type known

# -- bindings (``Binding``): what a name of a scope is bound to (``ParsedFile.bindings``) ------
DEF = "def"  # ('def', fqn, kind): a declaration of this file, kind one of DEF_* (also the values
#              of ``ParsedFile.defs_at``)
IMPORT = "import"  # ('import', spec, name): name ``name`` (IMPORT_DEFAULT, IMPORT_ALL or a name) of
#                    module spec; also an export ``export { name } from spec``
VAR = "var"  # ('var', texpr|None, expr|None, scope): a variable of declared type texpr assigned
#              expr, evaluated in scope; ('var', None, ('call', f), scope, args): ``const a = f(x)``
#              with the call's own arguments (what a is when f returns a parameter)
PARAM = "param"  # ('param', i, scope): parameter i of the function of scope (what callers pass); i < 0:
#                  a rest parameter ``...fns`` at -1 - i, the arguments from there on (an array literal per call)
UNKNOWN = "unknown"  # ('unknown',): bound to a value we do not read (also an object member's); ('unknown',
# i, scope): parameter i of a primitive type (`name: string`), whose string keys callers may pass
DECL = "decl"  # ('decl',): declared without a value
IFACE = "iface"  # ('iface', fqn): an interface or object type alias (a value of the name outranks it)
DECO = "deco"  # ('deco', scope, expr): what a decorator's call returns, evaluated in scope: a class
#                it returns replaces the decorated class; as a class member, a function it returns
#                replaces the decorated method

# the kind field of a DEF
DEF_FUNC = "func"
DEF_CLASS = "class"
DEF_OBJ = "object"  # an object literal (``ParsedFile.objects``)
DEF_NS = "ns"  # a TypeScript namespace (``ParsedFile.namespaces``)

# the name field of an IMPORT binding that is not a name
IMPORT_DEFAULT = "default"  # the default export (``import x from``)
IMPORT_ALL = "*"  # the module namespace (``import * as ns from``, ``export * as ns from``)

# -- a scope's ``this`` (``ParsedFile.scope_this``; or TYPE, or None) -------------------------
THIS_CLS = "cls"  # ('cls', fqn): an instance of class fqn
THIS_SCLS = "scls"  # ('scls', fqn): class fqn itself (a static method)
THIS_OBJ = "obj"  # ('obj', fqn): object literal fqn (its methods)
THIS_MOD = "mod"  # ('mod', module): the module's exports (``exports.f = function () {}``, CommonJS)

# -- class members (``ClassInfo.members``: name -> list of these) -------------------------------
METHOD = "method"  # ('method', fqn): a method (or a function-valued field) of that fqn
GETTER = "getter"  # ('getter', fqn): ``get name()``
SETTER = "setter"  # ('setter', fqn): ``set name(v)``
FIELD = "field"  # ('field', scope, expr|None): a field assigned expr (evaluated in scope); a typed
#                  field ``('field', scope, ('type', texpr))``; a prototype member ``F.prototype.m = ...``
MSIG = "msig"  # ('msig', texpr|None): a method signature without a body (an interface's, an
#                abstract method), its declared return type
ITEM = "item"  # ('item', scope, expr): a value pushed into the field (``this.listeners.push(cb)``)
MIXIN = "mixin"  # ('mixin', scope, expr): ``Object.assign(C.prototype, expr)``: its members are
#                  C's (under member key ``SPREADS``)

# -- exports (``ParsedFile.exports``: name -> one of these, or IMPORT, or DEFAT) ----------------
LOCAL = "local"  # ('local', name): what name is bound to in the module scope
EXPR = "expr"  # ('expr', expr, scope): a value (``module.exports.x = expr``, ``export default expr``)

# -- call sites (``ParsedFile.sites``: (scope, kind, expr, line), kind one of these) ------------
SITE_CALL = "call()"  # expr is called
SITE_NEW = "new()"  # ``new expr``
SITE_SUPER = "super()"  # ``super(...)``
SITE_JSX = "jsx"  # ``<Expr ... />``: a component rendered
SITE_DECORATOR = "decorator"  # ``@expr``: called when the class is defined
SITE_SET = "set"  # ``expr = ...``: may run a setter
SITE_GET = "get"  # a property read ``expr``: may run a getter
SITE_ITER = "iter"  # ``for (x of expr)`` / ``[...expr]``: its ``[Symbol.iterator]`` and ``next``
SITE_CB = "cb"  # expr (callee, callback): ``xs.map(f)``: the array calls f
SITE_PCB = "pcb"  # expr (callee, callback): ``p.then(f)``: the promise calls f
SITE_BCB = "bcb"  # expr (callee, callback): ``setTimeout(f)``, ``new Promise(f)``, ``Array.from(xs, f)``:
#                   the builtin calls f (only if the callee is the builtin)

# -- keys that are not a name a member or a function can have ---------------------------------
# the ``ParsedFile.call_args`` key of the calls of a function that has no name there: a function
# returned and called at once (``make()(x)``), an IIFE, a decorator's call; where an anonymous
# function's parameters come from (the resolver's ``_Ctx._param_values``)
CALLED_AT_ONCE = "()"
# the ``ParsedFile.call_args`` key prefix, + a function's name, of the calls binding it explicitly
# (``f.call(t, x)``, ``f.apply(t, xs)``, ``f.bind(t, x)``, ``Reflect.apply(f, t, xs)``): where its
# ``this`` and its parameters also come from (the resolver's ``_binder_sites``)
BOUND_CALLS = "<bound>"
# the member key of a ``[Symbol.iterator]`` / ``[Symbol.asyncIterator]`` method (named
# anonymously): what ``for...of`` and spreads call (the resolver's ``_Ctx.iterate``)
ITERATOR = "@@iterator"
# the member key under which an object literal's spreads and ``Object.assign`` sources are
# (``('spreads', (expr, ...))``), and a class's ``MIXIN`` members
SPREADS = "..."
# the member key under which an object literal's arrays kept under computed keys are (``o[k].push(f)``:
# ``('alit', (PUSHED, f))``; ``o[k]`` with k no literal is one of them)
KEYED = "[]"
# the member key under which an object literal's values assigned under computed keys are
# (``handlers[type] = fn``): ``o[k]()`` with k no literal calls them (only as a callee: never a
# value flowing on)
ANY_KEY = "[=]"
# the key of an object literal that sets its prototype (``{ __proto__: base }``, also given by
# ``Object.setPrototypeOf(o, base)``: the members it lacks are base's, ``super`` in its methods is base)
PROTO_KEY = "__proto__"

# -- the walk's scope entries (internal: never in a result) -------------------------------------
ENTRY_MODULE = "module"
ENTRY_FUNCTION = "function"
ENTRY_CLASS = "class body"
ENTRY_NS = "namespace body"
ENTRY_BLOCK = "block"  # a block scope: own bindings, the enclosing naming

# prebuilt tuples of the tags without fields (the same values, built once)
THIS_EXPR = (THIS,)
SUPER_EXPR = (SUPER,)
NULL_EXPR = (NULL,)
UNKNOWN_BINDING = (UNKNOWN,)
DECL_BINDING = (DECL,)
# the first element of the ALIT a push adds to a local array's values (``xs.push(f)``): the elements
# before it, of positions unchanged (the resolver's ``element`` skips such a literal for a position)
PUSHED = (SPREAD, NULL_EXPR)
# the first element of the ALIT of a ``new Map(...)`` (a Map is held as the literal of its values; its
# entries, ``for (const [k, v] of m)``, are ``[key, value]``: the resolver's ``AT`` reads this mark)
MAPPED = (SPREAD, (KEY, "Map"))
# the builtin collections held as the literal of their values: ``new Set([a])``, ``m.set(k, f)``, ``s.add(f)``
COLLECTIONS = frozenset({"Map", "Set", "WeakMap", "WeakSet"})

# -- type aliases: a tuple tagged as above (the tags' fields vary: see each constant) ----------
Expr: TypeAlias = tuple[Any, ...]
TypeExpr: TypeAlias = tuple[Any, ...]
Binding: TypeAlias = tuple[Any, ...]
Member: TypeAlias = tuple[Any, ...]
Export: TypeAlias = tuple[Any, ...]
This: TypeAlias = tuple[str, Any]
# (scope, SITE_*, expr or (callee, callback), line); during the visit the last field is the node
Site: TypeAlias = tuple[int, str, Any, Any]
