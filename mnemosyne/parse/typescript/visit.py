"""TypeScript / TSX / JavaScript: bytes -> a picklable per-file parse result (no tree-sitter nodes).

One tree-sitter query finds the interesting nodes (definitions, calls, imports, exports,
declarations, assignments, returns) in a single C pass; Python then visits only those, in
document order, keeping a stack of enclosing scopes by byte range. The result records what
the resolver (``mnemosyne.resolve.typescript``) needs: the symbols with their qualified names
(docs/schema.md), the bindings of every function scope (as small tuples, see ``conv``), the
classes and named object literals with their members, the module's exports, and the call sites
as unresolved expressions.

The result is plain tuples (so it pickles): expressions, bindings, class members, exports and
call sites are tuples tagged by the constants of ``mnemosyne.parse.typescript.tags``, which
describes each tag and its fields.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import threading
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from itertools import accumulate
from operator import itemgetter, methodcaller

import tree_sitter_typescript as _tst
from tree_sitter import Language, Parser, Point, Query, QueryCursor

from mnemosyne.facts import Symbol
from mnemosyne.parse.anon import Namer, call_context, callee, clean, literal
from mnemosyne.parse.metrics import TS_QUERY_SRC, measure_ts
from mnemosyne.parse.typescript.model import make_symbol
from mnemosyne.parse.typescript.tags import (
    ALIT,
    ALSO,
    AT,
    CALL,
    CALLED_AT_ONCE,
    DECL_BINDING,
    DECO,
    DEF,
    DEF_CLASS,
    DEF_FUNC,
    DEF_NS,
    DEF_OBJ,
    DEFAT,
    DYNAMIC_IMPORT,
    EITHER,
    ELEM,
    ENTRY_BLOCK,
    ENTRY_CLASS,
    ENTRY_FUNCTION,
    ENTRY_MODULE,
    ENTRY_NS,
    EXPR,
    FIELD,
    FROM,
    GETTER,
    ID,
    IFACE,
    IMPORT,
    IMPORT_ALL,
    IMPORT_DEFAULT,
    IN,
    ITEM,
    ITERATOR,
    LOCAL,
    METHOD,
    MIXIN,
    MSIG,
    NEW,
    NULL_EXPR,
    OLIT,
    PARAM,
    PROP,
    PVAL,
    REQUIRE,
    SETTER,
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
    SNAP,
    SPREAD,
    SPREADS,
    SPREADS_OF,
    SUPER_EXPR,
    THEN,
    THIS_CLS,
    THIS_EXPR,
    THIS_OBJ,
    THIS_SCLS,
    TYPE,
    TYPE_ARRAY,
    TYPEOF,
    UNION,
    UNKNOWN_BINDING,
    VAR,
    YIELD,
)

SOURCE_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
LANGUAGE_OF = {
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
}
_GRAMMAR_OF = {"typescript": "typescript", "tsx": "tsx", "javascript": "tsx"}

_QUERY_SRC = """
(function_declaration) @fn
(generator_function_declaration) @fn
(function_expression) @fn
(generator_function) @fn
(arrow_function) @fn
(method_definition) @fn
(class_declaration) @cls
(abstract_class_declaration) @cls
(class) @cls
(interface_declaration) @iface
(type_alias_declaration value: (object_type)) @iface
(call_expression function: (_) @call)
(new_expression) @new
(decorator) @dec
(import_statement) @import
(export_statement) @export
(variable_declarator) @var
(assignment_expression) @assign
(public_field_definition) @field
(return_statement) @ret
(yield_expression) @yield
(array (spread_element) @spread)
(arguments (spread_element) @spread)
(for_in_statement) @forin
(catch_clause) @catch
(internal_module) @ns
(if_statement consequence: (statement_block) @block)
(else_clause (statement_block) @block)
(for_statement) @block
(while_statement body: (statement_block) @block)
(do_statement body: (statement_block) @block)
(try_statement body: (statement_block) @block)
(finally_clause body: (statement_block) @block)
(statement_block (statement_block) @block)
(program (statement_block) @block)
(switch_body) @block
(arguments (member_expression) @member)
(variable_declarator value: (member_expression) @member)
(return_statement (member_expression) @member)
(binary_expression (member_expression) @member)
(unary_expression (member_expression) @member)
(template_substitution (member_expression) @member)
(assignment_expression right: (member_expression) @member)
(pair value: (member_expression) @member)
(expression_statement (member_expression) @member)
(parenthesized_expression (member_expression) @member)
(ternary_expression (member_expression) @member)
(array (member_expression) @member)
(spread_element (member_expression) @member)
(arrow_function body: (member_expression) @member)
(await_expression (member_expression) @member)
"""

_JSX_QUERY_SRC = """
(jsx_opening_element) @jsx
(jsx_self_closing_element) @jsx
(jsx_expression (member_expression) @member)
"""
# order of captures that share a node span: definitions before what they contain
_RANK = {n: i for i, n in enumerate(
    "export ns fn cls iface block var field assign ret yield forin catch import call new jsx dec spread member".split())}

_BY_RANK = sorted(_RANK, key=_RANK.__getitem__)

# array methods whose first argument is called with elements: which of its parameters they are
_ELEMENT_PARAMS = {
    **{m: (0,) for m in ("forEach", "map", "filter", "find", "findLast", "findIndex", "findLastIndex", "some",
                         "every", "flatMap")},
    "reduce": (1,), "reduceRight": (1,), "sort": (0, 1), "toSorted": (0, 1),
}

# globals that call the function they are given (``_Builder.builtin_callback``)
_CALLBACK_GLOBALS = frozenset(
    [(ID, n) for n in ("setTimeout", "setInterval", "setImmediate", "queueMicrotask", "requestAnimationFrame",
                         "requestIdleCallback")]
    + [(PROP, (ID, "process"), "nextTick")]
)
_PROMISE_METHODS = frozenset({"then", "catch", "finally"})
_ARRAY_FROM = (PROP, (ID, "Array"), "from")  # Array.from(xs, f) calls f (its second argument)
_OBJECT = (ID, "Object")  # Object.assign
_PROMISE = (ID, "Promise")  # new Promise(executor)
_STATE: dict[str, tuple[Language, Query]] = {}
_LOCAL = threading.local()
_WRAPPERS = (b"memo", b"forwardRef", b"observer")
# external functions that return (a wrapper rendering) their first argument
WRAPPER_CALLEES = frozenset(
    {
        "react.memo",
        "react.forwardRef",
        "mobx-react.observer",
        "mobx-react-lite.observer",
    }
)
_MAX_DEPTH = 64  # longer member/call chains are pathological (minified code): unknown
# ``async`` before a function's name or parameters (not part of a longer word or a decorator name)
_ASYNC_WORD = re.compile(rb"(?<![\w$@.])async\b")
# a return type annotation ``: Promise<...>``
_PROMISE_TYPE = re.compile(rb":\s*Promise\s*<")
# library types that say nothing of which function a parameter holds: such a parameter holds
# what the callers pass, as an untyped one (``desc: PropertyDescriptor`` in a decorator)
_OPAQUE_TYPES = frozenset(
    (ID, n) for n in ("Function", "CallableFunction", "PropertyDescriptor", "TypedPropertyDescriptor", "Object")
)
_ITERATOR_KEYS = frozenset({b"Symbol.iterator", b"Symbol.asyncIterator"})
# array literals with more elements are data tables, not tuples of values (``array_literal``)
_MAX_ARRAY_LITERAL = 16


_FIELDS = (
    "alias",
    "alternative",
    "consequence",
    "arguments",
    "body",
    "constructor",
    "declaration",
    "function",
    "index",
    "key",
    "kind",
    "left",
    "module",
    "name",
    "object",
    "operator",
    "parameter",
    "parameters",
    "pattern",
    "property",
    "return_type",
    "right",
    "source",
    "type",
    "type_arguments",
    "value",
)


_NAMED_KINDS = (
    "arguments",
    "array",
    "array_pattern",
    "array_type",
    "arrow_function",
    "assignment_expression",
    "assignment_pattern",
    "class",
    "class_body",
    "class_heritage",
    "comment",
    "export_clause",
    "export_specifier",
    "export_statement",
    "extends_clause",
    "function_declaration",
    "function_expression",
    "generator_function_declaration",
    "generic_type",
    "implements_clause",
    "import_clause",
    "import_require_clause",
    "import_specifier",
    "lexical_declaration",
    "literal_type",
    "method_definition",
    "named_imports",
    "namespace_export",
    "namespace_import",
    "nested_type_identifier",
    "number",
    "object",
    "object_assignment_pattern",
    "object_pattern",
    "optional_parameter",
    "pair",
    "pair_pattern",
    "parenthesized_type",
    "predefined_type",
    "public_field_definition",
    "readonly_type",
    "required_parameter",
    "rest_pattern",
    "shorthand_property_identifier",
    "shorthand_property_identifier_pattern",
    "spread_element",
    "statement_block",
    "string",
    "type_annotation",
    "type_identifier",
    "type_query",
    "union_type",
    "variable_declaration",
    "variable_declarator",
)


class _Kinds:
    """Node kind and field ids of one grammar: ``node.kind_id`` is ~20x cheaper than ``node.type``."""

    def __init__(self, lang: Language) -> None:
        def k(name: str) -> int:
            return lang.id_for_node_kind(name, True) or -1

        self.identifier = k("identifier")
        self.import_ = k("import")
        self.member = k("member_expression")
        self.call = k("call_expression")
        self.new = k("new_expression")
        self.this = k("this")
        self.super = k("super")
        self.as_expr = k("as_expression")
        self.ternary = k("ternary_expression")
        self.binary = k("binary_expression")
        self.subscript = k("subscript_expression")
        self.unwrap = frozenset(
            k(n) for n in ("await_expression", "parenthesized_expression", "non_null_expression", "satisfies_expression")
        )
        self.defs = frozenset(k(n) for n in ("arrow_function", "function_expression", "generator_function", "class", "object"))
        self.nulls = frozenset(k(n) for n in ("null", "undefined"))
        # primitive literals: never a function, class or object of ours, so read like null (a
        # variable assigned 1 and then a function holds that function; ``x || "default"`` is x)
        self.literals = frozenset(k(n) for n in ("number", "string", "template_string", "true", "false", "regex"))
        # named kinds compared often: ``k_<name>`` (every kind_id a node has is the one its
        # type name maps to, aliases included: ``kind_id == k_x`` is ``type == "x"``)
        for n in _NAMED_KINDS:
            kid = k(n)
            assert kid >= 0, n
            setattr(self, "k_" + n, kid)
        self.key_kinds = frozenset(
            k(n) for n in ("property_identifier", "identifier", "private_property_identifier", "number")
        )
        self.k_default = lang.id_for_node_kind("default", False) or -1  # the keyword
        # field ids: ``child_by_field_id`` is ~2x cheaper than ``child_by_field_name``
        for f in _FIELDS:
            fid = lang.field_id_for_name(f)
            assert fid is not None, f
            setattr(self, "f_" + f, fid)


_KINDS: dict[str, _Kinds] = {}
_first = itemgetter(0)
_strip = str.strip
_lstrip_stars = methodcaller("lstrip", "*")


def _tools(grammar: str) -> tuple[Parser, Query]:
    """The grammar's parser (one per thread: a Parser is not shareable) and query (shared)."""
    per_thread = getattr(_LOCAL, "parsers", None)
    if per_thread is None:
        per_thread = _LOCAL.parsers = {}
    t = per_thread.get(grammar)
    if t is None:
        shared = _STATE.get(grammar)
        if shared is None:
            lang = Language(_tst.language_tsx() if grammar == "tsx" else _tst.language_typescript())
            src = _QUERY_SRC + (_JSX_QUERY_SRC if grammar == "tsx" else "") + TS_QUERY_SRC
            _KINDS[grammar] = _Kinds(lang)
            shared = _STATE[grammar] = (lang, Query(lang, src))
        t = per_thread[grammar] = (Parser(shared[0]), shared[1])
    return t


