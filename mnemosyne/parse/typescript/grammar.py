"""The TypeScript / TSX grammars: which files are sources and of which language, the one query
that finds every node the visit handles, the parsers (one per thread) and the node kind and field
ids of each grammar (``Kinds``: ``node.kind_id`` is ~20x cheaper than ``node.type``)."""

from __future__ import annotations

import threading

import tree_sitter_typescript as _tst
from tree_sitter import Language, Parser, Query

from mnemosyne.parse.metrics import TS_QUERY_SRC

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
GRAMMAR_OF = {"typescript": "typescript", "tsx": "tsx", "javascript": "tsx"}

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
(call_expression) @call
(new_expression) @new
(decorator) @dec
(import_statement) @import
(export_statement) @export
(variable_declarator) @var
(assignment_expression) @assign
(public_field_definition) @field
(return_statement) @ret
(yield_expression) @yield
(ternary_expression) @tern
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
(class_static_block body: (statement_block) @sblock)
(arguments (member_expression) @member)
(variable_declarator value: (member_expression) @member)
(return_statement (member_expression) @member)
(binary_expression (member_expression) @member)
(unary_expression (member_expression) @member)
(template_substitution (member_expression) @member)
(pair value: (member_expression) @member)
(expression_statement (member_expression) @member)
(parenthesized_expression (member_expression) @member)
(array (member_expression) @member)
(spread_element (member_expression) @member)
(await_expression (member_expression) @member)
"""
# ``call`` captures the call expression, its callee (the ``function`` child, named) is found by
# ``visit.run`` (``calls_captured``): the callee's handlers then know the call without
# ``Node.parent`` (a search from the root, ~5 K instructions each), and the pattern
# ``(call_expression function: (_) @call)`` cost the query's compilation ~20 M more
# the members that are the right side of an assignment or an arrow's body are captured ``member``
# by ``visit.run`` from the ``assign`` and ``fn`` captures: the same nodes, and a pattern with one of
# those parents cost the query's compilation (tree-sitter's analysis of the grammar, once per
# process) ~44 M instructions on the TSX grammar (a binary expression's operands stay in the query:
# capturing every binary expression to find them cost more than its pattern, ~39 M); a ternary's
# members are found from the ``tern`` captures (the pattern ``(ternary_expression
# (member_expression) @member)`` cost the compilation ~21 M, a pattern of one node next to
# nothing; the metrics' ``mdec`` captures hold the ternaries too, among 14 k others on vite); an
# array's (or arguments') members and spreads as one pattern with alternatives, one analysis of
# the parent instead of two, compiled 12 M cheaper but the captures cost 27 M more on vite

_JSX_QUERY_SRC = """
(jsx_opening_element) @jsx
(jsx_self_closing_element) @jsx
(jsx_expression (member_expression) @member)
"""
# order of captures that share a node span: definitions before what they contain
_RANK = {n: i for i, n in enumerate(
    "export ns fn cls iface block sblock var field assign ret yield forin catch import call new jsx dec spread member".split())}

BY_RANK = sorted(_RANK, key=_RANK.__getitem__)
_STATE: dict[str, tuple[Language, Query]] = {}
_LOCAL = threading.local()


class Kinds:
    """Node kind and field ids of one grammar: ``node.kind_id`` is ~20x cheaper than ``node.type``."""

    # named kinds compared often, ``k_<type name>`` (every kind_id a node has is the one its type
    # name maps to, aliases included: ``kind_id == k_x`` is ``type == "x"``), and field ids,
    # ``f_<field name>`` (``child_by_field_id`` is ~2x cheaper than ``child_by_field_name``): each
    # set by ``__init__`` for the names annotated here (``_NAMED_KINDS``, ``_FIELDS``)
    k_arguments: int
    k_array: int
    k_array_pattern: int
    k_array_type: int
    k_arrow_function: int
    k_assignment_expression: int
    k_assignment_pattern: int
    k_class: int
    k_class_body: int
    k_class_heritage: int
    k_comment: int
    k_export_clause: int
    k_export_specifier: int
    k_export_statement: int
    k_extends_clause: int
    k_function_declaration: int
    k_function_expression: int
    k_generator_function_declaration: int
    k_generic_type: int
    k_implements_clause: int
    k_import_clause: int
    k_import_require_clause: int
    k_import_specifier: int
    k_lexical_declaration: int
    k_literal_type: int
    k_method_definition: int
    k_named_imports: int
    k_namespace_export: int
    k_namespace_import: int
    k_nested_type_identifier: int
    k_number: int
    k_object: int
    k_object_assignment_pattern: int
    k_object_pattern: int
    k_optional_parameter: int
    k_pair: int
    k_pair_pattern: int
    k_parenthesized_expression: int
    k_parenthesized_type: int
    k_predefined_type: int
    k_public_field_definition: int
    k_readonly_type: int
    k_required_parameter: int
    k_rest_pattern: int
    k_sequence_expression: int
    k_shorthand_property_identifier: int
    k_shorthand_property_identifier_pattern: int
    k_spread_element: int
    k_statement_block: int
    k_string: int
    k_type_annotation: int
    k_type_identifier: int
    k_type_query: int
    k_union_type: int
    k_variable_declaration: int
    k_variable_declarator: int
    k_default: int  # the keyword
    f_alias: int
    f_alternative: int
    f_consequence: int
    f_arguments: int
    f_body: int
    f_condition: int
    f_constructor: int
    f_declaration: int
    f_finalizer: int
    f_function: int
    f_handler: int
    f_index: int
    f_key: int
    f_kind: int
    f_left: int
    f_module: int
    f_name: int
    f_object: int
    f_operator: int
    f_parameter: int
    f_parameters: int
    f_pattern: int
    f_property: int
    f_return_type: int
    f_right: int
    f_source: int
    f_type: int
    f_type_arguments: int
    f_value: int

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
        for n in _NAMED_KINDS:
            kid = k(n)
            assert kid >= 0, n
            setattr(self, "k_" + n, kid)
        self.key_kinds = frozenset(
            k(n) for n in ("property_identifier", "identifier", "private_property_identifier", "number")
        )
        self.k_default = lang.id_for_node_kind("default", False) or -1  # the keyword
        for f in _FIELDS:
            fid = lang.field_id_for_name(f)
            assert fid is not None, f
            setattr(self, "f_" + f, fid)


_NAMED_KINDS = tuple(a[2:] for a in Kinds.__annotations__ if a.startswith("k_") and a != "k_default")
_FIELDS = tuple(a[2:] for a in Kinds.__annotations__ if a.startswith("f_"))
KINDS: dict[str, Kinds] = {}


def tools(grammar: str) -> tuple[Parser, Query]:
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
            KINDS[grammar] = Kinds(lang)
            shared = _STATE[grammar] = (lang, Query(lang, src))
        t = per_thread[grammar] = (Parser(shared[0]), shared[1])
    return t


def nth(node, i: int):
    """The i-th named child or None (tree-sitter 0.26 raises IndexError)."""
    return node.named_child(i) if node is not None and node.named_child_count > i else None


def suffix_of(path: str) -> str:
    base = path.rsplit("/", 1)[-1]
    dot = base.rfind(".")
    return base[dot:] if dot > 0 else ""



def module_name(path: str) -> str:
    """Graph-model §3: repo-relative path without extension; an index file is its folder."""
    suf = suffix_of(path)
    stem = path[: -len(suf)] if suf else path
    if stem == "index":
        return "index"
    if stem.endswith("/index"):
        return stem[: -len("/index")]
    return stem
