"""JSDoc types of JavaScript: ``@param {Help} helper`` and ``@returns {Help}`` name the type a
parameter holds and a call returns, and ``@type {Help}`` the type of a variable or of a field
assigned in a method, as a TypeScript annotation does (``helper: Help``).

JavaScript has no annotations, and much of what is published on npm is JavaScript typed by JSDoc
(commander's ``formatHelp(cmd, helper)`` calls ``helper.visibleOptions(cmd)`` on the
``@param {Help} helper``). Only types that name a class or an object of the program can help:
a plain name or a dotted one (``Help``, ``ns.Help``), another module's (``import("./help.js").Help``,
or a name ``@typedef`` / ``@import`` binds), nullable or optional (``?Help``, ``Help=``,
``Help | null``), or an array of one (``Help[]``, ``Array<Help>``); ``@returns {Promise<Help>}``
is a promise of one. Primitives, ``Object``, ``Function``, ``*``, unions of two types and
``@template`` parameters give nothing: the parameter is then what the callers pass, as before. The module is pure text: the builder finds the comment
(``Scopes.doc_before``) and turns the names into its type expressions (``type_expr``).
"""

from __future__ import annotations

import re

from mnemosyne.parse.typescript.tags import DYNAMIC_IMPORT, ID, IMPORT, PROP, TYPE_ARRAY

# ``@param {T} name``, ``@param {T} [name]``, ``@param {T} [name=dflt]`` (``@arg``, ``@argument``)
_PARAM = re.compile(r"@(?:param|arg|argument)\s+\{([^{}]*)\}\s+\[?\s*([A-Za-z_$][\w$]*)(?![\w$.])")
_RETURNS = re.compile(r"@returns?\s+\{([^{}]*)\}")
_TYPE = re.compile(r"@type\s+\{([^{}]*)\}")
_PROMISE_OF = re.compile(r"Promise\.?<\s*(.*?)\s*>")
# ``@template T``, ``@template T, U``, ``@template {Base} T``: type parameters, no type of their own
_TEMPLATE = re.compile(r"@template\s+(?:\{[^{}]*\}\s*)?([A-Za-z_$][\w$]*(?:\s*,\s*[A-Za-z_$][\w$]*)*)")
_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)?")
# ``import("./help.js").Help``: a type of another module, inline or in a typedef
_IMPORT_TYPE = re.compile(r"""import\(\s*["']([^"']+)["']\s*\)\.([A-Za-z_$][\w$]*)""")
# ``@typedef {import("./help.js").Help} Help`` / ``@typedef { import("./help.js").Help }`` alone
_TYPEDEF = re.compile(
    r"""@typedef\s*\{\s*import\(\s*["']([^"']+)["']\s*\)\.([A-Za-z_$][\w$]*)\s*\}\s*([A-Za-z_$][\w$]*)?"""
)
# ``@import { Help, Option as Opt } from "./help.js"`` (TypeScript 5.5's JSDoc import)
_AT_IMPORT = re.compile(r"""@import\s*\{([^{}]*)\}\s*from\s*["']([^"']+)["']""")
_ARRAY_OF = re.compile(r"(?:Array\.?<\s*(.+?)\s*>|(.+?)\[\])")
#: names that never hold one of the program's functions or objects, or say nothing of which
_NOTHING = frozenset(
    (
        "string", "String", "number", "Number", "boolean", "Boolean", "symbol", "Symbol", "bigint", "BigInt",
        "undefined", "null", "void", "never", "any", "unknown", "object", "Object", "function", "Function",
        "Array", "RegExp", "Date", "Promise",
    )
)  # fmt: skip


def _simple(t: str) -> str | None:
    """``?Help`` / ``!Help`` / ``Help=`` / ``Help | null`` / ``(Help)`` -> ``Help``; None for
    anything else."""
    t = t.strip().strip("()").strip()
    parts = [p.strip().lstrip("?!").rstrip("=").strip() for p in t.split("|")]
    parts = [p for p in parts if p and p not in ("null", "undefined", "void")]
    if len(parts) != 1:
        return None
    return parts[0]