def suffix_of(path: str) -> str:
    base = path.rsplit("/", 1)[-1]
    dot = base.rfind(".")
    return base[dot:] if dot > 0 else ""


def is_source(path: str) -> bool:
    return path.endswith(SOURCE_SUFFIXES) and not _is_declaration(path)


def _is_declaration(path: str) -> bool:
    base = path.rsplit("/", 1)[-1]
    return ".d." in base and base.endswith(("ts", "tsx"))


def module_name(path: str) -> str:
    """Graph-model §3: repo-relative path without extension; an index file is its folder."""
    suf = suffix_of(path)
    stem = path[: -len(suf)] if suf else path
    if stem == "index":
        return "index"
    if stem.endswith("/index"):
        return stem[: -len("/index")]
    return stem


@dataclass
class ClassInfo:
    fqn: str
    path: str
    scope: int  # binding scope index where the heritage expression is evaluated
    extends: tuple | None = None
    has_ctor: bool = False
    # member name -> list of ('method'|'getter'|'setter', fqn) or ('field', scope, expr), and for
    # an interface ('msig', return type) (a method signature: no body, so no Function)
    members: dict[str, list[tuple]] = field(default_factory=dict)
    # a class's ``implements`` types; an interface's ``extends`` types
    implements: tuple = ()
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
    # the scopes sharing that fqn); other files' recorded reads name scopes by it (resolve/ts_reads)
    scope_key: list[tuple[str, int]] = field(default_factory=list)
    scope_this: list[tuple | None] = field(default_factory=list)  # ('cls'|'obj', fqn) | ('type', t) | None
    bindings: list[dict[str, list[tuple]]] = field(default_factory=list)
    defs_at: dict[int, tuple] = field(default_factory=dict)  # start byte -> ('def', fqn, kind)
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    objects: dict[str, tuple[int, dict[str, tuple]]] = field(default_factory=dict)  # fqn -> (scope, member->expr)
    namespaces: dict[str, list[int]] = field(default_factory=dict)  # TS namespace fqn -> its binding scopes
    returns: dict[str, tuple[int, list[tuple | None], tuple | None]] = field(default_factory=dict)
    exports: dict[str, tuple] = field(default_factory=dict)  # name -> ('local', n) | ('import', spec, n) | ('expr', e, scope)
    stars: list[str] = field(default_factory=list)  # export * from spec
    cjs_whole: bool = False  # module.exports = X / export = X: require() gives the default export
    specs: list[tuple[str, int]] = field(default_factory=list)  # every imported specifier (spec, line)
    sites: list[tuple[int, str, tuple | None, int]] = field(default_factory=list)  # (scope, kind, expr, line)
    # callee's last name -> (scope, callee expr, argument exprs) of the calls passing arguments that
    # may be functions: where a function's parameters come from (``_Ctx.param_values``)
    call_args: dict[str, list[tuple[int, tuple, tuple]]] = field(default_factory=dict)
    asyncs: set[str] = field(default_factory=set)  # functions returning a promise (async, or typed so)
    warnings: list[str] = field(default_factory=list)
    extended: dict[str, tuple[str, ...]] | None = None  # computed on first use: ``class_names_extended``
    iifes: dict[str, int] | None = None  # computed on first use: ``_Ctx.called_at_once``


def extends_name(e: tuple | None) -> str | None:
    """The name an ``extends`` expression ends with (``Base``, ``ns.Base``); None for others
    (a mixin call ``extends Mixin(Base)``)."""
    if e is None:
        return None
    if e[0] == ID:
        return e[1]
    if e[0] == PROP:
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
                        b[2] for b in module.get(e[1], ()) if b[0] == IMPORT and b[2] not in (IMPORT_ALL, IMPORT_DEFAULT)
                    )
                for n in names:
                    if n is not None and fqn not in out.get(n, ()):
                        out.setdefault(n, []).append(fqn)
        r = pf.extended = {k: tuple(v) for k, v in out.items()}
    return r


class _Entry:
    __slots__ = ("end", "fqn", "kind", "scope", "this", "counters", "cls", "fe", "nm")

    def __init__(self, end: int, fqn: str, kind: str, scope: int, this: tuple | None, cls: ClassInfo | None = None):
        self.end = end
        self.fqn = fqn
        self.kind = kind  # ENTRY_*: module, function, class, ns (a TS namespace body), block
        self.scope = scope  # binding scope index (function/module scopes; classes share their parent's)
        self.this = this  # (THIS_CLS | THIS_SCLS | THIS_OBJ, fqn) | (TYPE, t) | None
        self.counters: Namer | None = None  # the names of the anonymous functions / classes it holds
        self.cls = cls
        self.fe: _Entry = self  # the nearest binding entry: not a class (set by the builder for classes)
        self.nm: _Entry = self  # the nearest naming entry: not a block (set by the builder for blocks)


# expressions an anonymous function's context is looked for through (``f(a ?? (() => 0))``)
_CONTEXT_THROUGH = frozenset({
    "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression",
    "ternary_expression", "binary_expression", "array", "await_expression", "type_assertion",
    "sequence_expression", "spread_element",
})

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


def _nth(node, i: int):
    """The i-th named child or None (tree-sitter 0.26 raises IndexError)."""
    return node.named_child(i) if node is not None and node.named_child_count > i else None


# -- newer syntax the grammar (tree-sitter-typescript 0.23) does not know ------------------------
# Rewritten in a copy of the bytes, same length, so every node keeps its offsets, lines and
# columns; facts are read from the original bytes. Used only when the file does not parse and the
# copy parses cleanly, so code the grammar reads correctly is never reinterpreted.
_WS = rb"[ \t\r\n]"
# `<in T>`, `<out T>`, `<in out T>` (TS 4.7 variance) and `<const T>` (TS 5.0): blank the modifier
_TYPE_PARAM_MODIFIER = re.compile(
    rb"([<,]" + _WS + rb"*(?:(?:/\*.*?\*/|//[^\n]*\n)" + _WS + rb"*)*)(in" + _WS + rb"+out|in|out|const)("
    + _WS + rb"+)(?=[A-Za-z_$][\w$]*" + _WS + rb"*(?:extends\b|=|,|>))",
    re.S,
)
# a generic call signature starting a line after a type member (`f: A` newline `<B>(b: B): C`,
# comment and blank lines between, its type parameters on one line or several): the grammar reads
# `A<B>(...)`; a `;` put in place of one indentation space separates them
# A block comment ends at its first `*/` (``_BLOCK_COMMENT``): a lazy ``/\*.*?\*/`` would retry
# every later `*/` of the file whenever the rest failed to match, quadratic on a bundle with many
# JSDoc blocks (Angular's 1.7 MB core.mjs took minutes).
_BLOCK_COMMENT = rb"/\*(?:[^*]|\*(?!/))*\*/"
_GENERIC_SIGNATURE_LINE = re.compile(
    rb"(?<=[\w$>\])?])([ \t]*\n(?:[ \t]*(?:" + _BLOCK_COMMENT + rb"|//[^\n]*)?[ \t]*\n)*[ \t]*)[ \t]"
    rb"(?=<[ \t\n]*[A-Za-z_$][^();{}]*>[ \t]*\()",
)


# The two patterns above define the rewrite (``reference_blanked``); ``newer_syntax_blanked`` makes
# the same replacements faster (tests/extract_ts/test_blanking.py compares them). Both patterns
# scan slowly: the first tries a match at every `,` and `<` and, where a comment follows, its
# lazy ``/\*.*?\*/`` (with re.S) retries every later `*/` of the file; the second starts with a
# lookbehind, which sre tries at every byte.
_TPM_START = re.compile(rb"[<,]" + _WS + rb"*(?=/[*/]|in|out|const)")  # where a _TYPE_PARAM_MODIFIER match may start
_TPM_TAIL = re.compile(  # _TYPE_PARAM_MODIFIER after its leading `[<,]`, whitespace and comments
    rb"(in" + _WS + rb"+out|in|out|const)(" + _WS + rb"+)(?=[A-Za-z_$][\w$]*" + _WS + rb"*(?:extends\b|=|,|>))"
)
_WS_RUN = re.compile(_WS + rb"*")
# _GENERIC_SIGNATURE_LINE from the newline its lookbehind character is followed by (after
# spaces); the lookahead is what must follow that newline for the rest to match
_GSL_NEWLINE = re.compile(rb"\n(?=[ \t]*(?:/[*/]|\n)|[ \t]+<)")
_GSL_REST = re.compile(
    rb"\n(?:[ \t]*(?:" + _BLOCK_COMMENT + rb"|//[^\n]*)?[ \t]*\n)*[ \t]*[ \t](?=<[ \t\n]*[A-Za-z_$][^();{}]*>[ \t]*\()"
)
_GSL_BEFORE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$>])?")  # its lookbehind


# Words the grammar takes for keywords where they are plain names or newer syntax:
# - ``using`` as a name in an expression (rxjs's ``using(...)`` operator, ``exports.using = using``):
#   the grammar knows only the TS 5.2 declaration ``using x = ...``. The name is renamed ``usin$``
#   in the copy; a declaration (``using`` then a name) is left alone.
# - a predefined type as the only parameter name of a function type, ``(any) => void`` (a
#   parameter named ``any``): its first letter becomes ``_`` in the copy.
# - ``export type * from`` (TS 5.0) and ``import defer * as ns from`` (TS 5.9): the word is blanked,
#   leaving ``export * from`` and ``import * as ns from``.
# Found by the word (a leading lookbehind would be tried at every byte); the character before it
# is checked in code (``_NAME_BYTES``).
_KEYWORD_NAME = re.compile(
    rb"using(?![\w$])(?![ \t]+[A-Za-z_$])"
    rb"|export[ \t]+(type)(?=[ \t]+\*)"
    rb"|import[ \t]+(defer)(?=[ \t]+\*)"
    rb"|\([ \t]*((?:any|unknown|never|string|number|boolean|object|symbol|bigint|undefined)"
    rb"(?=[ \t]*\)[ \t]*=>))"
)
_NAME_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$.")


def _keyword_names_blanked(data: bytes, spans: list[tuple[int, int]] | None = None) -> bytes:
    """``data`` with the ``_KEYWORD_NAME`` constructs rewritten (same length, same lines)."""
    out = None
    for m in _KEYWORD_NAME.finditer(data):
        s = m.start()
        if m.lastindex == 3:  # `(any) =>`: the parenthesis starts the match
            b = m.start(3)
            repl = b"_"
        else:
            if s and data[s - 1] in _NAME_BYTES:
                continue  # part of a longer name, or a member (`x.using`, which parses)
            if m.lastindex is None:  # using
                b, repl = s + 4, b"$"
            else:
                b = m.start(m.lastindex)
                repl = b" " * (m.end(m.lastindex) - b)
        if out is None:
            out = bytearray(data)
        out[b : b + len(repl)] = repl
        if spans is not None:
            spans.append((b, b + len(repl)))
    return data if out is None else bytes(out)


