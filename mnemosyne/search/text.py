"""Text helpers for full-text search: identifier splitting, the ``search_text`` property, safe
RediSearch queries and snippets.

FalkorDB's full-text tokenizer splits on ``.``, ``/``, ``-`` and whitespace but not on ``_`` or
camelCase (measured on FalkorDB 4.x), so identifiers are stored pre-split in ``search_text``. User input
is never passed to RediSearch as is: ``ft_query`` builds the query from plain word tokens only,
so it cannot raise a RediSearch syntax error.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# ``getUserById`` -> get User By Id; ``HTTPServer`` -> HTTP Server; ``utf8Decode`` -> utf 8 Decode.
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+|[^\W\d_]+")
_TOKEN = re.compile(r"\w+")
_DOTTED = re.compile(r"[A-Za-z_<][\w<>]*(?:\.[A-Za-z_<][\w<>]*)+")

# Words that carry no meaning in a question about code. RediSearch also drops its own English
# stopwords at query time; these are the question words it keeps.
QUERY_STOPWORDS = frozenset(
    """a an the of to in on at for from by with and or not no is are was were be been being do does
    did doing done has have had where what which who whom whose when why how that this these those
    there here it its i we you he she they me my our your their can could should would will shall
    may might must any some all each every get gets find found show tell me please code function
    functions method methods class classes implemented implementation defined logic handled handle
    handles happen happens place part way used use uses using into about than then so if else""".split()
)

_MAX_QUERY_WORDS = 16


def split_identifier(name: str) -> list[str]:
    """Lower-case words of an identifier: ``get_user_by_id``, ``getUserById`` -> get user by id;
    ``HTTPServer`` -> http server; ``parse2D`` -> parse 2 d. Non-ASCII letters stay in words."""
    if name.isascii():
        return [w.lower() for w in _WORD.findall(name)]
    out: list[str] = []
    for part in re.findall(r"[^\W_]+", name):
        out += [w.lower() for w in _WORD.findall(part)] if part.isascii() else [part.lower()]
    return out


def words(text: str) -> list[str]:
    """All identifier words of free text, in order (duplicates kept)."""
    out: list[str] = []
    for tok in _TOKEN.findall(text or ""):
        out.extend(split_identifier(tok))
    return out


def _strip_nul(s: str | None) -> str:
    return (s or "").replace("\x00", " ")


#: Bounds of the code-aware text: callee and caller names kept per symbol (each name is 1-4
#: words), and docstring characters. Keyword ``search_text`` and the embedded text share them.
MAX_CALLEE_NAMES = 24
MAX_CALLER_NAMES = 12
MAX_DOC_CHARS = 2000
#: Field weights of the keyword text, as repetitions (RediSearch TF-IDF counts occurrences):
#: the symbol's own name words weigh most, callee names as much as the docstring, callers least.
NAME_WEIGHT = 3
_PATH_NOISE = frozenset(("py", "ts", "tsx", "js", "init", "src"))


def call_names(fqns: tuple[str, ...] | list[str], limit: int) -> list[str]:
    """The short names of called (or calling) symbols, bounded: ``hashlib.pbkdf2_hmac`` ->
    ``pbkdf2_hmac``; dunders and duplicates dropped, first ``limit`` kept in order."""
    out: list[str] = []
    for f in fqns:
        short = re.split(r"[./]", f or "")[-1]
        if not short or (short.startswith("__") and short.endswith("__")):
            continue
        if short not in out:
            out.append(short)
        if len(out) >= limit:
            break
    return out


#: characters of documentation (the sections that cite only this symbol) a symbol's texts take
MAX_SECTION_CHARS = 600
_DIRECTIVE_LINE = re.compile(r"^\s*(?:\.\.\s|:[\w -]+:(?:\s|$))")


def section_description(texts: list[str] | tuple[str, ...], limit: int = MAX_SECTION_CHARS) -> str:
    """What documentation sections say about a symbol, on one line: their prose without reST
    directive and option lines (``.. autoclass:: X``, ``:members:``), distinct, at most ``limit``
    characters."""
    out: list[str] = []
    for t in dict.fromkeys(texts):
        prose = " ".join(ln for ln in _strip_nul(t).splitlines() if ln.strip() and not _DIRECTIVE_LINE.match(ln))
        if prose:
            out.append(" ".join(prose.split()))
    return " ".join(out)[:limit]


@lru_cache(maxsize=8192)  # a changed file's unchanged symbols ask again
def search_text(
    fqn: str,
    name: str | None = None,
    signature: str | None = None,
    docstring: str | None = None,
    file: str | None = None,
    calls: tuple[str, ...] = (),
    callers: tuple[str, ...] = (),
    described: str = "",
) -> str:
    """The value of the full-text indexed ``search_text`` property of a Function or Class.

    Fields, weighted by repetition (``NAME_WEIGHT``): the name's words x3, the whole name and
    the dotted parts of the fully qualified name (so the exact identifier matches too), the words
    of the FQN's path and of the file, of the parameters in the signature, the docstring as
    written (stemmed by the index, first ``MAX_DOC_CHARS``), then the words of the names it calls
    (``calls``: callee FQNs; a function calling ``pbkdf2_hmac`` is about key derivation) and of
    the names that call it (``callers``), each bounded (``MAX_CALLEE_NAMES``/``MAX_CALLER_NAMES``).
    Ingestion writes it without ``calls``/``callers`` (unknown per node there); the embedding
    back-fill rewrites it with both from the call graph at HEAD (``backfill.refresh_search_text``).
    """
    fqn = _strip_nul(fqn)
    name = _strip_nul(name) or fqn.rsplit(".", 1)[-1]
    name_words = split_identifier(name)
    parts: list[str] = []
    parts += name_words * NAME_WEIGHT
    parts.append(name)
    fqn_parts = [p for p in re.split(r"[./]", fqn) if p]
    parts += fqn_parts
    for p in fqn_parts[:-1]:
        parts += split_identifier(p)
    if file:
        parts += [w for w in words(file) if w not in _PATH_NOISE]
    if signature:
        sig = _strip_nul(signature)
        # parameter and type names, not the punctuation
        parts += [w for w in words(sig) if w not in ("def", "self", "cls", "async", "function", "const")]
    if docstring:
        parts.append(_strip_nul(docstring).strip()[:MAX_DOC_CHARS])
    if described:
        parts.append(_strip_nul(described))
    for c in call_names(calls, MAX_CALLEE_NAMES):
        parts += split_identifier(c)
    for c in call_names(callers, MAX_CALLER_NAMES):
        parts += split_identifier(c)
    return " ".join(p for p in parts if p)


#: characters of a module docstring's first paragraph embedded with each of the module's symbols
MAX_MODULE_DOC_CHARS = 200


def first_paragraph(doc: str | None, limit: int = MAX_MODULE_DOC_CHARS) -> str:
    """A docstring's first paragraph on one line, at most ``limit`` characters."""
    doc = _strip_nul(doc).strip()
    if not doc:
        return ""
    return " ".join(re.split(r"\n\s*\n", doc, maxsplit=1)[0].split())[:limit]


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def first_sentence(doc: str | None) -> str:
    """The first sentence of a docstring's first paragraph (300 characters at most): what the
    symbol is for, in the words of its author."""
    para = first_paragraph(doc, 300)
    return _SENTENCE_END.split(para, maxsplit=1)[0] if para else ""


