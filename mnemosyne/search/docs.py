"""Documentation parsing (pure): Markdown and reStructuredText -> heading-scoped blocks.

- A document is split along its headings (Markdown ATX ``#`` and setext; reST underlined and
  overlined titles, levels by order of first appearance).
- Each section's body is cut into blocks of at most ``max_tokens`` tokens, counted by
  ``approx_tokens`` (an upper bound of the real WordPiece count, [CLS]/[SEP] included, that
  does not depend on a tokenizer file being present). Paragraphs pack together; a long paragraph is cut at line, then
  sentence, then word boundaries. A fenced code block (```` ``` ```` / ``~~~``), a reST literal
  block (``::`` + indented block) or a code directive (``.. code-block::``) is **never split**:
  one that does not fit alone becomes a block of its own (``oversized``).
- Each block keeps its heading path (``["Auth", "Tokens", "Refresh"]``, shown
  ``"Auth > Tokens > Refresh"``), its index within the section, and its lines.
- ``extract_mentions`` lists the code names a block cites: backticked identifiers or dotted
  names (``compute_retry_delay``, ``shop.retry.compute_retry_delay()``, reST roles
  ``:func:`~pkg.mod.f```), dotted names in prose, called names inside code blocks, and the
  objects its Sphinx directives document (``.. autoclass:: LRUCache``: ``described_names``).
"""

from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import PurePosixPath

TokenCounter = Callable[[str], int]
MAX_BLOCK_TOKENS = 512
DOC_SUFFIXES = {".md": "markdown", ".markdown": "markdown", ".mdx": "markdown", ".rst": "rst", ".rest": "rst"}
HEADING_SEP = " > "


def doc_format(path: str) -> str | None:
    """``'markdown'``, ``'rst'`` or None (not a documentation file)."""
    return DOC_SUFFIXES.get(PurePosixPath(path).suffix.lower())


def is_doc_path(path: str) -> bool:
    return doc_format(path) is not None


_ASCII_WORD = re.compile(r"[A-Za-z0-9]+")


def approx_tokens(text: str) -> int:
    """Conservative, environment-independent token count for documentation chunking: an upper
    bound of the MiniLM WordPiece count ([CLS]/[SEP] included) that needs no tokenizer file, so
    the graph's sections never depend on what is installed. It follows BERT pre-tokenization:
    every punctuation or symbol character is a token, a non-ASCII character at most as many as
    its NFD decomposition has characters, an ASCII word of k characters at most k pieces when it
    is short (k <= 4) or has a digit (hashes, versions), else (k + 1) // 2 + 1. On prose
    and code it is about twice the real count (tests/search/test_docs.py checks the bound).
    Words are counted from one ``findall``; every other non-space character is one token (or its
    NFD length when not ASCII): the same count as going token by token, a few times faster."""
    if not text:
        return 2
    n = 2
    for w in _ASCII_WORD.findall(text):
        k = len(w)
        n += k if k <= 4 or not w.isalpha() else (k + 1) // 2 + 1
    rest = "".join(_ASCII_WORD.sub(" ", text).split())
    if rest.isascii():
        return n + len(rest)
    for c in rest:
        n += 1 if c.isascii() else len(unicodedata.normalize("NFD", c))
    return n


@dataclass
class Unit:
    kind: str  # 'text' | 'code'
    lines: list[str]
    line_start: int  # 1-based

    @property
    def text(self) -> str:
        return "\n".join(self.lines).strip("\n")

    @property
    def line_end(self) -> int:
        return self.line_start + len(self.lines) - 1


@dataclass
class Block:
    heading_path: list[str]
    level: int
    chunk: int  # index of the block within its section
    text: str
    line_start: int
    line_end: int
    tokens: int
    has_code: bool = False
    oversized: bool = False  # a single code block longer than the limit (never split)
    mentions: list[str] = field(default_factory=list)

    @property
    def heading(self) -> str:
        return HEADING_SEP.join(self.heading_path)

    def key(self, path: str) -> str:
        """Content identity of the block within its document (a changed block is a new one)."""
        digest = hashlib.sha256("\x1f".join([path, self.heading, str(self.chunk), self.text]).encode()).hexdigest()
        return f"{path}#{digest[:20]}"


