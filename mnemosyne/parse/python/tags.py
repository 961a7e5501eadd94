"""The Python parser's vocabularies: expression tags, the walk's action / context / expression-kind
codes, and the words of ``Scope`` fields (docs/parse-python.md has them as tables).

Expressions are small tuples ``(tag, *fields)`` (``Expr``): plain data, so a parse result pickles
and hashes. The resolver (``mnemosyne/resolve/``) compares them through these constants; a new
meaning gets a new value. Codes are plain ints (not ``IntEnum``): the walk compares them per node,
and an ``int`` comparison with a constant is as cheap as with a literal.

Values shared on purpose, each pair in fields that never meet: ``T_STAR`` (an expression) and
``PARAM_STAR`` (a ``Scope.params`` star field), both ``'*'``; ``CALL_PLAIN`` and ``PARAM_PLAIN``,
both ``''`` (flags of two ``Scope`` fields, read as "none" by truth: ``if star``); and the int codes
of the three code tables (``ACT_*``, ``CTX_*``, ``EK_*``: each numbers its own table from 0).
"""

from __future__ import annotations

from typing import Any, Final, TypeAlias

Expr: TypeAlias = tuple[Any, ...]
"""An expression value: ``(tag, *fields)`` with one of the ``T_*`` tags below."""

# ---------------------------------------------------------------- expressions
T_NAME: Final = "n"  # ('n', name): an identifier
T_ATTR: Final = "a"  # ('a', base, attr): attribute ``base.attr``
# ('c', func, args, kwargs): a call; args: (expr | ('*', expr), ...), kwargs: ((name | None, expr), ...)
# (None: ``**mapping``)
T_CALL: Final = "c"
# ('s', base, key): subscript; key is ('str', s) / ('int', i) / ('n', name) / ('u',), or a slice
T_SUBSCRIPT: Final = "s"
T_SLICE: Final = "sl"  # ('sl', lo, hi): a slice key with int or None bounds; ('sl',) any other slice
# ('L', k): the k-th lambda met (``ParsedFile.lambdas`` maps k -> scope index; an ordinal, not a
# byte offset, so moving code keeps it)
T_LAMBDA: Final = "L"
# ('t', (elts, ...)): tuple / list / set display; a comprehension or generator expression is
# ('t', (('*', ('u',)), item)) (item at unknown positions)
T_TUPLE: Final = "t"
# ('d', ((key, value), ...)): dict display (a dict comprehension: ('d', ((('u',), value),)))
T_DICT: Final = "d"
T_STAR: Final = "*"  # ('*', expr): a starred argument or display item: the items of expr
T_OR: Final = "or"  # ('or', (exprs, ...)): any of them (conditional expression, boolean operator)
T_STR: Final = "str"  # ('str', s): a string literal whose value is kept (a key)
T_INT: Final = "int"  # ('int', i): an integer literal
T_LIT: Final = "lit"  # ('lit', type_name): another literal ('str': a string whose value is not kept)
T_UNKNOWN: Final = "u"  # ('u',): unknown
# ('N', expr, class expr): expr where an ``isinstance(expr, C)`` test narrowed it to a C
T_NARROWED: Final = "N"
T_SENT: Final = "snt"  # ('snt',): the value of a ``yield`` expression: what ``gen.send(v)`` passes in
# ('op', operand, dunder, fallback): an operator's result: what ``dunder`` (else ``fallback``, or '')
# of operand's class returns (``a + b``, ``-a``, ``a < b``; ``a += b`` rebinds ``a`` to one)
T_OP: Final = "op"
# ('pfx', prefix, suffix, hole): a string with one hole between a literal prefix and suffix (``"visit_" +
# kind``, ``f"do_{cmd}"``, ``"_get_%s_perms" % v``), kept as the name argument of ``getattr`` /
# ``hasattr``: any name starting with prefix whose rest ends with suffix; hole is the name filling it
# (``('n', kind)``) or unknown
T_PREFIX: Final = "pfx"

# ---------------------------------------------------------------- binding values
T_DEF: Final = "def"  # ('def', scope): a def / class statement
T_PARAM: Final = "p"  # ('p', scope, i): parameter i of a function / lambda scope
T_IMPORT: Final = "im"  # ('im', module): ``import module`` / ``import a.b as module`` (absolute)
T_IMPORT_FROM: Final = "if"  # ('if', module, name, level): ``from module import name`` (level: leading dots)
T_ITER: Final = "it"  # ('it', expr): an element of iterating expr (for / comprehension target, ``extend``)
T_INDEX: Final = "ix"  # ('ix', expr, i): element i of unpacking expr (negative: from the end)
T_WITH: Final = "w"  # ('w', expr): ``with expr as target``
T_AWITH: Final = "aw"  # ('aw', expr): ``async with expr as target``
T_ANN: Final = "ann"  # ('ann', (exprs, ...)): an instance of one of the annotated classes
T_EXC: Final = "exc"  # ('exc', (exprs, ...)): ``except E as e``: an instance of E
T_ITEMS: Final = "itm"  # ('itm', expr): the items of iterating expr (``yield from expr``)
# ('at', scope, value): value evaluated in another scope (container items stored from an inner
# scope into a container bound outside)
T_AT: Final = "at"
# ('ky', key, value): a container item stored under a literal key (``d["load"] = f``, ``d.update({"k": v})``):
# a subscript by another literal key does not read it
T_KEYED: Final = "ky"
T_TYPE_ALIAS: Final = "ta"  # ('ta', (annotation exprs, ...)): a type alias: what annotations naming it mean

