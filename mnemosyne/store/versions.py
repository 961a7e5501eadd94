"""The batched, versioned writer of one workspace graph (docs/schema.md).

Everything is written with ``UNWIND $rows AS r`` batches of ``write_batch_size`` rows. Labels and
edge types are interpolated only from the vocabulary (never from input). Commits are written a
window at a time (store/window.py): ``Meta.in_progress_seq`` = the window's first seq -> Commit
nodes and their unversioned edges -> nodes -> versions -> Branch HEAD -> ``Meta.last_seq/last_commit``
with ``in_progress_seq = null`` (written last). A run killed in between leaves ``in_progress_seq``
set, and :meth:`VersionStore.rollback` undoes the half-written window before it is applied again.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from mnemosyne import vocabulary as V
from mnemosyne.errors import QueryFailed
from mnemosyne.git.repo import CommitInfo
from mnemosyne.store.db_errors import ALREADY_INDEXED, EMPTY_KEY
from mnemosyne.store.write_behind import WriteBehind
from mnemosyne.temporal import believed, holds_at_head
from mnemosyne.timeline.edges import IDENT_PROPS, NODE_KEY, clean

if TYPE_CHECKING:
    from mnemosyne.store.handles import GraphHandle

META_KEY = "ingest"

# range indexes the ingester relies on (created when missing; the store layer may create more)
INGEST_INDEXES: tuple[tuple[str, str, str], ...] = (
    ("node", V.META, "key"),
    ("node", V.FILE, "path"),
    ("node", V.FUNCTION, V.FQN),
    ("node", V.CLASS, V.FQN),
    ("node", V.PACKAGE, "path"),
    ("node", V.THIRD_PARTY_PACKAGE, "key"),
    ("node", V.PACKAGE_VERSION, "key"),
    ("node", V.COMMIT, "hash"),
    ("node", V.COMMIT, "seq"),
    ("node", V.BRANCH, "name"),
    ("node", V.TICKET, "key"),
    ("node", V.PULL_REQUEST, "number"),
    ("node", V.WORKSPACE, "name"),
    ("node", V.DOCUMENT, "path"),
    ("node", V.SECTION, "key"),
    *(("edge", t, p) for t in V.ALL_VERSIONED_EDGES for p in (V.VALID_FROM_SEQ, V.VALID_TO_SEQ)),
)


def _rows_of(res: Any) -> list[list]:
    return res.result_set if hasattr(res, "result_set") else list(res or [])


def _clean_val(v: Any) -> Any:
    """A parameter value without NUL bytes or unencodable text (``clean``), None map entries
    dropped. Numbers in maps (most values of a row) are passed on without a call each."""
    if isinstance(v, str):
        return clean(v)
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            tx = type(x)
            if tx is int or tx is bool or tx is float:
                out[k] = x
            elif x is not None:
                out[k] = _clean_val(x)
        return out
    if isinstance(v, list):
        return [_clean_val(x) for x in v]
    return v


class VersionStore:
    """Writes commits and edge versions into one workspace graph."""

    def __init__(self, graph: GraphHandle, batch_size: int = 1000, workspace: str | None = None) -> None:
        self.graph = graph
        self.batch_size = max(1, int(batch_size))
        self.workspace = workspace
        self.queries = 0
        self._behind: WriteBehind | None = None

    # --- low level -------------------------------------------------------------------------------
    def q(self, cypher: str, params: dict | None = None) -> list[list]:
        """Run a write (or a read with ``ro``). Under ``write_behind`` it is queued and returns
        no rows: callers that need rows call ``flush`` first or use ``ro``."""
        self.queries += 1
        if self._behind is not None:
            self._behind.submit(cypher, params or {})
            return []
        return _rows_of(self.graph.query(cypher, params or {}))

    @contextmanager
    def write_behind(self, enabled: bool = True) -> Iterator[None]:
        """Within the block, writes run on a background thread in order (store/write_behind.py);
        leaving it waits for all of them. Reads (``ro``) wait for the queued writes first."""
        if not enabled or self._behind is not None:
            yield
            return
        self._behind = WriteBehind(lambda c, p: self.graph.query(c, p))
        ok = False
        try:
            yield
            ok = True
        finally:
            behind, self._behind = self._behind, None
            behind.close(discard_error=not ok)

    def q_rows(self, cypher: str, params: dict | None = None) -> list[list]:
        """Run a query whose rows are needed now, after any queued writes."""
        self.flush()
        self.queries += 1
        return _rows_of(self.graph.query(cypher, params or {}))

    def flush(self) -> None:
        """Wait for queued writes (before another writer, e.g. documentation, touches the graph)."""
        if self._behind is not None:
            self._behind.flush()

    def ro(self, cypher: str, params: dict | None = None) -> list[list]:
        self.flush()
        self.queries += 1
        fn = getattr(self.graph, "ro_query", None) or self.graph.query
        return _rows_of(fn(cypher, params or {}))

    def batches(self, cypher: str, rows: Sequence[dict], **params: Any) -> None:
        """Run ``cypher`` (starting ``UNWIND $rows AS r``) over ``rows`` in batches."""
        if not rows:
            return
        rows = [_clean_val(r) for r in rows]
        params = {k: _clean_val(v) for k, v in params.items()}
        for i in range(0, len(rows), self.batch_size):
            self.q(cypher, {**params, "rows": rows[i : i + self.batch_size]})

    def ensure_indexes(self) -> None:
        ensure = getattr(self.graph, "ensure_schema", None)
        if callable(ensure):  # mnemosyne.store.graph.Graph: cypher/schema.cypher has all of ours
            ensure()
            return
        try:
            existing = self.ro("CALL db.indexes() YIELD label, properties, entitytype RETURN label, properties, entitytype")
        except QueryFailed:
            existing = []
        have = {(str(e).lower(), lbl, p) for lbl, props, e in existing for p in (props or [])}
        for kind, label, prop in INGEST_INDEXES:
            if (kind, label, prop) in have:
                continue
            pattern = f"(n:{label})" if kind == "node" else f"()-[n:{label}]-()"
            try:
                self.q(f"CREATE INDEX FOR {pattern} ON (n.{prop})")
            except QueryFailed as err:  # already indexed (created concurrently / reported differently)
                if ALREADY_INDEXED not in str(err):
                    raise

    # --- meta ------------------------------------------------------------------------------------
    def meta(self) -> dict[str, Any]:
        try:
            rows = self.ro(f"MATCH (m:{V.META} {{key: $k}}) RETURN properties(m)", {"k": META_KEY})
        except QueryFailed as err:  # Graph answers an empty result for a missing graph; a bare one says so
            if EMPTY_KEY in str(err):
                return {}
            raise
        return dict(rows[0][0]) if rows else {}

    def set_meta(self, **fields: Any) -> None:
        sets = ", ".join(f"m.{k} = ${k}" for k in fields)
        self.q(
            f"MERGE (m:{V.META} {{key: $key}}) SET {sets}",
            {"key": META_KEY, **{k: _clean_val(v) for k, v in fields.items()}},
        )

    def ensure_workspace_node(self, name: str, path: str, branch: str | None) -> None:
        self.q(
            f"MERGE (w:{V.WORKSPACE} {{name: $n}}) SET w.path = $p, w.default_branch = $b",
            {"n": clean(name), "p": clean(path), "b": branch},
        )

    # --- commits ---------------------------------------------------------------------------------
    def finish_commit(self, seq: int, c: CommitInfo, branch: str, **extra: Any) -> None:
        """Move the branch HEAD and write Meta (last), in one query."""
        fields = {"last_seq": seq, "last_commit": c.hash, "branch": clean(branch), "in_progress_seq": None, **extra}
        sets = ", ".join(f"m.{k} = $m_{k}" for k in fields)
        self.q(
            f"MERGE (b:{V.BRANCH} {{name: $b}}) WITH b OPTIONAL MATCH (b)-[h:{V.HEAD}]->() DELETE h "
            f"WITH DISTINCT b MATCH (c:{V.COMMIT} {{hash: $h}}) MERGE (b)-[:{V.HEAD}]->(c) "
            f"WITH c MERGE (m:{V.META} {{key: $mk}}) SET {sets}",
            {"b": clean(branch), "h": c.hash, "mk": META_KEY, **{f"m_{k}": v for k, v in fields.items()}},
        )

    # --- nodes -----------------------------------------------------------------------------------
    def upsert_nodes(self, nodes: NodeRows) -> None:
        self.batches(f"UNWIND $rows AS r MERGE (f:{V.FILE} {{path: r.path}})", nodes.ensure_files)
        self.batches(
            f"UNWIND $rows AS r MERGE (f:{V.FILE} {{path: r.path}}) SET f += r.p", nodes.files
        )
        self.batches(
            f"UNWIND $rows AS r MERGE (f:{V.FUNCTION} {{{V.FQN}: r.k}}) SET f += r.p", nodes.functions
        )
        self.batches(f"UNWIND $rows AS r MERGE (f:{V.CLASS} {{{V.FQN}: r.k}}) SET f += r.p", nodes.classes)
        self.batches(
            f"UNWIND $rows AS r MERGE (f:{V.FUNCTION} {{{V.FQN}: r.k}}) "
            "ON CREATE SET f.external = r.ext, f.name = r.name",
            nodes.ext_functions,
        )
        self.batches(
            f"UNWIND $rows AS r MERGE (f:{V.CLASS} {{{V.FQN}: r.k}}) "
            "ON CREATE SET f.external = r.ext, f.name = r.name",
            nodes.ext_classes,
        )
        self.batches(
            f"UNWIND $rows AS r MERGE (t:{V.THIRD_PARTY_PACKAGE} {{key: r.k}}) "
            "SET t.ecosystem = r.eco, t.name = r.name",
            nodes.third_party,
        )
        self.batches(
            f"UNWIND $rows AS r MERGE (v:{V.PACKAGE_VERSION} {{key: r.k}}) "
            "SET v.ecosystem = r.eco, v.name = r.name, v.version_string = r.ver "
            f"MERGE (t:{V.THIRD_PARTY_PACKAGE} {{key: r.tk}}) ON CREATE SET t.ecosystem = r.eco, t.name = r.name "
            f"MERGE (v)-[:{V.VERSION_OF}]->(t)",
            nodes.package_versions,
        )
        if self.workspace is not None:
            self.batches(
                f"UNWIND $rows AS r MERGE (p:{V.PACKAGE} {{path: r.path}}) "
                "SET p.name = r.name, p.ecosystem = r.eco, p.manifest = r.manifest "
                f"WITH p MATCH (w:{V.WORKSPACE} {{name: $ws}}) MERGE (w)-[:{V.CONTAINS}]->(p)",
                nodes.packages,
                ws=self.workspace,
            )
        else:
            self.batches(
                f"UNWIND $rows AS r MERGE (p:{V.PACKAGE} {{path: r.path}}) "
                "SET p.name = r.name, p.ecosystem = r.eco, p.manifest = r.manifest",
                nodes.packages,
            )
        self.batches(
            f"UNWIND $rows AS r MATCH (p:{V.PACKAGE} {{path: r.pkg}}), (f:{V.FILE} {{path: r.path}}) "
            f"MERGE (p)-[:{V.CONTAINS}]->(f)",
            nodes.package_files,
        )

    # --- versions --------------------------------------------------------------------------------
    # --- recovery --------------------------------------------------------------------------------
    def rollback(self, seq: int) -> int:
        """Undo a half-written commit (or window) from ``seq``: delete versions it opened, reopen
        versions it closed (code and documentation versions alike: ``vocabulary.ALL_VERSIONED_EDGES``),
        and drop the rename/move and formatting facts it recorded."""
        n = 0
        for etype in V.ALL_VERSIONED_EDGES:
            rows = self.q_rows(
                f"MATCH ()-[e:{etype}]->() WHERE e.valid_from_seq >= $s AND {believed('e')} "
                "DELETE e RETURN 1",
                {"s": seq},
            )
            n += len(rows)
            self.q(
                f"MATCH ()-[e:{etype}]->() WHERE e.valid_to_seq >= $s AND {believed('e')} "
                "SET e.valid_to = null, e.valid_to_seq = null, e.ended_commit = null",
                {"s": seq},
            )
        # identity facts of the half-written commits (store/identity_writer.py); those of commits
        # superseded by a history rewrite are kept (they were believed then)
        self.q(
            f"MATCH ()-[e:{V.RENAMED_TO}]->() WHERE e.seq >= $s OPTIONAL MATCH (c:{V.COMMIT} {{hash: e.commit}}) "
            f"WITH e, c WHERE c IS NULL OR {believed('c')} DELETE e",
            {"s": seq},
        )
        self.q(
            f"MATCH (c:{V.COMMIT})-[e:{V.REFORMATS}]->() WHERE e.seq >= $s AND {believed('c')} DELETE e",
            {"s": seq},
        )
        self.set_meta(in_progress_seq=None)
        return n

    def timeline(self) -> list[tuple[int, str]]:
        """(seq, hash) of the believed timeline commits in the graph, by seq."""
        rows = self.ro(
            f"MATCH (c:{V.COMMIT}) WHERE c.seq IS NOT NULL RETURN c.seq, c.hash ORDER BY c.seq"
        )
        return [(int(s), h) for s, h in rows]

    def drop_commit_changes(self, commit: str) -> int:
        """Delete the MODIFIES edges of ``commit`` (commit-level facts, not versioned), before its
        changes are written again against another parent: a shallow clone's boundary commit was
        diffed against nothing (its whole tree) until the clone was made whole."""
        rows = self.q_rows(
            f"MATCH (:{V.COMMIT} {{hash: $h}})-[m:{V.MODIFIES}]->() DELETE m RETURN count(m)", {"h": commit}
        )
        return int(rows[0][0]) if rows else 0

    def supersede_from(self, fork: int, now: int, edge_types: Sequence[str] = V.ALL_VERSIONED_EDGES,
                       commits: bool = True) -> int:
        """History rewritten: stop believing everything from timeline position ``fork`` on.

        Commits with seq >= fork get superseded_at/old_seq and seq = null; versions that began at
        or after fork get superseded_at; versions that began before fork but were closed at or
        after it get superseded_at and an open copy (same valid_from*, fresh ingested_at).
        Every step is idempotent, so a crash half-way is repaired by running it again.
        ``edge_types``/``commits`` narrow it (the documentation catch-up of a graph ingested before
        ingestion wrote docs supersedes only ``DOC_VERSIONED_EDGES``).
        """
        count = 0
        if commits:
            rows = self.q_rows(
                f"MATCH (c:{V.COMMIT}) WHERE c.seq >= $f SET c.superseded_at = $now, c.old_seq = c.seq, "
                "c.seq = null RETURN count(c)",
                {"f": fork, "now": now},
            )
            count += int(rows[0][0]) if rows else 0
        for etype in edge_types:
            rows = self.q_rows(
                f"MATCH ()-[e:{etype}]->() WHERE e.valid_from_seq >= $f AND {believed('e')} "
                "SET e.superseded_at = $now RETURN count(e)",
                {"f": fork, "now": now},
            )
            count += int(rows[0][0]) if rows else 0
            closed = self.ro(
                f"MATCH (a)-[e:{etype}]->(b) WHERE e.valid_to_seq >= $f AND {believed('e')} "
                "RETURN labels(a)[0], coalesce(a.path, a.fully_qualified_name, a.key), labels(b)[0], "
                "coalesce(b.path, b.fully_qualified_name, b.key), properties(e)",
                {"f": fork},
            )
            groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
            for sl, s, dl, d, props in closed:
                if sl not in NODE_KEY or dl not in NODE_KEY:
                    continue
                p = {
                    k: v
                    for k, v in dict(props).items()
                    if k not in (V.VALID_TO, V.VALID_TO_SEQ, V.ENDED_COMMIT, V.INGESTED_AT, V.SUPERSEDED_AT)
                }
                groups[(sl, dl)].append({"s": s, "d": d, "k": p.get("vkey"), "vfs": p.get(V.VALID_FROM_SEQ), "p": p})
            for (sl, dl), items in groups.items():
                self.batches(
                    f"UNWIND $rows AS r MATCH (a:{sl} {{{NODE_KEY[sl]}: r.s}})-[e:{etype}]->(b:{dl} {{{NODE_KEY[dl]}: r.d}}) "
                    "WHERE e.vkey = r.k AND e.valid_from_seq = r.vfs AND e.valid_to_seq >= $f "
                    f"AND {believed('e')} "
                    f"SET e.superseded_at = $now CREATE (a)-[n:{etype}]->(b) SET n += r.p, n.ingested_at = $now",
                    items,
                    f=fork,
                    now=now,
                )
                count += len(items)
        return count

    # --- reads used by ingestion -----------------------------------------------------------------
    def open_edge_keys(self) -> set[tuple]:
        """Canonical tuples of every open, believed version (to cross-check a resumed state)."""
        out: set[tuple] = set()
        for etype in V.VERSIONED_EDGES:
            props = IDENT_PROPS[etype]
            ret = ", ".join([f"e.{p}" for p in props]) or "null"
            for row in self.ro(
                f"MATCH (a)-[e:{etype}]->(b) WHERE {holds_at_head('e')} "
                "RETURN labels(a)[0], coalesce(a.path, a.fully_qualified_name, a.key), labels(b)[0], "
                f"coalesce(b.path, b.fully_qualified_name, b.key), {ret}"
            ):
                ident = tuple(row[4:]) if props else ()
                out.add((etype, row[0], row[1], row[2], row[3], *ident))
        return out


class NodeRows:
    """Node upserts of one commit, collected while diffing."""

    def __init__(self) -> None:
        self.files: list[dict] = []
        self.functions: list[dict] = []
        self.classes: list[dict] = []
        self.ext_functions: list[dict] = []
        self.ext_classes: list[dict] = []
        self.third_party: list[dict] = []
        self.package_versions: list[dict] = []
        self.packages: list[dict] = []
        self.package_files: list[dict] = []
        self.ensure_files: list[dict] = []

    def __len__(self) -> int:
        return sum(
            len(x)
            for x in (
                self.files, self.functions, self.classes, self.ext_functions, self.ext_classes,
                self.third_party, self.package_versions, self.packages, self.package_files, self.ensure_files,
            )
        )


def now_s() -> int:
    return int(time.time())