@dataclass
class ParsedDoc:
    path: str
    format: str
    title: str
    blocks: list[Block]


class _Paragraph:
    """The prose paragraph being read: a blank line ends it as a text unit, any other line joins it."""

    __slots__ = ("events", "lines", "start")

    def __init__(self, events: list[tuple]) -> None:
        self.events = events
        self.lines: list[str] = []
        self.start = 0  # 1-based line of the paragraph's first line

    def flush(self) -> None:
        if any(x.strip() for x in self.lines):
            self.events.append(("u", Unit("text", self.lines, self.start)))
        self.lines = []

    def feed(self, line: str, i: int) -> None:
        """Line ``i`` (0-based) after the block structures were tried on it."""
        if not line.strip():
            self.flush()
            return
        if not self.lines:
            self.start = i + 1
        self.lines.append(line)


# -- Markdown -----------------------------------------------------------------------------------

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")


def _md_events(lines: list[str]) -> list[tuple]:
    """('h', level, title, line) and ('u', Unit) in order."""
    events: list[tuple] = []
    i = 0
    n = len(lines)
    para = _Paragraph(events)
    flush = para.flush

    # YAML front matter
    if n and lines[0].strip() == "---":
        for j in range(1, min(n, 200)):
            if lines[j].strip() in ("---", "..."):
                i = j + 1
                break
    while i < n:
        line = lines[i]
        fm = _FENCE.match(line)
        if fm:
            flush()
            fence = fm.group(2)
            start = i
            j = i + 1
            while j < n:
                close = _FENCE.match(lines[j])
                if close and close.group(2)[0] == fence[0] and len(close.group(2)) >= len(fence) and not close.group(3).strip():
                    break
                j += 1
            end = min(j, n - 1)
            events.append(("u", Unit("code", lines[start : end + 1], start + 1)))
            i = end + 1
            continue
        m = _ATX.match(line)
        if m:
            flush()
            events.append(("h", len(m.group(1)), (m.group(2) or "").strip(), i + 1))
            i += 1
            continue
        pl = para.lines
        if pl and _SETEXT.match(line) and len(pl) == 1 and pl[0].strip() and not pl[0].startswith((" " * 4, "\t")):
            title = pl[0].strip()
            para.lines = []
            events.append(("h", 1 if line.strip().startswith("=") else 2, title, i))
            i += 1
            continue
        para.feed(line, i)
        i += 1
    flush()
    return events


# -- reStructuredText ---------------------------------------------------------------------------

_ADORN = re.compile(r"^([=\-~^\"'`#*+<>:._])\1{2,}\s*$")
_CODE_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+(code-block|code|sourcecode|literalinclude|doctest)::", re.I)


def _indent(s: str) -> int:
    return len(s) - len(s.lstrip(" \t"))


def _rst_events(lines: list[str]) -> list[tuple]:
    events: list[tuple] = []
    styles: list[tuple[str, bool]] = []
    n = len(lines)
    i = 0
    para = _Paragraph(events)
    flush = para.flush

    def level_of(ch: str, over: bool) -> int:
        if (ch, over) not in styles:
            styles.append((ch, over))
        return styles.index((ch, over)) + 1

    def literal_block(start: int, base_indent: int) -> int:
        """Index after the indented block that starts at or after ``start``."""
        j = start
        while j < n and not lines[j].strip():
            j += 1
        if j >= n:  # only blank lines follow: no block (tenacity's changelog ends ".. release-notes::")
            return start
        last = j
        while j < n and (not lines[j].strip() or _indent(lines[j]) > base_indent):
            if lines[j].strip():
                last = j
            j += 1
        return last + 1

    while i < n:
        line = lines[i]
        # overlined title: ===== / Title / =====
        if _ADORN.match(line) and i + 2 < n and lines[i + 1].strip() and _ADORN.match(lines[i + 2]) \
                and lines[i + 2].strip()[0] == line.strip()[0] and not para.lines:  # fmt: skip
            flush()
            events.append(("h", level_of(line.strip()[0], True), lines[i + 1].strip(), i + 2))
            i += 3
            continue
        # underlined title: Title / =====
        if line.strip() and not para.lines and i + 1 < n and _ADORN.match(lines[i + 1]) and _indent(line) == 0 \
                and len(lines[i + 1].strip()) >= len(line.strip()) and not _ADORN.match(line):  # fmt: skip
            flush()
            events.append(("h", level_of(lines[i + 1].strip()[0], False), line.strip(), i + 1))
            i += 2
            continue
        cd = _CODE_DIRECTIVE.match(line)
        if cd:
            flush()
            end = literal_block(i + 1, _indent(line))
            events.append(("u", Unit("code", lines[i:end], i + 1)))
            i = end
            continue
        pl = para.lines
        if not line.strip() and pl and pl[-1].rstrip().endswith("::"):
            # a paragraph ending with '::' introduces a literal block
            end = literal_block(i, _indent(pl[0]))
            if end > i and any(lines[k].strip() for k in range(i, end)):
                flush()
                events.append(("u", Unit("code", lines[i:end], i + 1)))
                i = end
                continue
        para.feed(line, i)
        i += 1
    flush()
    return events


