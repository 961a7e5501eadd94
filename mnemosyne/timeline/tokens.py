"""Normalized code tokens of a symbol's source text: what the code says, not how it is laid out.

Two texts with the same normalized tokens differ only in formatting: whitespace, line wrapping,
comments, quote style, trailing commas (and, in Python, the docstring, which is a fact of its own;
in TypeScript/JavaScript, the semicolons ending a line). Python keeps its block structure: a
logical line's end and each indentation level are tokens, while line breaks inside brackets and
backslash continuations are not (a re-wrapped call is the same code; a statement moved out of an
``if`` is not).

Used by ``timeline.identity`` for formatting-only changes (equal token streams) and for the
body similarity of rename/move detection (shingles of the token stream). Pure and fast: one
compiled regular expression per language, no parser.
"""

from __future__ import annotations

import re

from mnemosyne.sources import PY_SUFFIXES

_PY = re.compile(
    r"""
    (?P<comment>\#[^\r\n]*)
  | (?P<string>(?:[rRbBuUfF]{0,2})(?:'''(?:\\.|[^\\])*?'''|\"\"\"(?:\\.|[^\\])*?\"\"\"
        |'(?:\\.|[^\\'\r\n])*'|"(?:\\.|[^\\"\r\n])*"))
  | (?P<cont>\\\r?\n)
  | (?P<newline>\r?\n[ \t]*)
  | (?P<space>[ \t\f]+)
  | (?P<name>[^\W\d]\w*)
  | (?P<number>\d[\w.]*|\.\d[\w.]*)
  | (?P<op>\*\*=?|//=?|->|:=|<<=?|>>=?|[-+*/%&|^@=!<>]=|\.\.\.|[^\s\w])
    """,
    re.VERBOSE | re.DOTALL,
)

_TS = re.compile(
    r"""
    (?P<comment>//[^\r\n]*|/\*.*?\*/)
  | (?P<string>'(?:\\.|[^\\'\r\n])*'|"(?:\\.|[^\\"\r\n])*"|`(?:\\.|[^\\`])*`)
  | (?P<newline>\r?\n)
  | (?P<space>[ \t\f\r]+)
  | (?P<name>[$_\w][$\w]*)
  | (?P<op>===|!==|\*\*=?|\?\?=?|\?\.|=>|\.\.\.|<<=?|>>>?=?|&&=?|\|\|=?|[-+*/%&|^=!<>]=|[^\s\w])
    """,
    re.VERBOSE | re.DOTALL,
)

_OPEN, _CLOSE = "([{", ")]}"
INDENT, DEDENT, NEWLINE, STR = "<in>", "<de>", "<nl>", "<s>"


def is_python(path: str) -> bool:
    return path.endswith(PY_SUFFIXES)


def _string(tok: str) -> str:
    """A string literal by its value's spelling: quote style and a plain ``u``/``U`` prefix do not
    matter (``'a'`` == ``"a"``); raw/bytes/f prefixes and escapes are kept."""
    i = 0
    while tok[i] not in "'\"`":
        i += 1
    prefix = tok[:i].lower().replace("u", "")
    q = 3 if tok[i : i + 3] in ("'''", '"""') else 1
    body = tok[i + q : len(tok) - q]
    if q == 1:
        body = body.replace("\\'", "'").replace('\\"', '"')
    return f"{STR}{prefix}{body}"


def python_tokens(text: str) -> list[str]:
    """Normalized tokens of Python source (a whole definition, possibly indented)."""
    out: list[str] = []
    depth = 0  # bracket nesting: line breaks inside brackets are layout
    levels = [-1]  # indentation widths of the open blocks (-1: the definition's own line)
    pending: str | None = None  # the indentation after the last logical line's end
    for m in _PY.finditer(text):
        kind = m.lastgroup
        tok = m.group()
        if kind in ("space", "comment", "cont"):
            continue
        if kind == "newline":
            if depth == 0:
                pending = tok.lstrip("\r\n").expandtabs(8)
            continue
        if pending is not None:  # the first token of a logical line: its block level
            width = len(pending)
            pending = None
            if out and out[-1] != NEWLINE:
                out.append(NEWLINE)
            if width > levels[-1]:
                levels.append(width)
                out.append(INDENT)
            else:
                while len(levels) > 1 and width < levels[-1]:
                    levels.pop()
                    out.append(DEDENT)
        if kind == "string":
            out.append(_string(tok))
            continue
        if tok in _OPEN:
            depth += 1
        elif tok in _CLOSE:
            depth = max(0, depth - 1)
            if out and out[-1] == ",":  # a trailing comma is layout (black's magic comma)
                out.pop()
        out.append(tok)
    return _drop_docstring(out)


