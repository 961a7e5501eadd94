"""Python source bytes -> a per-file parse result made of plain, picklable data.

The result (``ParsedFile``) describes the file's scopes (module, classes, functions, lambdas)
with what the resolver needs to name and resolve calls: bindings (flow-insensitive: a name maps
to every value expression ever bound to it in the scope; where straight-line code orders a call or
a decorator after the bindings, ``Scope.flow`` / ``Scope.deco_flow`` say which reach it), call sites, attribute loads (property
getters), ``for``/``with`` sites (implicit dunder calls), return expressions, parameters,
decorators, bases and import statements. It holds no tree-sitter object, depends only on the
bytes (not on the path), so it is cached by content hash and can cross process boundaries.

Expressions are encoded as small tuples, each tag named in ``tags.py`` (``T_*``):

    ('n', name)                      identifier
    ('a', base, attr)                attribute
    ('c', func, args, kwargs)        call; args: [expr | ('*', expr)], kwargs: [(name|None, expr)]
    ('s', base, key)                 subscript; key is ('str', s) / ('int', i) / ('u',), or a slice:
                                     ('sl', lo, hi) with int or None bounds, ('sl',) otherwise
    ('L', k)                         the k-th lambda met (ParsedFile.lambdas maps k -> scope index;
                                     an ordinal, not a byte offset, so moving code keeps it)
    ('t', [elts])                    tuple / list / set display; a comprehension or generator
                                     expression is ('t', [('*', ('u',)), item]) (item at unknown
                                     positions), a dict comprehension ('d', [(('u',), value)])
    ('d', [(key, value)])            dict display
    ('or', [exprs])                  any of (conditional expression, boolean operator)
    ('str', s) / ('int', i)          literals usable as subscript keys
    ('lit', type_name)               other literal
    ('u',)                           unknown

Binding values add:

    ('def', scope)                   a def / class statement
    ('p', scope, i)                  parameter i of a function/lambda scope
    ('im', module)                   ``import module`` / ``import a.b as module`` (absolute)
    ('if', module, name, level)      ``from module import name`` (level = leading dots)
    ('it', expr)                     an element of iterating ``expr`` (for / comprehension target)
    ('ix', expr, i)                  element i of unpacking ``expr``
    ('w', expr) / ('aw', expr)       ``with expr as target`` / ``async with expr as target``
    ('ann', [exprs])                 an instance of one of the annotated classes
    ('exc', [exprs])                 ``except E as e``: an instance of E
    ('itm', expr)                    the items of iterating ``expr`` (``yield from expr``)
    ('at', scope, value)             ``value`` evaluated in another scope (container items stored
                                     from an inner scope into a container bound outside)

Flow order (``Scope.flow`` / ``Scope.deco_flow`` only, evaluated in the use's scope):

    ('R', name, first, last)         the name's bindings first..last in its scope's list
    ('RI', name, j)                  item j of the name's ``item_bindings``
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import threading
from dataclasses import dataclass, field
from typing import Any

import tree_sitter_python as _tsp
from tree_sitter import Language, Node, Parser

from mnemosyne.parse.anon import Namer, call_context, callee, clean, keyword_context, literal
from mnemosyne.parse.metrics import NO_METRICS, PY_METRIC_KINDS, measure_python
from mnemosyne.parse.python.tags import (
    ACT_METRIC,
    ACT_PAREN,
    ACT_SKIP,
    ACT_SPECIAL,
    ACT_STRING,
    ACT_WALK,
    CALL_PLAIN,
    CALL_RAISE,
    CTR_ITEMS,
    CTR_MAPPING,
    CTR_POSITIONS,
    CTX_CALLEE,
    CTX_DEL,
    CTX_LOAD,
    CTX_STORE,
    EK_ARGUMENT_LIST,
    EK_ATTRIBUTE,
    EK_CALL,
    EK_COMMENT,
    EK_DICT_SPLAT,
    EK_IDENTIFIER,
    EK_KEYWORD,
    EK_LIST_SPLAT,
    EK_OTHER,
    EK_STRING,
    PARAM_DSTAR,
    PARAM_PLAIN,
    PARAM_STAR,
    SCOPE_CLASS,
    SCOPE_FUNCTION,
    SCOPE_LAMBDA,
    SCOPE_MODULE,
    STORE_DELETER,
    STORE_SETTER,
    STR_LIT,
    T_ANN,
    T_AT,
    T_ATTR,
    T_AWITH,
    T_CALL,
    T_CLASS_OF,
    T_CONTAINER,
    T_DEF,
    T_DICT,
    T_EXC,
    T_IMPORT,
    T_IMPORT_FROM,
    T_INDEX,
    T_INT,
    T_ITEMS,
    T_ITER,
    T_LAMBDA,
    T_LIT,
    T_NAME,
    T_NARROWED,
    T_OR,
    T_PARAM,
    T_REACH,
    T_REACH_ITEM,
    T_SLICE,
    T_STAR,
    T_STR,
    T_SUBSCRIPT,
    T_TUPLE,
    T_TYPE_ALIAS,
    T_WITH,
    UNKNOWN,
)

LANGUAGE = Language(_tsp.language())
_LOCAL = threading.local()  # a Parser is not shareable between threads: one per thread

MAX_EXPR_DEPTH = 80  # deeper expressions are recorded as unknown (no recursion-limit crash)
MAX_FLOW_DEPTH = 24  # flow order: a use / binding nested deeper in its scope is not ordered

# statements and expressions testing a value's truth: ``bool(v)``, i.e. its class's ``__bool__``,
# else ``__len__`` (``_Walker.truth``)
_TRUTH_TESTS = frozenset({
    "if_statement", "elif_clause", "while_statement", "if_clause", "assert_statement", "conditional_expression",
    "not_operator", "boolean_operator",
})
_SPECIAL = frozenset({
    "ERROR", "assignment", "attribute", "augmented_assignment", "call", "class_definition", "decorated_definition",
    "except_clause", "for_in_clause", "for_statement", "function_definition", "future_import_statement",
    "global_statement", "import_from_statement", "import_statement", "keyword_argument", "lambda",
    "named_expression", "nonlocal_statement", "raise_statement", "return_statement", "string", "with_item", "yield",
    "binary_operator", "comparison_operator", "unary_operator", "subscript", "delete_statement", "interpolation",
    "type_alias_statement",
}) | _TRUTH_TESTS
# operators calling a dunder of their operand's class (``_Walker.operator``): binary (the left
# operand's ``__op__``; ``__rop__`` of the right one when the left is a literal), augmented
# (``__iop__``, else ``__op__``), comparisons, unary
_BINARY_DUNDERS = {
    b"+": "add", b"-": "sub", b"*": "mul", b"/": "truediv", b"//": "floordiv", b"%": "mod", b"**": "pow",
    b"@": "matmul", b"&": "and", b"|": "or", b"^": "xor", b"<<": "lshift", b">>": "rshift",
}
_COMPARE_DUNDERS = {b"==": "__eq__", b"!=": "__ne__", b"<": "__lt__", b"<=": "__le__", b">": "__gt__", b">=": "__ge__"}
_UNARY_DUNDERS = {b"-": "__neg__", b"+": "__pos__", b"~": "__invert__"}
# operand expressions that may be an instance of ours (a literal, display or lambda never is)
_OPERAND_TAGS = frozenset({T_NAME, T_ATTR, T_CALL, T_SUBSCRIPT})
_NUMBER_KINDS = frozenset({"integer", "float"})
# tags of literal keys (subscripts, stored items); of a name or attribute; of what makes an alias
_KEY_TAGS = frozenset({T_STR, T_INT})
_NAME_ATTR_TAGS = frozenset({T_NAME, T_ATTR})
_ALIAS_TAGS = frozenset({T_NAME, T_LAMBDA, T_OR})
_CALLABLE_KINDS = frozenset({SCOPE_FUNCTION, SCOPE_LAMBDA})  # scopes with parameters
_SPLAT_OR_KEYWORD = frozenset({EK_KEYWORD, EK_LIST_SPLAT, EK_DICT_SPLAT})
# operand node kinds worth converting besides names, attributes and calls (``_EK``)
_OPERAND_KINDS = frozenset(LANGUAGE.id_for_node_kind(n, True) for n in ("subscript", "parenthesized_expression", "await"))
# generic annotations of containers whose items (a mapping's values) are of the type argument
_ITEM_GENERICS = frozenset({
    "list", "List", "Sequence", "MutableSequence", "Iterable", "Iterator", "Collection", "set", "Set", "frozenset",
    "FrozenSet", "AbstractSet", "MutableSet", "tuple", "Tuple", "deque", "Deque", "Generator", "AsyncGenerator",
    "AsyncIterator", "AsyncIterable", "Reversible", "ValuesView",
})
_MAPPING_GENERICS = frozenset({"dict", "Dict", "Mapping", "MutableMapping", "OrderedDict", "DefaultDict", "defaultdict"})
_MUTATORS = frozenset({"append", "add", "appendleft", "insert", "setdefault", "extend", "extendleft", "update"})
# `X = Dict[str, Node]`: an assignment of a subscript with one of these heads is a type alias
_ALIAS_HEADS = _ITEM_GENERICS | _MAPPING_GENERICS | {"Optional", "Union", "Type", "Annotated"}
# node kind id -> type name (ids are much cheaper to read than Node.type; 65535 is ERROR)
_KN: list[str] = [""] * 65536
for _i in range(LANGUAGE.node_kind_count):
    _KN[_i] = LANGUAGE.node_kind_for_id(_i) or ""
_KN[65535] = "ERROR"
_MARK_ID = 65534  # not a grammar kind: the walk's narrowing marks (``_Mark``)
_KN[_MARK_ID] = "<narrow>"
_FID = {n: LANGUAGE.field_id_for_name(n) for n in (
    "function", "arguments", "object", "attribute", "name", "value", "left", "right", "type", "body",
    "alias", "definition", "parameters", "return_type", "superclasses", "module_name", "key", "subscript",
    "operator", "operators", "argument", "condition", "consequence", "alternative",
)}
F_FUNCTION, F_ARGUMENTS, F_OBJECT, F_ATTRIBUTE = _FID["function"], _FID["arguments"], _FID["object"], _FID["attribute"]
F_VALUE, F_LEFT, F_RIGHT, F_NAME, F_TYPE = _FID["value"], _FID["left"], _FID["right"], _FID["name"], _FID["type"]
F_BODY, F_ALIAS, F_DEFINITION, F_PARAMETERS = _FID["body"], _FID["alias"], _FID["definition"], _FID["parameters"]
F_RETURN_TYPE, F_SUPERCLASSES, F_MODULE_NAME = _FID["return_type"], _FID["superclasses"], _FID["module_name"]
F_KEY, F_SUBSCRIPT = _FID["key"], _FID["subscript"]
F_OPERATOR, F_OPERATORS, F_ARGUMENT = _FID["operator"], _FID["operators"], _FID["argument"]
F_CONDITION = _FID["condition"]
F_CONSEQUENCE, F_ALTERNATIVE = _FID["consequence"], _FID["alternative"]
# node types the walk never needs to enter
_SKIP = frozenset({
    "identifier", "comment", "string_content", "string_start", "string_end", "escape_sequence", "integer", "float",
    "true", "false", "none", "pass_statement", "break_statement", "continue_statement", "ellipsis",
    "import_prefix", "dotted_name", "keyword_separator", "positional_separator", "wildcard_import",
    "future_import_statement", "type_conversion", "line_continuation",
})

# node kind id -> what the walk does with it (an ``ACT_*`` code)
_ACT: list[int] = [ACT_WALK] * 65536
for _i, _t in enumerate(_KN):
    if _t in _SKIP:
        _ACT[_i] = ACT_SKIP
    elif _t == "string":
        _ACT[_i] = ACT_STRING
    elif _t in ("parenthesized_expression", "pattern_list", "tuple_pattern", "list_pattern"):
        _ACT[_i] = ACT_PAREN  # (targets: `x[0], self.y = ...` stores, as the assignment's own target does)
    elif _t in _SPECIAL:
        _ACT[_i] = ACT_SPECIAL
_ACT[_MARK_ID] = ACT_SPECIAL
# metrics (parse/metrics.py): node kind id -> METRIC_DECISION / METRIC_BLOCK bits; a kind the walk
# otherwise only walks through gets ACT_METRIC (recorded, then walked like ACT_WALK)
_MK: list[int] = [0] * 65536
for _i, _t in enumerate(_KN):
    _MK[_i] = PY_METRIC_KINDS.get(_t, 0)
    if _MK[_i] and _ACT[_i] == ACT_WALK:
        _ACT[_i] = ACT_METRIC
# flow order (``_Conv.straight``): code under one of these may run zero or several times, so a
# binding there is not known to reach what follows; scope nodes end the walk up
_BRANCHY = frozenset({
    "for_statement", "while_statement", "if_statement", "elif_clause", "else_clause", "try_statement",
    "except_clause", "except_group_clause", "finally_clause", "match_statement", "case_clause",
    "conditional_expression", "boolean_operator", "list_comprehension", "set_comprehension",
    "dictionary_comprehension", "generator_expression", "for_in_clause", "if_clause", "ERROR",
})
_LOOPS = frozenset({
    "for_statement", "while_statement", "list_comprehension", "set_comprehension", "dictionary_comprehension",
    "generator_expression", "for_in_clause", "ERROR",
})
_SCOPE_NODES = frozenset({"module", "function_definition", "class_definition", "lambda"})


_ATTR_BUILTINS = frozenset({b"getattr", b"hasattr"})  # calls whose second argument names an attribute
# node kind id -> what expr() needs to tell apart, an ``EK_*`` code (cheaper than comparing names)
_EK_OF = {
    "identifier": EK_IDENTIFIER, "attribute": EK_ATTRIBUTE, "call": EK_CALL, "keyword_argument": EK_KEYWORD,
    "list_splat": EK_LIST_SPLAT, "dictionary_splat": EK_DICT_SPLAT, "string": EK_STRING, "comment": EK_COMMENT,
    "argument_list": EK_ARGUMENT_LIST,
}
_EK: list[int] = [EK_OTHER] * 65536
for _i, _t in enumerate(_KN):
    _EK[_i] = _EK_OF.get(_t, EK_OTHER)


# the node types _Conv._other makes something of (any other is unknown)
_OTHER_KINDS = frozenset({
    "parenthesized_expression", "await", "subscript", "lambda", "tuple", "list", "set", "expression_list",
    "pattern_list", "tuple_pattern", "list_pattern", "dictionary", "conditional_expression", "boolean_operator",
    "named_expression", "string", "integer", "float", "true", "false", "none", "concatenated_string",
    "list_comprehension", "set_comprehension", "generator_expression", "dictionary_comprehension",
})


# _ACT with the anonymous node types (tokens) skipped, for lists of all the children of a node
_ACTW: list[int] = list(_ACT)
for _i in range(LANGUAGE.node_kind_count):
    if not LANGUAGE.node_kind_is_named(_i):
        _ACTW[_i] = ACT_SKIP


def _parser() -> Parser:
    p = getattr(_LOCAL, "parser", None)
    if p is None:
        p = _LOCAL.parser = Parser(LANGUAGE)
    return p


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
    attr_stores: list[tuple[str, str, Any]] = field(default_factory=list)  # (base name, attr, value)
    attr_item_stores: list[tuple[str, str, Any]] = field(default_factory=list)  # base.attr[k] = value / .append(value)
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
    # to evaluate instead, where straight-line code says which binding reaches it (``_Conv.reaching``):
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
    # call sites by the last name of their callee expression: name -> [(scope, call expr)]
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
    # classes by the last name of each of their bases (``class D(pkg.Base[T])`` -> ``Base``): where
    # the subclasses of a class called ``Base`` may be, without evaluating anything
    subclasses: dict[str, tuple[int, ...]] | None = None  # computed on first use: ``file_subclasses``
    # (scope index -> (qual, ordinal among same-qual scopes), inverse): names that survive edits
    # elsewhere in the file; computed on first use by ``mnemosyne.resolve.py_reads.scope_keys``
    scope_keys: tuple | None = None
    # ``name.attr = value`` statements: (base name, attr) -> ((scope, value), ...)
    attr_stores: dict[tuple[str, str], tuple[tuple[int, Any], ...]] | None = None  # ``file_attr_stores``


def _new_scope(
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


def _text(node: Node) -> str:
    return node.text.decode("utf-8", "replace")  # type: ignore[union-attr]


def _stext(src: bytes, node: Node) -> str:
    """``_text(node)`` from the source bytes (slicing them is cheaper than ``Node.text``)."""
    return src[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _norm(s: str) -> str:
    return " ".join(s.split())


def _hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


# expressions a lambda's context is looked for through (``f(a or (lambda: 0))``)
_CONTEXT_THROUGH = frozenset({
    "parenthesized_expression", "conditional_expression", "boolean_operator", "list", "tuple", "set",
    "expression_list", "await", "list_splat", "dictionary_splat",
})


def _lambda_context(node: Node, src: bytes) -> str:
    """What a lambda is written for, as its name says it (mnemosyne/parse/anon.py)."""
    child = node
    p = node.parent
    while p is not None and p.type in _CONTEXT_THROUGH:
        child, p = p, p.parent
    if p is None:
        return ""
    t = p.type
    if t == "argument_list" and p.parent is not None and p.parent.type == "call":
        return call_context(_py_callee(p.parent, src), _py_first_literal(p, src))
    if t == "keyword_argument" and p.child_by_field_name("value") == child:
        kw = p.child_by_field_name("name")
        call = p.parent.parent if p.parent is not None else None
        fn = _py_callee(call, src) if call is not None and call.type == "call" else None
        return keyword_context(fn, _stext(src, kw)) if kw is not None else ""
    if t == "assignment" and p.child_by_field_name("right") == child:
        return _py_target(p.child_by_field_name("left"), src)
    if t == "pair" and p.child_by_field_name("value") == child:
        return _py_target(p.child_by_field_name("key"), src)
    if t in ("default_parameter", "typed_default_parameter") and p.child_by_field_name("value") == child:
        nm = p.child_by_field_name("name")
        return clean(_stext(src, nm)) if nm is not None else ""
    if t == "return_statement" or (t == "lambda" and p.child_by_field_name("body") == child):
        return "return"
    return ""


def _py_callee(call: Node, src: bytes) -> str:
    """The called expression of a ``call`` node as a name shows it (``app:get``)."""
    parts: list[str] = []
    fn = call.child_by_field_name("function")
    suffix = ""
    while fn is not None and len(parts) < 8:
        t = fn.type
        if t == "identifier":
            parts.append(fn.text.decode("utf-8", "replace") + suffix)  # type: ignore[union-attr]
            break
        if t == "attribute":
            a = fn.child_by_field_name("attribute")
            if a is None:
                break
            parts.append(a.text.decode("utf-8", "replace") + suffix)  # type: ignore[union-attr]
            suffix = ""
            fn = fn.child_by_field_name("object")
        elif t == "call":
            suffix = "()"
            fn = fn.child_by_field_name("function")
        elif t == "subscript":  # handlers["save"](...): a member by a literal key
            key = fn.child_by_field_name("subscript")
            v = _string_value(key, src) if key is not None and key.type == "string" else None
            if v is None:
                break
            parts.append(v + suffix)
            suffix = ""
            fn = fn.child_by_field_name("value")
        else:
            break
    return callee(parts[::-1])


def _py_first_literal(args: Node, src: bytes) -> str | None:
    """The first plain string literal among a call's positional arguments, as a name shows it."""
    for a in args.named_children:
        if a.type == "string":
            v = _string_value(a, src)
            if v is not None:
                return literal(v)
    return None