def reference_blanked(data: bytes) -> bytes:
    """What ``newer_syntax_blanked`` returns, by the patterns themselves (slow; for tests)."""
    out = _TYPE_PARAM_MODIFIER.sub(lambda m: m.group(1) + b" " * len(m.group(2)) + m.group(3), data)
    return _keyword_names_blanked(_GENERIC_SIGNATURE_LINE.sub(lambda m: m.group(1) + b";", out))


def newer_syntax_blanked(data: bytes, spans: list[tuple[int, int]] | None = None) -> bytes:
    """``data`` with the constructs above rewritten for the grammar (same length); ``spans``
    (when given) receives the (start, end) byte range of every replacement."""
    return _keyword_names_blanked(_signature_lines_split(_type_param_modifiers_blanked(data, spans), spans), spans)


def _type_param_modifiers_blanked(data: bytes, spans: list[tuple[int, int]] | None = None) -> bytes:
    """``_TYPE_PARAM_MODIFIER.sub(...)``: the same matches, found without retrying comments.

    A match attempt at a `,`/`<` skips whitespace, then tries comments (each followed by
    whitespace) before the modifier, backtracking in order: a `//` comment ends at its line's
    end; a `/*` comment at each later `*/` in turn (``.*?`` with re.S). So the attempt succeeds
    at the first modifier (``_TPM_TAIL``) that this order reaches, which depends only on where
    the comments start: after the ``i``-th `*/` of the file it is ``first[i]``, the first one
    reached after any of the `*/` from the ``i``-th on (computed once, from the end)."""
    ws_end = _WS_RUN.match
    tail = _TPM_TAIL.match
    ends: list[int] = []
    first: list = []

    def reached(p: int):
        """The modifier match the comments at ``p`` lead to first (None: none)."""
        while True:
            if data.startswith(b"/*", p):
                i = bisect_left(ends, p + 2)
                return first[i] if i < len(first) else None
            if data.startswith(b"//", p):
                nl = data.find(b"\n", p + 2)
                if nl < 0:
                    return None
                p = ws_end(data, nl + 1).end()
                continue
            return tail(data, p)

    out = None
    pos = 0
    built = False
    for m in _TPM_START.finditer(data):
        if m.start() < pos:
            continue  # inside the previous match (sub's matches do not overlap)
        a = m.end()
        if data[a] == 0x2F:  # '/': maybe comments first
            if not built:
                built = True
                i = data.find(b"*/")
                while i >= 0:
                    ends.append(i)
                    i = data.find(b"*/", i + 1)
                first = [None] * len(ends)
                nxt = None
                for i in range(len(ends) - 1, -1, -1):
                    r = reached(ws_end(data, ends[i] + 2).end())
                    if r is not None:
                        nxt = r
                    first[i] = nxt
            t = reached(a)
        else:
            t = tail(data, a)
        if t is None:
            continue
        if out is None:
            out = bytearray(data)
        b, e = t.span(1)
        out[b:e] = b" " * (e - b)
        if spans is not None:
            spans.append((b, e))
        pos = t.end()
    return data if out is None else bytes(out)


def _signature_lines_split(data: bytes, spans: list[tuple[int, int]] | None = None) -> bytes:
    """``_GENERIC_SIGNATURE_LINE.sub(...)``: the same matches, tried only at the newlines that
    can start one. A match starts after a lookbehind character and spaces, at a newline: each
    newline has one possible start, and from the newline on the pattern is ``_GSL_REST``."""
    out = None
    pos = 0
    match = _GSL_REST.match
    for c in _GSL_NEWLINE.finditer(data):
        k = c.start()
        if k < pos:
            continue
        j = k
        while j > 0 and data[j - 1] in (0x20, 0x09):
            j -= 1
        if j == 0 or data[j - 1] not in _GSL_BEFORE:
            continue
        m = match(data, k)
        if m is None:
            continue
        if out is None:
            out = bytearray(data)
        out[m.end() - 1] = 0x3B  # ';' in place of the space before `<`
        if spans is not None:
            spans.append((m.end() - 1, m.end()))
        pos = m.end()
    return data if out is None else bytes(out)


def _first_line(text: str, limit: int = 240) -> str:
    text = " ".join(text.split())
    return text[:limit]