def embed_text(fqn: str, kind: str | None, file: str | None, signature: str | None, docstring: str | None,
               body: str | None, calls: tuple[str, ...] = (), notes: tuple[str, ...] = (),
               module_doc: str = "") -> str:  # fmt: skip
    """The text embedded for a Function or Class, most telling first (the model window cuts the
    tail): its name in words, what it is and where (module path), what its module is about (the
    first paragraph of the module's docstring, ``module_doc``), the docstring, the text insights
    written about its body (``notes``: LLM summaries, agents' notes), what it calls (callee short
    names and their words; for a class, its methods), then the source (or the signature when the
    source is unknown). Callers are left out on purpose: they change without the symbol changing,
    and an unchanged body is never re-embedded."""
    parts = [symbol_header(fqn, kind, file), first_paragraph(module_doc) if kind != "module" else ""]
    if docstring and docstring.strip():
        parts.append(_strip_nul(docstring).strip()[:MAX_DOC_CHARS])
    parts += [_strip_nul(n) for n in notes]
    names = call_names(calls, MAX_CALLEE_NAMES)
    if names:
        label = "methods" if kind == "class" else "uses"
        parts.append(f"{label}: " + ", ".join(f"{' '.join(split_identifier(n))}" for n in names))
    parts.append(_strip_nul(body) if body else _strip_nul(signature))
    return "\n".join(p for p in parts if p)