# ---------------------------------------------------------------- annotations (inside ('ann', ...) / ('ta', ...))
# ('ctr', kind, items): a container of instances; kind CTR_ITEMS / CTR_MAPPING: items are the
# annotations of its items (a mapping's values); CTR_POSITIONS: items holds one tuple of
# annotations per position (``tuple[A, B]``)
T_CONTAINER: Final = "ctr"
T_CLASS_OF: Final = "cls"  # ('cls', expr): the class expr itself (``Type[X]`` / ``type[X]``), not an instance
CTR_ITEMS: Final = "items"  # a sequence, set or iterator: its items
CTR_MAPPING: Final = "mapping"  # a mapping: its values
CTR_POSITIONS: Final = "positions"  # a tuple of known length: one annotation tuple per position

# ---------------------------------------------------------------- flow order (Scope.flow / Scope.deco_flow)
# ('R', name, first, last): the name's bindings first..last in its scope's list (the ones that
# reach the use); also as the base of a subscript: ('s', ('R', ...), key)
T_REACH: Final = "R"
T_REACH_ITEM: Final = "RI"  # ('RI', name, j): item j of the name's ``Scope.item_bindings``

UNKNOWN: Final[Expr] = (T_UNKNOWN,)  # the one unknown value the parser emits (compared by identity)
STR_LIT: Final[Expr] = (T_LIT, "str")  # a string literal whose value is not kept
# the tags of expressions that are no value of the program (literals, unknown): a store of one is not
# recorded as an object store (``ParsedFile.obj_stores``); the resolver evaluates them to nothing
LITERAL_TAGS: Final = (T_UNKNOWN, T_LIT, T_STR, T_INT, T_PREFIX)

# ---------------------------------------------------------------- Scope fields
SCOPE_MODULE: Final = "module"
SCOPE_CLASS: Final = "class"
SCOPE_FUNCTION: Final = "function"
SCOPE_LAMBDA: Final = "lambda"
CALL_PLAIN: Final = ""  # Scope.calls flag: a call written as one
CALL_RAISE: Final = "raise"  # Scope.calls flag: ``raise E`` (instantiates E)
SITES_LAMBDA: Final = "<lambda>"  # ParsedFile.sites_by_name key of calls of a lambda expression: ``(lambda g: g())(f)``
SITES_ITEM: Final = "[]"  # ParsedFile.sites_by_name key of calls of a subscript: ``HANDLERS[kind](x)``
STORE_SETTER: Final = "setter"  # Scope.stores: ``obj.prop = v``
STORE_DELETER: Final = "deleter"  # Scope.stores: ``del obj.prop``
PARAM_PLAIN: Final = ""  # Scope.params star: a plain parameter
PARAM_STAR: Final = "*"  # Scope.params star: ``*args``
PARAM_DSTAR: Final = "**"  # Scope.params star: ``**kwargs``

# ---------------------------------------------------------------- walk codes
# action: node kind id -> what the walk does with the node (grammar.ACT)
ACT_SKIP: Final = 0  # nothing below it matters (0: the walk tests an action's truth for 'not skipped')
ACT_WALK: Final = 1  # walk its children
ACT_STRING: Final = 2  # a string: walk an f-string's children, skip a plain literal
ACT_PAREN: Final = 3  # parenthesized expression / target list: children keep the context
ACT_SPECIAL: Final = 4  # handled by its own case of the walk
ACT_METRIC: Final = 5  # recorded for the metrics (parse/metrics.py), then walked like ACT_WALK
# context: how the walk met a node (the third item of its stack entries); ordered: the contexts
# below CTX_STORE read the value
CTX_LOAD: Final = 0  # a value read
CTX_CALLEE: Final = 1  # the function of a call (not a load of it)
CTX_STORE: Final = 2  # an assignment target
CTX_DEL: Final = 4  # a ``del`` target
# expression kind: node kind id -> what ``expr()`` tells apart (grammar.EK)
EK_OTHER: Final = 0
EK_IDENTIFIER: Final = 1
EK_ATTRIBUTE: Final = 2
EK_CALL: Final = 3
EK_KEYWORD: Final = 4  # keyword_argument
EK_LIST_SPLAT: Final = 5
EK_DICT_SPLAT: Final = 6
EK_STRING: Final = 7
EK_COMMENT: Final = 8
EK_ARGUMENT_LIST: Final = 9
