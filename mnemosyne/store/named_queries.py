"""Named Cypher queries: the ``cypher/*.cypher`` files, loaded by name (docs/queries.md).

Each file holds one query with ``$parameters``. It may start with ``//`` comment lines: they are
the query's description (shown by ``mnemosyne cypher --list`` and the MCP layer)::

    // Calls that hold at a timeline position.
    // params: $seq (the commit's seq)
    MATCH (a:Function)-[r:CALLS]->(b:Function) WHERE @holds_at(r, $seq) ...

The temporal predicates are written as macros, ``@holds_at(r, $seq)``, ``@believed(r)``, ...
(:class:`mnemosyne.temporal.TimeView`: each macro is one of its methods), expanded when a query is
loaded. A file whose description has a line ``// ==== NAME_believed ====`` also defines its
transaction-time twin ``NAME_believed``: the comment lines after that line are the twin's
description, and its query is the same text with the macros expanded "as believed at ``$t``"
(``mnemosyne.temporal.AS_OF_INGEST``). So a query and its twin are written once.

``schema.cypher`` is not a query (it is run by ``Graph.ensure_schema``) and is not listed.
"""

from __future__ import annotations

import difflib
import os
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from mnemosyne.errors import MnemosyneError
from mnemosyne.temporal import AS_OF_INGEST, CURRENT, TimeView