def _py_target(node: Node | None, src: bytes) -> str:
    """What an assignment target / dict key names: ``f``, ``self.cb`` -> ``cb``, ``'k'``."""
    if node is None:
        return ""
    t = node.type
    if t == "identifier":
        return _stext(src, node)
    if t == "attribute":
        a = node.child_by_field_name("attribute")
        return _stext(src, a) if a is not None else ""
    if t == "string":
        v = _string_value(node, src)
        return literal(v) if v is not None else ""
    if t == "subscript":
        for k in node.children_by_field_name("subscript"):
            if k.type == "string":
                v = _string_value(k, src)
                return literal(v) if v is not None else ""
    return ""


def _string_value(node: Node, src: bytes) -> str | None:
    """The value of a plain (non f-) string literal node, or None."""
    return _literal_string(src[node.start_byte : node.end_byte].decode("utf-8", "replace"))


def _literal_string(raw: str) -> str | None:
    q = raw[:1]
    prefix = ""
    if q != '"' and q != "'":
        i = 0
        while i < 3 and i < len(raw) and raw[i] not in "\"'":
            i += 1
        prefix = raw[:i].lower()
        if prefix not in ("r", "b", "u", "br", "rb"):
            return None if "f" in prefix else _literal_eval_string(raw)
        raw = raw[i:]
        q = raw[:1]
        if q != '"' and q != "'":
            return None
    if raw[-1:] != q:
        return None
    if raw[:3] == q * 3 and len(raw) >= 6 and raw[-3:] == q * 3:
        body = raw[3:-3]
    elif len(raw) >= 2 and raw[:3] != q * 3:
        body = raw[1:-1]
    else:
        return None
    if "b" in prefix and not body.isascii():
        return None  # not a valid bytes literal
    if "\\" not in body or "r" in prefix:
        if "\\" in body and body.endswith("\\"):
            return _literal_eval_string(prefix + raw)
        return body
    if "b" in prefix or not body.isascii():
        return _literal_eval_string(prefix + raw)
    try:
        # the escapes of a str literal; other characters pass through unchanged
        return body.encode("ascii").decode("unicode_escape")
    except UnicodeDecodeError:
        return _literal_eval_string(prefix + raw)


def _literal_eval_string(raw: str) -> str | None:
    try:
        v = ast.literal_eval(raw)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    return v if isinstance(v, str) else None


def _docstring(body: Node | None, src: bytes) -> str:
    if body is None:
        return ""
    first = body.named_child(0) if body.named_child_count else None
    while first is not None and _KN[first.kind_id] == "comment":
        first = first.next_named_sibling
    if first is None or _KN[first.kind_id] != "expression_statement" or first.named_child_count != 1:
        return ""
    s = first.named_child(0)
    if s is None or _KN[s.kind_id] not in ("string", "concatenated_string"):
        return ""
    raw = src[s.start_byte : s.end_byte].decode("utf-8", "replace")
    v = _literal_string(raw)
    if v is None:
        v = raw.strip("rRbBuUfF").strip("\"'")
    if "\n" not in v and "\t" not in v:
        return v.lstrip()  # what inspect.cleandoc makes of a single line without tabs
    return inspect.cleandoc(v)


# statements and expressions whose test can narrow a name by ``isinstance`` (``_Conv.narrowing``)
_NARROWING = frozenset({"if_statement", "elif_clause", "assert_statement", "boolean_operator", "conditional_expression"})
_EXITS = frozenset({"return_statement", "raise_statement", "continue_statement", "break_statement"})
_NOT_NARROWED = frozenset({b"self", b"cls"})


class _Mark:
    """An entry of the walk's stack that starts (``names``: raw name -> its narrowed expression)
    or ends (``names`` None) a region where ``isinstance`` narrowed names."""

    __slots__ = ("names",)
    kind_id = _MARK_ID

    def __init__(self, names: dict[Any, Any] | None) -> None:
        self.names = names


_END_MARK = _Mark(None)


