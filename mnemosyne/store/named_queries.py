"""Named Cypher queries: the ``cypher/*.cypher`` files, loaded by name (docs/schema.md).

Each file holds one query with ``$parameters``. It may start with ``//`` comment lines: they are
the query's description (shown by ``mnemosyne cypher --list`` and the MCP layer)::

    // Calls that hold at a timeline position.
    // $seq: the commit's seq.
    MATCH (a:Function)-[r:CALLS]->(b:Function) WHERE r.valid_from_seq <= $seq ...

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

_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")
_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
# String literals and comments, removed before looking for $params or keywords.
_STRINGS_AND_COMMENTS = re.compile(
    r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`[^`]*`|//[^\n]*|/\*.*?\*/""", re.S
)
NOT_QUERIES = frozenset({"schema"})


class NamedQueryNotFound(MnemosyneError):
    """No ``cypher/<name>.cypher`` file."""


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


def _path(name: str) -> Path:
    if not _NAME.match(name):
        raise NamedQueryNotFound(f"invalid query name {name!r}: use letters, digits and _ only")
    return cypher_dir() / f"{name.removesuffix('.cypher')}.cypher"


@lru_cache(maxsize=256)
def _load_cached(path: Path, mtime_ns: int) -> str:
    return path.read_text(encoding="utf-8")


def load(name: str) -> str:
    """The text of ``cypher/<name>.cypher`` (cached; re-read when the file changes)."""
    path = _path(name)
    try:
        mtime = path.stat().st_mtime_ns
    except FileNotFoundError:
        choices = difflib.get_close_matches(name, list_names(), n=3)
        hint = f"; did you mean {', '.join(choices)}?" if choices else ""
        raise NamedQueryNotFound(f"no named query {name!r} in {cypher_dir()}{hint}") from None
    return _load_cached(path, mtime)


def get(name: str) -> NamedQuery:
    """A named query with its description and parameter names."""
    text = load(name)
    return NamedQuery(
        name=name.removesuffix(".cypher"),
        path=_path(name),
        text=text,
        description=parse_description(text),
        params=parse_params(text),
    )


def list_names() -> list[str]:
    folder = cypher_dir()
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.cypher") if p.stem not in NOT_QUERIES)


def list_queries() -> dict[str, list[str]]:
    """Every named query mapped to its parameter names."""
    return {name: parse_params(load(name)) for name in list_names()}


def descriptions() -> dict[str, str]:
    """Every named query mapped to its description (leading ``//`` lines)."""
    return {name: parse_description(load(name)) for name in list_names()}
