"""The tree-sitter Python grammar as the walk reads it: the language and a parser per thread, node
kind ids -> names, field ids, and the per-kind tables the walk dispatches on (``ACT``, ``EK``, ``MK``)."""

from __future__ import annotations

import threading

import tree_sitter_python as _tsp
from tree_sitter import Language, Parser

from mnemosyne.parse.metrics import PY_METRIC_KINDS
from mnemosyne.parse.python.tags import (
    ACT_METRIC,
    ACT_PAREN,
    ACT_SKIP,
    ACT_SPECIAL,
    ACT_STRING,
    ACT_WALK,
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
)

LANGUAGE = Language(_tsp.language())
_LOCAL = threading.local()  # a Parser is not shareable between threads: one per thread

# statements and expressions testing a value's truth: ``bool(v)``, i.e. its class's ``__bool__``,
# else ``__len__`` (``SiteRecorder.truth``)
TRUTH_TESTS = frozenset({
    "if_statement", "elif_clause", "while_statement", "if_clause", "assert_statement", "conditional_expression",
    "not_operator", "boolean_operator",
})
_SPECIAL = frozenset({
    "ERROR", "assignment", "attribute", "augmented_assignment", "call", "class_definition", "decorated_definition",
    "except_clause", "for_in_clause", "for_statement", "function_definition", "future_import_statement",
    "global_statement", "import_from_statement", "import_statement", "keyword_argument", "lambda",
    "named_expression", "nonlocal_statement", "raise_statement", "return_statement", "string", "with_item", "yield",
    "binary_operator", "comparison_operator", "unary_operator", "subscript", "delete_statement", "interpolation",
    "type_alias_statement", "as_pattern", "case_clause",
}) | TRUTH_TESTS

# node kind id -> type name (ids are much cheaper to read than Node.type; 65535 is ERROR)
KN: list[str] = [""] * 65536
for _i in range(LANGUAGE.node_kind_count):
    KN[_i] = LANGUAGE.node_kind_for_id(_i) or ""
KN[65535] = "ERROR"
MARK_ID = 65534  # not a grammar kind: the walk's narrowing marks (``sites._Mark``)
KN[MARK_ID] = "<narrow>"


def _field_id(name: str) -> int:
    fid = LANGUAGE.field_id_for_name(name)
    if fid is None:  # the installed tree-sitter-python is not the grammar this walk was written for
        raise ImportError(f"tree-sitter-python has no field {name!r}: install the version pyproject.toml names")
    return fid


_FID = {n: _field_id(n) for n in (
    "function", "arguments", "object", "attribute", "name", "value", "left", "right", "type", "body",
    "alias", "definition", "parameters", "return_type", "superclasses", "module_name", "key", "subscript",
    "operator", "operators", "argument", "condition", "consequence", "alternative", "subject",
)}
F_FUNCTION, F_ARGUMENTS, F_OBJECT, F_ATTRIBUTE = _FID["function"], _FID["arguments"], _FID["object"], _FID["attribute"]
F_VALUE, F_LEFT, F_RIGHT, F_NAME, F_TYPE = _FID["value"], _FID["left"], _FID["right"], _FID["name"], _FID["type"]
F_BODY, F_ALIAS, F_DEFINITION, F_PARAMETERS = _FID["body"], _FID["alias"], _FID["definition"], _FID["parameters"]
F_RETURN_TYPE, F_SUPERCLASSES, F_MODULE_NAME = _FID["return_type"], _FID["superclasses"], _FID["module_name"]
F_KEY, F_SUBSCRIPT = _FID["key"], _FID["subscript"]
F_OPERATOR, F_OPERATORS, F_ARGUMENT = _FID["operator"], _FID["operators"], _FID["argument"]
F_CONDITION = _FID["condition"]
F_CONSEQUENCE, F_ALTERNATIVE, F_SUBJECT = _FID["consequence"], _FID["alternative"], _FID["subject"]

# node types the walk never needs to enter
_SKIP = frozenset({
    "identifier", "comment", "string_content", "string_start", "string_end", "escape_sequence", "integer", "float",
    "true", "false", "none", "pass_statement", "break_statement", "continue_statement", "ellipsis",
    "import_prefix", "dotted_name", "keyword_separator", "positional_separator", "wildcard_import",
    "future_import_statement", "type_conversion", "line_continuation",
})

# node kind id -> what the walk does with it (an ``ACT_*`` code)
ACT: list[int] = [ACT_WALK] * 65536
for _i, _t in enumerate(KN):
    if _t in _SKIP:
        ACT[_i] = ACT_SKIP
    elif _t == "string":
        ACT[_i] = ACT_STRING
    elif _t in ("parenthesized_expression", "pattern_list", "tuple_pattern", "list_pattern"):
        ACT[_i] = ACT_PAREN  # (targets: `x[0], self.y = ...` stores, as the assignment's own target does)
    elif _t in _SPECIAL:
        ACT[_i] = ACT_SPECIAL
ACT[MARK_ID] = ACT_SPECIAL
# metrics (parse/metrics.py): node kind id -> METRIC_DECISION / METRIC_BLOCK bits; a kind the walk
# otherwise only walks through gets ACT_METRIC (recorded, then walked like ACT_WALK)
MK: list[int] = [0] * 65536
for _i, _t in enumerate(KN):
    MK[_i] = PY_METRIC_KINDS.get(_t, 0)
    if MK[_i] and ACT[_i] == ACT_WALK:
        ACT[_i] = ACT_METRIC

# node kind id -> what expr() needs to tell apart, an ``EK_*`` code (cheaper than comparing names)
_EK_OF = {
    "identifier": EK_IDENTIFIER, "attribute": EK_ATTRIBUTE, "call": EK_CALL, "keyword_argument": EK_KEYWORD,
    "list_splat": EK_LIST_SPLAT, "dictionary_splat": EK_DICT_SPLAT, "string": EK_STRING, "comment": EK_COMMENT,
    "argument_list": EK_ARGUMENT_LIST,
}
EK: list[int] = [EK_OTHER] * 65536
for _i, _t in enumerate(KN):
    EK[_i] = _EK_OF.get(_t, EK_OTHER)

# ACT with the anonymous node types (tokens) skipped, for lists of all the children of a node
ACTW: list[int] = list(ACT)
for _i in range(LANGUAGE.node_kind_count):
    if not LANGUAGE.node_kind_is_named(_i):
        ACTW[_i] = ACT_SKIP

def thread_parser() -> Parser:
    p = getattr(_LOCAL, "parser", None)
    if p is None:
        p = _LOCAL.parser = Parser(LANGUAGE)
    return p