def symbol_header(fqn: str, kind: str | None, file: str | None) -> str:
    """First line of a symbol's embedded text: its name in words, what it is and where.
    ``compute retry delay (function compute_retry_delay in shop/util/retry.py)``."""
    parts = [p for p in fqn.replace("/", ".").split(".") if p]
    name = parts[-1] if parts else fqn
    owner = parts[-2] if len(parts) >= 2 and kind == "method" else None
    text = " ".join(split_identifier(name))
    if owner:
        text += f" of {' '.join(split_identifier(owner))}"
    where = f" in {file}" if file else ""
    return f"{text} ({kind or 'symbol'} {name}{where})"


def doc_search_text(heading_path: str, text: str) -> str:
    """``search_text`` of a documentation Section: heading words, identifiers split, the text."""
    ids = [t for t in _TOKEN.findall(text or "") if "_" in t or _has_inner_caps(t)]
    extra: list[str] = []
    for t in dict.fromkeys(ids):
        extra += split_identifier(t)
    return " ".join([heading_path.replace(">", " "), " ".join(extra), _strip_nul(text)])


def _has_inner_caps(t: str) -> bool:
    return any(c.isupper() for c in t[1:]) and any(c.islower() for c in t)


def query_words(user_text: str, *, drop_stopwords: bool = True) -> list[str]:
    """The distinct meaningful words of a user query, in order (at most 16)."""
    out: list[str] = []
    for tok in _TOKEN.findall(user_text or ""):
        for w in split_identifier(tok):
            if len(w) < 2 and not w.isdigit():
                continue
            if drop_stopwords and w in QUERY_STOPWORDS:
                continue
            out.append(w)
    uniq = list(dict.fromkeys(out))
    if not uniq and drop_stopwords:
        return query_words(user_text, drop_stopwords=False)
    return uniq[:_MAX_QUERY_WORDS]


def _ascii_word(w: str) -> bool:
    return w.isascii() and w.isalnum()


def ft_query(user_text: str, prefix: bool = True, mode: str = "any") -> str | None:
    """A RediSearch query for free user text, or None when it has no usable word.

    Words are OR-ed (``mode='any'``) or AND-ed (``mode='all'``); words of 3+ letters also match as
    prefixes. Only ``[a-z0-9]`` words (and other Unicode letters, unprefixed) reach RediSearch,
    so no input can cause a syntax error.
    """
    terms: list[str] = []
    for w in query_words(user_text):
        w = unicodedata.normalize("NFKC", w)
        if not all(c.isalnum() for c in w):
            continue
        if prefix and _ascii_word(w) and len(w) >= 3 and not w.isdigit():
            # the bare word is stemmed by the index (computed -> compute); the prefix catches
            # longer identifiers' words (retr* -> retry, retries)
            terms.append(f"{w}|{w}*" if mode != "all" else f"({w}|{w}*)")
        else:
            terms.append(w)
    if not terms:
        return None
    return (" " if mode == "all" else "|").join(terms)


def identifier_like(query: str) -> str | None:
    """The query itself when it looks like one identifier or dotted name (``compute_retry_delay``,
    ``shop.retry.compute_retry_delay``, ``src/api/client.ApiClient.get``), else None."""
    q = (query or "").strip().strip("`").rstrip("()")
    if not q or " " in q or len(q) > 300:
        return None
    if re.fullmatch(r"[\w$<>/.-]+", q) and re.search(r"[A-Za-z_]", q):
        return q
    return None


def dotted_names(text: str) -> list[str]:
    """Dotted names (``pkg.mod.func``) appearing in text."""
    return _DOTTED.findall(text or "")