def type_expr(text: str) -> tuple | None:
    """The type expression (the parser's tags) of a JSDoc type, or None when it names nothing
    that could be the program's."""
    t = _simple(text)
    if t is None:
        return None
    m = _IMPORT_TYPE.fullmatch(t)
    if m is not None:
        return (PROP, (DYNAMIC_IMPORT, m.group(1)), m.group(2))
    m = _ARRAY_OF.fullmatch(t)
    if m is not None:
        inner = type_expr(m.group(1) or m.group(2))
        return (TYPE_ARRAY, inner) if inner is not None else None
    if not _NAME.fullmatch(t) or t in _NOTHING:
        return None
    head, _, member = t.partition(".")
    return (PROP, (ID, head), member) if member else (ID, head)


def _templates(doc: str) -> set[str]:
    if "@template" not in doc:
        return set()
    return {n.strip() for m in _TEMPLATE.finditer(doc) for n in m.group(1).split(",")}


def _named(te: tuple | None, templates: set[str]) -> tuple | None:
    """``te`` unless it is (an array of) a type parameter (``@template T``: ``{T}`` says nothing)."""
    inner = te[1] if te is not None and te[0] == TYPE_ARRAY else te
    if inner is not None and inner[0] == ID and inner[1] in templates:
        return None
    return te


def param_types(doc: str) -> dict[str, tuple]:
    """``@param`` types of a JSDoc comment, by parameter name (nested ``options.x`` left out)."""
    out: dict[str, tuple] = {}
    if "@" not in doc:
        return out
    templates = _templates(doc)
    for m in _PARAM.finditer(doc):
        te = _named(type_expr(m.group(1)), templates)
        if te is not None:
            out.setdefault(m.group(2), te)
    return out


def return_type(doc: str) -> tuple[tuple | None, bool]:
    """The ``@returns`` (``@return``) type of a JSDoc comment, and whether it is a promise: of
    ``Promise<T>``, T (what awaiting the call gives, as an annotation's) and True."""
    m = _RETURNS.search(doc) if "@return" in doc else None
    if m is None:
        return None, False
    t = m.group(1).strip()
    p = _PROMISE_OF.fullmatch(t)
    return _named(type_expr(p.group(1) if p is not None else t), _templates(doc)), p is not None


def declared_type(doc: str) -> tuple | None:
    """The ``@type`` of a JSDoc comment (``/** @type {Help} */ const h = make()``,
    ``/** @type {Option[]} */ this.options = []``)."""
    m = _TYPE.search(doc) if "@type" in doc else None
    return _named(type_expr(m.group(1)), _templates(doc)) if m is not None else None


def type_imports(text: str) -> list[tuple[str, tuple]]:
    """The type names a JavaScript file's JSDoc comments import from other modules, as import
    bindings: ``@typedef {import("./help.js").Help} Help`` and ``@import { Help } from
    "./help.js"`` give ``("Help", ("import", "./help.js", "Help"))``."""
    out: list[tuple[str, tuple]] = []
    for m in _matches(_TYPEDEF, text, "@typedef"):
        out.append((m.group(3) or m.group(2), (IMPORT, m.group(1), m.group(2))))
    if "@import" in text:
        for m in _matches(_AT_IMPORT, text, "@import"):
            for item in m.group(1).split(","):
                name, _, alias = item.strip().partition(" as ")
                name, alias = name.strip(), alias.strip() or name.strip()
                if _NAME.fullmatch(name) and "." not in name and _NAME.fullmatch(alias):
                    out.append((alias, (IMPORT, m.group(2), name)))
    return out


def _matches(pattern: re.Pattern[str], text: str, word: str) -> list[re.Match[str]]:
    """``pattern.finditer(text)`` for a pattern that starts with ``word``: tried only where the
    word occurs (the expression scanned every character of vite's 1.6 MB bundle, ~20 M
    instructions, for its 34 ``@typedef``)."""
    out = []
    find = text.find
    i = find(word)
    while i >= 0:
        m = pattern.match(text, i)
        if m is not None:
            out.append(m)
        i = find(word, m.end() if m is not None and m.end() > i else i + 1)
    return out