# -- chunking -----------------------------------------------------------------------------------

_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _joined(count: TokenCounter) -> Callable[[int, str, str, int, Callable[[], str]], int]:
    """``joined(n, sep, part, part_n, text)``: tokens of ``text() + sep + part`` given
    ``n = count(text())`` and ``part_n = count(part)``.
    ``approx_tokens`` is additive over whitespace joins (no token spans whitespace; [CLS]/[SEP]
    are counted once), so chunking keeps running totals instead of recounting growing text
    (quadratic on long documents); any other counter is asked about the joined text itself."""
    if count is approx_tokens:
        return lambda n, sep, part, part_n, text: n + part_n - 2
    return lambda n, sep, part, part_n, text: count(f"{text()}{sep}{part}")


def _split_text_unit(u: Unit, limit: int, count: TokenCounter) -> list[Unit]:
    """Cut a prose unit that is over the limit: by lines, then sentences, then words."""
    if count(u.text) <= limit:
        return [u]
    joined = _joined(count)
    out: list[Unit] = []
    cur: list[str] = []
    cur_n = 0  # tokens of "\n".join(cur)
    cur_start = u.line_start
    for k, line in enumerate(u.lines):
        line_n = count(line)
        if line_n > limit:
            if cur:
                out.append(Unit("text", cur, cur_start))
                cur = []
            pieces = _SENTENCE.split(line)
            buf = ""
            for piece in pieces:
                cand = f"{buf} {piece}".strip()
                if buf and count(cand) > limit:
                    out.extend(_split_words(buf, limit, count, u.line_start + k))
                    buf = piece
                else:
                    buf = cand
            if buf:
                out.extend(_split_words(buf, limit, count, u.line_start + k))
            cur_start = u.line_start + k + 1
            continue
        if cur:
            with_line = joined(cur_n, "\n", line, line_n, partial("\n".join, cur))
            if with_line > limit:
                out.append(Unit("text", cur, cur_start))
                cur = []
                cur_start = u.line_start + k
        if not cur:
            cur_start = u.line_start + k
            cur_n = line_n
        else:
            cur_n = with_line
        cur.append(line)
    if cur:
        out.append(Unit("text", cur, cur_start))
    return out