class _Builder:
    def __init__(self, path: str, data: bytes, language: str) -> None:
        self.path = path
        self.data = data
        self.module = module_name(path)
        self.pf = ParsedFile(path=path, language=language, module=self.module, content_hash="")
        self.fqns: set[str] = set()
        self.fn_spans: list[tuple[int, int, int]] = []  # (start byte, end byte, symbol index): metrics
        self.metric_caps: dict[str, list] = {}
        self.obj_prefix: dict[int, str] = {}  # object start byte -> its fqn
        self.reassign: list[tuple[int, str, tuple | None]] = []
        self.strs: dict[tuple[int, str], str] = {}  # (scope, name) -> value of `const name = "..."`
        self.stack: list[_Entry] = []
        self.conv_cache: dict[int, tuple | None] = {}
        self.key_base: list[str] = []  # per scope: what its stable key is numbered under
        self.newlines: list[int] | None = None
        # the tree's rows are the lines of ``data`` (False when it is the parse of a copy in which
        # a newline was blanked, ``parse_file``): then ``node.start_point`` gives the line
        self.rows = True
        self.view = memoryview(data)
        # latin-1 maps each byte to one character, so byte offsets are character offsets: a slice
        # that is ASCII is the name itself (others are decoded as UTF-8 from the bytes)
        self.text: str = data.decode("latin-1")
        self.ascii = data.isascii()
        self.parser, self.query = _tools(_GRAMMAR_OF[language])
        self.K = _KINDS[_GRAMMAR_OF[language]]

    def line(self, byte: int) -> int:
        """1-based line of a byte offset (cheaper than ``node.start_point`` for many nodes)."""
        starts = self.newlines
        if starts is None:  # offsets where lines 2, 3, ... start (all C-level work)
            starts = self.newlines = list(accumulate(map((1).__add__, map(len, self.data.split(b"\n")))))
        return bisect_right(starts, byte) + 1

    def _t(self, node) -> str:
        s = self.text[node.start_byte : node.end_byte]
        if s.isascii():
            return s
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def _sv(self, node) -> str | None:
        """The value of a string literal node (quotes stripped), else None."""
        if node is None or node.kind_id != self.K.k_string:
            return None
        t = self._t(node)
        return t[1:-1] if len(t) >= 2 else None

    # -- scopes ---------------------------------------------------------------------------------
    def new_scope(self, fqn: str, parent: int, this: tuple | None = None, key: str | None = None) -> int:
        """``key``: what the scope's stable key is numbered under (default: its fqn)."""
        pf = self.pf
        self.key_base.append(key or fqn)
        pf.scope_parent.append(parent)
        pf.scope_this.append(this)
        pf.scope_fqn.append(fqn)
        pf.bindings.append({})
        return len(pf.bindings) - 1

    def bind(self, scope: int, name: str, value: tuple) -> None:
        b = self.pf.bindings[scope]
        bl = b.get(name)
        if bl is None:
            b[name] = [value]
        else:
            bl.append(value)

    def naming(self) -> _Entry:
        return self.stack[-1].nm

    def var_entry(self) -> _Entry:
        """Where `var` declarations go: the nearest function, namespace or module (not a block)."""
        for e in reversed(self.stack):
            if e.kind in (ENTRY_FUNCTION, ENTRY_MODULE, ENTRY_NS):
                return e
        return self.stack[0]

    def push_block(self, end: int) -> _Entry:
        """A block scope: own bindings; naming, numbering and the caller are the enclosing ones."""
        cur = self.stack[-1]
        fe = cur.fe
        this = cur.this
        fqn = self.pf.scope_fqn[fe.scope]
        scope = self.new_scope(fqn, fe.scope, this, fqn + "{}")
        b = _Entry(end, cur.nm.fqn, ENTRY_BLOCK, scope, this)
        b.nm = cur.nm
        self.stack.append(b)
        return b

    def func_entry(self) -> _Entry:
        return self.stack[-1].fe

    def anon(self, entry: _Entry, what: str, node) -> tuple[str, int]:
        """(FQN, PyCG ordinal) of an anonymous ``what`` (arrow, function, class) written at
        ``node``, named from its context (mnemosyne/parse/anon.py)."""
        if entry.counters is None:
            entry.counters = Namer()
        name, ordinal = entry.counters.name(what, self.anon_context(node))
        return f"{entry.fqn}.{name}", ordinal

    def anon_context(self, node) -> str:
        child = node
        p = node.parent
        while p is not None and p.type in _CONTEXT_THROUGH:
            child, p = p, p.parent
        if p is None:
            return ""
        t = p.type
        if t == "arguments" and p.parent is not None and p.parent.type in ("call_expression", "new_expression"):
            call = p.parent
            fn = call.child_by_field_name("function" if call.type == "call_expression" else "constructor")
            return call_context(self.callee_text(fn), self.first_literal(p))
        if t == "jsx_expression" and p.parent is not None and p.parent.type == "jsx_attribute":
            nm = p.parent.named_child(0)
            return clean(self._t(nm)) if nm is not None else ""
        if t in ("pair", "public_field_definition", "property_signature") and p.child_by_field_name("value") == child:
            return self.target_text(p.child_by_field_name("key" if t == "pair" else "name"))
        if t in ("assignment_expression", "augmented_assignment_expression") and p.child_by_field_name("right") == child:
            return self.target_text(p.child_by_field_name("left"))
        if t == "variable_declarator" and p.child_by_field_name("value") == child:
            return self.target_text(p.child_by_field_name("name"))
        if t in ("required_parameter", "optional_parameter") and p.child_by_field_name("value") == child:
            return self.target_text(p.child_by_field_name("pattern"))
        if t == "return_statement" or (t == "arrow_function" and p.child_by_field_name("body") == child):
            return "return"
        return ""

    def callee_text(self, fn) -> str:
        """A called expression as an anonymous name shows it (``app:get``, ``fetch():then``)."""
        parts: list[str] = []
        suffix = ""
        while fn is not None and len(parts) < 8:
            t = fn.type
            if t in ("identifier", "this", "super"):
                parts.append(self._t(fn) + suffix)
                break
            if t == "member_expression":
                prop = fn.child_by_field_name("property")
                if prop is None:
                    break
                parts.append(self._t(prop) + suffix)
                suffix = ""
                fn = fn.child_by_field_name("object")
            elif t == "call_expression":
                suffix = "()"
                fn = fn.child_by_field_name("function")
            elif t == "non_null_expression":
                fn = fn.named_child(0)
            elif t == "subscript_expression":  # st['throws'](...): a member by a literal key
                key = fn.child_by_field_name("index")
                if key is None or key.type != "string":
                    break
                parts.append(self.data[key.start_byte + 1 : key.end_byte - 1].decode("utf-8", "replace") + suffix)
                suffix = ""
                fn = fn.child_by_field_name("object")
            else:
                break
        return callee(parts[::-1])

    def first_literal(self, args) -> str | None:
        """The first string literal (a template without substitutions too) among a call's arguments."""
        for a in args.named_children:
            if a.type == "string" or (a.type == "template_string" and not any(
                c.type == "template_substitution" for c in a.named_children
            )):
                return literal(self.data[a.start_byte + 1 : a.end_byte - 1].decode("utf-8", "replace"))
        return None

    def target_text(self, node) -> str:
        """What an assignment target, key or parameter names: ``x``, ``this.cb`` -> ``cb``, ``'k'``."""
        if node is None:
            return ""
        t = node.type
        if t in ("identifier", "property_identifier", "private_property_identifier", "shorthand_property_identifier"):
            return clean(self._t(node))
        if t == "member_expression":
            return self.target_text(node.child_by_field_name("property"))
        if t in ("string", "number"):
            raw = self.data[node.start_byte : node.end_byte].decode("utf-8", "replace")
            return literal(raw[1:-1]) if t == "string" else clean(raw)
        if t == "subscript_expression":
            return self.target_text(node.child_by_field_name("index"))
        return ""

    def add_symbol(self, node, fqn: str, name: str, kind: str, parent: str, body=None, ordinal: int = 0) -> None:
        if fqn in self.fqns:
            return
        self.fqns.add(fqn)
        data = self.data
        start = node.start_byte
        sig = ""
        if body is not None:
            sig = _first_line(data[start : min(body.start_byte, start + 600)].decode("utf-8", "replace"))
        doc = ""
        # a JSDoc block right before the definition (or before its `export` / `export default`)
        k = start
        while True:
            j = k
            while j > 0 and data[j - 1] in b" \t\r\n":
                j -= 1
            if j == 0 or data[j - 1] not in b"tce":  # the last letters of the keywords below
                break
            for kw in (b"export", b"default", b"async", b"declare"):
                if data.endswith(kw, 0, j) and (j == len(kw) or data[j - len(kw) - 1] in b" \t\r\n;}"):
                    k = j - len(kw)
                    break
            else:
                break
        if data.endswith(b"*/", 0, j):
            c0 = data.rfind(b"/*", 0, j)
            if c0 >= 0 and data.startswith(b"/**", c0):
                c = data[c0 + 3 : j - 2].decode("utf-8", "replace")
                # each line: strip, lstrip("*"), strip (mapped: no bytecode per line)
                doc = "\n".join(map(_strip, map(_lstrip_stars, map(_strip, c.strip().splitlines())))).strip()
        if self.rows:  # line(start), line(max(start, end - 1)) from the node's points (no line table)
            first = node.start_point[0] + 1
            if node.end_byte > start:
                ep = node.end_point
                last = ep[0] + 1 if ep[1] else ep[0]  # column 0: the last byte is a newline
            else:
                last = first
        else:
            first = self.line(start)
            last = self.line(max(start, node.end_byte - 1))
        self.pf.symbols.append(
            make_symbol(  # Symbol(fqn, name, kind, file, parent, line_start, line_end, signature, ...)
                fqn,
                name,
                kind,
                self.path,
                parent,
                first,
                last,
                sig,
                doc,
                hashlib.sha1(self.view[start : node.end_byte]).hexdigest()[:24],
                ordinal,
            )
        )
        if kind == "function" or kind == "method":
            self.fn_spans.append((start, node.end_byte, len(self.pf.symbols) - 1))

    # -- expressions ----------------------------------------------------------------------------
    def conv(self, node, depth: int = 0) -> tuple | None:
        """The expression encoding of a node (module docstring); calls are memoised by node, so a
        call chain ``a.b().c().d()`` costs linear time although each of its calls is a site."""
        K = self.K
        text = self.text
        while node is not None:
            if depth > _MAX_DEPTH:
                return None
            t = node.kind_id
            if t == K.identifier:
                name = text[node.start_byte : node.end_byte]
                if not name.isascii():
                    name = self._t(node)
                if name == "undefined":
                    return NULL_EXPR
                return (ID, name)
            if t == K.member:
                # a chain a.b.c: walk down to its base, then build ('prop', ...) upwards
                member = K.member
                f_object = K.f_object
                f_property = K.f_property
                props = [node.child_by_field_id(f_property)]
                base = node.child_by_field_id(f_object)
                while base is not None and base.kind_id == member and depth + len(props) <= _MAX_DEPTH:
                    props.append(base.child_by_field_id(f_property))
                    base = base.child_by_field_id(f_object)
                bk = base.kind_id if base is not None and depth + len(props) <= _MAX_DEPTH else -1
                if bk == K.identifier:  # inline conv of the common bases
                    name = text[base.start_byte : base.end_byte]
                    if not name.isascii():
                        name = self._t(base)
                    obj = NULL_EXPR if name == "undefined" else (ID, name)
                elif bk == K.this:
                    obj = THIS_EXPR
                else:
                    obj = self.conv(base, depth + len(props))
                if obj is None:
                    return None
                for prop in reversed(props):
                    if prop is None:
                        return None
                    name = text[prop.start_byte : prop.end_byte]
                    obj = (PROP, obj, name if name.isascii() else self._t(prop))
                return obj
            if t == K.call:
                key = node.id
                cache = self.conv_cache
                if key in cache:
                    return cache[key]
                r = cache[key] = self._conv_call(node, depth)
                return r
            if t == K.new:
                inner = self.conv(node.child_by_field_id(K.f_constructor), depth + 1)
                return (NEW, inner) if inner is not None else None
            if t == K.this:
                return THIS_EXPR
            if t == K.super:
                return SUPER_EXPR
            if t in K.unwrap:
                node = _nth(node, 0)
                depth += 1
                continue
            if t == K.as_expr:
                ty = self.conv_type(_nth(node, 1))
                if ty is not None:
                    return (TYPE, ty)
                node = _nth(node, 0)
                depth += 1
                continue
            if t in K.defs:
                return (DEFAT, node.start_byte)
            if t == K.k_assignment_expression:  # a = b = f: the value assigned
                node = node.child_by_field_id(K.f_right)
                depth += 1
                continue
            if t == K.ternary or t == K.binary:
                # `c ? a : b`, `a ?? b`, `a || b`: one of two values
                if t == K.ternary:
                    a, b = node.child_by_field_id(K.f_consequence), node.child_by_field_id(K.f_alternative)
                else:
                    op = node.child_by_field_id(K.f_operator)
                    if op is None or self.data[op.start_byte : op.end_byte] not in (b"??", b"||"):
                        return None
                    a, b = node.child_by_field_id(K.f_left), node.child_by_field_id(K.f_right)
                ea = self.conv(a, depth + 1) if a is not None else None
                eb = self.conv(b, depth + 1) if b is not None else None
                return (EITHER, ea, eb) if ea is not None and eb is not None else None
            if t in K.nulls or t in K.literals:
                return NULL_EXPR
            if t == K.k_array:
                return self.array_literal(node, depth)
            t = node.type
            if t == "subscript_expression":
                idx = node.child_by_field_id(self.K.f_index)
                key = self.index_key(idx)
                obj = self.conv(node.child_by_field_id(self.K.f_object), depth + 1)
                if obj is None:
                    return None
                if key is None and idx is not None and idx.kind_id == K.k_number and idx.text.isdigit():
                    return (AT, obj, int(idx.text))  # pair[1]: that element, if pair is a literal
                return (PROP, obj, key) if key is not None else (ELEM, obj)
            return None
        return None

    def array_literal(self, node, depth: int) -> tuple | None:
        """``[a, f, ...rest]``: ``('alit', elements)``, each element's expression at its position
        (None: a hole or not an expression we encode; ``('...', e)``: a spread, after which
        positions are unknown). Longer literals are data, not a tuple of values: None."""
        if node.named_child_count > _MAX_ARRAY_LITERAL:
            return None
        K = self.K
        out: list = []
        pending = True  # no element yet since the last comma
        for ch in node.children:
            ck = ch.kind_id
            if ch.is_named:
                if ck == K.k_comment:
                    continue
                if ck == K.k_spread_element:
                    inner = _nth(ch, 0)
                    out.append((SPREAD, self.conv(inner, depth + 1)) if inner is not None else None)
                else:
                    out.append(self.conv(ch, depth + 1))
                pending = False
            elif ch.type == ",":
                if pending:
                    out.append(None)  # a hole: [, b]
                pending = True
        return (ALIT, tuple(out))

    def _conv_call(self, node, depth: int) -> tuple | None:
        K = self.K
        fn = node.child_by_field_id(K.f_function)
        if fn is None:
            return None
        data = self.data
        fe = fn.end_byte
        fk = fn.kind_id
        if fk == K.identifier and data[fn.start_byte : fe] == b"require":
            spec = self.require_spec(node)
            return (REQUIRE, spec) if spec is not None else None
        if fk == K.import_:
            spec = self.require_spec(node)
            return (DYNAMIC_IMPORT, spec) if spec is not None else None
        inner = self.conv(fn, depth + 1)
        if inner is None:
            return None
        if inner[0] == PROP and inner[2] == "slice":
            cut = self._slice_bounds(node)
            if cut is not None:  # xs.slice(1): the elements from 1 on, if xs is a known literal
                return (FROM, inner[1], *cut, True)
        if data.endswith(_WRAPPERS, 0, fe):
            # memo(C) / forwardRef(fn) / observer(C): keep the wrapped component
            args = node.child_by_field_id(K.f_arguments)
            a0 = _nth(args, 0)
            if a0 is not None:
                return (CALL, inner, self.conv(a0, depth + 1))
        return (CALL, inner)

    def _slice_bounds(self, call) -> tuple[int, int | None] | None:
        """(start, end) of ``x.slice(start[, end])`` with non-negative integer literals, else None."""
        args = call.child_by_field_id(self.K.f_arguments)
        if args is None or not 1 <= args.named_child_count <= 2:
            return None
        bounds = []
        for a in args.named_children:
            if a.kind_id != self.K.k_number or not a.text.isdigit():
                return None
            bounds.append(int(a.text))
        return bounds[0], (bounds[1] if len(bounds) > 1 else None)

    def conv_type(self, node, depth: int = 0) -> tuple | None:
        K = self.K
        while node is not None and depth < 50:
            t = node.kind_id
            if t == K.k_type_annotation:
                node = _nth(node, 0)
            elif t == K.k_type_identifier or t == K.identifier:
                return (ID, self._t(node))
            elif t == K.k_nested_type_identifier:
                mod = node.child_by_field_id(K.f_module)
                name = node.child_by_field_id(K.f_name)
                inner = self.conv(mod, depth + 1) if mod is not None else None
                if inner is None or name is None:
                    return None
                return (PROP, inner, self._t(name))
            elif t == K.k_generic_type:
                name = node.child_by_field_id(K.f_name)
                nt = name.text if name is not None else b""
                if nt in (b"Promise", b"Array", b"ReadonlyArray"):
                    args = node.child_by_field_id(K.f_type_arguments)
                    node = _nth(args, 0) if args is not None and args.named_child_count == 1 else None
                    if nt != b"Promise":  # an array, of elements of a known type or not
                        return (TYPE_ARRAY, self.conv_type(node, depth + 1) if node is not None else None)
                else:
                    node = name
            elif t == K.k_array_type:
                return (TYPE_ARRAY, self.conv_type(_nth(node, 0), depth + 1))
            elif t == K.k_readonly_type:
                node = _nth(node, 0)
            elif t == K.k_parenthesized_type:
                node = _nth(node, 0)
            elif t == K.k_type_query:  # typeof X: the value X itself, not an instance
                inner = self.conv(_nth(node, 0))
                return (TYPEOF, inner) if inner is not None else None
            elif t == K.k_union_type:
                # `T | undefined` / `T | null` is T; `A | B` a union of known types
                rest = []
                stack = [node]
                union, literal, predefined, nulls = K.k_union_type, K.k_literal_type, K.k_predefined_type, K.nulls
                while stack and len(rest) < 9:
                    u = stack.pop()
                    for ch in u.named_children:
                        ck = ch.kind_id
                        if ck == union:
                            stack.append(ch)
                        elif ck == literal and ch.named_child_count and ch.named_child(0).kind_id in nulls:
                            continue
                        elif ck == predefined and self._t(ch) in ("undefined", "null", "void"):
                            continue
                        else:
                            rest.append(ch)
                if len(rest) == 1:
                    node = rest[0]
                elif 1 < len(rest) < 9:
                    # `A | B`: each member type, if every one is known (for `x.m()` to reach each `m`)
                    members = tuple(self.conv_type(r, depth + 1) for r in rest)
                    return (UNION, members) if all(m is not None for m in members) else None
                else:
                    node = None
            else:
                return None
            depth += 1
        return None

    def require_spec(self, call) -> str | None:
        args = call.child_by_field_id(self.K.f_arguments)
        if args is None or args.named_child_count != 1:
            return None
        return self._sv(_nth(args, 0))

    # -- objects --------------------------------------------------------------------------------
    def object_literal(self, node, depth: int = 0) -> tuple | None:
        """An object literal passed as an argument, ``('olit', ((key, expr), ...))`` (nested
        literals alike): what a parameter's members hold (``_Ctx.passed``)."""
        if depth > 8:
            return None
        members = []
        K = self.K
        for ch in node.named_children:
            ck = ch.kind_id
            if ck == K.k_pair:
                key = self.object_key(ch.child_by_field_id(K.f_key))
                val = ch.child_by_field_id(K.f_value)
                if key is None or val is None:
                    continue
                e = self.object_literal(val, depth + 1) if val.kind_id == K.k_object else self.conv(val)
                if e is not None:
                    members.append((key, e))
            elif ck == K.k_method_definition:
                key = self.key_name(ch.child_by_field_id(K.f_name))
                if key is not None:
                    members.append((key, (DEFAT, ch.start_byte)))
            elif ch.type == "shorthand_property_identifier":
                name = self._t(ch)
                members.append((name, (ID, name)))
        return (OLIT, tuple(members)) if members else None

    def register_object(self, node, prefix: str, scope: int, depth: int = 0) -> None:
        if depth > 60 or node.start_byte in self.obj_prefix:
            return
        self.obj_prefix[node.start_byte] = prefix
        self.pf.defs_at[node.start_byte] = (DEF, prefix, DEF_OBJ)
        members: dict[str, tuple] = {}
        spreads: list[tuple] = []
        for ch in node.named_children:
            t = ch.type
            if t == "spread_element":  # { ...a, k: f }: a's members too
                x = self.conv(_nth(ch, 0))
                if x is not None:
                    spreads.append(x)
                continue
            if t == "pair":
                key = self.object_key(ch.child_by_field_id(self.K.f_key))
                val = ch.child_by_field_id(self.K.f_value)
                if key is None or val is None:
                    continue
                if val.type == "object":
                    self.register_object(val, f"{prefix}.{key}", scope, depth + 1)
                e = self.conv(val)
                if e is not None:
                    members[key] = e
            elif t == "method_definition":
                key = self.key_name(ch.child_by_field_id(self.K.f_name))
                if key is not None:
                    members[key] = (DEFAT, ch.start_byte)
            elif t == "shorthand_property_identifier":
                name = self._t(ch)
                members[name] = (ID, name)
        if spreads:
            members[SPREADS] = (SPREADS_OF, tuple(spreads))
        self.pf.objects[prefix] = (scope, members)

    def index_key(self, node) -> str | None:
        """The key ``o[node]`` names: a string literal, or a name holding one (``const_str``)."""
        if node is not None and node.kind_id == self.K.identifier:
            return self.const_str(self._t(node))
        return self._sv(node)

    def object_key(self, node) -> str | None:
        """A key of an object literal: a name, a string, or a computed ``["k"]`` / ``[K]`` with
        ``const K = "k"`` (``const_str``)."""
        if node is not None and node.type == "computed_property_name":
            inner = _nth(node, 0)
            if inner is None:
                return None
            if inner.kind_id == self.K.identifier:
                return self.const_str(self._t(inner))
            return self._sv(inner)
        return self.key_name(node)

    def const_str(self, name: str) -> str | None:
        """The string a name declared so far holds when it is a ``const`` of a string literal."""
        s = self.stack[-1].fe.scope
        bindings, parents = self.pf.bindings, self.pf.scope_parent
        while s >= 0:
            if name in bindings[s]:
                return self.strs.get((s, name)) if len(bindings[s][name]) == 1 else None
            s = parents[s]
        return None

    def local_object(self, node) -> str | None:
        """The fqn of the object literal that name ``node`` holds, when it is bound (so far, in an
        enclosing scope) once, to an object literal: ``const registry = {}``."""
        if node is None or node.kind_id != self.K.identifier:
            return None
        name = self._t(node)
        s = self.stack[-1].fe.scope
        bindings, parents = self.pf.bindings, self.pf.scope_parent
        while s >= 0:
            bl = bindings[s].get(name)
            if bl is not None:
                if len(bl) != 1 or bl[0][0] != VAR or bl[0][2] is None or bl[0][2][0] != DEFAT:
                    return None
                d = self.pf.defs_at.get(bl[0][2][1])
                return d[1] if d is not None and d[2] == DEF_OBJ and d[1] in self.pf.objects else None
            s = parents[s]
        return None

    def add_member(self, fqn: str, key: str, e: tuple | None) -> None:
        """Object ``fqn`` gets member ``key`` = ``e`` (written in the current scope) later
        (``registry.onLog = log``): for a key it had, one more of its values (``('also', ...)``:
        those known of them; as before such assignments were read, an unknown one adds nothing);
        ``Object.assign(o, src)`` with key ``SPREADS``: ``e`` is one more source of members."""
        scope0, members = self.pf.objects[fqn]
        scope = self.stack[-1].fe.scope
        if e is not None and scope != scope0:
            e = (IN, scope, e)
        old = members.get(key)
        if key == SPREADS:
            members[key] = (SPREADS_OF, (old[1] if old is not None else ()) + ((e,) if e is not None else ()))
        elif old is None:
            members[key] = e if e is not None else UNKNOWN_BINDING
        elif e is not None:  # the values known of those assigned (as an unknown one added none)
            members[key] = (ALSO, old, e)

    def key_name(self, node) -> str | None:
        if node is None:
            return None
        t = node.kind_id
        if t in self.K.key_kinds:
            return self._t(node)
        if t == self.K.k_string:
            return self._sv(node)
        return None

    # -- patterns -------------------------------------------------------------------------------
    def bind_pattern(self, scope: int, node, value: tuple | None = None) -> None:
        """Bind every name a destructuring pattern introduces (``pattern_names``)."""
        out: list[tuple[str, tuple | None]] = []
        self.pattern_names(node, value, out, 0)
        for name, v in out:
            self.bind(scope, name, (VAR, None, v, scope) if v is not None else UNKNOWN_BINDING)

    def pattern_names(self, node, value: tuple | None, out: list, depth: int) -> None:
        """The names a destructuring pattern of ``value`` assigns, each with what it gets (None:
        unknown): object keys keep a member path (``('prop', value, key)``), array elements their
        position (``('at', value, i)``), a rest element the ones after (``('from', ...)``); a
        default is unknown."""
        if node is None or depth > 60:
            return
        t = node.type
        if t in ("identifier", "shorthand_property_identifier_pattern"):
            out.append((self._t(node), value))
        elif t == "object_pattern":
            for ch in node.named_children:
                ct = ch.type
                if ct == "shorthand_property_identifier_pattern":
                    name = self._t(ch)
                    out.append((name, (PROP, value, name) if value is not None else None))
                elif ct == "pair_pattern":
                    key = self.key_name(ch.child_by_field_id(self.K.f_key))
                    sub = (PROP, value, key) if (value is not None and key is not None) else None
                    self.pattern_names(ch.child_by_field_id(self.K.f_value), sub, out, depth + 1)
                elif ct == "object_assignment_pattern":
                    self.pattern_names(ch.child_by_field_id(self.K.f_left), None, out, depth + 1)
                else:
                    self.pattern_names(ch, None, out, depth + 1)
        elif t == "array_pattern":  # const [value, toggle] = useToggle(): each element by position
            pos = 0
            for ch in node.children:
                if ch.is_named:
                    if ch.kind_id != self.K.k_comment:
                        if value is None:
                            at = None
                        elif ch.kind_id == self.K.k_rest_pattern:  # [x, ...rest]: the elements from here on
                            at = (FROM, value, pos, None, False)
                        else:
                            at = (AT, value, pos)
                        self.pattern_names(ch, at, out, depth + 1)
                elif ch.type == ",":
                    pos += 1
        elif t == "rest_pattern":  # the value is what the enclosing array pattern gives it
            for ch in node.named_children:
                self.pattern_names(ch, value if value is not None and value[0] == FROM else None, out, depth + 1)
        elif t == "assignment_pattern":
            self.pattern_names(node.child_by_field_id(self.K.f_left), None, out, depth + 1)

    def element_params(self, fn, args) -> tuple[tuple | None, tuple[int, ...]]:
        """A callback passed first to an array method (``items.map(x => ...)``): the receiver's
        expression and which parameters are its elements (contextual typing); for
        ``p.then(v => ...)``, ``('then', p)`` and the first parameter; else (None, ()).
        ``args``: ``fn.parent`` (the caller has it: ``Node.parent`` searches from the root)."""
        K = self.K
        if args is None or args.kind_id != K.k_arguments or _nth(args, 0) != fn:
            return None, ()
        call = args.parent
        callee = call.child_by_field_id(K.f_function) if call is not None and call.kind_id == K.call else None
        if callee is None or callee.kind_id != K.member:
            return None, ()
        prop = callee.child_by_field_id(self.K.f_property)
        pname = self._t(prop) if prop is not None else None
        if pname == "then":  # promise.then(v => ...): v is what the promise resolves to
            recv = self.conv(callee.child_by_field_id(self.K.f_object))
            return ((THEN, recv), (0,)) if recv is not None else (None, ())
        which = _ELEMENT_PARAMS.get(pname) if pname is not None else None
        if which is None:
            return None, ()
        recv = self.conv(callee.child_by_field_id(self.K.f_object))
        return (recv, which) if recv is not None else (None, ())

    def bind_params(self, scope: int, fn, cls: ClassInfo | None, is_ctor: bool, outer: int = -1, parent=None) -> None:
        """``parent``: ``fn.parent``."""
        K = self.K
        ft = fn.kind_id
        if ft == K.k_arrow_function or ft == K.k_function_expression:
            recv, elems = self.element_params(fn, parent)
        else:
            recv, elems = None, ()
        elem = (VAR, None, (ELEM, recv), outer) if recv is not None else None  # evaluated where the call is
        single = fn.child_by_field_id(K.f_parameter)
        if single is not None:
            if elem is not None and single.kind_id == K.identifier:
                self.bind(scope, self._t(single), elem)
            elif single.kind_id == K.identifier:
                self.bind(scope, self._t(single), (PARAM, 0, scope))
            else:
                self.bind_pattern(scope, single)
            return
        params = fn.child_by_field_id(K.f_parameters)
        if params is None:
            return
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
                tyexpr = self.conv_type(ty) if ty is not None else None
                if tyexpr in _OPAQUE_TYPES:  # `desc: PropertyDescriptor`: what the callers pass
                    tyexpr = None
                name = self._t(pat)
                if tyexpr is None and elem is not None and i in elems:
                    self.bind(scope, name, elem)
                    continue
                # a parameter of no type we can name: what the callers pass (a callback: ``param_values``)
                if tyexpr is not None:
                    self.bind(scope, name, (VAR, tyexpr, None, scope))
                elif ty is None or _may_hold_ours(_nth(ty, 0)):
                    self.bind(scope, name, (PARAM, i, scope))
                else:  # `n: number`, `s: "a" | "b"`: never one of our functions or objects
                    self.bind(scope, name, UNKNOWN_BINDING)
                if is_ctor and cls is not None:
                    first = _nth(p, 0)
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
            else:  # function f({ onDone }): members of what the callers pass (``_Ctx.param_path``)
                self.bind_pattern(scope, pat, (PVAL, i, scope))

    # -- the walk -------------------------------------------------------------------------------
    def run(self, root) -> None:
        pf = self.pf
        mscope = self.new_scope(self.module, -1)
        self.fqns.add(self.module)
        self.pf.symbols.append(
            make_symbol(  # Symbol(fqn, name, kind, file, parent, line_start, line_end, signature, doc, body_hash)
                self.module,
                self.module.rsplit("/", 1)[-1],
                "module",
                self.path,
                self.path,
                1,
                root.end_point[0] + 1,
                "",
                "",
                self.pf.content_hash,
            )
        )
        self.stack.append(_Entry(root.end_byte + 1, self.module, ENTRY_MODULE, mscope, None))
        query = self.query
        caps = QueryCursor(query).captures(root)
        self.metric_caps = caps  # its mdec / mblk captures: parse/metrics.py
        handlers = _HANDLERS  # capture name -> _Builder method (called with self)
        # document order; a node before what it contains; captures of one node by rank (_RANK):
        # one int key per capture, (start << w) | (top - end) with top >= every end byte; the
        # captures are added by rank (each name's in capture order) and the stable sort keeps ties
        items: list = []
        w = len(self.data).bit_length()
        top = (1 << w) - 1
        for name in _BY_RANK:
            nodes = caps.get(name)
            if nodes:
                h = handlers[name]
                items.extend([((n.start_byte << w) | (top - n.end_byte), h, n) for n in nodes])
        items.sort(key=_first)
        stack = self.stack
        for key, handler, node in items:
            start = key >> w
            while start >= stack[-1].end and len(stack) > 1:
                stack.pop()
            try:
                handler(self, node)
            except RecursionError:  # pragma: no cover - guarded by depth limits
                pf.warnings.append(f"{self.path}:{node.start_point[0] + 1}: expression too deeply nested, skipped")
        if pf.sites:  # node -> its line
            if self.rows:
                pf.sites = [(sc, k, e, n.start_point[0] + 1) for sc, k, e, n in pf.sites]
            else:
                self.line(0)
                starts = self.newlines
                pf.sites = [(sc, k, e, bisect_right(starts, n.start_byte) + 1) for sc, k, e, n in pf.sites]
        if pf.call_args:
            self.unalias_calls()
        seen: dict[str, int] = {}
        keys = pf.scope_key
        for f in self.key_base:
            n = seen.get(f, 0)
            seen[f] = n + 1
            keys.append((f, n))
        # reassignments: attach to the binding visible from their scope
        for scope, name, expr in self.reassign:
            s = scope
            while s >= 0:
                if name in pf.bindings[s]:
                    pf.bindings[s][name].append((VAR, None, expr, scope))
                    break
                s = pf.scope_parent[s]

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
            if fqn is None:
                fqn, ordinal = self.anon(top, "function", node)
                name = fqn.rsplit(".", 1)[-1]
                kind = "lambda"
                if key is None and self.iterator_key(name_node):  # [Symbol.iterator]() { ... }
                    if cls is not None:
                        cls.members.setdefault(ITERATOR, []).append((METHOD, fqn))
                    elif ptype == K.k_object:
                        prefix = self.obj_prefix.get(parent.start_byte)
                        if prefix is not None:
                            self.pf.objects[prefix][1][ITERATOR] = (DEFAT, node.start_byte)
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
                    fqn, ordinal = self.anon(top, "function", node)
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
                    elif not arrow:  # C.prototype.m = function () { this ... }: `this` is a C
                        proto = self.prototype_member(left)
                        if proto is not None:
                            this = (THIS_CLS, proto[0].fqn)
                if fqn is None and own is not None:
                    name = self._t(own)
                    fqn = f"{top.fqn}.{name}"
                if fqn is None:
                    fqn, ordinal = self.anon(top, "arrow" if arrow else "function", node)
                    name = fqn.rsplit(".", 1)[-1]
                    kind = "lambda"
            if arrow:
                this = top.this  # lexical this (a class entry's this is the class)
        assert fqn is not None and name is not None
        self.pf.defs_at[node.start_byte] = (DEF, fqn, DEF_FUNC)
        body = node.child_by_field_id(K.f_body)
        parent_key = member_of or (self.path if top.kind in (ENTRY_MODULE, ENTRY_NS) else top.fqn)
        self.add_symbol(node, fqn, name, kind, parent_key, body, ordinal)
        scope = self.new_scope(fqn, fe.scope, this)
        entry = _Entry(node.end_byte, fqn, ENTRY_FUNCTION, scope, this)
        self.stack.append(entry)
        self.bind_params(scope, node, cls, is_ctor, cur.scope, parent)
        entry.this = self.pf.scope_this[scope]  # a declared `this: T` parameter is seen by arrows
        rt = node.child_by_field_id(K.f_return_type)
        ann = self.conv_type(rt) if rt is not None else None
        if self.returns_promise(node, rt, body):
            self.pf.asyncs.add(fqn)
        rets: list = []
        if body is not None and body.kind_id != K.k_statement_block:
            rets.append(self.conv(body))
        if acc != SETTER or fqn not in self.pf.returns:  # a setter shares its getter's FQN
            self.pf.returns[fqn] = (scope, rets, ann)

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
            anon_fqn, ordinal = self.anon(top, "class", node)
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
        ce = _Entry(node.end_byte, fqn, ENTRY_CLASS, fe.scope, (THIS_CLS, fqn), info)
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

    def site(self, kind: str, expr: tuple | None, node) -> None:
        if expr is None:
            return
        self.pf.sites.append((self.stack[-1].fe.scope, kind, expr, node))  # node -> line in run()

    def on_call(self, fn) -> None:
        """``fn`` is the callee expression of a call_expression."""
        K = self.K
        ft = fn.kind_id
        if ft == K.identifier or ft == K.member or ft == K.call:
            if ft == K.identifier and self.data[fn.start_byte : fn.end_byte] == b"require":
                call = fn.parent
                spec = self.require_spec(call) if call is not None else None
                if spec is not None:
                    self.pf.specs.append((spec, self.line(fn.start_byte)))
                    return
            e = self.conv(fn)
            if e is None:
                return
            scope = self.stack[-1].fe.scope
            self.pf.sites.append((scope, SITE_CALL, e, fn))
            if e[0] != ID and e[0] != PROP:
                if e[0] == CALL:  # make()(x): what a returned (maybe anonymous) function is given
                    self.record_call_args(scope, e, fn)
                return
            # what the arguments may pass (found once: ``Node.parent`` searches from the root)
            call = fn.parent
            args = call.child_by_field_id(K.f_arguments) if call is not None else None
            if args is None or args.kind_id != K.k_arguments or not args.named_child_count:
                return
            self.record_args(scope, e, args)
            if e in _CALLBACK_GLOBALS:  # setTimeout(f): the runtime calls f for us
                self.builtin_callback(scope, e, args, fn)
                return
            if e == _ARRAY_FROM and args.named_child_count > 1:  # Array.from(xs, f): f maps each element
                cb = self.conv(_nth(args, 1))
                if cb is not None:
                    self.pf.sites.append((scope, SITE_BCB, (e, cb), fn))
                return
            if e[0] != PROP:
                return
            name = e[2]
            if (name == "push" or name == "unshift") and e[1][0] == PROP and e[1][1] == THIS_EXPR:
                self.field_items(scope, e[1][2], args)
            if name == "assign" and e[1] == _OBJECT:
                self.object_assign(args)
            if name in _PROMISE_METHODS:  # fetch(u).then(f): the promise calls f
                for a in args.named_children[:2]:
                    cb = self.conv(a)
                    if cb is not None:
                        self.pf.sites.append((scope, SITE_PCB, (e, cb), fn))
            if name in _ELEMENT_PARAMS:  # items.map(f): the array calls the function it is given
                cb = self.conv(_nth(args, 0))
                if cb is not None:  # ([a, b].forEach(f): the receiver is an ('alit', ...) literal)
                    self.pf.sites.append((scope, SITE_CB, (e, cb), fn))
            return
        t = fn.type
        if t in ("parenthesized_expression", "function_expression", "arrow_function"):
            e = self.conv(fn)
            if e is not None and e[0] == DEFAT:  # (function (cb) { ... })(f): an IIFE's arguments
                self.record_call_args(self.stack[-1].fe.scope, e, fn)
        if t == "import":
            call = fn.parent
            spec = self.require_spec(call) if call is not None else None
            if spec is not None:
                self.pf.specs.append((spec, self.line(fn.start_byte)))
            return
        if t == "super":
            self.site(SITE_SUPER, SUPER_EXPR, fn)
            return
        self.site(SITE_CALL, self.conv(fn), fn)

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
        become members of it (a class's as ``('mixin', scope, src)`` under ``SPREADS``)."""
        target = _nth(args, 0)
        fqn = self.local_object(target)
        info = self.prototype_of(target, functions=True) if fqn is None else None
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
            else:
                self.add_member(fqn, SPREADS, x)

    def prototype_member(self, left) -> tuple[ClassInfo, str] | None:
        """(the constructor's ClassInfo, m) for an assignment target ``F.prototype.m`` with F a
        class, or a function of this file (``function Shape() {}``, ``ns.Widget = function
        () {}``): F's instances have the member (ES5 classes; ``_Ctx.eval`` of ``new F()``)."""
        if left is None or left.kind_id != self.K.member:
            return None
        prop = left.child_by_field_id(self.K.f_property)
        if prop is None or prop.type != "property_identifier":
            return None
        info = self.prototype_of(left.child_by_field_id(self.K.f_object), functions=True)
        return (info, self._t(prop)) if info is not None else None

    def prototype_of(self, node, functions: bool = False) -> ClassInfo | None:
        """The class of this file whose ``prototype`` ``node`` is (``C.prototype``, C bound to the
        class declaration in an enclosing scope); with ``functions``, also a constructor
        function's (``function_class``: ``F.prototype``, ``ns.F.prototype``)."""
        if node is None or node.kind_id != self.K.member:
            return None
        prop = node.child_by_field_id(self.K.f_property)
        obj = node.child_by_field_id(self.K.f_object)
        if prop is None or obj is None or self._t(prop) != "prototype":
            return None
        if obj.kind_id == self.K.member and functions:  # ns.Widget.prototype
            fqn = self.local_object(obj.child_by_field_id(self.K.f_object))
            key = obj.child_by_field_id(self.K.f_property)
            x = self.pf.objects[fqn][1].get(self._t(key)) if fqn is not None and key is not None else None
            if x is not None and x[0] == IN:
                x = x[2]
            d = self.pf.defs_at.get(x[1]) if x is not None and x[0] == DEFAT else None
            return self.function_class(d[1], self.pf.objects[fqn][0]) if d is not None and d[2] == DEF_FUNC else None
        if obj.kind_id != self.K.identifier:
            return None
        name = self._t(obj)
        s = self.stack[-1].fe.scope
        while s >= 0:
            bl = self.pf.bindings[s].get(name)
            if bl is not None:
                d = bl[0] if len(bl) == 1 else None
                if d is not None and d[0] == VAR and d[2] is not None and d[2][0] == DEFAT:
                    d = self.pf.defs_at.get(d[2][1])  # var Shape = function () {}
                if d is None or d[0] != DEF:
                    return None
                if d[2] == DEF_CLASS:
                    return self.pf.classes.get(d[1])
                return self.function_class(d[1], s) if d[2] == DEF_FUNC and functions else None
            s = self.pf.scope_parent[s]
        return None

    def function_class(self, fqn: str, scope: int) -> ClassInfo:
        """The ClassInfo of a constructor function (its prototype's members), made on first use."""
        info = self.pf.classes.get(fqn)
        if info is None:
            info = self.pf.classes[fqn] = ClassInfo(fqn=fqn, path=self.path, scope=scope)
        return info

    def field_items(self, scope: int, name: str, args) -> None:
        """``this.listeners.push(cb)`` in a method (``args``: its arguments node): the field holds
        the values pushed, as items (``("item", scope, expr)`` class members; ``for (const l of
        this.listeners) l()``)."""
        this = self.stack[-1].this
        info = self.pf.classes.get(this[1]) if this is not None and this[0] == THIS_CLS else None
        if info is None:
            return
        for a in args.named_children:
            x = self.conv(a)
            if x is not None:
                info.members.setdefault(name, []).append((ITEM, scope, x))

    def record_call_args(self, scope: int, e: tuple, fn) -> None:
        """``record_args`` for a call of a function that has no name there (``make()(x)``, an
        IIFE): filed under ``CALLED_AT_ONCE``."""
        call = fn.parent
        args = call.child_by_field_id(self.K.f_arguments) if call is not None else None
        if args is not None and args.kind_id == self.K.k_arguments and args.named_child_count:
            self.record_args(scope, e, args, CALLED_AT_ONCE)

    def record_args(self, scope: int, e: tuple, args, name: str | None = None) -> None:
        """``pf.call_args`` for a call (or ``new``) of ``e`` (a name or a member) with the
        arguments node ``args`` (not empty), when an argument may be a function: a name, a member,
        a function or arrow written there, an object literal, a ``new`` or a call."""
        if name is None:
            name = e[2] if e[0] == PROP else e[1]
        out = []
        some = False
        K = self.K
        for a in args.named_children:
            ak = a.kind_id
            if ak == K.k_object:
                x = self.object_literal(a)
            elif ak == K.k_spread_element:  # f(...args): the elements of args, in place
                inner = _nth(a, 0)
                x = self.conv(inner) if inner is not None else None
                x = (SPREAD, x) if x is not None else None
            elif ak == K.identifier or ak == K.member or ak in K.defs or ak == K.new or ak == K.call or ak == K.k_array:
                x = self.conv(a)
            elif a.type == "comment":
                continue
            else:
                out.append(None)
                continue
            some |= x is not None
            out.append(x)
        if some:
            self.pf.call_args.setdefault(name, []).append((scope, e, tuple(out)))

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

    def builtin_callback(self, scope: int, e: tuple, args, node) -> None:
        """A "bcb" site at ``node``: the first of ``args``, given to a builtin that calls it
        (``new Promise(f)``, ``setTimeout(f)``), resolved only if the callee is the builtin
        (``_Ctx.run_site``)."""
        cb = self.conv(_nth(args, 0))
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
            key = _nth(ch, 0)
            val = _nth(ch, 1)
            if key is None or val is None or key.type != "property_identifier" or val.type != "jsx_expression":
                continue
            x = self.conv(_nth(val, 0)) if val.named_child_count else None
            if x is not None:
                members.append((self._t(key), x))
        if members:
            name = e[2] if e[0] == PROP else e[1]
            self.pf.call_args.setdefault(name, []).append((self.stack[-1].fe.scope, e, ((OLIT, tuple(members)),)))

    def on_dec(self, node) -> None:
        # decorators run when the class is defined: inside a method (parameter decorators) the
        # calls belong to the scope enclosing the class, so push a transparent entry until the end
        if self.stack[-1].kind != ENTRY_CLASS:
            for e in reversed(self.stack):
                if e.kind == ENTRY_CLASS:
                    if e.counters is None:
                        e.counters = Namer()
                    d = _Entry(node.end_byte, e.fqn, ENTRY_CLASS, e.scope, None, e.cls)
                    d.fe = e.fe
                    d.counters = e.counters
                    self.stack.append(d)
                    break
        inner = _nth(node, 0)
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

    def on_import(self, node) -> None:
        K = self.K
        src = self._sv(node.child_by_field_id(K.f_source))
        if src is None:
            req = _nth(node, 0)
            if req is None or req.kind_id != K.k_import_require_clause:
                return
            src = self._sv(req.child_by_field_id(K.f_source))
            if src is None:
                return
        self.pf.specs.append((src, node.start_point[0] + 1))
        scope = 0
        for clause in node.named_children:
            if clause.kind_id == K.k_import_require_clause:  # import x = require("y")
                ident = _nth(clause, 0)
                if ident is not None:
                    self.bind(scope, self._t(ident), (VAR, None, (REQUIRE, src), 0))
                continue
            if clause.kind_id != K.k_import_clause:
                continue
            for ch in clause.named_children:
                ct = ch.kind_id
                if ct == K.identifier:
                    self.bind(scope, self._t(ch), (IMPORT, src, IMPORT_DEFAULT))
                elif ct == K.k_namespace_import:
                    ident = _nth(ch, 0)
                    if ident is not None:
                        self.bind(scope, self._t(ident), (IMPORT, src, IMPORT_ALL))
                elif ct == K.k_named_imports:
                    for sp in ch.named_children:
                        if sp.kind_id != K.k_import_specifier:
                            continue
                        nm = sp.child_by_field_id(K.f_name)
                        al = sp.child_by_field_id(K.f_alias)
                        if nm is None:
                            continue
                        imported = self._sv(nm) if nm.kind_id == K.k_string else self._t(nm)
                        if imported is None:
                            continue
                        self.bind(scope, self._t(al) if al is not None else imported, (IMPORT, src, imported))

    def on_export(self, node) -> None:
        K = self.K
        pf = self.pf
        if self.func_entry().kind == ENTRY_NS:
            return  # exported from a namespace, not from the module
        src = self._sv(node.child_by_field_id(K.f_source))
        if src is not None:
            pf.specs.append((src, node.start_point[0] + 1))
            star = True
            for ch in node.named_children:
                if ch.kind_id == K.k_export_clause:
                    star = False
                    for sp in ch.named_children:
                        if sp.kind_id != K.k_export_specifier:
                            continue
                        nm = sp.child_by_field_id(K.f_name)
                        al = sp.child_by_field_id(K.f_alias)
                        if nm is None:
                            continue
                        imported = self.key_name(nm) or self._t(nm)
                        exported = self.key_name(al) or self._t(al) if al is not None else imported
                        pf.exports[exported] = (IMPORT, src, imported)
                elif ch.kind_id == K.k_namespace_export:
                    star = False
                    ident = _nth(ch, 0)
                    if ident is not None:
                        pf.exports[self.key_name(ident) or self._t(ident)] = (IMPORT, src, IMPORT_ALL)
            if star:
                pf.stars.append(src)
            return
        decl = node.child_by_field_id(K.f_declaration)
        if decl is not None:
            dt = decl.kind_id
            if dt == K.k_lexical_declaration or dt == K.k_variable_declaration:
                for d in decl.named_children:
                    if d.kind_id == K.k_variable_declarator:
                        nm = d.child_by_field_id(K.f_name)
                        if nm is not None and nm.kind_id == K.identifier:
                            pf.exports[self._t(nm)] = (LOCAL, self._t(nm))
            else:
                nm = decl.child_by_field_id(K.f_name)
                if nm is not None and not self.is_default_export(node):
                    pf.exports[self._t(nm)] = (LOCAL, self._t(nm))
            return
        value = node.child_by_field_id(K.f_value)
        if value is not None:
            vt = value.type
            if vt == "identifier":
                pf.exports["default"] = (LOCAL, self._t(value))
            elif vt == "object":
                self.register_object(value, f"{self.module}.default", 0)
                pf.exports["default"] = (DEFAT, value.start_byte)
            elif vt in ("arrow_function", "function_expression", "class", "function"):
                pass  # named 'default' by on_fn / on_cls
            else:
                pf.exports["default"] = (EXPR, self.conv(value), self.func_entry().scope)
            return
        for ch in node.named_children:
            if ch.kind_id == K.k_export_clause:
                for sp in ch.named_children:
                    if sp.kind_id != K.k_export_specifier:
                        continue
                    nm = sp.child_by_field_id(K.f_name)
                    al = sp.child_by_field_id(K.f_alias)
                    if nm is None:
                        continue
                    local = self._t(nm)
                    pf.exports[self._t(al) if al is not None else local] = (LOCAL, local)
            elif ch.kind_id == K.identifier:  # export = x
                pf.exports["default"] = (LOCAL, self._t(ch))
                pf.cjs_whole = True

    def on_var(self, node) -> None:
        nm = node.child_by_field_id(self.K.f_name)
        if nm is None:
            return
        K = self.K
        fe = self.func_entry()
        if fe.kind == ENTRY_BLOCK:
            decl = node.parent
            if decl is not None and decl.kind_id == K.k_variable_declaration:
                fe = self.var_entry()  # `var` is function-scoped
        value = node.child_by_field_id(K.f_value)
        ty = node.child_by_field_id(K.f_type)
        if nm.kind_id == K.identifier:
            name = self._t(nm)
            vexpr = None
            if value is not None and value.kind_id == K.k_string:
                decl = node.parent
                if decl is not None and decl.kind_id == K.k_lexical_declaration and decl.child(0).type == "const":
                    sv = self._sv(value)
                    if sv is not None:  # const KEY = "run": what `{ [KEY]: f }` and `o[KEY]` name
                        self.strs[(fe.scope, name)] = sv
            if value is not None:
                if value.kind_id == K.k_object:
                    self.register_object(value, f"{self.naming().fqn}.{name}", fe.scope)
                vexpr = self.conv(value)
            texpr = self.conv_type(ty) if ty is not None else None
            if vexpr is None and texpr is None:
                self.bind(fe.scope, name, DECL_BINDING if value is None else UNKNOWN_BINDING)
            else:
                self.bind(fe.scope, name, (VAR, texpr, vexpr, fe.scope))
        else:
            vexpr = self.conv(value) if value is not None else None
            self.bind_pattern(fe.scope, nm, vexpr)

    def on_assign(self, node) -> None:
        left = node.child_by_field_id(self.K.f_left)
        right = node.child_by_field_id(self.K.f_right)
        if left is None:
            return
        fe = self.func_entry()
        lt = left.type
        if lt == "identifier":
            self.reassign.append((fe.scope, self._t(left), self.conv(right) if right is not None else None))
            return
        if lt == "array_pattern" or lt == "object_pattern":  # [p, q] = [q, p]: each name reassigned
            out: list[tuple[str, tuple | None]] = []
            rv = self.conv(right) if right is not None else None
            self.pattern_names(left, rv, out, 0)
            if rv is not None and rv[0] == ALIT:
                # a swap: the right side is read before the names change, so a name assigned here
                # and read on the right is the values it had so far (``('snap', ...)``)
                names = {n for n, _v in out}
                snap = (ALIT, tuple(self.snapshot(x, names, fe.scope) for x in rv[1]))
                if snap != rv:
                    out = []
                    self.pattern_names(left, snap, out, 0)
            for name, v in out:
                self.reassign.append((fe.scope, name, v))
            return
        if lt == "subscript_expression":  # registry["on-trace"] = f
            key = self.index_key(left.child_by_field_id(self.K.f_index))
            obj = self.local_object(left.child_by_field_id(self.K.f_object)) if key is not None else None
            if obj is not None:
                self.add_member(obj, key, self.conv(right) if right is not None else None)
            return
        if lt != "member_expression":
            return
        target = self.cjs_target(left)
        if target is not None:
            pf = self.pf
            if target == "":
                if right is not None and right.type == "object":
                    self.register_object(right, self.module, 0)
                    _scope, members = pf.objects[self.module]
                    for k, e in members.items():
                        pf.exports[k] = (EXPR, e, 0)
                elif right is not None and right.type in ("arrow_function", "function_expression", "class"):
                    pf.exports["default"] = (DEFAT, right.start_byte)
                    pf.cjs_whole = True
                elif right is not None:
                    pf.exports["default"] = (EXPR, self.conv(right), fe.scope)
                    pf.cjs_whole = True
            elif right is not None:
                pf.exports[target] = (EXPR, self.conv(right), fe.scope)
            return
        obj = left.child_by_field_id(self.K.f_object)
        prop = left.child_by_field_id(self.K.f_property)
        proto = self.prototype_member(left)
        if proto is not None:  # Shape.prototype.area = function () {}: a method of Shape's instances
            e = self.conv(right) if right is not None else None
            proto[0].members.setdefault(proto[1], []).append((FIELD, fe.scope, e))
        if obj is not None and obj.kind_id == self.K.identifier and prop is not None:
            fqn = self.local_object(obj)  # registry.onLog = log: a member added to an object literal
            if fqn is not None:
                self.add_member(fqn, self._t(prop), self.conv(right) if right is not None else None)
        if obj is not None and obj.type == "this" and prop is not None:
            this = self.stack[-1].this
            if this is not None and this[0] == THIS_CLS:
                info = self.pf.classes.get(this[1])
                if info is not None:
                    e = self.conv(right) if right is not None else None
                    info.members.setdefault(self._t(prop), []).append((FIELD, fe.scope, e))
        le = self.conv(left)
        if le is not None:
            self.site(SITE_SET, le, left)

    def snapshot(self, x: tuple | None, names: set[str], scope: int) -> tuple | None:
        """``('snap', name, scope, n)``: the first ``n`` bindings of ``name`` (those so far) in
        the scope it is bound in, when ``x`` is a name in ``names``; else ``x``."""
        if x is None or x[0] != ID or x[1] not in names:
            return x
        s = scope
        while s >= 0:
            bl = self.pf.bindings[s].get(x[1])
            if bl is not None:
                return (SNAP, x[1], s, len(bl))
            s = self.pf.scope_parent[s]
        return x

    def on_field(self, node) -> None:
        top = self.naming()
        if top.kind != ENTRY_CLASS or top.cls is None:
            return
        key = self.key_name(node.child_by_field_id(self.K.f_name))
        if key is None:
            return
        value = node.child_by_field_id(self.K.f_value)
        if value is not None and value.type in ("arrow_function", "function_expression"):
            return  # a method-like member, recorded by on_fn
        ty = node.child_by_field_id(self.K.f_type)
        texpr = self.conv_type(ty) if ty is not None else None
        fe = self.func_entry()
        members = top.cls.members.setdefault(key, [])
        if texpr is not None:
            members.append((FIELD, fe.scope, (TYPE, texpr)))
        if value is not None:
            if value.type == "object":
                self.register_object(value, f"{top.fqn}.{key}", fe.scope)
            members.append((FIELD, fe.scope, self.conv(value)))

    def on_ret(self, node) -> None:
        e = self.stack[-1].nm
        if e.kind != ENTRY_FUNCTION:
            return
        r = self.pf.returns.get(e.fqn)
        if r is None:
            return
        val = _nth(node, 0)
        r[1].append(self.conv(val) if val is not None else NULL_EXPR)

    def on_yield(self, node) -> None:
        """``yield x`` in a generator: ``('yield', x)`` among its returns (a call of it gives the
        values yielded, ``_Ctx._call_result``); ``yield* xs``: the elements of xs."""
        e = self.stack[-1].nm
        r = self.pf.returns.get(e.fqn) if e.kind == ENTRY_FUNCTION else None
        if r is None:
            return
        val = _nth(node, 0)
        x = self.conv(val) if val is not None else None
        if x is not None and any(c.type == "*" for c in node.children):
            x = (ELEM, x)
        r[1].append((YIELD, x))

    def on_spread(self, node) -> None:
        """``[...xs]`` / ``f(...xs)``: iterating xs (an "iter" site: its ``[Symbol.iterator]``)."""
        inner = _nth(node, 0)
        self.site(SITE_ITER, self.conv(inner) if inner is not None else None, node)

    def iterator_key(self, name_node) -> bool:
        """``[Symbol.iterator]`` (or ``asyncIterator``) as a method's name."""
        if name_node is None or name_node.type != "computed_property_name":
            return False
        inner = _nth(name_node, 0)
        return inner is not None and self.data[inner.start_byte : inner.end_byte] in _ITERATOR_KEYS

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
        self.stack.append(_Entry(node.end_byte, fqn, ENTRY_NS, scope, None))

    def on_member(self, node) -> None:
        """A property read that is not part of a longer chain: may run a getter."""
        e = self.conv(node)  # the query only captures reads in value positions
        if e is not None:
            self.pf.sites.append((self.stack[-1].fe.scope, SITE_GET, e, node))

    def on_block(self, node) -> None:
        self.push_block(node.end_byte)  # the query captures no function or namespace bodies

    def on_forin(self, node) -> None:
        left = node.child_by_field_id(self.K.f_left)
        kind = node.child_by_field_id(self.K.f_kind)
        if kind is not None and kind.type == "var":
            scope = self.var_entry().scope
        else:
            scope = self.push_block(node.end_byte).scope
        op = node.child_by_field_id(self.K.f_operator)
        if op is not None and op.type == "of":  # for (x of obj): obj[Symbol.iterator]() and its next()
            self.site(SITE_ITER, self.conv(node.child_by_field_id(self.K.f_right)), node)
        if left is not None and left.type == "identifier" and op is not None and op.type == "of":
            right = self.conv(node.child_by_field_id(self.K.f_right))
            if right is not None:  # for (const x of items): an element of items
                self.bind(scope, self._t(left), (VAR, None, (ELEM, right), scope))
                return
        self.bind_pattern(scope, left)

    def on_catch(self, node) -> None:
        p = node.child_by_field_id(self.K.f_parameter)
        if p is not None:
            self.bind_pattern(self.push_block(node.end_byte).scope, p)


_HANDLERS = {
    "fn": _Builder.on_fn,
    "cls": _Builder.on_cls,
    "iface": _Builder.on_iface,
    "call": _Builder.on_call,
    "new": _Builder.on_new,
    "jsx": _Builder.on_jsx,
    "dec": _Builder.on_dec,
    "import": _Builder.on_import,
    "export": _Builder.on_export,
    "var": _Builder.on_var,
    "assign": _Builder.on_assign,
    "field": _Builder.on_field,
    "ret": _Builder.on_ret,
    "yield": _Builder.on_yield,
    "spread": _Builder.on_spread,
    "forin": _Builder.on_forin,
    "catch": _Builder.on_catch,
    "member": _Builder.on_member,
    "ns": _Builder.on_ns,
    "block": _Builder.on_block,
}


def parse_file(path: str, data: bytes, digest: str | None = None) -> ParsedFile:
    """Parse one source file. Never raises on bad input: problems become warnings.
    ``digest``: ``content_hash(data)`` when the caller has it already."""
    if digest is None:
        from mnemosyne.hashing import content_hash

        digest = content_hash(data)
    language = LANGUAGE_OF.get(suffix_of(path), "typescript")
    b = _Builder(path, data, language)
    b.pf.content_hash = digest
    warnings = b.pf.warnings
    if not b.ascii:  # ASCII is valid UTF-8
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            warnings.append(f"{path}: not valid UTF-8 (byte {exc.start}); undecodable bytes replaced")
    tree = b.parser.parse(data)
    root = tree.root_node
    if root.has_error:
        spans: list[tuple[int, int]] = []
        patched = newer_syntax_blanked(data, spans)
        if patched != data:
            old = _edited_copy(b, tree, spans)
            retry = b.parser.parse(patched) if old is None else b.parser.parse(patched, old)
            # variance / const modifiers, generic call signatures: kept when it is a better parse
            if not retry.root_node.has_error or _error_nodes(root, _error_nodes(retry.root_node)) > 0:
                tree, root = retry, retry.root_node
                b.rows = old is not None  # None: a replacement blanked a newline
    if root.has_error:
        line = _first_error_line(root)
        warnings.append(f"{path}: syntax error near line {line}; extracted what parsed")
    b.run(root)
    if b.fn_spans:  # code metrics of the functions and methods (parse/metrics.py)
        syms = b.pf.symbols
        for i, m in measure_ts(root, data, b.fn_spans, b.metric_caps).items():
            syms[i] = dataclasses.replace(syms[i], complexity=m[0], loc=m[1], params=m[2], nesting=m[3])
    return b.pf


def _edited_copy(b: _Builder, tree, spans: list[tuple[int, int]]):
    """A copy of ``tree`` told of the replacements ``spans`` (same length, ``newer_syntax_blanked``),
    for an incremental parse of the patched bytes: the parser reuses the subtrees they do not
    touch (about half the cost of parsing the copy afresh; the same tree). The copy keeps
    ``tree`` intact for when the retry is not better. None (a fresh parse) when a replacement
    blanks a newline (``in`` newline ``out``): the rows after it move."""
    data = b.data
    if any(data.find(b"\n", s0, e0) >= 0 for s0, e0 in spans):
        return None
    old = tree.copy()
    b.line(0)
    starts = b.newlines
    for s0, e0 in spans:
        r = bisect_right(starts, s0)  # 0-based row of the replacement (all on one line)
        col = s0 - (starts[r - 1] if r else 0)
        p0, p1 = Point(r, col), Point(r, col + e0 - s0)
        old.edit(start_byte=s0, old_end_byte=e0, new_end_byte=e0, start_point=p0, old_end_point=p1, new_end_point=p1)
    return old


def _error_nodes(root, minus: int = 0) -> int:
    """ERROR and MISSING nodes in the tree (only subtrees that have errors are entered), less
    ``minus``; the count stops at 1 (enough to say the tree has more than ``minus``)."""
    n = -minus
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            n += 1
            if n > 0 and minus:
                return n
        if node.has_error:
            stack.extend(node.children)
    return n


def _first_error_line(root) -> int:
    cur = root.walk()
    while True:
        n = cur.node
        if n.type == "ERROR" or n.is_missing:
            return n.start_point[0] + 1
        if n.has_error and cur.goto_first_child():
            continue
        while not cur.goto_next_sibling():
            if not cur.goto_parent():
                return root.start_point[0] + 1