class _Conv:
    """Builds scopes while walking the tree (iteratively)."""

    def __init__(self, src: bytes) -> None:
        self.src = src
        self.scopes: list[Scope] = []
        self.fn_spans: list[tuple[int, int, int]] = []  # (start byte, end byte, scope) of each def: metrics
        self.metric_nodes: list[tuple[int, int, int, int]] = []  # (kind bits, start, end, scope): metrics
        self.imports: list[ImportStmt] = []
        self.lambdas: dict[int, int] = {}
        self.lambda_ord: dict[int, int] = {}  # start byte -> ordinal, in order of first encounter
        self.lambda_namers: dict[int, Namer] = {}  # scope -> the names of its lambdas
        self.all_names: list[str] | None = None
        self.star_imports: list[tuple[str, int]] = []
        self.warnings: list[str] = []
        self.memo: dict[int, Any] = {}
        self.names: dict[bytes, tuple[str, str]] = {}
        # call node id -> (function node, the nodes the walk enters below its argument list):
        # read while converting the call, so the walk does not list the arguments again
        self.call_kids: dict[int, tuple[Node | None, list[Node]]] = {}
        self.truth_seen: set[int] = set()  # boolean operators whose operands a condition recorded
        # names an enclosing ``isinstance`` test narrowed (raw name -> (T_NARROWED, name, class expr)), and
        # the maps of the regions around this one
        self.narrow: dict[Any, Any] = {}
        self.narrow_saved: list[dict[Any, Any]] = []
        # flow order: the special node being walked (where a binding happens), and per (scope,
        # name) the bindings known to reach the code that follows (``bind``): [first, last,
        # statement node id, end byte, {literal key: stored item index | None}, unknown store?],
        # None once a binding in a loop / branch makes it unknown
        self.at: Node | None = None
        self.reach: dict[tuple[int, str], list | None] = {}
        self.tainted: set[tuple[int, str]] = set()  # bound from another scope (global / nonlocal / inner store)
        self.flows: list[tuple[int, int, int, str, Any, bool]] = []  # (owner, index, scope, name, repl, deco?)

    # ---------------------------------------------------------------- expressions
    def expr(self, node: Node | None, depth: int = 0) -> Any:
        if node is None or depth > MAX_EXPR_DEPTH:
            return UNKNOWN
        k = _EK[node.kind_id]
        if k == EK_IDENTIFIER:
            raw = self.src[node.start_byte : node.end_byte]
            r = self.names.get(raw)
            if r is None:  # one shared tuple per distinct name of the file
                r = self.names[raw] = (T_NAME, raw.decode("utf-8", "replace"))
            return r
        if k == EK_ATTRIBUTE or k == EK_CALL:  # memoised (the walk meets them again)
            nid = node.id
            r = self.memo.get(nid)
            if r is None:
                r = self._attribute(node, depth) if k == EK_ATTRIBUTE else self._call(node, depth)
                self.memo[nid] = r
            return r
        return self._other(node, _KN[node.kind_id], depth)

    def _name(self, node: Node) -> Any:
        """expr() of an identifier node."""
        raw = self.src[node.start_byte : node.end_byte]
        r = self.names.get(raw)
        if r is None:
            r = self.names[raw] = (T_NAME, raw.decode("utf-8", "replace"))
        return r

    def _attribute(self, node: Node, depth: int) -> Any:
        obj = node.child_by_field_id(F_OBJECT)
        attr = node.child_by_field_id(F_ATTRIBUTE)
        if attr is None:
            return UNKNOWN
        src = self.src
        if obj is not None and depth < MAX_EXPR_DEPTH and _EK[obj.kind_id] == EK_IDENTIFIER:
            raw = src[obj.start_byte : obj.end_byte]
            o = self.names.get(raw)
            if o is None:
                o = self.names[raw] = (T_NAME, raw.decode("utf-8", "replace"))
            if self.narrow:  # x.m() where isinstance(x, C) holds: (T_NARROWED, x, C)
                o = self.narrow.get(raw, o)
        else:
            o = self.expr(obj, depth + 1)
            if self.narrow and _EK[obj.kind_id] == EK_ATTRIBUTE:  # self.node.m() where isinstance(self.node, C) holds
                o = self.narrow.get(o, o)
        return (T_ATTR, o, src[attr.start_byte : attr.end_byte].decode("utf-8", "replace"))

    def _call(self, node: Node, depth: int) -> Any:
        fn = node.child_by_field_id(F_FUNCTION)
        argl = node.child_by_field_id(F_ARGUMENTS)
        args: list[Any] = []
        kwargs: list[Any] = []
        # what the walk enters below the argument list: its children the walk does not skip, a
        # keyword argument replaced by its value (the walk enters nothing else of it)
        kids: list[Node] = []
        # getattr(obj, "name"): the name is kept, like a first literal argument
        named_attr = fn is not None and _EK[fn.kind_id] == EK_IDENTIFIER and self.src[fn.start_byte : fn.end_byte] in _ATTR_BUILTINS
        if argl is not None and _EK[argl.kind_id] == EK_ARGUMENT_LIST:
            d1 = depth + 1
            ek = _EK
            act = _ACT
            for a in argl.named_children:
                at = ek[a.kind_id]
                if at == EK_IDENTIFIER and d1 <= MAX_EXPR_DEPTH:
                    args.append(self._name(a))
                    continue
                if at == EK_KEYWORD:
                    nm = a.child_by_field_id(F_NAME)
                    v = a.child_by_field_id(F_VALUE)
                    kwargs.append((
                        self.src[nm.start_byte : nm.end_byte].decode("utf-8", "replace") if nm else None,
                        self.expr(v, d1),
                    ))
                    if v is not None and act[v.kind_id]:
                        kids.append(v)
                    continue
                if at == EK_LIST_SPLAT:
                    args.append((T_STAR, self.expr(a.named_child(0), d1)))
                elif at == EK_DICT_SPLAT:
                    kwargs.append((None, self.expr(a.named_child(0), d1)))
                elif at == EK_STRING:
                    # a literal first argument is kept (mapping.get("key")); others need no value
                    sv = (
                        _string_value(a, self.src)
                        if (not args or (named_attr and len(args) == 1)) and a.named_child_count <= 3
                        else None
                    )
                    args.append((T_STR, sv) if sv is not None else STR_LIT)
                    pre = self.src[a.start_byte : a.start_byte + 3]
                    if pre[:1] in (b'"', b"'") or (b"f" not in pre.lower()):
                        continue  # the walk enters f-strings only
                elif at != EK_COMMENT:
                    args.append(self.expr(a, d1))
                if act[a.kind_id]:
                    kids.append(a)
        elif argl is not None:  # generator expression argument
            args.append(UNKNOWN)
            kids.append(argl)
        self.call_kids[node.id] = (fn, kids)
        return (T_CALL, self.expr(fn, depth + 1), tuple(args), tuple(kwargs))

    def _other(self, node: Node, t: str, depth: int) -> Any:
        if t == "string":
            # the resolver only reads a string's value as a key: subscripts, dict displays and a
            # call's first argument (mapping.get("key")) compute it themselves
            return STR_LIT
        if t not in _OTHER_KINDS:
            return UNKNOWN  # (binary / comparison operators, ...)
        if t in ("float", "true", "false", "none", "concatenated_string"):
            return (T_LIT, t)
        if t == "parenthesized_expression" or t == "await":
            return self.expr(node.named_child(0) if node.named_child_count else None, depth + 1)
        if t == "subscript":
            base = self.expr(node.child_by_field_id(F_VALUE), depth + 1)
            subs = node.children_by_field_id(F_SUBSCRIPT)
            key: Any = UNKNOWN
            if len(subs) == 1:
                k = subs[0]
                if _KN[k.kind_id] == "string":
                    sv = _string_value(k, self.src)
                    key = (T_STR, sv) if sv is not None else UNKNOWN
                elif _KN[k.kind_id] == "integer":
                    try:
                        key = (T_INT, int(_stext(self.src, k), 0))
                    except ValueError:
                        key = UNKNOWN
                elif _KN[k.kind_id] == "unary_operator" and _stext(self.src, k).replace(" ", "").lstrip("-").isdigit():
                    key = (T_INT, int(_stext(self.src, k).replace(" ", "")))
                elif _KN[k.kind_id] == "slice":
                    key = _slice_key(k)
                elif _EK[k.kind_id] == EK_IDENTIFIER:  # a name: the resolver may find it is a constant
                    key = self._name(k)
            return (T_SUBSCRIPT, base, key)
        if t == "lambda":
            return (T_LAMBDA, self.lambda_ord.setdefault(node.start_byte, len(self.lambda_ord)))
        if t in ("tuple", "list", "set", "expression_list", "pattern_list", "tuple_pattern", "list_pattern"):
            return (T_TUPLE, tuple([
                (T_STAR, self.expr(c.named_child(0) if c.named_child_count else None, depth + 1))
                if _EK[c.kind_id] == EK_LIST_SPLAT else self.expr(c, depth + 1)  # [*xs, f]: the items of xs
                for c in node.named_children if _KN[c.kind_id] != "comment"
            ]))
        if t == "dictionary":
            items = []
            for c in node.named_children:
                if _KN[c.kind_id] == "pair":
                    k = c.child_by_field_id(F_KEY)
                    kv: Any = UNKNOWN
                    if k is not None and _KN[k.kind_id] == "string":
                        sv = _string_value(k, self.src)
                        kv = (T_STR, sv) if sv is not None else UNKNOWN
                    elif k is not None and _KN[k.kind_id] == "integer":
                        try:
                            kv = (T_INT, int(_stext(self.src, k), 0))
                        except ValueError:
                            kv = UNKNOWN
                    items.append((kv, self.expr(c.child_by_field_id(F_VALUE), depth + 1)))
            return (T_DICT, tuple(items))
        if t == "conditional_expression":
            ch = node.named_children
            if len(ch) >= 3:  # (a narrowed where the condition is an isinstance test)
                return (T_OR, (self.narrowed_by(ch[1], self.expr, ch[0], depth + 1), self.expr(ch[2], depth + 1)))
            return UNKNOWN
        if t == "boolean_operator":
            left = node.child_by_field_id(F_LEFT)
            right = node.child_by_field_id(F_RIGHT)
            if self.is_and(node):
                return (T_OR, (self.expr(left, depth + 1), self.narrowed_by(left, self.expr, right, depth + 1)))
            return (T_OR, (self.expr(left, depth + 1), self.expr(right, depth + 1)))
        if t == "named_expression":
            return self.expr(node.child_by_field_id(F_VALUE), depth + 1)
        if t == "string":
            # the resolver only reads a string's value as a key: subscripts, dict displays and a
            # call's first argument (mapping.get("key")) compute it themselves
            return STR_LIT
        if t == "integer":
            try:
                return (T_INT, int(_stext(self.src, node), 0))
            except ValueError:
                return (T_LIT, "int")
        if t in ("float", "true", "false", "none", "concatenated_string"):
            return (T_LIT, t)
        if t in ("list_comprehension", "set_comprehension", "generator_expression"):
            # its items, at unknown positions (comprehension variables bind in this scope)
            body = node.child_by_field_id(F_BODY)
            return (T_TUPLE, ((T_STAR, UNKNOWN), self.expr(body, depth + 1))) if body is not None else (T_LIT, t)
        if t == "dictionary_comprehension":
            body = node.child_by_field_id(F_BODY)
            if body is not None and _KN[body.kind_id] == "pair":
                return (T_DICT, ((UNKNOWN, self.expr(body.child_by_field_id(F_VALUE), depth + 1)),))
            return (T_LIT, t)
        return UNKNOWN

    def ann(self, node: Node | None, depth: int = 0) -> list[Any]:
        """Annotation -> the class expressions it may denote (Optional/Union/| unpacked)."""
        if node is None or depth > 20:
            return []
        t = _KN[node.kind_id]
        if t == "type":
            return self.ann(node.named_child(0) if node.named_child_count else None, depth + 1)
        if t in ("identifier", "attribute"):
            return [self.expr(node)]
        if t == "string":
            sv = _string_value(node, self.src)
            if sv is None:
                return []
            if "[" not in sv:
                return [e for e in (_dotted_expr(p.strip()) for p in sv.split("|")) if e is not None]
            # "Optional[Foo]", "list[Bar]": the string parsed as an annotation of its own
            sub = sv.strip().encode()
            expr = _parser().parse(sub).root_node.named_child(0)
            if expr is None or _KN[expr.kind_id] != "expression_statement" or not expr.named_child_count:
                return []
            return _Conv(sub).ann(expr.named_child(0), depth + 1)
        if t == "binary_operator":
            return self.ann(node.child_by_field_id(F_LEFT), depth + 1) + self.ann(node.child_by_field_id(F_RIGHT), depth + 1)
        if t == "generic_type" or t == "subscript":
            head = node.named_child(0) if t == "generic_type" else node.child_by_field_id(F_VALUE)
            hname = _stext(self.src, head).rsplit(".", 1)[-1] if head is not None else ""
            if hname in _ITEM_GENERICS or hname in _MAPPING_GENERICS:
                # a container of instances: ('ctr', 't' | 'd', item annotations); a mapping's
                # items are its values, an iterator's / generator's what it yields
                if t == "generic_type":
                    tp = node.named_child(1) if node.named_child_count > 1 else None
                    args = tp.named_children if tp is not None else []
                else:
                    args = node.children_by_field_id(F_SUBSCRIPT)
                if hname in _MAPPING_GENERICS:
                    args = args[1:2]
                elif hname not in ("tuple", "Tuple"):
                    args = args[:1]
                elif args and b"..." not in (_stext(self.src, a).encode() for a in args):
                    # tuple[A, B]: item i is an A / a B ('p': one annotation per position), so
                    # `a, b = pair()` and `pair()[1]` pick theirs
                    return [(T_CONTAINER, CTR_POSITIONS, tuple(tuple(self.ann(a, depth + 1)) for a in args))]
                items = tuple(e for a in args for e in self.ann(a, depth + 1))
                return [(T_CONTAINER, CTR_MAPPING if hname in _MAPPING_GENERICS else CTR_ITEMS, items)] if items else []
            if hname in ("Optional", "Union", "Annotated", "Final", "ClassVar", "Type", "type"):
                out: list[Any] = []
                if t == "generic_type":
                    tp = node.named_child(1) if node.named_child_count > 1 else None
                    args = tp.named_children if tp is not None else []
                else:
                    args = node.children_by_field_id(F_SUBSCRIPT)
                if hname == "Annotated" or hname in ("Final", "ClassVar"):
                    args = args[:1]
                for a in args:
                    out.extend(self.ann(a, depth + 1))
                if hname in ("Type", "type"):
                    return [(T_CLASS_OF, e) for e in out]
                return out
            return []
        return []

    # ---------------------------------------------------------------- scopes
    def new_scope(self, kind: str, name: str, parent: int, node: Node, start_node: Node) -> int:
        p = self.scopes[parent] if parent >= 0 else None
        qual = name if p is None or p.qual == "" else f"{p.qual}.{name}"
        idx = len(self.scopes)
        owner = idx if kind != SCOPE_CLASS else (p.owner if p is not None else 0)
        s = _new_scope(
            kind, name, qual, parent, owner, start_node.start_point[0] + 1, node.end_point[0] + 1,
            _hash(self.src[start_node.start_byte : node.end_byte]),
        )
        self.scopes.append(s)
        if kind == SCOPE_FUNCTION:
            self.fn_spans.append((start_node.start_byte, node.end_byte, idx))
        if p is not None and name not in p.children:
            p.children[name] = idx
        return idx

    def bind(self, scope: int, name: str, value: Any) -> None:
        s = self.scopes[scope]
        target = scope
        if name in s.globals:
            s = self.scopes[0]
            target = 0
        elif name in s.nonlocals:
            p = s.parent
            while p > 0:
                ps = self.scopes[p]
                if ps.kind in _CALLABLE_KINDS and name in ps.bindings:
                    break
                p = ps.parent
            target = max(p, 0)
            s = self.scopes[target]
        b = s.bindings.get(name)
        if b is None:
            b = s.bindings[name] = [value]
        else:
            b.append(value)
        if target != scope:
            self.tainted.add((target, name))
            return
        at = self.at
        key = (scope, name)
        if at is not None and self.straight(at):
            st = self.reach.get(key)
            if st is not None and st[2] == at.id:  # `x: C = v`: one statement, several bindings
                st[1] = len(b) - 1
            else:
                self.reach[key] = [len(b) - 1, len(b) - 1, at.id, at.end_byte, {}, False]
        else:
            self.reach[key] = None

    @staticmethod
    def straight(node: Node, kinds: frozenset[str] = _BRANCHY) -> bool:
        """``node`` runs once, in order, whenever its scope runs (no loop or branch between them)."""
        kn = _KN
        if kn[node.kind_id] in kinds:
            return False
        p = node.parent
        for _ in range(MAX_FLOW_DEPTH):  # (deeper: not known, and no quadratic walk up deep trees)
            if p is None:
                return True
            k = kn[p.kind_id]
            if k in _SCOPE_NODES:
                return True
            if k in kinds:
                return False
            p = p.parent
        return False

    def reaching(self, sc: int, fn: Any, use: Node) -> Any:
        """Flow order: the callee ``fn`` (a name, or a name indexed by a literal) used at ``use``
        in scope ``sc`` as the expression of the binding (or stored item) that reaches it, when
        straight-line code of that scope bound it last and the use is in no loop; else None."""
        if fn[0] == T_NAME:
            name, key = fn[1], None
        elif fn[0] == T_SUBSCRIPT and fn[1][0] == T_NAME and fn[2][0] in _KEY_TAGS:
            name, key = fn[1][1], fn[2]
        else:
            return None
        st = self.reach.get((sc, name))
        if st is None or use.start_byte < st[3] or not self.straight(use, _LOOPS):
            return None
        if key is None:
            return (T_REACH, name, st[0], st[1])
        if st[5]:
            return None
        j = st[4].get(key, -1)
        if j is None:
            return None
        if j >= 0:
            return (T_REACH_ITEM, name, j)
        return (T_SUBSCRIPT, (T_REACH, name, st[0], st[1]), key)

    def stored(self, target: int, sc: int, name: str, key: Any, j: int) -> None:
        """Flow order: item ``j`` of ``name`` (bound in ``target``) stored from scope ``sc`` under
        ``key`` (a literal, or unknown)."""
        if target != sc:
            self.tainted.add((target, name))
            return
        st = self.reach.get((sc, name))
        if st is None:
            return
        at = self.at
        if key[0] not in _KEY_TAGS:
            st[5] = True
        elif at is not None and self.straight(at):
            st[4][key] = j
        else:
            st[4][key] = None

    def bind_target(self, scope: int, target: Node | None, value: Any, depth: int = 0) -> None:
        if target is None or depth > MAX_EXPR_DEPTH:
            return
        t = _KN[target.kind_id]
        if t == "identifier":
            self.bind(scope, self.src[target.start_byte : target.end_byte].decode("utf-8", "replace"), value)
        elif t in ("pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "expression_list"):
            elts = [c for c in target.named_children if _KN[c.kind_id] != "comment"]
            n = len(elts)
            star = next((i for i, c in enumerate(elts) if _KN[c.kind_id] in ("list_splat_pattern", "list_splat")), -1)
            vals = value[1] if value[0] == T_TUPLE and not any(v[0] == T_STAR for v in value[1]) else None
            if vals is not None and (len(vals) != n if star < 0 else len(vals) < n - 1):
                vals = None  # a count that does not match: positions unknown
            for i, c in enumerate(elts):
                if i == star:  # `a, *rest, z = ...`: rest is a list of the middle items
                    inner = c.named_child(0) if c.named_child_count else None
                    mid = (T_TUPLE, vals[i : len(vals) - (n - 1 - i)]) if vals is not None else (T_TUPLE, ((T_STAR, value),))
                    self.bind_target(scope, inner, mid, depth + 1)
                    continue
                k = i if star < 0 or i < star else i - n  # after a starred target: from the end
                self.bind_target(scope, c, vals[k] if vals is not None else (T_INDEX, value, k), depth + 1)
        elif t in ("parenthesized_expression", "as_pattern_target"):
            self.bind_target(scope, target.named_child(0) if target.named_child_count else None, value, depth + 1)
        elif t == "attribute":
            obj = target.child_by_field_id(F_OBJECT)
            attr = target.child_by_field_id(F_ATTRIBUTE)
            if obj is not None and attr is not None and _KN[obj.kind_id] == "identifier":
                self.scopes[scope].attr_stores.append((_stext(self.src, obj), _stext(self.src, attr), value))
        elif t == "subscript":
            base = target.child_by_field_id(F_VALUE)
            if base is not None and _KN[base.kind_id] == "subscript":
                # d["a"]["b"] = v: d holds a container holding v
                self.bind_target(scope, base, (T_TUPLE, (value,)), depth + 1)
            elif base is not None and _KN[base.kind_id] == "identifier":
                self.add_item(scope, _stext(self.src, base), value, self.expr(target)[2])
            elif base is not None and _KN[base.kind_id] == "attribute":
                obj = base.child_by_field_id(F_OBJECT)
                attr = base.child_by_field_id(F_ATTRIBUTE)
                if obj is not None and attr is not None and _KN[obj.kind_id] == "identifier":
                    self.scopes[scope].attr_item_stores.append((_stext(self.src, obj), _stext(self.src, attr), value))

    def add_item(self, sc: int, name: str, value: Any, key: Any = UNKNOWN) -> None:
        """``name[k] = value`` / ``name.append(value)``: an item of the container bound to name,
        recorded in the scope that binds the name (so every reader finds it)."""
        target = self.item_scope(sc, name)
        if target != sc:
            value = (T_AT, sc, value)  # evaluated where it was stored
        items = self.scopes[target].item_bindings.setdefault(name, [])
        items.append(value)
        self.stored(target, sc, name, key, len(items) - 1)

    def item_scope(self, sc: int, name: str) -> int:
        """The scope whose items of ``name`` a store in ``sc`` adds to (the one binding it)."""
        scopes = self.scopes
        target = 0
        if name not in scopes[sc].globals:
            cur = sc
            first = True
            while cur > 0:
                s = scopes[cur]
                if (first or s.kind != SCOPE_CLASS) and name in s.bindings:
                    target = cur
                    break
                first = False
                cur = s.parent
        return target

    def container_mutation(self, sc: int, e: Any) -> None:
        """``x.append(v)``, ``x.add(v)``, ``x.insert(i, v)``, ``x.extend(vs)``, ``x.setdefault(k, v)``
        on a name or on ``obj.attr``: v becomes an item of that container."""
        fn, args = e[1], e[2]
        meth = fn[2]
        if meth in ("append", "add", "appendleft") and len(args) == 1:
            v = args[0]
        elif meth in ("insert", "setdefault") and len(args) == 2:
            v = args[1]
        elif meth in ("extend", "extendleft") and len(args) == 1:
            v = (T_ITER, args[0])
        elif meth == "update":  # d.update({"k": v}) / d.update(k=v): items under their keys
            items = list(args[0][1]) if len(args) == 1 and args[0][0] == T_DICT else []
            items += [((T_STR, k), v) for k, v in e[3] if k is not None]
            if len(args) > 1 or (args and args[0][0] != T_DICT) or any(k is None for k, _ in e[3]):
                items.append((UNKNOWN, UNKNOWN))  # what else it stores is not known
            base = fn[1]
            for k, v in items:
                if base[0] == T_NAME:
                    if v is UNKNOWN:
                        self.stored(self.item_scope(sc, base[1]), sc, base[1], UNKNOWN, -1)
                    else:
                        self.add_item(sc, base[1], v, k)
                elif base[0] == T_ATTR and base[1][0] == T_NAME and v is not UNKNOWN:
                    self.scopes[sc].attr_item_stores.append((base[1][1], base[2], v))
            return
        else:
            return
        if v[0] == T_STAR:
            return
        base = fn[1]
        if base[0] == T_NAME:
            self.add_item(sc, base[1], v)
        elif base[0] == T_ATTR and base[1][0] == T_NAME:
            self.scopes[sc].attr_item_stores.append((base[1][1], base[2], v))

    # ---------------------------------------------------------------- walk
    def run(self, root: Node) -> None:
        self.scopes.append(
            Scope(kind=SCOPE_MODULE, name="", qual="", parent=-1, owner=0, line_start=1, line_end=root.end_point[0] + 1)
        )
        self.scopes[0].docstring = _docstring(root, self.src)
        # the codes (tags.py) as locals: as cheap to read as literals in the loop below
        LOAD, CALLEE, STORE, DEL = CTX_LOAD, CTX_CALLEE, CTX_STORE, CTX_DEL
        WALK, STRING, PAREN, SPECIAL, METRIC = ACT_WALK, ACT_STRING, ACT_PAREN, ACT_SPECIAL, ACT_METRIC
        # stack of (node, scope, context: a CTX_* code)
        stack: list[tuple[Node, int, int]] = [(root, 0, LOAD)]
        push = stack.append
        pop = stack.pop
        kn = _KN
        src = self.src
        act = _ACT
        actw = _ACTW
        memo = self.memo
        call_kids = self.call_kids
        scopes = self.scopes
        ek = _EK
        mk = _MK
        mnodes = self.metric_nodes
        reach = self.reach
        while stack:
            node, sc, ctx = pop()
            kid = node.kind_id
            a = act[kid]
            if a == WALK:  # most nodes: just walk their children (Node.children with the anonymous
                # ones filtered out costs less than Node.named_children)
                for c in reversed(node.children):
                    if actw[c.kind_id]:
                        push((c, sc, LOAD))
                continue
            if mk[kid]:  # a decision point or a block: recorded for the metrics (parse/metrics.py)
                mnodes.append((mk[kid], node.start_byte, node.end_byte, sc))
                if a == METRIC:  # nothing else to do with it: walked like WALK
                    for c in reversed(node.children):
                        if actw[c.kind_id]:
                            push((c, sc, LOAD))
                    continue
            if a != SPECIAL:
                if a == STRING:
                    # only f-strings hold code (interpolations); a plain literal is skipped whole
                    pre = src[node.start_byte : node.start_byte + 3]
                    if pre[:1] in (b'"', b"'") or (b"f" not in pre.lower()):
                        continue
                    for c in reversed(node.named_children):
                        if act[c.kind_id]:
                            push((c, sc, LOAD))
                elif a == PAREN:
                    for c in reversed(node.named_children):
                        if act[c.kind_id]:
                            push((c, sc, ctx))
                continue
            t = kn[kid]
            self.at = node
            if t == "call":
                nid = node.id
                e = memo.get(nid)  # self.expr(node)
                if e is None:
                    e = memo[nid] = self._call(node, 0)
                owner_calls = scopes[scopes[sc].owner].calls
                f0 = e[1][0]
                if (f0 == T_NAME or f0 == T_SUBSCRIPT) and reach:
                    r = self.reaching(sc, e[1], node)
                    if r is not None:
                        self.flows.append((scopes[sc].owner, len(owner_calls), sc, e[1][1] if f0 == T_NAME else e[1][1][1], r, False))
                owner_calls.append((e, node.start_point[0] + 1, CALL_PLAIN, sc))
                if e[1][0] == T_ATTR and e[1][2] in _MUTATORS:
                    self.container_mutation(sc, e)
                ck = call_kids.pop(nid, None)
                if ck is None:  # (not met twice, but should it be)
                    argl = node.child_by_field_id(F_ARGUMENTS)
                    if argl is not None:
                        push((argl, sc, LOAD))
                    fn = node.child_by_field_id(F_FUNCTION)
                else:
                    fn, kids = ck
                    for c in reversed(kids):
                        push((c, sc, LOAD))
                if fn is not None:
                    fk = fn.kind_id
                    if ek[fk] == EK_ATTRIBUTE:  # an attribute callee (CALLEE: no load): the walk enters its object
                        obj = fn.child_by_field_id(F_OBJECT)
                        if obj is not None and act[obj.kind_id]:
                            push((obj, sc, LOAD))
                    elif act[fk]:
                        push((fn, sc, CALLEE))
                continue
            if t == "attribute":
                obj = node.child_by_field_id(F_OBJECT)
                if ctx == LOAD:
                    e = memo.get(node.id)  # self.expr(node)
                    if e is None:
                        e = self.expr(node)
                    scopes[scopes[sc].owner].loads.append((e, node.start_point[0] + 1, sc))
                elif ctx == STORE or ctx == DEL:  # obj.prop = v / del obj.prop: a property's setter / deleter
                    e = self.expr(node)
                    scopes[scopes[sc].owner].stores.append((e, node.start_point[0] + 1, sc, STORE_SETTER if ctx == STORE else STORE_DELETER))
                if obj is not None and act[obj.kind_id]:
                    push((obj, sc, LOAD))
                continue
            if t == "subscript":  # x[k]: __getitem__ (__setitem__ as a target, __delitem__ in del)
                v = node.child_by_field_id(F_VALUE)
                if v is not None:
                    self.operand(sc, v, node, "__getitem__" if ctx < STORE else "__setitem__" if ctx == STORE else "__delitem__")
                for c in reversed(node.children):
                    if actw[c.kind_id]:
                        push((c, sc, LOAD))
                continue
            if t == "binary_operator" or t == "comparison_operator" or t == "unary_operator":
                self.operator(node, t, sc)
                for c in reversed(node.children):
                    if actw[c.kind_id]:
                        push((c, sc, LOAD))
                continue
            if t == "assignment":
                self.assignment(node, sc, push)
                continue
            if t in _TRUTH_TESTS:
                self.truth_test(node, t, sc)
                if t in _NARROWING and self.narrowing(node, t, sc, stack):
                    continue
                for c in reversed(node.children):
                    if actw[c.kind_id]:
                        push((c, sc, LOAD))
                continue
            if t == "return_statement":
                if node.named_child_count:
                    v = node.named_child(0)
                    scopes[sc].returns.append(self.expr(v))
                    if act[v.kind_id]:
                        push((v, sc, LOAD))
                continue
            if t == "keyword_argument":
                v = node.child_by_field_id(F_VALUE)
                if v is not None and act[v.kind_id]:
                    push((v, sc, LOAD))
                continue
            if t == "augmented_assignment":
                left = node.child_by_field_id(F_LEFT)
                right = node.child_by_field_id(F_RIGHT)
                if sc == 0 and left is not None and _KN[left.kind_id] == "identifier" and _stext(self.src, left) == "__all__":
                    self.collect_all(right, extend=True)
                op = node.child_by_field_id(F_OPERATOR)
                name = _BINARY_DUNDERS.get(self.src[op.start_byte : op.end_byte - 1]) if op is not None else None
                if name is not None and left is not None:  # a += b: __iadd__, else __add__
                    self.operand(sc, left, node, f"__i{name}__", f"__{name}__")
                if right is not None:
                    push((right, sc, LOAD))
                if left is not None:
                    push((left, sc, LOAD))
                continue
            if t == "decorated_definition":
                self.definition(node, sc, push)
                continue
            if t == "function_definition" or t == "class_definition":
                self.definition(node, sc, push)
                continue
            if t == "lambda":
                self.lambda_(node, sc, push)
                continue
            if t == "for_statement" or t == "for_in_clause":
                left = node.child_by_field_id(F_LEFT)
                rights = node.children_by_field_id(F_RIGHT)
                right = rights[0] if rights else None
                it = self.expr(right)
                first = node.child(0)
                is_async = first is not None and _KN[first.kind_id] == "async"
                self.scopes[self.scopes[sc].owner].iters.append((it, node.start_point[0] + 1, sc, is_async))
                self.bind_target(sc, left, (T_ITER, it))
                kids = [c for c in node.named_children if c != left]
                for c in reversed(kids):
                    push((c, sc, LOAD))
                if left is not None:
                    push((left, sc, STORE))
                continue
            if t == "with_item":
                v = node.child_by_field_id(F_VALUE)
                if v is not None and _KN[v.kind_id] == "as_pattern":
                    val = v.named_child(0)
                    alias = v.child_by_field_id(F_ALIAS)
                    e = self.expr(val)
                    is_async = self.add_with(sc, node, e)
                    self.bind_target(sc, alias, (T_AWITH if is_async else T_WITH, e))
                    if val is not None:
                        push((val, sc, LOAD))
                    if alias is not None:
                        push((alias, sc, STORE))
                elif v is not None:
                    self.add_with(sc, node, self.expr(v))
                    push((v, sc, LOAD))
                continue
            if t == "except_clause":
                v = node.child_by_field_id(F_VALUE)
                if v is None:
                    # older grammar shapes: first named child
                    v = node.named_child(0) if node.named_child_count and node.named_child(0).type != "block" else None
                if v is not None and _KN[v.kind_id] == "as_pattern":
                    etype = v.named_child(0)
                    alias = v.child_by_field_id(F_ALIAS)
                    classes = self.expr(etype)
                    cl = classes[1] if classes[0] == T_TUPLE else [classes]
                    self.bind_target(sc, alias, (T_EXC, tuple(cl)))
                for c in reversed(node.named_children):
                    push((c, sc, LOAD))
                continue
            if t == "raise_statement":
                ex = node.named_child(0) if node.named_child_count else None
                if ex is not None and _KN[ex.kind_id] in ("identifier", "attribute"):
                    # `raise E` instantiates E
                    s = self.scopes[sc]
                    self.scopes[s.owner].calls.append(((T_CALL, self.expr(ex), (), ()), node.start_point[0] + 1, CALL_RAISE, sc))
                for c in reversed(node.named_children):
                    push((c, sc, CALLEE if ex is not None and c == ex and _KN[ex.kind_id] in ("identifier", "attribute") else LOAD))
                continue
            if t == "yield":
                s = self.scopes[sc]
                if s.kind in _CALLABLE_KINDS:
                    s.is_generator = True
                    val = [c for c in node.named_children if _KN[c.kind_id] != "comment"]
                    if val:
                        e = self.expr(val[-1])
                        s.yields.append((T_ITEMS, e) if any(_KN[c.kind_id] == "from" for c in node.children) else e)
                for c in reversed(node.named_children):
                    push((c, sc, LOAD))
                continue
            if t == "global_statement" or t == "nonlocal_statement":
                s = self.scopes[sc]
                names = {_stext(self.src, c) for c in node.named_children if _KN[c.kind_id] == "identifier"}
                (s.globals if t == "global_statement" else s.nonlocals).update(names)
                continue
            if t == "import_statement":
                self.import_(node, sc)
                continue
            if t == "import_from_statement":
                self.import_from(node, sc)
                continue
            if t == "future_import_statement":
                continue
            if t == "named_expression":
                nm = node.child_by_field_id(F_NAME)
                val = node.child_by_field_id(F_VALUE)
                # PEP 572: a walrus in a comprehension binds in the enclosing function: same here
                self.bind_target(sc, nm, self.expr(val))
                if val is not None:
                    push((val, sc, LOAD))
                continue
            if t == "interpolation":  # f"{x}": format(x) (object's calls str(x)); f"{x!r}": repr(x)
                kids = node.named_children
                if kids:
                    conv = next((c for c in kids if _KN[c.kind_id] == "type_conversion"), None)
                    if conv is None:
                        self.operand(sc, kids[0], node, "__format__", "__str__")
                    else:
                        self.operand(sc, kids[0], node, "__str__" if self.src[conv.end_byte - 1 : conv.end_byte] == b"s" else "__repr__")
                    for c in reversed(kids):
                        if act[c.kind_id]:
                            push((c, sc, LOAD))
                continue
            if t == "delete_statement":  # del x[k]
                for c in reversed(node.named_children):
                    if act[c.kind_id]:
                        push((c, sc, DEL))
                continue
            if t == "type_alias_statement":  # type X = ...: what annotations naming X mean
                left = node.child_by_field_id(F_LEFT)
                if left is not None and left.named_child_count and _EK[left.named_child(0).kind_id] == EK_IDENTIFIER:
                    alias = self.ann(node.child_by_field_id(F_RIGHT))
                    if alias:
                        self.bind(sc, _stext(self.src, left.named_child(0)), (T_TYPE_ALIAS, tuple(alias)))
                # walked as before: the grammar also reads `type(obj).name = f()` as this statement
                for c in reversed(node.children):
                    if actw[c.kind_id]:
                        push((c, sc, LOAD))
                continue
            if t == "<narrow>":  # a narrowing region starts or ends (``narrowing``)
                if node.names is None:
                    self.narrow = self.narrow_saved.pop()
                else:
                    self.narrow_saved.append(self.narrow)
                    self.narrow = {**self.narrow, **node.names}
                continue
            if t == "ERROR":
                pass  # walk inside: extract what parses
            for c in reversed(node.named_children):
                if act[c.kind_id]:
                    push((c, sc, LOAD))

    def add_with(self, sc: int, item: Node, e: Any) -> bool:
        clause = item.parent
        stmt = clause.parent if clause is not None else None
        is_async = stmt is not None and stmt.child_count > 0 and stmt.child(0).type == "async"  # type: ignore[union-attr]
        self.scopes[self.scopes[sc].owner].withs.append((e, item.start_point[0] + 1, is_async, sc))
        return is_async

    def collect_all(self, right: Node | None, extend: bool) -> None:
        if right is None:
            return
        names: list[str] = []
        stack = [right]
        ok = True
        while stack:
            n = stack.pop()
            if _KN[n.kind_id] in ("list", "tuple"):
                for c in n.named_children:
                    if _KN[c.kind_id] == "string":
                        sv = _string_value(c, self.src)
                        if sv is not None:
                            names.append(sv)
                    elif _KN[c.kind_id] != "comment":
                        ok = False
            elif _KN[n.kind_id] == "binary_operator":
                for f in ("right", "left"):
                    c = n.child_by_field_name(f)
                    if c is not None:
                        stack.append(c)
            else:
                ok = False
        if not ok and not names:
            return
        if extend and self.all_names is not None:
            self.all_names.extend(names)
        else:
            self.all_names = names if not extend else names

    def operand(self, sc: int, v: Node, at: Node, dunder: str, fallback: str = "") -> None:
        """An operator site: ``dunder`` of what ``v`` evaluates to is called (``Scope.ops``)."""
        if not EK_IDENTIFIER <= _EK[v.kind_id] <= EK_CALL and v.kind_id not in _OPERAND_KINDS:  # (name, attribute, call)
            return  # a literal, display, comprehension, lambda, ...: never an instance of ours
        e = self.expr(v)
        if e[0] in _OPERAND_TAGS:
            self.scopes[self.scopes[sc].owner].ops.append((e, at.start_point[0] + 1, dunder, fallback, sc))

    def is_and(self, node: Node) -> bool:
        """``node`` (a boolean operator) is an ``and``."""
        op = node.child_by_field_id(F_OPERATOR)
        return op is not None and self.src[op.start_byte : op.end_byte] == b"and"

    def narrowed_by(self, cond: Node | None, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` with the names an ``isinstance`` in ``cond`` narrows: for what is converted
        (and memoised) where ``cond`` holds before the walk meets it (``a if cond else b``, the
        right operand of ``and``)."""
        names = self.narrowed_names(cond) if cond is not None else None
        if not names:
            return fn(*args)
        saved = self.narrow
        self.narrow = {**saved, **names}
        try:
            return fn(*args)
        finally:
            self.narrow = saved

    def narrowed_names(self, cond: Node | None, single: bool = False) -> dict[Any, Any]:
        """What ``cond`` narrows when true: ``isinstance(x, C)``, also in an ``and`` chain (not
        with ``single``) -> {raw x: (T_NARROWED, x, C's expression)}, not ``self``/``cls``; for an
        attribute ``isinstance(self.node, C)``, keyed by the attribute's expression."""
        out: dict[Any, Any] = {}
        todo = [cond]
        while todo:
            v = todo.pop()
            if v is None:
                continue
            k = _KN[v.kind_id]
            if k == "parenthesized_expression":
                todo.append(v.named_child(0) if v.named_child_count == 1 else None)
            elif k == "boolean_operator" and not single:
                if self.is_and(v):
                    todo += (v.child_by_field_id(F_RIGHT), v.child_by_field_id(F_LEFT))
            elif k == "call":
                fn = v.child_by_field_id(F_FUNCTION)
                argl = v.child_by_field_id(F_ARGUMENTS)
                if fn is None or argl is None or self.src[fn.start_byte : fn.end_byte] != b"isinstance":
                    continue
                args = [a for a in argl.named_children if _EK[a.kind_id] != EK_COMMENT]
                if len(args) != 2 or _EK[args[1].kind_id] in _SPLAT_OR_KEYWORD:
                    continue
                ek = _EK[args[0].kind_id]
                if ek == EK_IDENTIFIER:  # a name: keyed by its text
                    key: Any = self.src[args[0].start_byte : args[0].end_byte]
                    if key in _NOT_NARROWED:
                        continue
                    target = self._name(args[0])
                elif ek == EK_ATTRIBUTE:  # an attribute (self.node): keyed by its expression
                    key = target = self.expr(args[0], 1)
                    if target is UNKNOWN:
                        continue
                else:
                    continue
                if key not in out:
                    out[key] = (T_NARROWED, target, self.expr(args[1], 1))
        return out

    def narrowing(self, node: Node, t: str, sc: int, stack: list) -> bool:
        """Where ``node``'s test narrows names by ``isinstance``, pushes its children with marks
        around the region it narrows (True): an ``if``/``elif`` body, the right operand of
        ``and``, the value of ``a if isinstance(...) else b``, and the statements after ``assert
        isinstance(...)`` or after ``if not isinstance(...):`` whose body returns, raises,
        continues or breaks. False: nothing narrowed, the caller pushes the children."""
        push = stack.append
        if t == "if_statement" or t == "elif_clause":
            cond = node.child_by_field_id(F_CONDITION)
            names = self.narrowed_names(cond)
            cons = node.child_by_field_id(F_CONSEQUENCE)
            if names and cons is not None:
                for c in reversed(node.children):
                    if c.id == cons.id:
                        push((_END_MARK, sc, CTX_LOAD))
                        push((c, sc, CTX_LOAD))
                        push((_Mark(names), sc, CTX_LOAD))
                    elif _ACTW[c.kind_id]:
                        push((c, sc, CTX_LOAD))
                return True
            if (
                t == "if_statement" and cond is not None and _KN[cond.kind_id] == "not_operator"
                and cons is not None and cons.named_child_count
                and _KN[cons.named_child(cons.named_child_count - 1).kind_id] in _EXITS
                and node.child_by_field_id(F_ALTERNATIVE) is None
            ):
                names = self.narrowed_names(cond.child_by_field_id(F_ARGUMENT), single=True)
                return bool(names) and self.narrow_rest(node, names, sc, stack)
            return False
        if t == "assert_statement":
            names = self.narrowed_names(node.named_child(0) if node.named_child_count else None)
            return bool(names) and self.narrow_rest(node, names, sc, stack)
        if t == "boolean_operator":
            left = node.child_by_field_id(F_LEFT)
            right = node.child_by_field_id(F_RIGHT)
            if left is None or right is None or not self.is_and(node):
                return False
            names = self.narrowed_names(left)
            if not names:
                return False
            push((_END_MARK, sc, CTX_LOAD))
            push((right, sc, CTX_LOAD))
            push((_Mark(names), sc, CTX_LOAD))
            push((left, sc, CTX_LOAD))
            return True
        # conditional_expression: a if cond else b
        kids = [c for c in node.named_children if _KN[c.kind_id] != "comment"]
        if len(kids) != 3:
            return False
        names = self.narrowed_names(kids[1])
        if not names:
            return False
        push((kids[2], sc, CTX_LOAD))
        push((kids[1], sc, CTX_LOAD))
        push((_END_MARK, sc, CTX_LOAD))
        push((kids[0], sc, CTX_LOAD))
        push((_Mark(names), sc, CTX_LOAD))
        return True

    def narrow_rest(self, node: Node, names: dict[Any, Any], sc: int, stack: list) -> bool:
        """Narrow the statements after ``node`` in its block: they are the top entries of the
        walk's stack (pushed by the block, next first); the end mark goes below the last one.
        Then pushes ``node``'s own children (walked first, not narrowed) and returns True."""
        parent = node.parent
        if parent is None or _KN[parent.kind_id] not in ("block", "module"):
            return False
        rest = []
        sib = node.next_sibling
        while sib is not None:
            if _ACTW[sib.kind_id]:
                rest.append(sib)
            sib = sib.next_sibling
        k = len(rest)
        if not k or len(stack) < k or getattr(stack[-k][0], "id", None) != rest[-1].id \
                or getattr(stack[-1][0], "id", None) != rest[0].id:
            return False
        stack.insert(len(stack) - k, (_END_MARK, sc, CTX_LOAD))
        stack.append((_Mark(names), sc, CTX_LOAD))
        for c in reversed(node.children):
            if _ACTW[c.kind_id]:
                stack.append((c, sc, CTX_LOAD))
        return True

    def truth(self, sc: int, v: Node | None, at: Node) -> None:
        """``v``'s truth is tested (a condition, an operand of ``not``/``and``/``or``): its class's
        ``__bool__``, else ``__len__``; both sides of a condition's ``and``/``or``."""
        while v is not None:
            k = _KN[v.kind_id]
            if k == "parenthesized_expression":
                v = v.named_child(0) if v.named_child_count == 1 else None
            elif k == "not_operator":
                self.truth_seen.add(v.id)
                v = v.child_by_field_id(F_ARGUMENT)
            elif k == "boolean_operator":
                self.truth_seen.add(v.id)  # its own visit adds nothing more
                left = v.child_by_field_id(F_LEFT)
                self.truth(sc, left, at)
                right = v.child_by_field_id(F_RIGHT)
                if self.is_and(v):  # isinstance(x, C) and x.ready: x.ready of a C
                    self.narrowed_by(left, self.truth, sc, right, at)
                    return
                v = right
            else:
                if EK_IDENTIFIER <= _EK[v.kind_id] <= EK_ATTRIBUTE:  # a name or an attribute (a call's result costs more than it gives)
                    self.operand(sc, v, at, "__bool__", "__len__")
                return

    def truth_test(self, node: Node, t: str, sc: int) -> None:
        """The condition a statement or expression tests (``_TRUTH_TESTS``)."""
        if t == "boolean_operator":  # a value (``x = a or b``): only the left operand is tested
            if node.id not in self.truth_seen:
                self.truth(sc, node.child_by_field_id(F_LEFT), node)
        elif t == "not_operator":
            if node.id not in self.truth_seen:
                self.truth(sc, node.child_by_field_id(F_ARGUMENT), node)
        elif t == "conditional_expression":  # a if cond else b
            if node.named_child_count >= 2:
                self.truth(sc, node.named_child(1), node)
        elif t == "assert_statement":
            if node.named_child_count:
                self.truth(sc, node.named_child(0), node)
        elif t == "if_clause":  # [x for x in xs if cond]
            if node.named_child_count:
                self.truth(sc, node.named_child(0), node)
        else:  # if / elif / while
            self.truth(sc, node.child_by_field_id(F_CONDITION), node)

    def operator(self, node: Node, t: str, sc: int) -> None:
        """The dunders a binary, comparison or unary operator calls (``_BINARY_DUNDERS``)."""
        src = self.src
        if t == "binary_operator":
            op = node.child_by_field_id(F_OPERATOR)
            name = _BINARY_DUNDERS.get(src[op.start_byte : op.end_byte]) if op is not None else None
            if name is None:
                return
            left = node.child_by_field_id(F_LEFT)
            right = node.child_by_field_id(F_RIGHT)
            if left is not None:
                if _KN[left.kind_id] in _NUMBER_KINDS:
                    if right is not None:  # 2 * v: int's __mul__ gives way to v's __rmul__
                        self.operand(sc, right, node, f"__r{name}__")
                else:
                    self.operand(sc, left, node, f"__{name}__")
        elif t == "unary_operator":
            op = node.child_by_field_id(F_OPERATOR)
            name = _UNARY_DUNDERS.get(src[op.start_byte : op.end_byte]) if op is not None else None
            arg = node.child_by_field_id(F_ARGUMENT)
            if name is not None and arg is not None:
                self.operand(sc, arg, node, name)
        else:  # a < b <= c, k in c, k not in c: each operator's left operand, or the container
            kids = node.children
            for i in range(1, len(kids) - 1):
                c = kids[i]
                if c.is_named:
                    continue
                text = src[c.start_byte : c.end_byte]
                if text == b"in" or (text.startswith(b"not") and text.endswith(b"in")):  # (`not  in` too)
                    self.operand(sc, kids[i + 1], node, "__contains__")
                else:
                    name = _COMPARE_DUNDERS.get(text)
                    if name is not None:  # (object.__ne__ inverts __eq__)
                        self.operand(sc, kids[i - 1], node, name, "__eq__" if name == "__ne__" else "")

    def assignment(self, node: Node, sc: int, push: Any) -> None:
        lefts: list[Node] = []
        types: list[Node] | None = None
        cur: Node | None = node
        kn = _KN
        while cur is not None and kn[cur.kind_id] == "assignment":
            l = cur.child_by_field_id(F_LEFT)
            if l is not None:
                lefts.append(l)
            ty = cur.child_by_field_id(F_TYPE)
            if ty is not None:
                if types is None:
                    types = []
                types.append(ty)
            cur = cur.child_by_field_id(F_RIGHT)
        value_node = cur
        value = self.expr(value_node) if value_node is not None else None
        if value is STR_LIT and value_node.named_child_count <= 3:  # NAME = "text": kept, a key it may index with
            sv = _string_value(value_node, self.src)
            if sv is not None:
                value = (T_STR, sv)
        ann = [e for ty in types for e in self.ann(ty)] if types else None
        alias = self.type_alias(lefts, types, value_node)
        if alias is not None:  # X: TypeAlias = ... / X = Dict[str, Node]: annotations naming X mean these
            ann = None
        for l in lefts:
            if kn[l.kind_id] == "identifier":  # bind_target's first case, inline
                name = self.src[l.start_byte : l.end_byte].decode("utf-8", "replace")
                if value is not None:
                    self.bind(sc, name, value)
                if alias:
                    self.bind(sc, name, (T_TYPE_ALIAS, tuple(alias)))
                if ann:
                    self.bind(sc, name, (T_ANN, tuple(ann)))
                elif value is None:
                    self.bind(sc, name, UNKNOWN)
                if sc == 0 and name == "__all__":
                    self.collect_all(value_node, extend=False)
                continue
            if value is not None:
                self.bind_target(sc, l, value)
            if ann:
                self.bind_target(sc, l, (T_ANN, tuple(ann)))
            elif value is None:
                self.bind_target(sc, l, UNKNOWN)
        act = _ACT
        if value_node is not None and act[value_node.kind_id]:
            push((value_node, sc, CTX_LOAD))
        for l in reversed(lefts):
            if act[l.kind_id]:
                push((l, sc, CTX_STORE))

    def type_alias(self, lefts: list[Node], types: list[Node] | None, value: Node | None) -> list[Any] | None:
        """The annotation a type alias assignment stands for (``X: TypeAlias = Union[A, B]``, or
        ``X = Dict[str, Node]`` with a typing generic's head), else None."""
        if value is None or len(lefts) != 1 or _KN[lefts[0].kind_id] != "identifier":
            return None
        if types:
            if _stext(self.src, types[0]).rsplit(".", 1)[-1] not in ("TypeAlias", "_TypeAlias"):
                return None
        else:
            k = _KN[value.kind_id]
            if k != "subscript" and k != "generic_type":
                return None
            head = value.child_by_field_id(F_VALUE) if k == "subscript" else value.named_child(0)
            if head is None or _stext(self.src, head).rsplit(".", 1)[-1] not in _ALIAS_HEADS:
                return None
        return self.ann(value)

    def definition(self, node: Node, sc: int, push: Any) -> int | None:
        decorators: list[Node] = []
        outer = node
        if _KN[node.kind_id] == "decorated_definition":
            decorators = [c for c in node.named_children if _KN[c.kind_id] == "decorator"]
            d = node.child_by_field_id(F_DEFINITION)
            if d is None:
                for c in reversed(node.named_children):
                    push((c, sc, CTX_LOAD))
                return None
            node = d
        name_node = node.child_by_field_id(F_NAME)
        name = _stext(self.src, name_node) if name_node is not None else "<anonymous>"
        body = node.child_by_field_id(F_BODY)
        kind = SCOPE_CLASS if _KN[node.kind_id] == "class_definition" else SCOPE_FUNCTION
        idx = self.new_scope(kind, name, sc, node, outer)
        s = self.scopes[idx]
        s.docstring = _docstring(body, self.src)
        self.bind(sc, name, (T_DEF, idx))
        deco_exprs = []
        for dn in decorators:
            e = self.expr(dn.named_child(0) if dn.named_child_count else None)
            deco_exprs.append(e)
            odecos = self.scopes[self.scopes[sc].owner].decos
            if e[0] == T_NAME:
                r = self.reaching(sc, e, dn)
                if r is not None:
                    self.flows.append((self.scopes[sc].owner, len(odecos), sc, e[1], r, True))
            odecos.append((e, idx, dn.start_point[0] + 1))
        s.decorators = deco_exprs
        pending: list[tuple[Node, int, int]] = []
        for dn in decorators:
            if dn.named_child_count:
                pending.append((dn.named_child(0), sc, CTX_CALLEE if dn.named_child(0).type != "call" else CTX_LOAD))  # type: ignore[arg-type]
        if kind == SCOPE_CLASS:
            sup = node.child_by_field_id(F_SUPERCLASSES)
            if sup is not None:
                bases = []
                for c in sup.named_children:
                    k = _KN[c.kind_id]
                    if k == "keyword_argument":
                        nm = c.child_by_field_id(F_NAME)
                        if nm is not None and _stext(self.src, nm) == "metaclass":
                            s.metaclass = self.expr(c.child_by_field_id(F_VALUE))
                        continue
                    if k in ("comment", "dictionary_splat", "list_splat"):
                        continue
                    bases.append(self.expr(c))
                s.bases = bases
                s.signature = _norm(_stext(self.src, sup))
                pending.append((sup, sc, CTX_LOAD))
        else:
            s.is_async = node.child_count > 0 and _KN[node.child(0).kind_id] == "async"  # type: ignore[union-attr]
            params = node.child_by_field_id(F_PARAMETERS)
            rt = node.child_by_field_id(F_RETURN_TYPE)
            sig = self.params(params, idx, sc, pending)
            if rt is not None:
                s.return_ann = (T_ANN, tuple(self.ann(rt)))
                sig += " -> " + _norm(_stext(self.src, rt))
                pending.append((rt, sc, CTX_LOAD))
            s.signature = sig
        if body is not None:
            pending.append((body, idx, CTX_LOAD))
        for item in reversed(pending):
            push(item)
        return idx

    def params(self, params: Node | None, idx: int, outer: int, pending: list[tuple[Node, int, int]]) -> str:
        s = self.scopes[idx]
        parts: list[str] = []
        if params is None:
            return "()"
        for p in params.named_children:
            t = _KN[p.kind_id]
            name = ""
            star = PARAM_PLAIN
            ann_node = None
            default = None
            if t == "identifier":
                name = _stext(self.src, p)
                parts.append(name)
            elif t == "typed_parameter":
                inner = p.named_child(0)
                ann_node = p.child_by_field_id(F_TYPE)
                if inner is not None and _KN[inner.kind_id] == "list_splat_pattern":
                    star, name = PARAM_STAR, _stext(self.src, inner.named_child(0)) if inner.named_child_count else ""
                elif inner is not None and _KN[inner.kind_id] == "dictionary_splat_pattern":
                    star, name = PARAM_DSTAR, _stext(self.src, inner.named_child(0)) if inner.named_child_count else ""
                else:
                    name = _stext(self.src, inner) if inner is not None else ""
                parts.append(f"{star}{name}: {_norm(_stext(self.src, ann_node))}" if ann_node is not None else f"{star}{name}")
            elif t == "default_parameter":
                nm = p.child_by_field_id(F_NAME)
                default = p.child_by_field_id(F_VALUE)
                name = _stext(self.src, nm) if nm is not None else ""
                parts.append(f"{name}={_norm(_stext(self.src, default))}" if default is not None else name)
            elif t == "typed_default_parameter":
                nm = p.child_by_field_id(F_NAME)
                default = p.child_by_field_id(F_VALUE)
                ann_node = p.child_by_field_id(F_TYPE)
                name = _stext(self.src, nm) if nm is not None else ""
                a = _norm(_stext(self.src, ann_node)) if ann_node is not None else ""
                d = _norm(_stext(self.src, default)) if default is not None else ""
                parts.append(f"{name}: {a} = {d}")
            elif t == "list_splat_pattern":
                star = PARAM_STAR
                name = _stext(self.src, p.named_child(0)) if p.named_child_count else ""
                parts.append("*" + name)
            elif t == "dictionary_splat_pattern":
                star = PARAM_DSTAR
                name = _stext(self.src, p.named_child(0)) if p.named_child_count else ""
                parts.append("**" + name)
            elif t == "keyword_separator":
                parts.append("*")
                continue
            elif t == "positional_separator":
                parts.append("/")
                continue
            elif t == "tuple_pattern":  # py2-style, ignore
                parts.append(_norm(_stext(self.src, p)))
                continue
            else:
                continue
            if not name:
                continue
            ann = (T_ANN, tuple(self.ann(ann_node))) if ann_node is not None else None
            dexpr = self.expr(default) if default is not None else None
            s.params.append((name, star, ann, dexpr))
            self.bind(idx, name, (T_PARAM, idx, len(s.params) - 1))
            if ann_node is not None:
                pending.append((ann_node, outer, CTX_LOAD))
            if default is not None:
                pending.append((default, outer, CTX_LOAD))
        return "(" + ", ".join(parts) + ")"

    def lambda_(self, node: Node, sc: int, push: Any) -> int:
        namer = self.lambda_namers.get(sc)
        if namer is None:
            namer = self.lambda_namers[sc] = Namer()
        name, ordinal = namer.name("lambda", _lambda_context(node, self.src))
        idx = self.new_scope(SCOPE_LAMBDA, name, sc, node, node)
        self.scopes[idx].ordinal = ordinal
        self.lambdas[self.lambda_ord.setdefault(node.start_byte, len(self.lambda_ord))] = idx
        s = self.scopes[idx]
        pending: list[tuple[Node, int, int]] = []
        params = node.child_by_field_id(F_PARAMETERS)
        s.signature = self.params(params, idx, sc, pending) if params is not None else "()"
        body = node.child_by_field_id(F_BODY)
        if body is not None:
            s.returns.append(self.expr(body))
            pending.append((body, idx, CTX_LOAD))
        for item in reversed(pending):
            push(item)
        return idx

    def import_(self, node: Node, sc: int) -> None:
        names: list[tuple[str, str]] = []
        for c in node.children_by_field_id(F_NAME):
            if _KN[c.kind_id] == "dotted_name":
                mod = _norm(_stext(self.src, c)).replace(" ", "")
                names.append((mod, mod.split(".")[0]))
                self.bind(sc, mod.split(".")[0], (T_IMPORT, mod.split(".")[0]))
            elif _KN[c.kind_id] == "aliased_import":
                nm = c.child_by_field_id(F_NAME)
                al = c.child_by_field_id(F_ALIAS)
                if nm is None or al is None:
                    continue
                mod = _stext(self.src, nm).replace(" ", "")
                names.append((mod, _stext(self.src, al)))
                self.bind(sc, _stext(self.src, al), (T_IMPORT, mod))
        self.imports.append(ImportStmt(sc, node.start_point[0] + 1, "", 0, names, False))

    def import_from(self, node: Node, sc: int) -> None:
        mn = node.child_by_field_id(F_MODULE_NAME)
        if mn is None:
            return
        level = 0
        module = ""
        if _KN[mn.kind_id] == "relative_import":
            for c in mn.named_children:
                if _KN[c.kind_id] == "import_prefix":
                    level = _stext(self.src, c).count(".")
                elif _KN[c.kind_id] == "dotted_name":
                    module = _stext(self.src, c).replace(" ", "")
        else:
            module = _stext(self.src, mn).replace(" ", "")
        star = any(_KN[c.kind_id] == "wildcard_import" for c in node.named_children)
        names: list[tuple[str, str]] = []
        for c in node.children_by_field_id(F_NAME):
            if _KN[c.kind_id] == "dotted_name":
                nm = _stext(self.src, c).replace(" ", "")
                names.append((nm, nm))
                self.bind(sc, nm, (T_IMPORT_FROM, module, nm, level))
            elif _KN[c.kind_id] == "aliased_import":
                nm_n = c.child_by_field_id(F_NAME)
                al = c.child_by_field_id(F_ALIAS)
                if nm_n is None or al is None:
                    continue
                nm = _stext(self.src, nm_n).replace(" ", "")
                names.append((nm, _stext(self.src, al)))
                self.bind(sc, _stext(self.src, al), (T_IMPORT_FROM, module, nm, level))
        if star:
            self.star_imports.append((module, level))
        self.imports.append(ImportStmt(sc, node.start_point[0] + 1, module, level, names, True, star))


def _slice_key(node: Node) -> Any:
    """``x[lo:hi]`` -> ``('sl', lo, hi)`` with int literals or None for a missing bound; any
    other slice (a step, computed bounds) -> ``('sl',)``."""
    parts: list[Node | None] = [None, None, None]
    pos = 0
    for c in node.children:
        if _KN[c.kind_id] == ":":
            pos += 1
        elif pos < 3 and _KN[c.kind_id] != "comment":
            parts[pos] = c
    if parts[2] is not None:
        return (T_SLICE,)
    bounds: list[int | None] = []
    for c in parts[:2]:
        if c is None:
            bounds.append(None)
            continue
        txt = _text(c).replace(" ", "")
        if _KN[c.kind_id] in ("integer", "unary_operator") and txt.lstrip("-").isdigit():
            bounds.append(int(txt))
        else:
            return (T_SLICE,)
    return (T_SLICE, bounds[0], bounds[1])


def _dotted_expr(s: str) -> Any:
    parts = s.split(".")
    if not parts or not all(p.isidentifier() for p in parts):
        return None
    e: Any = (T_NAME, parts[0])
    for p in parts[1:]:
        e = (T_ATTR, e, p)
    return e


def _first_error_line(root: Node) -> int | None:
    stack = [root]
    while stack:
        n = stack.pop()
        if _KN[n.kind_id] == "ERROR" or n.is_missing:
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


def file_aliases(pf: ParsedFile) -> dict[Any, tuple[str, ...]]:
    """``pf.aliases``, computed on first use (only files whose parameters are resolved need it;
    a deterministic function of the parse result, so caching it on the shared result is safe)."""
    r = pf.aliases
    if r is None:
        r = pf.aliases = _aliases(pf.scopes, pf.lambdas)
    return r


def file_param_calls(pf: ParsedFile) -> tuple[tuple[str, ...], frozenset[Any]]:
    """(``pf.param_calls``, ``pf.passed``), computed on first use like ``file_aliases``."""
    if pf.param_calls is None or pf.passed is None:
        pf.param_calls, pf.passed = _param_calls(pf.scopes, pf.lambdas)
    return pf.param_calls, pf.passed


def file_subclasses(pf: ParsedFile) -> dict[str, tuple[int, ...]]:
    """``pf.subclasses``, computed on first use like ``file_aliases``."""
    r = pf.subclasses
    if r is None:
        out: dict[str, list[int]] = {}
        module = pf.scopes[0].bindings if pf.scopes else {}
        for i, s in enumerate(pf.scopes):
            if s.kind == SCOPE_CLASS:
                for b in s.bases:
                    names = {base_last_name(b)}
                    if b[0] == T_NAME:  # `from m import Base as B` / `B = Base`; class D(B)`: also under Base
                        todo, seen = [b[1]], {b[1]}
                        while todo:  # through chains of aliases (B = A; from m import Base as A)
                            for v in module.get(todo.pop(), ()):
                                nm = v[2] if v[0] == T_IMPORT_FROM else base_last_name(v) if v[0] in _NAME_ATTR_TAGS else None
                                if nm is not None:
                                    names.add(nm)
                                    if v[0] == T_NAME and nm not in seen:
                                        seen.add(nm)
                                        todo.append(nm)
                    for nm in names:
                        if nm is not None and i not in out.get(nm, ()):
                            out.setdefault(nm, []).append(i)
        r = pf.subclasses = {k: tuple(v) for k, v in out.items()}
    return r


def file_attr_stores(pf: ParsedFile) -> dict[tuple[str, str], tuple[tuple[int, Any], ...]]:
    """``pf.attr_stores``, computed on first use like ``file_aliases``."""
    r = pf.attr_stores
    if r is None:
        out: dict[tuple[str, str], list[tuple[int, Any]]] = {}
        for i, s in enumerate(pf.scopes):
            for base, attr, v in s.attr_stores:
                out.setdefault((base, attr), []).append((i, v))
        r = pf.attr_stores = {k: tuple(v) for k, v in out.items()}
    return r


def base_last_name(e: Any) -> str | None:
    """The name a base-class expression ends with: ``Base``, ``pkg.Base``, ``Base[T]`` -> ``Base``;
    None for anything else (a call such as ``with_metaclass(M, Base)``)."""
    for _ in range(8):
        t = e[0]
        if t == T_NAME:
            return e[1]
        if t == T_ATTR:
            return e[2]
        if t != T_SUBSCRIPT:
            return None
        e = e[1]
    return None


def _aliases(scopes: list[Scope], lambdas: dict[int, int]) -> dict[Any, tuple[str, ...]]:
    """``ParsedFile.aliases``: bindings (outside class bodies, where a function would become a
    bound method) and attribute stores whose value is a plain name or a lambda, or any of them."""
    out: dict[Any, dict[str, None]] = {}

    def add(name: str, v: Any) -> None:
        t = v[0]
        if t == T_NAME:
            k: Any = v[1]
        elif t == T_LAMBDA:
            k = lambdas.get(v[1])
            if k is None:
                return
        elif t == T_OR:
            for x in v[1]:
                add(name, x)
            return
        else:
            return
        if k != name:
            d = out.get(k)
            if d is None:
                d = out[k] = {}
            d[name] = None

    for s in scopes:
        if s.kind != SCOPE_CLASS:
            for name, vals in s.bindings.items():
                for v in vals:
                    if v[0] in _ALIAS_TAGS:
                        add(name, v)
        for _base, attr, v in s.attr_stores:
            if v[0] in _ALIAS_TAGS:
                add(attr, v)
    return {k: tuple(d) for k, d in out.items()}


def _param_calls(scopes: list[Scope], lambdas: dict[int, int]) -> tuple[tuple[str, ...], frozenset[Any]]:
    """``ParsedFile.param_calls``: names called as ``name(...)`` where name is a parameter of the
    function or lambda the call sits in (or of an enclosing one that binds it); and
    ``ParsedFile.passed``: the names and lambdas passed as they are for a call's argument, and
    ``"." + attr`` for attributes passed (``run(self.step)``: a bound method, maybe)."""
    out: dict[str, None] = {}
    passed: set[Any] = set()
    for s in scopes:
        for e, _line, _flag, sc in s.calls:
            for a in (*e[2], *(kv[1] for kv in e[3])):
                if a[0] == T_NAME:
                    passed.add(a[1])
                elif a[0] == T_LAMBDA:
                    passed.add(lambdas.get(a[1]))
                elif a[0] == T_ATTR:  # a bound method passed (``run(self.step)``): "." + its name
                    passed.add("." + a[2])
            fn = e[1]
            if fn[0] != T_NAME or fn[1] in out:
                continue
            name = fn[1]
            cur = sc
            while cur > 0:
                c = scopes[cur]
                vals = c.bindings.get(name) if c.kind != SCOPE_CLASS else None
                if vals is not None:
                    if c.kind in _CALLABLE_KINDS and any(v[0] == T_PARAM for v in vals):
                        out[name] = None
                    break
                cur = c.parent
    passed.discard(None)
    return tuple(out), frozenset(passed)


def parse_python(data: bytes) -> ParsedFile:
    """Parse one Python file's bytes (any encoding; invalid UTF-8 is replaced in names/texts)."""
    tree = _parser().parse(data)
    root = tree.root_node
    conv = _Conv(data)
    conv.run(root)
    if root.has_error:
        line = _first_error_line(root)
        conv.warnings.append(f"syntax error near line {line}; extracted what parses" if line else "syntax error; extracted what parses")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        conv.warnings.append(f"not valid UTF-8 (byte {e.start}); undecodable bytes replaced")
    conv.scopes[0].body_hash = _hash(data)
    scopes = conv.scopes
    if conv.fn_spans:
        for idx, m in measure_python(data, conv.fn_spans, conv.metric_nodes, scopes).items():
            scopes[idx].metrics = m
    for owner, i, sc, name, r, is_deco in conv.flows:
        # kept where it narrows something: the name bound more than once / items stored into it,
        # and nothing binds it from another scope (global / nonlocal / an inner function's store)
        if (sc, name) in conv.tainted:
            continue
        if r[0] == T_REACH and len(scopes[sc].bindings.get(name, ())) < 2:
            continue
        if r[0] == T_SUBSCRIPT and not scopes[sc].item_bindings.get(name) and len(scopes[sc].bindings.get(name, ())) < 2:
            continue
        (scopes[owner].deco_flow if is_deco else scopes[owner].flow)[i] = r
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
            else:
                continue
            lst = sites.get(nm)
            if lst is None:
                sites[nm] = [(sc, e)]
            else:
                lst.append((sc, e))
    for i, s in enumerate(scopes):
        if (
            s.kind == SCOPE_FUNCTION
            and (s.attr_stores or s.attr_item_stores)
            and s.params
            and s.parent >= 0
            and scopes[s.parent].kind == SCOPE_CLASS
        ):
            selfname = s.params[0][0]
            ia = scopes[s.parent].inst_attrs
            for base, attr, v in s.attr_stores:
                if base == selfname:
                    ia.setdefault(attr, []).append((i, v))
            ii = scopes[s.parent].inst_items
            for base, attr, v in s.attr_item_stores:
                if base == selfname:
                    ii.setdefault(attr, []).append((i, v))
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
    )