def _drop_docstring(toks: list[str]) -> list[str]:
    """Without the definition's docstring: the first statement of its body, when a lone string."""
    try:
        colon = _header_end(toks)
    except ValueError:
        return toks
    i = colon + 1
    if i + 1 < len(toks) and toks[i] == NEWLINE and toks[i + 1] == INDENT:
        i += 2
    j = i
    while j < len(toks) and toks[j].startswith(STR):
        j += 1  # implicitly concatenated strings
    if j > i and (j == len(toks) or toks[j] in (NEWLINE, DEDENT)):
        return toks[:i] + toks[j + 1 if j < len(toks) and toks[j] == NEWLINE else j :]
    return toks


def _header_end(toks: list[str]) -> int:
    """Index of the ``:`` that ends a ``def``/``class`` header (outside brackets)."""
    start = next(i for i, t in enumerate(toks) if t in ("def", "class"))
    depth = 0
    for i in range(start, len(toks)):
        t = toks[i]
        if t in _OPEN:
            depth += 1
        elif t in _CLOSE:
            depth -= 1
        elif t == ":" and depth == 0:
            return i
    raise ValueError("no header")


def script_tokens(text: str) -> list[str]:
    """Normalized tokens of TypeScript/JavaScript source: comments and whitespace dropped, a
    semicolon ending a line dropped (automatic semicolon insertion), trailing commas dropped."""
    out: list[str] = []
    semi = False  # a ';' waiting to see whether a line end or '}' follows
    for m in _TS.finditer(text):
        kind = m.lastgroup
        tok = m.group()
        if kind in ("space", "comment"):
            continue
        if kind == "newline":
            semi = False  # the ';' ended a line: layout
            continue
        if semi:
            if tok != "}":
                out.append(";")
            semi = False
        if tok == ";":
            semi = True
            continue
        if kind == "string":
            out.append(_string(tok) if tok[0] != "`" else tok)
            continue
        if tok in _CLOSE and out and out[-1] == ",":
            out.pop()
        out.append(tok)
    return out


def code_tokens(path: str, text: str) -> list[str]:
    """Normalized tokens of a symbol's text in the file ``path`` (its language by suffix)."""
    return python_tokens(text) if is_python(path) else script_tokens(text)


_PY_SKIP = re.compile(r"""(?P<s>(?:[rRbBuUfF]{0,2})(?:'''(?:\\.|[^\\])*?'''|\"\"\"(?:\\.|[^\\])*?\"\"\"|'(?:\\.|[^\\'\r\n])*'|"(?:\\.|[^\\"\r\n])*"))|\#[^\r\n]*""", re.DOTALL)  # noqa: E501 - one regular expression
_TS_SKIP = re.compile(r"""(?P<s>'(?:\\.|[^\\'\r\n])*'|"(?:\\.|[^\\"\r\n])*"|`(?:\\.|[^\\`])*`)|//[^\r\n]*|/\*.*?\*/""", re.DOTALL)
_LAYOUT = str.maketrans("", "", " \t\r\n\f\\,;'\"`")


def _keep_string(m: re.Match[str]) -> str:
    return m.group("s") or ""


def skeleton(path: str, text: str) -> str:
    """The text without comments, whitespace, quotes, commas, semicolons and backslashes: equal
    normalized tokens imply equal skeletons, so unequal skeletons rule out a formatting-only change
    without tokenizing (most body changes are changes of the code)."""
    return (_PY_SKIP if is_python(path) else _TS_SKIP).sub(_keep_string, text).translate(_LAYOUT)
