"""Writing documentation into the graph, versioned like everything else (docs/search.md).

Nodes:
- ``(:Document {path, format, title, content_hash})``: one per ``.md``/``.rst`` file (latest values).
- ``(:Section {key, doc, heading_path, heading, level, chunk, text, search_text, mentions,
  line_start, line_end, tokens, has_code, oversized, embedding, embed_hash})``: one block of a
  section (docs.py). A Section is immutable: its ``key`` hashes path, heading path, chunk index
  and text, so changed text is a new Section node. Lines are the latest seen.

Versioned edges (same properties as every versioned edge: ``valid_from``/``valid_to``,
``valid_from_seq``/``valid_to_seq``, ``source_commit``/``ended_commit``, ``ingested_at``,
``superseded_at``):
- ``(Document)-[:HAS_SECTION {ordinal, line_start, line_end}]->(Section)``: the block is in the
  document at that commit; ``ordinal``/lines are updated in place on the open version, so they
  hold at HEAD. A document exists at ``s`` iff one of its
  ``HAS_SECTION`` versions holds.
- ``(Section)-[:NEXT {doc}]->(Section)``: reading order at that commit (``sections_at`` follows
  it for an earlier commit, where the ordinals may have moved on).

Unversioned: ``(Section)-[:MENTIONS {name, resolution}]->(Function|Class)``: a code name the block
cites, resolved when the section is written (and again by ``link_mentions`` at HEAD, which the
back-fill runs, so a symbol added after the doc is linked too).

Ingestion (``mnemosyne.ingest``) calls ``apply_docs(graph, seq, hash, time, {path: bytes | None})``
once per timeline commit with the documentation files that commit added, modified (new bytes) or
deleted (None; a rename is the old path None and the new path's bytes; the first timeline commit
gives its whole tree), after the commit's code facts are written and before ``Meta.last_seq``
moves. ``HAS_SECTION`` and ``NEXT`` are in ``vocabulary.DOC_VERSIONED_EDGES``, so the store's
resume rollback and history-rewrite supersession cover them with the code versions.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from mnemosyne import vocabulary as V
from mnemosyne.git.command import cat_file_batch, run_git
from mnemosyne.search.docs import (
    HEADING_SEP,
    TokenCounter,
    approx_tokens,
    doc_format,
    parse_document,
)
from mnemosyne.search.target import graph_of, repo_and_commit, workspace_name
from mnemosyne.search.text import doc_search_text
from mnemosyne.store.connection import Database
from mnemosyne.store.versions import META_KEY
from mnemosyne.temporal import holds_at, holds_at_head

if TYPE_CHECKING:
    from mnemosyne.store.graph import Graph
    from mnemosyne.store.handles import GraphHandle, WorkspaceRef

log = logging.getLogger(__name__)

_HOLDS_OPEN = holds_at_head("r")


@dataclass
class DocsReport:
    documents: int = 0
    sections_opened: int = 0
    sections_closed: int = 0
    mentions: int = 0
    deleted: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)  # documents the parser failed on: left as they were


def default_token_counter() -> TokenCounter:
    """The counter documentation chunking uses: always ``docs.approx_tokens``, a conservative
    bound of the real tokenizer's count, so sections are the same on every machine (whether or
    not tokenizer.json happens to be present)."""
    return approx_tokens


class DocWriter(Protocol):
    """Where ``apply_docs`` sends its writes when not straight to the graph (ingestion's queue)."""

    def query(self, cypher: str, params: dict[str, Any] | None = None) -> list[list[Any]]: ...

    def write_batches(self, cypher: str, rows: list[dict[str, Any]], batch_size: int | None = None, *,
                      params: dict[str, Any] | None = None) -> dict[str, int]: ...


class DocState:
    """What the open documentation versions are, kept by the ingesting process so that writing a
    commit's documentation reads nothing from the database: per document, its open sections
    (key -> ordinal, line range as last written) and its open NEXT pairs. Loaded with two queries
    the first time a run writes documentation (after any rollback), then kept in step with every
    write ``apply_docs`` makes."""

    def __init__(self) -> None:
        self.loaded = False
        self.sections: dict[str, dict[str, tuple[Any, Any, Any]]] = {}
        self.pairs: dict[str, set[tuple[str, str]]] = {}

    def load(self, graph: GraphHandle) -> None:
        self.sections, self.pairs = {}, {}
        for p, k, o, ls, le, nls, nle in graph.ro_query(
            f"MATCH (d:{V.DOCUMENT})-[r:{V.HAS_SECTION}]->(s:{V.SECTION}) WHERE {_HOLDS_OPEN} "
            "RETURN d.path, s.key, r.ordinal, r.line_start, r.line_end, s.line_start, s.line_end"
        ):
            # a section whose node lines differ from its version's is resent (as _changed_rows)
            self.sections.setdefault(p, {})[k] = (o, ls, le) if (ls, le) == (nls, nle) else (None, None, None)
        for p, a, b in graph.ro_query(
            f"MATCH (a:{V.SECTION})-[r:{V.NEXT}]->(b:{V.SECTION}) WHERE {_HOLDS_OPEN} RETURN r.doc, a.key, b.key"
        ):
            self.pairs.setdefault(p, set()).add((a, b))
        self.loaded = True


def apply_docs(
    graph: Graph,
    seq: int,
    commit_hash: str,
    commit_time: int,
    changed: Mapping[str, bytes | str | None],
    *,
    count_tokens: TokenCounter | None = None,
    ingested_at: int | None = None,
    state: DocState | None = None,
    mentions: MentionResolver | None = None,
    writer: DocWriter | None = None,
) -> DocsReport:
    """Make the documentation versions at timeline position ``seq`` match ``changed``.

    ``changed`` maps repo-relative paths of documentation files (``docs.is_doc_path``; others
    are ignored) to their new content, or None when the commit deleted them. Idempotent: applying
    the same commit twice changes nothing. Ingestion passes ``state`` (the open versions it keeps)
    and ``mentions`` (its own symbol table), and then nothing is read from the database, and
    ``writer`` (its ordered write-behind queue: the writes run while the next commit is resolved;
    the report's counts are then 0).
    """
    if state is not None and not state.loaded:
        state.load(graph)
    if writer is not None:
        if state is None or mentions is None:
            raise ValueError("apply_docs: a queued writer needs the in-memory state and mention resolver")
    sink: DocWriter = writer if writer is not None else graph
    report = DocsReport()
    count = count_tokens or default_token_counter()
    now = int(ingested_at if ingested_at is not None else time.time())
    base = {"seq": int(seq), "t": int(commit_time), "c": commit_hash, "now": now}
    for path, content in sorted(changed.items()):
        fmt = doc_format(path)
        if fmt is None:
            continue
        report.documents += 1
        if content is None:
            report.sections_closed += _close_missing(sink, path, [], base, state)
            _sync_next(sink, path, [], base, state)
            report.deleted.append(path)
            continue
        raw = content.encode() if isinstance(content, str) else bytes(content)
        try:
            doc = parse_document(path, raw, count)
        except Exception as err:  # a parser defect on one document must not stop the commit's code ingestion
            log.warning("documentation %s could not be split into sections (%s: %s); its sections stay as they "
                        "were (a defect: please report it with the file)", path, type(err).__name__, err)  # fmt: skip
            log.debug("splitting %s failed", path, exc_info=True)
            report.unreadable.append(path)
            continue
        sink.query(
            f"MERGE (d:{V.DOCUMENT} {{path: $p}}) SET d.format = $f, d.title = $title, d.content_hash = $h",
            {"p": path, "f": fmt, "title": doc.title, "h": hashlib.sha256(raw).hexdigest()},
        )
        rows: list[dict[str, Any]] = []
        for ordinal, b in enumerate(doc.blocks):
            rows.append({
                "key": b.key(path), "doc": path, "hp": b.heading, "heading": b.heading_path[-1] if b.heading_path else doc.title,
                "level": b.level, "chunk": b.chunk, "text": b.text,
                "mentions": b.mentions, "ls": b.line_start, "le": b.line_end, "tokens": b.tokens,
                "code": b.has_code, "over": b.oversized, "ord": ordinal,
            })  # fmt: skip
        keys = [r["key"] for r in rows]
        report.sections_closed += _close_missing(sink, path, keys, base, state)
        all_rows, rows = rows, _changed_rows(sink, path, rows, state)  # unchanged sections are not resent
        for r in rows:
            if "text" in r:  # a new section: its search text is written once, on creation
                r["st"] = doc_search_text(r["hp"] or doc.title, r["text"])
        sink.write_batches(
            f"UNWIND $rows AS r MERGE (s:{V.SECTION} {{key: r.key}}) "
            "ON CREATE SET s.doc = r.doc, s.heading_path = r.hp, s.heading = r.heading, s.level = r.level, "
            "s.chunk = r.chunk, s.text = r.text, s.search_text = r.st, s.mentions = r.mentions, s.tokens = r.tokens, "
            "s.has_code = r.code, s.oversized = r.over, s.first_seq = $seq, s.source_commit = $c "
            "SET s.line_start = r.ls, s.line_end = r.le",
            rows, batch_size=200, params=base,
        )
        # open versions for the blocks that have none; update lines/order in place on the others
        res = sink.write_batches(
            f"UNWIND $rows AS r MATCH (d:{V.DOCUMENT} {{path: r.doc}}), (s:{V.SECTION} {{key: r.key}}) "
            f"OPTIONAL MATCH (d)-[o:{V.HAS_SECTION}]->(s) WHERE {holds_at_head('o')} "
            "WITH d, s, r, o "
            "FOREACH (_ IN CASE WHEN o IS NULL THEN [1] ELSE [] END | "
            f"  CREATE (d)-[:{V.HAS_SECTION} {{vkey: r.key, valid_from: $t, valid_from_seq: $seq, source_commit: $c, "
            "  ingested_at: $now, ordinal: r.ord, line_start: r.ls, line_end: r.le}]->(s)) "
            "FOREACH (_ IN CASE WHEN o IS NULL THEN [] ELSE [1] END | "
            "  SET o.ordinal = r.ord, o.line_start = r.ls, o.line_end = r.le)",
            rows, batch_size=200, params=base,
        )
        report.sections_opened += res.get("relationships_created", 0)
        if state is not None:
            state.sections[path] = {r["key"]: (r["ord"], r["ls"], r["le"]) for r in all_rows}
        _sync_next(sink, path, keys, base, state)
        report.mentions += _link(sink, [(r["key"], r["mentions"]) for r in all_rows if r["mentions"]],
                                 mentions if mentions is not None else _resolver(graph, int(seq)))
    return report


def _changed_rows(graph: DocWriter, path: str, rows: list[dict[str, Any]], state: DocState | None) -> list[dict[str, Any]]:
    """The rows the two section writes below would change: sections with no open version (whole
    rows), and sections whose open version has another ordinal or line range (only those values).
    A changelog entry added at the top would otherwise resend the text of every section."""
    if state is not None:
        current = {k: v for k, v in state.sections.get(path, {}).items() if v != (None, None, None)}
    else:
        current = {
            k: (o, ls, le)
            for k, o, ls, le, nls, nle in graph.query(
                f"MATCH (d:{V.DOCUMENT} {{path: $p}})-[r:{V.HAS_SECTION}]->(s:{V.SECTION}) WHERE {_HOLDS_OPEN} "
                "RETURN s.key, r.ordinal, r.line_start, r.line_end, s.line_start, s.line_end",
                {"p": path},
            )
            if (ls, le) == (nls, nle)
        }
    seen: dict[str, int] = {}
    for r in rows:
        seen[r["key"]] = seen.get(r["key"], 0) + 1
    out: list[dict[str, Any]] = []
    for r in rows:
        k = r["key"]
        if k not in current or seen[k] > 1:
            out.append(r)
        elif current[k] != (r["ord"], r["ls"], r["le"]):
            # moved (text added above it): the node exists, so ON CREATE never reads the content
            out.append({"key": k, "doc": r["doc"], "ord": r["ord"], "ls": r["ls"], "le": r["le"]})
    return out


def _close_missing(graph: DocWriter, path: str, keep: list[str], base: dict[str, Any], state: DocState | None) -> int:
    """End the open HAS_SECTION versions of ``path`` whose section is not in ``keep``. A version
    opened at this very commit (a replay) is deleted: it was never true."""
    if state is not None:
        kept = set(keep)
        open_ = state.sections.get(path, {})
        if all(k in kept for k in open_):
            return 0  # nothing to end: no query
        state.sections[path] = {k: v for k, v in open_.items() if k in kept}
    rows = graph.query(
        f"MATCH (d:{V.DOCUMENT} {{path: $p}})-[r:{V.HAS_SECTION}]->(s:{V.SECTION}) "
        f"WHERE {_HOLDS_OPEN} AND NOT s.key IN $keep "
        "WITH r, r.valid_from_seq = $seq AS same "
        "FOREACH (_ IN CASE WHEN same THEN [1] ELSE [] END | DELETE r) "
        "FOREACH (_ IN CASE WHEN same THEN [] ELSE [1] END | "
        "  SET r.valid_to_seq = $seq, r.valid_to = $t, r.ended_commit = $c) "
        "RETURN count(*)",
        {**base, "p": path, "keep": keep},
    )
    return int(rows[0][0]) if rows else 0


def _sync_next(graph: DocWriter, path: str, keys: list[str], base: dict[str, Any], state: DocState | None) -> None:
    pairs = [[a, b] for a, b in zip(keys, keys[1:], strict=False)]
    if state is not None:
        want = {(a, b) for a, b in pairs}
        have = state.pairs.get(path, set())
        state.pairs[path] = want
        if want == have:
            return  # reading order unchanged: no query
        if have <= want:  # nothing to end
            graph.query(
                f"UNWIND $pairs AS p MATCH (a:{V.SECTION} {{key: p[0]}}), (b:{V.SECTION} {{key: p[1]}}) "
                f"OPTIONAL MATCH (a)-[o:{V.NEXT}]->(b) WHERE {holds_at_head('o')} "
                "WITH a, b, count(o) AS open WHERE open = 0 "
                f"CREATE (a)-[:{V.NEXT} {{vkey: a.key + '>' + b.key, doc: $p, valid_from: $t, valid_from_seq: $seq, "
                "source_commit: $c, ingested_at: $now}]->(b)",
                {**base, "p": path, "pairs": [list(x) for x in sorted(want - have)]},
            )
            return
    graph.query(
        f"MATCH (a:{V.SECTION} {{doc: $p}})-[r:{V.NEXT}]->(b:{V.SECTION}) "
        f"WHERE {_HOLDS_OPEN} AND NOT [a.key, b.key] IN $pairs "
        "WITH r, r.valid_from_seq = $seq AS same "
        "FOREACH (_ IN CASE WHEN same THEN [1] ELSE [] END | DELETE r) "
        "FOREACH (_ IN CASE WHEN same THEN [] ELSE [1] END | "
        "  SET r.valid_to_seq = $seq, r.valid_to = $t, r.ended_commit = $c)",
        {**base, "p": path, "pairs": pairs},
    )
    if pairs:
        graph.query(
            f"UNWIND $pairs AS p MATCH (a:{V.SECTION} {{key: p[0]}}), (b:{V.SECTION} {{key: p[1]}}) "
            f"OPTIONAL MATCH (a)-[o:{V.NEXT}]->(b) WHERE {holds_at_head('o')} "
            "WITH a, b, count(o) AS open WHERE open = 0 "
            f"CREATE (a)-[:{V.NEXT} {{vkey: a.key + '>' + b.key, doc: $p, valid_from: $t, valid_from_seq: $seq, "
            "source_commit: $c, ingested_at: $now}]->(b)",
            {**base, "p": path, "pairs": pairs},
        )


# -- mentions -----------------------------------------------------------------------------------


def _short(name: str) -> str:
    return name.replace("/", ".").rsplit(".", 1)[-1]


def resolve_mentions(graph: GraphHandle, names: list[str], seq: int | None = None) -> dict[str, tuple[str, str, str]]:
    """Mention -> (label, fqn, resolution) for the names that denote one symbol existing at
    ``seq`` (None: HEAD). Dotted names match a fully qualified name exactly or as a unique
    suffix (``Cls.meth`` -> ``pkg.mod.Cls.meth``); bare names must be the name of exactly one
    Function or Class."""
    if not names:
        return {}
    lookup = sorted({_short(n) for n in names} | set(names))
    holds = holds_at_head("d") if seq is None else holds_at("d")
    cands: dict[str, list[tuple[str, str]]] = {}
    for label in (V.FUNCTION, V.CLASS):
        rows = graph.ro_query(
            f"MATCH ()-[d:{V.DEFINES}]->(s:{label}) WHERE s.name IN $names AND {holds} "
            "AND (s.external IS NULL OR s.external = false) "
            f"RETURN DISTINCT s.fully_qualified_name, s.name, s.kind",
            {"names": lookup, "seq": seq},
        )
        for fqn, name, kind in rows:
            if kind == "module":
                continue
            cands.setdefault(name, []).append((label, fqn))
    return match_mentions(cands, names)


def match_mentions(cands: Mapping[str, list[tuple[str, str]]], names: list[str]) -> dict[str, tuple[str, str, str]]:
    """The mention rule of ``resolve_mentions`` over candidates already known: ``cands`` maps a
    symbol's short name to the (label, fqn) of every program symbol (no modules) of that name."""
    out: dict[str, tuple[str, str, str]] = {}
    for m in names:
        pool = cands.get(_short(m), [])
        if not pool:
            continue
        if "." in m or "/" in m:
            exact = [c for c in pool if c[1] == m]
            if len(exact) == 1:
                out[m] = (*exact[0], "fqn")
                continue
            norm = m.replace("/", ".")
            suffix = [c for c in pool if c[1].replace("/", ".").endswith("." + norm)]
            if len(suffix) == 1:
                out[m] = (*suffix[0], "suffix")
        elif len(pool) == 1:
            out[m] = (*pool[0], "unique_name")
    return out


MentionResolver = Callable[[list[str]], dict[str, tuple[str, str, str]]]


def _resolver(graph: GraphHandle, seq: int | None) -> MentionResolver:
    """Mentions resolved against the symbols of the graph at ``seq`` (None: HEAD)."""
    return lambda names: resolve_mentions(graph, names, seq)


def _link(graph: DocWriter, section_mentions: list[tuple[str, list[str]]], resolver: MentionResolver) -> int:
    names = sorted({n for _, ms in section_mentions for n in ms})
    if not names:
        return 0
    resolved = resolver(names)
    rows = []
    for key, ms in section_mentions:
        for n in ms:
            if n in resolved:
                label, fqn, how = resolved[n]
                rows.append({"s": key, "label": label, "fqn": fqn, "name": n, "how": how})
    made = 0
    for label in (V.FUNCTION, V.CLASS):
        part = [r for r in rows if r["label"] == label]
        if part:
            res = graph.write_batches(
                # MERGE the symbol: ingestion writes a window's code nodes after its documentation
                f"UNWIND $rows AS r MATCH (s:{V.SECTION} {{key: r.s}}) MERGE (t:{label} {{fully_qualified_name: r.fqn}}) "
                f"MERGE (s)-[m:{V.MENTIONS}]->(t) ON CREATE SET m.name = r.name, m.resolution = r.how",
                part, batch_size=500,
            )
            made += res.get("relationships_created", 0)
    return made


def link_mentions(graph: Graph) -> int:
    """Resolve the mentions of every section in a document at HEAD against the symbols that
    exist now; creates the missing MENTIONS edges. Returns how many were created."""
    rows = graph.ro_query(
        f"MATCH (:{V.DOCUMENT})-[r:{V.HAS_SECTION}]->(s:{V.SECTION}) "
        f"WHERE {_HOLDS_OPEN} AND size(s.mentions) > 0 RETURN s.key, s.mentions"
    )
    if not rows:
        return 0
    return _link(graph, [(k, list(ms or [])) for k, ms in rows], _resolver(graph, None))


def sections_at(graph: GraphHandle, path: str, seq: int | None = None) -> list[dict[str, Any]]:
    """The blocks of a document at ``seq`` (None: HEAD), in reading order."""
    holds = _HOLDS_OPEN if seq is None else holds_at("r")
    rows = graph.ro_query(
        f"MATCH (d:{V.DOCUMENT} {{path: $p}})-[r:{V.HAS_SECTION}]->(s:{V.SECTION}) WHERE {holds} "
        f"OPTIONAL MATCH (s)-[m:{V.MENTIONS}]->(t) "
        "RETURN s.key, s.heading_path, s.text, r.ordinal, r.line_start, r.line_end, collect(t.fully_qualified_name) "
        "ORDER BY r.ordinal",
        {"p": path, "seq": seq},
    )
    if seq is not None:
        # ordinals are the latest ones (updated in place on the open version); the order at an
        # earlier commit is its NEXT chain, which is versioned
        pairs = graph.ro_query(
            f"MATCH (a:{V.SECTION} {{doc: $p}})-[r:{V.NEXT}]->(b:{V.SECTION}) WHERE {holds} AND r.doc = $p RETURN a.key, b.key",
            {"p": path, "seq": seq},
        )
        pos = {k: i for i, k in enumerate(chain_order([r[0] for r in rows], [(a, b) for a, b in pairs]))}
        rows = sorted(rows, key=lambda r: pos[r[0]])
    return [
        {"key": k, "heading_path": hp, "headings": (hp or "").split(HEADING_SEP), "text": t,
         "ordinal": i if seq is not None else o, "line_start": ls, "line_end": le,
         "mentions": sorted(x for x in ms if x)}
        for i, (k, hp, t, o, ls, le, ms) in enumerate(rows)
    ]  # fmt: skip


def chain_order(keys: list[str], pairs: Iterable[tuple[str, str]]) -> list[str]:
    """``keys`` (given in their latest order) in the reading order the NEXT ``pairs`` give: the
    chain from its first section; keys the chain does not reach keep their given order, after it."""
    nxt = dict(pairs)
    present = set(keys)
    targets = set(nxt.values())
    heads = [k for k in keys if k not in targets]
    out: list[str] = []
    seen: set[str] = set()
    k = heads[0] if heads else None
    while k is not None and k in present and k not in seen:
        out.append(k)
        seen.add(k)
        k = nxt.get(k)
    out += [k for k in keys if k not in seen]
    return out


# -- catching up from git (graphs ingested before ingestion wrote documentation) -----------------
#
# Ingestion calls ``apply_docs`` for every timeline commit it writes and records the commit as
# ``Meta.docs_seq``/``docs_commit`` in the same query that moves ``Meta.last_seq`` (so docs are
# rolled back and superseded with the code versions). A graph ingested before that has
# ``docs_seq`` behind ``last_seq`` (or none): ``catch_up_docs`` applies the missing commits from
# git, and ingestion runs it first. ``sync_docs`` is the same catch-up for callers outside
# ingestion (``mnemosyne embed``, ``refresh_workspace``); on a current graph it does nothing.


@dataclass
class DocsSyncReport:
    commits: int = 0
    documents: int = 0
    sections_opened: int = 0
    sections_closed: int = 0
    mentions: int = 0
    replayed: bool = False  # the timeline was rewritten: doc versions superseded and rebuilt
    seconds: float = 0.0


def _git(repo: str, *args: str) -> bytes:
    return run_git(repo, *args, text=False, timeout=300).stdout


def _blobs(repo: str, commit: str, paths: list[str]) -> dict[str, bytes | None]:
    return dict(zip(paths, cat_file_batch(repo, [f"{commit}:{p}" for p in paths]), strict=True))


def _doc_changes(repo: str, prev: str | None, commit: str) -> dict[str, bytes | None]:
    """Documentation files of ``commit`` that differ from timeline commit ``prev`` (None: the
    first timeline commit, whose whole tree is its change: root, shallow boundary, head-only)."""
    from mnemosyne.search.docs import is_doc_path

    changed: dict[str, bytes | None] = {}
    want: list[str] = []
    if prev is None:
        raw = _git(repo, "ls-tree", "-r", "-z", "--full-tree", commit)
        for rec in raw.split(b"\x00"):
            meta, _, p = rec.partition(b"\t")
            parts = meta.split()
            path = p.decode("utf-8", "surrogateescape")
            # blobs only (no symlinks, no submodules), as ingestion reads trees
            if len(parts) == 3 and parts[1] == b"blob" and parts[0] != b"120000" and is_doc_path(path):
                want.append(path)
    else:
        raw = _git(repo, "diff-tree", "-r", "-z", "--no-commit-id", "--name-status", "--no-renames", prev, commit)
        fields = raw.split(b"\x00")
        i = 0
        while i + 1 < len(fields):
            status, path = fields[i].decode(), fields[i + 1].decode("utf-8", "surrogateescape")
            i += 2
            if not is_doc_path(path):
                continue
            if status.startswith("D"):
                changed[path] = None
            else:
                want.append(path)
    changed.update(_blobs(repo, commit, want))
    return changed


def docs_state(graph: GraphHandle) -> tuple[int | None, int | None, str | None]:
    """``(Meta.last_seq, Meta.docs_seq, Meta.docs_commit)``."""
    meta = graph.ro_query(f"MATCH (m:{V.META} {{key: '{META_KEY}'}}) RETURN m.last_seq, m.docs_seq, m.docs_commit")
    if not meta:
        return None, None, None
    last_seq, docs_seq, docs_commit = meta[0]
    return (None if last_seq is None else int(last_seq), None if docs_seq is None else int(docs_seq), docs_commit)


def catch_up_docs(graph: Graph, repo: str, *, count_tokens: TokenCounter | None = None) -> DocsSyncReport:
    """Apply the documentation of the timeline commits after ``Meta.docs_seq`` up to
    ``Meta.last_seq``, reading them from git (nothing to do on a graph ingested with docs). If the
    timeline was rewritten since (``Meta.docs_commit`` no longer at ``docs_seq``), the doc versions
    from the fork on are superseded (``VersionStore.supersede_from``, doc edge types only) and
    re-applied from the fork. Idempotent and resumable (``docs_seq`` moves per commit)."""
    from mnemosyne.store.versions import VersionStore

    t0 = time.perf_counter()
    rep = DocsSyncReport()
    last_seq, docs_seq, docs_commit = docs_state(graph)
    if last_seq is None or (docs_seq == last_seq and docs_seq is not None and _at(graph, docs_seq) == docs_commit):
        return rep
    timeline = dict(graph.ro_query(f"MATCH (c:{V.COMMIT}) WHERE c.seq IS NOT NULL AND c.seq <= $s RETURN c.seq, c.hash", {"s": last_seq}))
    times = dict(graph.ro_query(f"MATCH (c:{V.COMMIT}) WHERE c.seq IS NOT NULL AND c.seq <= $s RETURN c.hash, c.timestamp", {"s": last_seq}))
    start = 0
    if docs_seq is not None:
        if timeline.get(docs_seq) == docs_commit:
            start = docs_seq + 1
        else:
            start = _fork_since(graph, docs_seq, docs_commit, timeline)
            VersionStore(graph).supersede_from(start, int(time.time()), edge_types=V.DOC_VERSIONED_EDGES, commits=False)
            rep.replayed = True
    count = count_tokens or default_token_counter()
    for s in range(start, last_seq + 1):
        h = timeline.get(s)
        if h is None:
            continue
        changed = _doc_changes(repo, timeline.get(s - 1) if s > 0 else None, h)
        if changed:
            r = apply_docs(graph, s, h, int(times.get(h) or 0), changed, count_tokens=count)
            rep.documents += r.documents
            rep.sections_opened += r.sections_opened
            rep.sections_closed += r.sections_closed
            rep.mentions += r.mentions
        rep.commits += 1
        graph.query(f"MATCH (m:{V.META} {{key: '{META_KEY}'}}) SET m.docs_seq = $s, m.docs_commit = $h", {"s": s, "h": h})
    if start > last_seq:
        graph.query(f"MATCH (m:{V.META} {{key: '{META_KEY}'}}) SET m.docs_seq = $s, m.docs_commit = $h",
                    {"s": last_seq, "h": timeline.get(last_seq)})
    rep.seconds = round(time.perf_counter() - t0, 3)
    return rep


def _at(graph: GraphHandle, seq: int) -> str | None:
    rows = graph.ro_query(f"MATCH (c:{V.COMMIT} {{seq: $s}}) RETURN c.hash", {"s": seq})
    return rows[0][0] if rows else None


def sync_docs(db: Database | Graph, ws: WorkspaceRef | Graph | None, *, count_tokens: TokenCounter | None = None,
              repo_path: str | None = None) -> DocsSyncReport:
    """``catch_up_docs`` for workspace ``ws`` (its repository from the graph or the registry).
    Ingestion keeps documentation current itself; this only matters for a graph ingested before
    it did, and is a cheap no-op otherwise."""
    graph = graph_of(db, ws)
    repo, _ = repo_and_commit(graph, db if isinstance(db, Database) else None, workspace_name(ws))
    repo = repo_path or repo
    if not repo:
        return DocsSyncReport()
    return catch_up_docs(graph, repo, count_tokens=count_tokens)


def _fork_since(graph: GraphHandle, docs_seq: int, docs_commit: str | None, timeline: dict[int, str]) -> int:
    """First timeline position whose commit differs from what the docs were applied on: the
    lowest ``old_seq`` of the superseded commits up to ``docs_seq`` that are no longer on the
    timeline. 0 when it cannot be told (everything is replayed)."""
    rows = graph.ro_query(
        f"MATCH (c:{V.COMMIT}) WHERE c.seq IS NULL AND c.old_seq IS NOT NULL AND c.old_seq <= $s "
        "RETURN c.old_seq, c.hash ORDER BY c.old_seq",
        {"s": docs_seq},
    )
    olds = [int(o) for o, h in rows if timeline.get(int(o)) != h]
    return min(olds) if olds else 0