def _split_words(text: str, limit: int, count: TokenCounter, line_no: int) -> list[Unit]:
    if count(text) <= limit:
        return [Unit("text", [text], line_no)]
    joined = _joined(count)
    out: list[Unit] = []
    buf: list[str] = []
    buf_n = 0  # tokens of " ".join(buf)
    for w in text.split():
        w_n = count(w)
        if buf:
            with_w = joined(buf_n, " ", w, w_n, partial(" ".join, buf))
            if with_w > limit:
                out.append(Unit("text", [" ".join(buf)], line_no))
                buf = []
        if not buf and w_n > limit:  # one enormous "word": cut by characters
            step = max(1, len(w) // max(2, math.ceil(w_n / max(limit - 2, 1)) + 1))
            for s in range(0, len(w), step):
                out.append(Unit("text", [w[s : s + step]], line_no))
            continue
        buf_n = with_w if buf else w_n
        buf.append(w)
    if buf:
        out.append(Unit("text", [" ".join(buf)], line_no))
    return out


def _blocks_text(units: list[Unit]) -> str:
    return "\n\n".join(x.text for x in units)


def _pack(units: list[Unit], limit: int, count: TokenCounter) -> list[tuple[list[Unit], bool]]:
    """Group units into blocks under the limit; returns (units, oversized) per block."""
    pieces: list[Unit] = []
    for u in units:
        pieces.extend([u] if u.kind == "code" else _split_text_unit(u, limit, count))
    joined = _joined(count)
    blocks: list[tuple[list[Unit], bool]] = []
    cur: list[Unit] = []
    cur_n = 0  # tokens of "\n\n".join(x.text for x in cur)
    for u in pieces:
        u_n = count(u.text)
        if cur:
            with_u = joined(cur_n, "\n\n", u.text, u_n, partial(_blocks_text, cur))
            if with_u > limit:
                blocks.append((cur, False))
                cur = []
        if not cur and u.kind == "code" and u_n > limit:
            blocks.append(([u], True))
            continue
        cur_n = with_u if cur else u_n
        cur.append(u)
    if cur:
        blocks.append((cur, False))
    return blocks


def parse_document(path: str, text: str | bytes, count_tokens: TokenCounter | None = None,
                   max_tokens: int = MAX_BLOCK_TOKENS) -> ParsedDoc:  # fmt: skip
    """Split a Markdown or reST document into heading-scoped, token-limited blocks."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    text = text.replace("\x00", " ").replace("\r\n", "\n").replace("\r", "\n")
    fmt = doc_format(path) or "markdown"
    count = count_tokens or approx_tokens
    lines = text.split("\n")
    events = _rst_events(lines) if fmt == "rst" else _md_events(lines)
    title = ""
    stack: list[tuple[int, str]] = []
    sections: list[tuple[list[str], int, list[Unit]]] = [([], 0, [])]
    for ev in events:
        if ev[0] == "h":
            _, level, heading, _line = ev
            if not title and heading:
                title = heading
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, heading))
            sections.append(([h for _, h in stack], level, []))
        else:
            sections[-1][2].append(ev[1])
    blocks: list[Block] = []
    for heading_path, level, units in sections:
        if not units:
            continue
        for chunk, (group, oversized) in enumerate(_pack(units, max_tokens, count)):
            body = "\n\n".join(u.text for u in group)
            b = Block(
                heading_path=list(heading_path),
                level=level,
                chunk=chunk,
                text=body,
                line_start=group[0].line_start,
                line_end=group[-1].line_end,
                tokens=count(body),
                has_code=any(u.kind == "code" for u in group),
                oversized=oversized,
            )
            b.mentions = extract_mentions(body, code_units=[u.text for u in group if u.kind == "code"])
            blocks.append(b)
    if not title:
        title = PurePosixPath(path).stem
    if not blocks:
        # an empty document still has one (empty) section, so it exists on the timeline
        blocks.append(Block([title], 1, 0, "", 1, max(1, len(lines)), count(""), mentions=[]))
    return ParsedDoc(path=path, format=fmt, title=title, blocks=blocks)


# -- mentions -----------------------------------------------------------------------------------

_BACKTICK = re.compile(r"``([^`\n]+)``|`([^`\n]+)`")
_NAME = re.compile(r"^[A-Za-z_$][\w$]*(?:[./][A-Za-z_$<][\w$<>-]*)*$")
_PROSE_DOTTED = re.compile(r"(?<![\w./])[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+(?![\w(]*\.\w)")
_CALL = re.compile(r"(?<!def )(?<!class )(?<!function )\b([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\(")
_CODE_KEYWORDS = frozenset(
    "if for while return print def class function async await with elif switch catch new typeof "
    "import from yield lambda assert not and or in is super self this".split()
)


def _clean_name(raw: str) -> str | None:
    s = raw.strip()
    if "<" in s and s.endswith(">"):  # :func:`text <pkg.mod.f>`
        s = s[s.rfind("<") + 1 : -1]
    s = s.lstrip("~!").strip()
    s = re.sub(r"\(.*\)$", "", s)  # f(x, y) -> f
    s = s.rstrip(".,;:")
    if len(s) < 3 or len(s) > 200 or not _NAME.match(s):
        return None
    return s


#: Sphinx directives that document one object (``.. autoclass:: LRUCache(maxsize)``, ``.. py:function::
#: f``, ``.. decorator:: cached(cache)``); ``module`` / ``currentmodule`` name the module of the ones after it
_DESCRIBES = re.compile(
    r"^(?P<indent>[ \t]*)\.\.[ \t]+(?:py:)?(?P<what>auto(?:class|function|method|exception|decorator)|class|function"
    r"|method|staticmethod|classmethod|exception|decorator|decoratormethod|module|currentmodule)::[ \t]*"
    r"(?P<name>[A-Za-z_][\w.]*)",
    re.MULTILINE,
)
_OWNER_DIRECTIVES = frozenset(("autoclass", "class", "autoexception", "exception"))


def described_names(text: str, module: str = "") -> list[str]:
    """The objects a reST block documents with Sphinx directives, qualified by the ``module`` /
    ``currentmodule`` directive before them in the block (else by ``module``, the one in effect
    where the block starts: ``module_after``) and, for a ``method`` nested under a ``class``
    directive, by that class (``TTLCache.expire``)."""
    owner: tuple[int, str] | None = None
    out: list[str] = []
    for m in _DESCRIBES.finditer(text or ""):
        what, name, indent = m.group("what"), m.group("name"), len(m.group("indent").expandtabs())
        if what in ("module", "currentmodule"):
            module, owner = ("" if name == "None" else name), None
            continue
        if owner is not None and indent > owner[0] and "." not in name:
            name = f"{owner[1]}.{name}"
        elif module and "." not in name:  # a dotted name is written in full (or as a unique suffix)
            name = f"{module}.{name}"
        if what in _OWNER_DIRECTIVES:
            owner = (indent, name)
        elif owner is not None and indent <= owner[0]:
            owner = None
        out.append(name)
    return out


def module_after(text: str, module: str = "") -> str:
    """The module a ``module`` / ``currentmodule`` directive of ``text`` leaves in effect, else ``module``."""
    for m in _DESCRIBES.finditer(text or ""):
        if m.group("what") in ("module", "currentmodule"):
            module = "" if m.group("name") == "None" else m.group("name")
    return module


def described_parts(text: str, module: str = "") -> list[tuple[str, str]]:
    """``(name, text)`` per Sphinx directive of a block that documents one object
    (``described_names``): the lines from the directive to the next directive at its indentation or
    less (its options and nested directives included)."""
    found = list(_DESCRIBES.finditer(text or ""))
    names = iter(described_names(text, module))
    out: list[tuple[str, str]] = []
    for i, m in enumerate(found):
        if m.group("what") in ("module", "currentmodule"):
            continue
        indent = len(m.group("indent").expandtabs())
        end = len(text)
        for n in found[i + 1 :]:
            if len(n.group("indent").expandtabs()) <= indent:
                end = n.start()
                break
        out.append((next(names), text[m.start() : end]))
    return out


def extract_mentions(text: str, code_units: list[str] | None = None) -> list[str]:
    """Code names cited by a block, in order of first appearance (deduplicated); the objects its
    Sphinx directives document (``described_names``) first."""
    code_units = code_units or []
    prose = text
    for c in code_units:
        prose = prose.replace(c, " ")
    found: list[str] = list(described_names(prose))
    for m in _BACKTICK.finditer(prose):
        name = _clean_name(m.group(1) or m.group(2))
        if name:
            found.append(name)
    no_ticks = _BACKTICK.sub(" ", prose)
    for m in _PROSE_DOTTED.finditer(no_ticks):
        if any(len(part) < 2 for part in m.group(0).split(".")):  # e.g, i.e
            continue
        name = _clean_name(m.group(0))
        if name and not re.search(r"\.(md|rst|txt|py|ts|js|json|toml|yaml|yml|cfg|html|com|org|io)$", name):
            found.append(name)
    for code in code_units:
        for m in _CALL.finditer(code):
            name = m.group(1)
            if name.split(".")[-1] in _CODE_KEYWORDS or name in _CODE_KEYWORDS:
                continue
            cleaned = _clean_name(name)
            if cleaned:
                found.append(cleaned)
    return list(dict.fromkeys(found))