def snippet(text: str | None, query: str, width: int = 160) -> str:
    """A one-line excerpt of ``text`` around the first query word it contains."""
    if not text:
        return ""
    flat = " ".join(text.split())
    if len(flat) <= width:
        return flat
    low = flat.lower()
    pos = -1
    for w in query_words(query):
        pos = low.find(w)
        if pos >= 0:
            break
    if pos < 0:
        return flat[: width - 1].rstrip() + "…"
    start = max(0, pos - width // 3)
    end = min(len(flat), start + width)
    start = max(0, end - width)
    out = flat[start:end].strip()
    return ("…" if start > 0 else "") + out + ("…" if end < len(flat) else "")


def stem(word: str) -> str:
    """A light English stemmer for matching query words to identifier words (``signatures`` ->
    ``signatur``, ``parses`` -> ``pars``, ``computed`` -> ``comput``)."""
    w = word.lower()
    for suf in ("ations", "ation", "ings", "ing", "ies", "es", "ed", "er", "ers", "ly", "s", "e"):
        if len(w) > len(suf) + 2 and w.endswith(suf):
            w = w[: -len(suf)]
            break
    return w


def name_overlap(query: str, fqn: str) -> float:
    """Share of the query's meaningful words that name the symbol: its own name's words (full
    weight) or its enclosing class/module's (half weight). Words match by light stem or prefix."""
    q = [stem(w) for w in query_words(query) if not w.isdigit()]
    if not q:
        return 0.0
    parts = [p for p in re.split(r"[./]", fqn) if p]
    own = {stem(w) for w in split_identifier(parts[-1])} if parts else set()
    outer = {stem(w) for p in parts[-3:-1] for w in split_identifier(p)}

    def hit(w: str, pool: set[str]) -> bool:
        return any(w == x or (len(w) >= 4 and len(x) >= 4 and (x.startswith(w) or w.startswith(x))) for x in pool)

    score = sum(1.0 if hit(w, own) else 0.5 if hit(w, outer) else 0.0 for w in q)
    return score / len(q)


# test code: where it lives, and the words of a question that asks for it
_TEST_DIRS = frozenset(("test", "tests", "__tests__", "spec", "specs", "e2e"))
_TEST_WORDS = frozenset(("test", "tests", "testing", "tested", "spec", "specs", "fixture", "fixtures",
                         "pytest", "mock", "mocks", "unittest", "assert", "asserts"))


def is_test_code(fqn: str) -> bool:
    """Whether a symbol is test code by where it is defined: a Python module under a top-level
    ``test``/``tests`` package, or named ``test_*`` / ``*_test`` / ``conftest``; a TypeScript or
    JavaScript file under a ``test``/``tests``/``__tests__``/``spec`` folder or named ``*.test.*`` /
    ``*.spec.*``. Library modules named for testing (``django.test``, ``flask.testing``) are not."""
    if "/" in fqn:  # TypeScript / JavaScript: `dir/file.Symbol.member`
        *dirs, last = fqn.split("/")
        if any(d in _TEST_DIRS for d in dirs):
            return True
        file_and_owners = last.split(".")[:-1]  # `foo.test.fn`: the file is `foo.test`
        return any(p in ("test", "spec") for p in file_and_owners[1:]) or (
            bool(file_and_owners) and file_and_owners[0].endswith(("_test", "_tests")))
    parts = fqn.split(".")
    if parts[0] in ("test", "tests"):
        return True
    return any(p.startswith("test_") or p.endswith("_test") or p == "conftest" for p in parts[:-1])


def asks_for_tests(query: str) -> bool:
    """Whether a question is about tests (then test code is not ranked after library code)."""
    return _uses_any(query, _TEST_WORDS)


#: file stems of release notes (``CHANGELOG.md``, ``HISTORY.rst``, ``docs/changes.rst``) and folders
#: of news fragments (towncrier's ``changes/1234.feature.rst``)
_RELEASE_NOTE_STEMS = frozenset(("changelog", "changes", "history", "news", "releases", "release-notes",
                                 "release_notes", "releasenotes", "whatsnew", "whats_new", "whats-new"))
_HISTORY_WORDS = frozenset(("changelog", "changelogs", "release", "releases", "released", "history", "version",
                            "versions", "news", "deprecated", "deprecation", "changes", "changed", "introduced"))


def is_release_notes(doc_key: str) -> bool:
    """Whether a documentation section (key ``path#digest``) is in release notes: a changelog or
    history file, or a folder of news fragments."""
    path = doc_key.split("#", 1)[0].lower()
    *dirs, name = path.split("/")
    return name.split(".", 1)[0] in _RELEASE_NOTE_STEMS or any(d in _RELEASE_NOTE_STEMS for d in dirs)


def asks_for_history(query: str) -> bool:
    """Whether a question is about releases or changes (then release notes rank as other sections)."""
    return _uses_any(query, _HISTORY_WORDS)


def _uses_any(query: str, words: frozenset[str]) -> bool:
    return any(w.lower() in words for w in _TOKEN.findall(query))
