"""Indexes of a workspace graph: ``cypher/schema.cypher``, applied idempotently.

FalkorDB has no ``CREATE INDEX IF NOT EXISTS`` and creating an existing index is an error, so
``ensure_schema`` reads ``CALL db.indexes()`` first and only creates what is missing (per
property and index type). Indexes created by others at run time (the vector indexes of the search
layer) are left alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mnemosyne.errors import ConfigError, DatabaseError
from mnemosyne.store import named_queries

if TYPE_CHECKING:
    from mnemosyne.store.graph import Graph

SCHEMA_FILE = "schema.cypher"

_NODE_INDEX = re.compile(
    r"^CREATE\s+(?:(?P<kind>FULLTEXT|VECTOR|RANGE)\s+)?INDEX\s+FOR\s+"
    r"\(\s*(?P<var>\w+)\s*:\s*(?P<label>\w+)\s*\)\s+ON\s+\((?P<props>[^)]*)\)\s*(?P<options>OPTIONS\s+\{.*\})?\s*$",
    re.I | re.S,
)
_EDGE_INDEX = re.compile(
    r"^CREATE\s+(?:(?P<kind>FULLTEXT|VECTOR|RANGE)\s+)?INDEX\s+FOR\s+"
    r"\(\s*\)\s*-\s*\[\s*(?P<var>\w+)\s*:\s*(?P<label>\w+)\s*\]\s*-\s*>?\s*\(\s*\)\s+ON\s+\((?P<props>[^)]*)\)"
    r"\s*(?P<options>OPTIONS\s+\{.*\})?\s*$",
    re.I | re.S,
)


@dataclass(frozen=True)
class IndexSpec:
    """One ``CREATE ... INDEX`` statement of the schema file."""

    kind: str  # RANGE / FULLTEXT / VECTOR
    entity: str  # NODE / RELATIONSHIP
    label: str  # label or relationship type
    var: str
    props: tuple[str, ...]
    options: str = ""

    def statement(self, props: tuple[str, ...] | None = None) -> str:
        props = props or self.props
        on = ", ".join(f"{self.var}.{p}" for p in props)
        kind = "" if self.kind == "RANGE" else f"{self.kind} "
        target = f"({self.var}:{self.label})" if self.entity == "NODE" else f"()-[{self.var}:{self.label}]-()"
        tail = f" {self.options}" if self.options else ""
        return f"CREATE {kind}INDEX FOR {target} ON ({on}){tail}"


def schema_path() -> Path:
    return named_queries.cypher_dir() / SCHEMA_FILE


def split_statements(text: str) -> list[str]:
    """``;``-terminated statements with ``//`` comment lines removed (no ``;`` inside strings)."""
    body = "\n".join(line for line in text.splitlines() if not line.strip().startswith("//"))
    return [s.strip() for s in body.split(";") if s.strip()]


def parse_index(statement: str) -> IndexSpec | None:
    """The index a statement creates, or None for any other statement."""
    for entity, pattern in (("NODE", _NODE_INDEX), ("RELATIONSHIP", _EDGE_INDEX)):
        m = pattern.match(statement)
        if not m:
            continue
        var = m["var"]
        props = []
        for raw in m["props"].split(","):
            ref = raw.strip()
            prefix = f"{var}."
            if not ref.startswith(prefix):
                raise ConfigError(f"schema.cypher: cannot read index property {ref!r} in: {statement}")
            props.append(ref[len(prefix):].strip())
        return IndexSpec(
            kind=(m["kind"] or "RANGE").upper(),
            entity=entity,
            label=m["label"],
            var=var,
            props=tuple(props),
            options=(m["options"] or "").strip(),
        )
    return None


def load_schema() -> list[str]:
    path = schema_path()
    if not path.is_file():
        raise ConfigError(f"schema file missing: {path} (set MNEMOSYNE_CYPHER_DIR?)")
    return split_statements(path.read_text(encoding="utf-8"))


def schema_indexes() -> list[IndexSpec]:
    """Every index declared in schema.cypher."""
    return [spec for s in load_schema() if (spec := parse_index(s)) is not None]


def existing_indexes(graph: Graph) -> set[tuple[str, str, str, str]]:
    """``(entity, label, property, kind)`` of every index in the graph (empty for a new graph)."""
    rows = graph.ro_query("CALL db.indexes() YIELD label, types, entitytype RETURN label, types, entitytype")
    found: set[tuple[str, str, str, str]] = set()
    for label, types, entity in rows:
        for prop, kinds in dict(types).items():
            for kind in kinds:
                found.add((str(entity).upper(), label, prop, str(kind).upper()))
    return found


def ensure_schema(graph: Graph) -> list[str]:
    """Create the missing indexes of schema.cypher; returns the statements run."""
    have = existing_indexes(graph)
    ran: list[str] = []
    for statement in load_schema():
        spec = parse_index(statement)
        if spec is None:
            # Non-index statements must be idempotent themselves (MERGE, not CREATE).
            graph.query(statement, label="schema.cypher")
            ran.append(statement)
            continue
        missing = tuple(p for p in spec.props if (spec.entity, spec.label, p, spec.kind) not in have)
        if not missing:
            continue
        stmt = spec.statement(missing)
        try:
            graph.query(stmt, label="schema.cypher")
        except DatabaseError:
            # Another process may have created it meanwhile ("already indexed"): accept that only
            # if the index is now really there.
            have = existing_indexes(graph)
            if any((spec.entity, spec.label, p, spec.kind) not in have for p in missing):
                raise
            continue
        ran.append(stmt)
        have.update((spec.entity, spec.label, p, spec.kind) for p in missing)
    return ran


def describe_indexes(graph: Graph) -> list[dict[str, Any]]:
    """``CALL db.indexes()`` as JSON-friendly dicts (label, entity, property types, status)."""
    rows = graph.ro_query(
        "CALL db.indexes() YIELD label, types, entitytype, status RETURN label, types, entitytype, status"
    )
    return [
        {"label": label, "entity": entity, "types": {k: list(v) for k, v in dict(types).items()}, "status": status}
        for label, types, entity, status in rows
    ]
