"""Names of anonymous functions (and TypeScript class expressions), from their context.

A Python lambda, a JS/TS arrow or function expression (or class expression) bound to no name is
named by where it is written, never by a counter over its whole scope, so that adding one renames
no other (docs/schema.md, "Anonymous functions"):

    <KIND:CONTEXT>       KIND: lambda | arrow | function | class
    <KIND:CONTEXT#N>     the N-th (N >= 2) sibling of the same kind and context in the same scope
    <KIND> / <KIND#N>    no context found

CONTEXT is one of
    callee('literal')    an argument of a call whose arguments include a string literal (the first
                         one): ``test('retries on 500', () => ...)`` -> ``<arrow:test('retries on 500')>``
    callee               an argument of a call without one: ``xs.map(x => ...)`` -> ``<arrow:xs:map>``
    callee(kw=)          a keyword argument: ``sorted(xs, key=lambda x: x)`` -> ``<lambda:sorted(key=)>``
    name                 the name, attribute, property, object key, JSX attribute or parameter
                         (default value) it is bound to: ``self.cb = lambda: 0`` -> ``<lambda:cb>``,
                         ``<b onClick={() => go()}>`` -> ``<arrow:onClick>``
    return               returned, or the body of a lambda / arrow: ``return lambda: 0`` and
                         ``() => () => 0`` -> ``<lambda:return>``, ``...<arrow:return>``

``callee`` is the last two parts of the called expression, joined by ``:`` (a call in the chain
keeps its ``()``): ``app.get`` -> ``app:get``, ``this.items.forEach`` -> ``items:forEach``,
``fetch(u).then`` -> ``fetch():then``, ``st['throws']`` -> ``st:throws``; ``new Promise(...)`` ->
``Promise``. A literal keeps its
first ``MAX_LITERAL`` characters (then ``…``), whitespace runs become one space, and ``.`` becomes
``·`` (U+00B7): a name never contains ``.``, so a fully qualified name still splits on dots.

The PyCG format numbers anonymous functions instead (``<lambda1>``, ``<arrow2>``: source order
among those of the same kind in the enclosing scope); the extractors keep that number on the
``Symbol`` (``ordinal``) and ``pycg_fqn`` rewrites a name into it at export time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

KINDS = ("lambda", "arrow", "function", "class")  # what an anonymous name starts with
MAX_LITERAL = 40  # characters of a literal kept in a name
CALLEE_PARTS = 2  # trailing parts of a called expression kept in a name
_SEGMENT = re.compile(rf"<({'|'.join(KINDS)})(?=[:#>])")
_SPACE = re.compile(r"\s+")


def clean(text: str, limit: int = MAX_LITERAL) -> str:
    """A piece of source text as it may appear inside a name: one line, no ``.``, short."""
    t = _SPACE.sub(" ", text).strip()
    if len(t) > limit:
        t = t[:limit].rstrip() + "…"
    return t.replace(".", "·")


def literal(text: str) -> str:
    """A string literal's content as a name shows it: ``'retries on 500'``."""
    return f"'{clean(text)}'"


def callee(parts: list[str]) -> str:
    """A called expression's parts (outermost first) as a name shows them: ``app:get``."""
    return ":".join(clean(p, 40) for p in parts[-CALLEE_PARTS:])


def call_context(fn: str, lit: str | None) -> str:
    return f"{fn}({lit})" if lit is not None else fn


def keyword_context(fn: str | None, kw: str) -> str:
    return f"{fn}({kw}=)" if fn else f"{kw}="


class Namer:
    """Names the anonymous functions of one enclosing scope, in source order."""

    __slots__ = ("by_context", "by_kind")

    def __init__(self) -> None:
        self.by_context: dict[tuple[str, str], int] = {}
        self.by_kind: dict[str, int] = {}

    def name(self, kind: str, context: str) -> tuple[str, int]:
        """(the name of the next ``kind`` written in ``context``, its PyCG ordinal)."""
        k = (kind, context)
        n = self.by_context.get(k, 0) + 1
        self.by_context[k] = n
        o = self.by_kind.get(kind, 0) + 1
        self.by_kind[kind] = o
        body = f"{kind}:{context}" if context else kind
        return (f"<{body}>" if n == 1 else f"<{body}#{n}>"), o


def anonymous_kind(segment: str) -> str | None:
    """The kind of an anonymous name segment (``<arrow:xs:map>`` -> ``arrow``), else None."""
    m = _SEGMENT.match(segment)
    return m.group(1) if m is not None else None


def anonymous_context(name: str) -> str:
    """The context of an anonymous name made by ``Namer`` (``<lambda:run#2>`` -> ``run``), '' if none."""
    body = name[1:-1] if name.startswith("<") and name.endswith(">") else ""
    return body.partition(":")[2].partition("#")[0]


def pycg_fqn(fqn: str, ordinal: Callable[[str], int | None] | Mapping[str, int]) -> str:
    """``fqn`` with each anonymous segment replaced by its PyCG name (``<arrow1>``), numbered by
    ``ordinal`` (the ``Symbol.ordinal`` of the anonymous symbol whose FQN ends at that segment;
    a segment without one is kept)."""
    if "<" not in fqn:
        return fqn
    get = ordinal.get if isinstance(ordinal, Mapping) else ordinal
    parts = fqn.split(".")
    out = list(parts)
    for i, seg in enumerate(parts):
        kind = anonymous_kind(seg)
        if kind is None:
            continue
        n = get(".".join(parts[: i + 1]))
        if n:
            out[i] = f"<{kind}{n}>"
    return ".".join(out)