_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")
_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
# String literals and comments, removed before looking for $params or keywords.
_STRINGS_AND_COMMENTS = re.compile(
    r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`[^`]*`|//[^\n]*|/\*.*?\*/""", re.S
)
NOT_QUERIES = frozenset({"schema"})
BELIEVED = "_believed"  # suffix of a transaction-time twin
MACROS = ("holds_at", "valid_at", "not_ended", "began_in", "ended_in", "believed_at", "believed", "valid_to_seq",
          "ended_commit", "commit_seq", "commit_at")  # fmt: skip
_MACRO = re.compile(r"@(" + "|".join(MACROS) + r")\(([^()]*)\)")
_TWIN = re.compile(r"^//\s*====\s*(\S+)\s*====\s*$")


class NamedQueryNotFound(MnemosyneError):
    """No ``cypher/<name>.cypher`` file (nor a file declaring ``<name>`` as its twin)."""


class BadNamedQuery(MnemosyneError):
    """A ``cypher/`` file that cannot be expanded (a twin named against the convention, a macro
    called with the wrong arguments)."""


@dataclass(frozen=True)
class NamedQuery:
    name: str
    path: Path
    text: str
    description: str
    params: list[str]


def cypher_dir() -> Path:
    """``$MNEMOSYNE_CYPHER_DIR``, else the ``cypher/`` folder at the repository root (a source
    checkout or editable install), else the copy a wheel installs under ``<prefix>/share``."""
    env = os.environ.get("MNEMOSYNE_CYPHER_DIR")
    if env:
        return Path(env).expanduser().resolve()
    checkout = Path(__file__).resolve().parents[2] / "cypher"
    if checkout.is_dir():
        return checkout
    return Path(sys.prefix) / "share" / "mnemosyne" / "cypher"


def strip_strings_and_comments(cypher: str) -> str:
    """The query with string literals, quoted names and comments blanked out."""
    return _STRINGS_AND_COMMENTS.sub(" ", cypher)


def parse_params(cypher: str) -> list[str]:
    """``$name`` tokens outside strings and comments, in order of first use."""
    return list(dict.fromkeys(_PARAM.findall(strip_strings_and_comments(cypher))))


def parse_description(cypher: str) -> str:
    """The leading ``//`` comment lines, joined with newlines."""
    lines: list[str] = []
    for line in cypher.splitlines():
        stripped = line.strip()
        if stripped.startswith("//"):
            lines.append(stripped[2:].strip())
        elif stripped or lines:
            break
    return "\n".join(lines).strip()


def _check(name: str) -> str:
    if not _NAME.match(name):
        raise NamedQueryNotFound(f"invalid query name {name!r}: use letters, digits and _ only")
    return name.removesuffix(".cypher")


@dataclass(frozen=True)
class _Source:
    """A ``cypher/`` file split into the query's description, its twin's and the query itself."""

    header: str  # the leading comment lines up to the twin line (kept verbatim)
    twin: str | None  # the name of the transaction-time twin the file declares
    twin_header: str  # the comment lines after the twin line: the twin's description
    body: str  # the query, with macros


def _split(path: Path, text: str) -> _Source:
    lines = text.splitlines(keepends=True)
    n = 0
    while n < len(lines) and (not lines[n].strip() or lines[n].lstrip().startswith("//")):
        n += 1
    head, body = lines[:n], "".join(lines[n:])
    for i, line in enumerate(head):
        m = _TWIN.match(line.strip())
        if m:
            twin = m.group(1)
            if twin != path.stem + BELIEVED:
                raise BadNamedQuery(f"{path}: the twin of {path.stem} is named {path.stem + BELIEVED}, not {twin}")
            return _Source("".join(head[:i]), twin, "".join(head[i + 1 :]), body)
    return _Source("".join(head), None, "", body)


def expand(cypher: str, view: TimeView = CURRENT) -> str:
    """``cypher`` with its temporal macros (``@holds_at(r, $seq)``, ...) written out for ``view``."""

    def one(m: re.Match[str]) -> str:
        args = [a.strip() for a in m.group(2).split(",") if a.strip()]
        try:
            return str(getattr(view, m.group(1))(*args))
        except TypeError:
            raise BadNamedQuery(f"macro {m.group(0)}: wrong arguments (see mnemosyne.temporal.TimeView."
                                f"{m.group(1)})") from None  # fmt: skip

    return _MACRO.sub(one, cypher)


@lru_cache(maxsize=256)
def _source_cached(path: Path, mtime_ns: int) -> _Source:
    return _split(path, path.read_text(encoding="utf-8"))


def _source(path: Path) -> _Source:
    return _source_cached(path, path.stat().st_mtime_ns)


@lru_cache(maxsize=512)
def _render(path: Path, mtime_ns: int, twin: bool) -> str:
    src = _source_cached(path, mtime_ns)
    if twin:
        return src.twin_header + expand(src.body, AS_OF_INGEST)
    return src.header + expand(src.body, CURRENT)


def _locate(name: str) -> tuple[Path, bool]:
    """The file a query is written in, and whether the query is that file's twin."""
    stem = _check(name)
    path = cypher_dir() / f"{stem}.cypher"
    if path.is_file():
        return path, False
    if stem.endswith(BELIEVED):
        base = cypher_dir() / f"{stem.removesuffix(BELIEVED)}.cypher"
        if base.is_file() and _source(base).twin == stem:
            return base, True
    choices = difflib.get_close_matches(stem, list_names(), n=3)
    hint = f"; did you mean {', '.join(choices)}?" if choices else ""
    raise NamedQueryNotFound(f"no named query {stem!r} in {cypher_dir()}{hint}")


def load(name: str) -> str:
    """The Cypher text of query ``name``, macros expanded (cached; re-read when the file changes)."""
    path, twin = _locate(name)
    return _render(path, path.stat().st_mtime_ns, twin)


def get(name: str) -> NamedQuery:
    """A named query with its description and parameter names."""
    text = load(name)
    return NamedQuery(
        name=_check(name),
        path=_locate(name)[0],
        text=text,
        description=parse_description(text),
        params=parse_params(text),
    )


def list_names() -> list[str]:
    """Every query name: one per file, and the twins the files declare."""
    folder = cypher_dir()
    if not folder.is_dir():
        return []
    names: list[str] = []
    for path in sorted(folder.glob("*.cypher")):
        if path.stem in NOT_QUERIES:
            continue
        names.append(path.stem)
        twin = _source(path).twin
        if twin is not None:
            if (folder / f"{twin}.cypher").exists():
                raise BadNamedQuery(f"{twin} is written twice: in {path} (its twin) and in {twin}.cypher")
            names.append(twin)
    return sorted(names)


def list_queries() -> dict[str, list[str]]:
    """Every named query mapped to its parameter names."""
    return {name: parse_params(load(name)) for name in list_names()}


def descriptions() -> dict[str, str]:
    """Every named query mapped to its description (leading ``//`` lines)."""
    return {name: parse_description(load(name)) for name in list_names()}
