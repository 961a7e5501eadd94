"""Every bound on what a caller (a user, an agent) may store or ask for, named once.

Agents share one graph: whatever one of them stores (a lock, a constraint) is returned to every
other agent that looks at the same code, so each stored string has a bound, and so does each list
an agent may pass. Keys that the graph looks up through a range index (FQNs, paths, names, ids)
stay under ``MAX_KEY_BYTES``: FalkorDB's range index leaves out strings longer than 4,096 bytes, so
a longer key could be stored but never found again. ``check_text`` and ``check_items`` raise a
one-line ``ConfigError`` naming the field and its limit.

The size budgets of answers (items per page, Markdown, source and text excerpts) are here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from mnemosyne.errors import ConfigError

T = TypeVar("T")

# -- keys and names ------------------------------------------------------------------------------
INDEX_STRING_BYTES = 4096  # FalkorDB's range index ignores longer strings (measured on 4.x)
MAX_KEY_BYTES = 2048  # an FQN, a repository-relative path, a commit-ish, a package name given by a caller
MAX_WORKSPACE_NAME = 100  # characters of a workspace name (also part of the graph's key, ws_<name>)
MAX_ID_CHARS = 64  # a lock or constraint id given back by a caller (ours are 21 characters)

# -- strings an agent stores (locks, constraints) -----------------------------------------------
MAX_AGENT_ID = 200  # lock agent_id, constraint owner
MAX_TASK_ID = 200
MAX_CONSTRAINT_TYPE = 100
MAX_REASON = 2_000  # a constraint's reason
MAX_PARAMS_JSON = 4_000  # a constraint's params, as JSON text
MAX_TTL_S = 7 * 24 * 3600  # a lock's time to live

# -- insights (free-form properties agents attach to symbols) ----------------------------------
MAX_INSIGHT_KEY = 64  # characters of an insight key ([A-Za-z_][A-Za-z0-9_.-]*)
MAX_INSIGHT_VALUE_JSON = 4_000  # an insight's value, as JSON text
MAX_INSIGHT_LIST_ITEMS = 100  # items of a list value
MAX_INSIGHTS_PER_CALL = 50  # key=value pairs of one annotate call

# -- what an agent asks ----------------------------------------------------------------------------
MAX_TARGETS = 1_000  # items of a list argument (impact's files)
MAX_QUERY_CHARS = 1_000  # a search query
MAX_CYPHER_CHARS = 20_000  # a read-only Cypher query
MAX_CYPHER_PARAMS_JSON = 100_000  # its $parameters, as JSON text
MAX_CYPHER_ROWS = 500  # the largest row cap a caller may ask for
MAX_RANGE_ITEMS = 1_000_000  # a range() in a read-only query: FalkorDB builds the whole list at once

# -- identity across time (timeline/identity.py, query/lineage.py) ------------------------------------
IDENTITY_MAX_PAIRS = 20_000  # body comparisons per commit for rename/move detection (same-named pairs always)
MAX_LINEAGE_HOPS = 64  # renames/moves a history follows back

# -- answers (MCP) ---------------------------------------------------------------------------------
ITEMS_BUDGET = 40_000  # JSON characters of one page of items (~10k tokens)
MARKDOWN_BUDGET = 12_000  # characters of the Markdown text (~3k tokens)
MAX_SOURCE_CHARS = 8_000
MAX_SOURCE_LINES = 200
MAX_DOC_CHARS = 2_000
MAX_MESSAGE_CHARS = 500
MAX_SNIPPET_CHARS = 300
MAX_CELL_CHARS = 2_000
MAX_INLINE_CHARS = 300  # a name (path, FQN, author, agent id) shown inline in Markdown


def check_text(value: str | None, what: str, limit: int, *, as_bytes: bool = False) -> str | None:
    """``value`` unchanged when within ``limit`` characters (UTF-8 bytes with ``as_bytes``)."""
    if value is None:
        return None
    size = len(value.encode("utf-8", "surrogatepass")) if as_bytes else len(value)
    if size > limit:
        unit = "bytes" if as_bytes else "characters"
        raise ConfigError(f"{what} is too long ({size:,} {unit}; at most {limit:,})")
    return value


def check_key(value: str | None, what: str) -> str | None:
    """A key looked up in the graph (FQN, path, commit-ish): at most ``MAX_KEY_BYTES`` bytes."""
    return check_text(value, what, MAX_KEY_BYTES, as_bytes=True)


def check_items(items: Sequence[T], what: str, limit: int = MAX_TARGETS) -> Sequence[T]:
    if len(items) > limit:
        raise ConfigError(f"{what} has too many items ({len(items):,}; at most {limit:,})")
    return items


def clip(value: str | None, limit: int) -> str | None:
    """``value`` cut to ``limit`` characters (``…`` marks the cut): stored text read back."""
    if value is None or len(value) <= limit:
        return value
    return value[: max(0, limit - 1)] + "…"


def check_arguments(values: dict[str, object]) -> None:
    """Every argument of a tool call within the generic bounds: strings at most
    ``MAX_CYPHER_CHARS`` characters, lists at most ``MAX_TARGETS`` items (their strings keys, at most
    ``MAX_KEY_BYTES``), dicts at most ``MAX_CYPHER_PARAMS_JSON`` characters of JSON. Tools check
    their own tighter limits on top."""
    import json

    for name, v in values.items():
        if isinstance(v, str):
            check_text(v, name, MAX_CYPHER_CHARS)
        elif isinstance(v, (list, tuple)):
            check_items(v, name)
            for item in v:
                if isinstance(item, str):
                    check_key(item, f"an item of {name}")
        elif isinstance(v, dict):
            check_text(json.dumps(v, default=str), f"{name} (as JSON)", MAX_CYPHER_PARAMS_JSON)
