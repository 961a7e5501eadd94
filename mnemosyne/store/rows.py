"""Result rows read by column name instead of by position.

A FalkorDB result is a header (the ``RETURN`` aliases) and rows of values in that order. Reading
``r[7]`` ties the reader to the column order of a query written elsewhere (a ``cypher/`` file);
``records`` pairs each row with the header, so a reader says ``r["in_a"]`` (or ``r.in_a``) and a
column added or moved in the query changes nothing for it::

    for r in named_records(g, "calls_at_commit", {"fqn": fqn, "seq": seq}):
        print(r.callee, r.confidence)

Every column a query returns should be aliased (``RETURN b.fully_qualified_name AS callee``):
an unaliased one is named by its expression text. A column named like a ``dict`` method
(``items``, ``keys``, ``values``, ``get``, ...) is read as ``r["items"]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from mnemosyne.store import named_queries

if TYPE_CHECKING:
    from mnemosyne.store.handles import GraphHandle


class Record(dict[str, Any]):
    """One result row: its columns by name, as a dict and as attributes (``r.callee``)."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"no column {name!r} in this row (columns: {', '.join(self)})") from None


def column_names(header: Iterable[Any]) -> list[str]:
    """The column names of a FalkorDB result header (``[[type, name], ...]`` or plain names)."""
    out = []
    for col in header:
        name = col[1] if isinstance(col, (list, tuple)) and len(col) == 2 else col
        out.append(name.decode() if isinstance(name, bytes) else str(name))
    return out


def records(header: Iterable[Any], rows: Iterable[Sequence[Any]]) -> list[Record]:
    """``rows`` paired with the column names of ``header``."""
    names = column_names(header)
    return [Record(zip(names, row, strict=True)) for row in rows]


def result_records(result: Any) -> list[Record]:
    """The rows of a raw result (``Graph.query_result``) by column name."""
    return records(result.header, result.result_set)


def named_records(graph: GraphHandle, name: str, params: dict[str, Any] | None = None, readonly: bool = True,
                  timeout_ms: int | None = None) -> list[Record]:  # fmt: skip
    """``Graph.run_named``, its rows by column name."""
    result = graph.query_result(named_queries.load(name), params, timeout_ms, readonly=readonly, label=f"{name}.cypher")
    return result_records(result)


def query_records(graph: GraphHandle, cypher: str, params: dict[str, Any] | None = None, *, label: str | None = None,
                  readonly: bool = True) -> list[Record]:  # fmt: skip
    """An inline query's rows by column name (read-only unless ``readonly=False``)."""
    return result_records(graph.query_result(cypher, params, readonly=readonly, label=label))
