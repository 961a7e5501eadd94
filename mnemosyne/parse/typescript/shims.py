"""Newer syntax the grammar (tree-sitter-typescript 0.23) does not know, rewritten in a copy of
the bytes (same length, so every node keeps its offsets, lines and columns) for a second parse
(``visit.parse_file``); facts are read from the original bytes."""

from __future__ import annotations

import re
from bisect import bisect_left

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
                p = ws_end(data, nl + 1).end()  # type: ignore[union-attr]  # `\s*` always matches
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
                    r = reached(ws_end(data, ends[i] + 2).end())  # type: ignore[union-attr]  # always matches
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
