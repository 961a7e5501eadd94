"""Embedding back-fill: give every searchable node a vector, never embedding a text twice.

(~615 lines, over the ~600 of the guide: the texts' collection and the embedding loop share the
items' shape; the collection's readers, ``GitBodyReader`` to ``module_docs``, are the part to
split off next.)

What is embedded (each text cut to the model's window by its real tokenizer):

- ``Function`` (kinds function/method; a module only when it has a docstring) and ``Class``
  nodes that some ``DEFINES`` version ever defined (external callees are not):
  ``"<kind> <fqn> (<file>)"``, the first paragraph of its module's docstring (``module_docs``),
  the docstring, the symbol's current non-stale text insights
  (``key: text``, e.g. an LLM summary; ``text_insights``), then the source lines ``line_start..line_end`` read
  from git at ``Meta.last_commit`` (``body_provider`` overrides; without a body the signature);
- a second vector for each such symbol with a docstring (or documentation lent to it): its first
  sentence (``text.first_sentence``), in ``sentence_embedding`` (hash ``sentence_hash``); hybrid
  reranks its top candidates by it (``rerank.sentence_rerank``);
- timeline ``Commit`` messages (plus the titles of the tickets they address);
- documentation ``Section`` blocks (heading path + text).

Caching, two levels:

1. ``embed_hash`` on the node: a hash of the model id and everything the text is built from
   (for symbols: fqn, kind, signature, docstring, file, ``body_hash``, callee names, their text insights and their
   module's docstring line). Equal -> nothing to do;
   this is what makes a second back-fill embed 0 and an unchanged function cost nothing across
   commits.
2. An on-disk cache ``<home>/cache/embeddings.sqlite`` keyed by ``(model_id, sha256(text))``:
   a text seen before (re-ingest into a fresh graph, a body that changed back, a function moved
   to another line) is never sent to the model again.

The model (provider, id, dim) is recorded in ``Meta``; a change drops the vector indexes and all
vectors, and everything is re-embedded (``vectors.prepare_model``). Back-fill is a separate step
from ingestion: ``mnemosyne ingest`` runs it after ingesting and the daemon queues it after an
ingest (both unless the setting ``embed_on_ingest`` is off), ``mnemosyne embed`` runs it by hand,
and ``mnemosyne search`` runs it first when nothing is embedded yet. Texts go to the model shortest
first, 64 at a time; each chunk's vectors are written, cached and dropped before the next
(``Meta.embed_pending`` / ``embed_pending_of`` say how far it is).

Over 600 lines: the collection of texts, their caches and the chunked writes are one pipeline whose
parts share the items' shape; split, each part would only be read with the others.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from mnemosyne import vocabulary as V
from mnemosyne.git.command import GitError, cat_file_batch
from mnemosyne.search.embedders import Embedder
from mnemosyne.search.lexical import SEARCH_TEXT_REV
from mnemosyne.search.target import graph_of, repo_and_commit, workspace_name
from mnemosyne.search.text import (  # noqa: F401 - symbol_header re-exported
    embed_text,
    first_paragraph,
    first_sentence,
    is_test_code,
    section_description,
    symbol_header,
)
from mnemosyne.search.text import search_text as make_search_text
from mnemosyne.search.vectors import (
    EMBEDDING_PROP,
    SENTENCE_HASH_PROP,
    SENTENCE_PROP,
    VECTOR_LABELS,
    check_dim,
    ensure_search_indexes,
    prepare_model,
    rebuild_vector_indexes,
)
from mnemosyne.store.versions import META_KEY
from mnemosyne.temporal import believed, holds_at_head

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database
    from mnemosyne.store.graph import Graph
    from mnemosyne.store.handles import GraphHandle, WorkspaceRef

log = logging.getLogger(__name__)

BodyProvider = Callable[[str, int | None, int | None], str | None]  # (file, line_start, line_end) -> text
_WRITE_BATCH = 200
_EMBED_CHUNK = 64
_MAX_COMMIT_CHARS = 4000
#: bump when the way texts are built changes: every node is re-embedded (via embed_hash)
#: the recipe of a symbol's second vector, its first sentence (``SENTENCE_PROP``)
SENTENCE_RECIPE = "s1"
TEXT_RECIPE = "v5"  # v3: callee names (class: method names) between docstring and body; v4: module docstring line;
# v5: what the documentation says about the symbol (``described_by_sections``), after its insights


_REBUILD_MIN = 2000  # re-create HNSW after re-embedding at least this many vectors...
_REBUILD_SHARE = 0.25  # ...that are at least this share of the stored ones


@dataclass
class EmbedProgress:
    """Where a back-fill is: texts embedded so far of those it has to embed, rate, ETA."""

    workspace: str
    done: int
    total: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.done / self.seconds if self.seconds > 0 else 0.0

    work_done: int = 0  # characters embedded so far (the ETA's measure: texts differ in length)
    work_total: int = 0

    @property
    def eta_s(self) -> float | None:
        if self.work_total > 0 and self.work_done > 0 and self.seconds > 0:
            return (self.work_total - self.work_done) * self.seconds / self.work_done
        return (self.total - self.done) / self.rate if self.rate > 0 else None


EmbedProgressFn = Callable[[EmbedProgress], None]


@dataclass
class BackfillReport:
    embedded: int = 0  # texts sent to the model
    sentences: int = 0  # of which first sentences (symbols' second vectors: not in ``written``)
    reused: int = 0  # vectors taken from the on-disk cache
    unchanged: int = 0  # nodes whose vector was already current
    written: int = 0  # node vectors written to the graph
    search_text_updated: int = 0
    model_changed: bool = False
    index_rebuilt: bool = False
    seconds: float = 0.0
    by_label: dict[str, int] = field(default_factory=dict)
    remaining: int = 0  # texts left for a later run because of ``limit``
    embed_seconds: float = 0.0  # time spent in the model (the rate is embedded / embed_seconds)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


# -- on-disk cache ----------------------------------------------------------------------------


class EmbeddingCache:
    """``(model_id, text hash) -> vector`` in SQLite (process- and thread-safe)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(str(self.path), timeout=30, check_same_thread=False)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute(
            "CREATE TABLE IF NOT EXISTS vectors (model TEXT NOT NULL, hash TEXT NOT NULL, dim INTEGER NOT NULL,"
            " vec BLOB NOT NULL, PRIMARY KEY (model, hash))"
        )
        self._conn.commit()

    def get_many(self, model: str, dim: int, hashes: Iterable[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        hs = list(dict.fromkeys(hashes))
        with self._lock:
            for i in range(0, len(hs), 500):
                part = hs[i : i + 500]
                q = f"SELECT hash, vec FROM vectors WHERE model=? AND dim=? AND hash IN ({','.join('?' * len(part))})"
                for h, blob in self._conn.execute(q, [model, dim, *part]):
                    out[h] = np.frombuffer(blob, dtype=np.float32)
        return out

    def put_many(self, model: str, items: Iterable[tuple[str, np.ndarray]]) -> None:
        rows = [(model, h, int(v.shape[0]), np.asarray(v, dtype=np.float32).tobytes()) for h, v in items]
        with self._lock:
            self._conn.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?)", rows)
            self._conn.commit()

    def count(self, model: str | None = None) -> int:
        with self._lock:
            if model:
                return self._conn.execute("SELECT count(*) FROM vectors WHERE model=?", [model]).fetchone()[0]
            return self._conn.execute("SELECT count(*) FROM vectors").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def default_cache(settings: Any | None = None) -> EmbeddingCache:
    from mnemosyne.config import get_settings

    s = settings or get_settings()
    return EmbeddingCache(Path(s.home) / "cache" / "embeddings.sqlite")


# -- reading bodies from git ------------------------------------------------------------------


class GitBodyReader:
    """Source lines of symbols at one commit, one ``git cat-file --batch`` for all files."""

    def __init__(self, repo_path: str | Path, commit: str) -> None:
        self.repo = str(repo_path)
        self.commit = commit
        self._files: dict[str, list[str] | None] = {}

    def preload(self, paths: Iterable[str]) -> None:
        wanted = [p for p in dict.fromkeys(paths) if p and p not in self._files]
        if not wanted:
            return
        try:
            blobs = cat_file_batch(self.repo, [f"{self.commit}:{p}" for p in wanted], timeout=120)
        except GitError as err:
            log.warning("cannot read sources from git at %s: %s", self.repo, err)
            blobs = [None] * len(wanted)
        for p, blob in zip(wanted, blobs, strict=True):
            self._files[p] = None if blob is None else blob.decode("utf-8", "replace").splitlines()

    def __call__(self, file: str, line_start: int | None, line_end: int | None) -> str | None:
        if file not in self._files:
            self.preload([file])
        lines = self._files.get(file)
        if not lines or not line_start:
            return None
        end = line_end or line_start
        return "\n".join(lines[max(0, int(line_start) - 1) : int(end)])


# -- the back-fill ----------------------------------------------------------------------------


def _h(*parts: Any) -> str:
    m = hashlib.sha256()
    for p in parts:
        m.update(b"\x1f")
        m.update(str("" if p is None else p).encode("utf-8", "replace"))
    return m.hexdigest()[:32]


@dataclass
class _Item:
    label: str
    key: str
    src_hash: str  # embed_hash to store
    build: Callable[[], str]  # the text to embed (may read git)
    text: str = ""
    text_hash: str = ""
    prop: str = EMBEDDING_PROP  # the vector property written (a symbol's sentence: SENTENCE_PROP)


@dataclass
class CallNames:
    """The call graph at HEAD by symbol: callee FQNs (a class: its methods) and caller FQNs,
    sorted (deterministic texts), for the code-aware search and embedding texts."""

    calls: dict[str, tuple[str, ...]] = field(default_factory=dict)
    callers: dict[str, tuple[str, ...]] = field(default_factory=dict)


def call_names_at_head(graph: GraphHandle) -> CallNames:
    """CALLS edges holding at HEAD (open, not superseded), and the methods of each class."""
    calls: dict[str, set[str]] = {}
    callers: dict[str, set[str]] = {}
    rows = graph.ro_query(
        f"MATCH (a:{V.FUNCTION})-[r:{V.CALLS}]->(b:{V.FUNCTION}) WHERE {holds_at_head('r')} "
        "AND (a.external IS NULL OR a.external = false) AND a <> b "
        "RETURN a.fully_qualified_name, b.fully_qualified_name"
    )
    for a, b in rows:
        if a and b:
            calls.setdefault(a, set()).add(b)
            callers.setdefault(b, set()).add(a)
    rows = graph.ro_query(
        f"MATCH (c:{V.CLASS})-[d:{V.DEFINES}]->(m:{V.FUNCTION}) WHERE {holds_at_head('d')} "
        "RETURN c.fully_qualified_name, m.fully_qualified_name"
    )
    for c, m in rows:
        if c and m:
            calls.setdefault(c, set()).add(m)
    return CallNames({k: tuple(sorted(v)) for k, v in calls.items()}, {k: tuple(sorted(v)) for k, v in callers.items()})


def described_by_sections(graph: GraphHandle) -> dict[str, str]:
    """``fqn -> what the documentation says about it`` (``text.section_description``): what a
    Sphinx directive in a document at HEAD documents (``docs.described_parts``: ``.. autoclass::
    LRUCache`` and its paragraphs), read over the blocks of one heading in order (a description cut
    into two blocks stays whole), its name qualified by the ``.. module::`` in effect there. Only a
    name that is a symbol's fully qualified name or a unique dotted suffix of one lends (a bare name
    does not: ``.. function:: frozen`` of a re-exporting package is not whichever ``frozen`` the
    code has), and never to test code."""
    from mnemosyne.search.doc_store import resolve_mentions
    from mnemosyne.search.docs import described_parts, module_after

    rows = graph.ro_query(
        f"MATCH (d:{V.DOCUMENT})-[r:{V.HAS_SECTION}]->(s:{V.SECTION}) WHERE {holds_at_head('r')} "
        "RETURN d.path, s.heading_path, r.line_start, s.text ORDER BY d.path, r.line_start"
    )
    parts: list[tuple[str, str]] = []
    groups: dict[tuple[str, str], list[str]] = {}
    for path, heading, _line, text in rows:
        groups.setdefault((path or "", heading or ""), []).append(text or "")
    module: dict[str, str] = {}
    for (path, _heading), blocks in groups.items():  # documents, then headings, in line order
        joined = "\n\n".join(blocks)
        parts += described_parts(joined, module.get(path, ""))
        module[path] = module_after(joined, module.get(path, ""))
    resolved = resolve_mentions(graph, sorted({name for name, _ in parts if "." in name}))
    texts: dict[str, list[str]] = {}
    for name, part in parts:
        hit = resolved.get(name)
        if hit and hit[2] in ("fqn", "suffix") and not is_test_code(hit[1]):
            texts.setdefault(hit[1], []).append(part)
    return {fqn: d for fqn, ts in texts.items() if (d := section_description(ts))}


def refresh_search_text(graph: Graph, names: CallNames | None = None) -> int:
    """Set ``search_text`` on Function/Class nodes where it is missing or stale (the code-aware
    value: with the names it calls and that call it at HEAD); returns count."""
    names = names or call_names_at_head(graph)
    described = described_by_sections(graph)
    n = 0
    for label in (V.FUNCTION, V.CLASS):
        sig = "f.signature" if label == V.FUNCTION else "null"
        rows = graph.ro_query(
            f"MATCH (f:{label}) WHERE f.external IS NULL OR f.external = false "
            f"RETURN f.fully_qualified_name, f.name, {sig}, f.docstring, f.file, f.search_text"
        )
        upd = []
        for fqn, name, sig_v, doc, file, cur in rows:
            if not fqn:
                continue
            st = make_search_text(fqn, name, sig_v, doc, file, names.calls.get(fqn, ()), names.callers.get(fqn, ()),
                                  described.get(fqn, ""))  # fmt: skip
            if st != cur:
                upd.append({"k": fqn, "t": st})
        if upd:
            graph.write_batches(
                f"UNWIND $rows AS r MATCH (f:{label} {{fully_qualified_name: r.k}}) SET f.search_text = r.t",
                upd, batch_size=500,
            )
            n += len(upd)
    if n:  # the processes' keyword indexes (lexical.symbol_index) are of the texts before
        graph.query(f"MERGE (m:{V.META} {{key: $k}}) SET m.{SEARCH_TEXT_REV} = coalesce(m.{SEARCH_TEXT_REV}, 0) + 1",
                    {"k": META_KEY})
    return n


def text_insights(graph: GraphHandle) -> dict[str, list[str]]:
    """``fqn -> ["key: text", ...]``: the current insights (query/insights.py) with a text value (a
    string or a list of strings) written about the symbol's body at the ingested head (not stale):
    LLM summaries and agents' notes, embedded with the symbol so semantic search finds it by them."""
    rows = graph.ro_query(
        f"MATCH (i:{V.INSIGHT}) WHERE {believed('i')} AND i.removed_at IS NULL "
        f"WITH i MATCH (i)-[:{V.DESCRIBES}]->(s)<-[d:{V.DEFINES}]-() WHERE {holds_at_head('d')} "
        "AND coalesce(d.body_hash, '') = coalesce(i.body_hash, '') "
        "RETURN DISTINCT i.target, i.key, i.agent_id, i.value ORDER BY i.target, i.key, i.agent_id"
    )
    out: dict[str, list[str]] = {}
    for target, key, _agent, value in rows:
        try:
            v = json.loads(value)
        except (TypeError, ValueError):
            continue
        if isinstance(v, list) and v and all(isinstance(x, str) for x in v):
            v = "; ".join(v)
        if isinstance(v, str) and v.strip():
            out.setdefault(target, []).append(f"{key.replace('_', ' ')}: {v.strip()}")
    return out


def module_docs(graph: GraphHandle) -> dict[str, str]:
    """``file -> first paragraph of its module docstring`` (``text.first_paragraph``) for the
    modules defined at HEAD: embedded with each symbol of the file (what the module is about)."""
    rows = graph.ro_query(
        f"MATCH ()-[d:{V.DEFINES}]->(m:{V.FUNCTION}) WHERE {holds_at_head('d')} AND m.kind = 'module' "
        "RETURN m.file, coalesce(d.docstring, m.docstring) ORDER BY m.file"
    )
    return {file: para for file, doc in rows if file and (para := first_paragraph(doc))}


def _collect(graph: GraphHandle, embedder: Embedder, body: BodyProvider | None, names: CallNames | None = None) -> list[_Item]:
    names = names or CallNames()
    model = embedder.model_id
    items: list[_Item] = []
    notes = text_insights(graph)
    described = described_by_sections(graph)
    for fqn, d in described.items():  # what the documentation says about it
        notes.setdefault(fqn, []).append(f"documentation: {d}")

    def fit(text: str) -> str:
        return embedder.truncate(text)

    # symbols ever defined, newest files first does not matter: all are embedded
    fn_rows = graph.ro_query(
        f"MATCH (f:{V.FUNCTION}) WHERE (f.external IS NULL OR f.external = false) AND coalesce(f.kind, '') <> 'lambda' "
        f"AND (f)<-[:{V.DEFINES}]-() "
        "RETURN f.fully_qualified_name, f.kind, f.signature, f.docstring, f.file, f.line_start, f.line_end, "
        f"f.body_hash, f.embed_hash, f.embedding IS NOT NULL, f.{SENTENCE_HASH_PROP}"
    )
    cls_rows = graph.ro_query(
        f"MATCH (c:{V.CLASS}) WHERE (c.external IS NULL OR c.external = false) AND (c)<-[:{V.DEFINES}]-() "
        "RETURN c.fully_qualified_name, 'class', null, c.docstring, c.file, c.line_start, c.line_end, "
        f"c.body_hash, c.embed_hash, c.embedding IS NOT NULL, c.{SENTENCE_HASH_PROP}"
    )
    mod_docs = module_docs(graph)
    for label, rows in (("Function", fn_rows), ("Class", cls_rows)):
        for fqn, kind, sig, doc, file, ls, le, bh, eh, has, sh in rows:
            if not fqn:
                continue
            if kind == "module" and not (doc or "").strip():
                continue
            sentence = first_sentence(doc) or first_sentence(described.get(fqn))
            s_src = _h(model, SENTENCE_RECIPE, fqn, sentence) if sentence else None
            if s_src != sh:  # a new or changed first sentence (None: a stale vector is cleared)
                items.append(_Item(label, fqn, s_src or "", partial(str, sentence), prop=SENTENCE_PROP))
            calls = names.calls.get(fqn, ())
            ins = tuple(notes.get(fqn) or ())
            mdoc = mod_docs.get(file or "", "") if kind != "module" else ""
            src = _h(model, TEXT_RECIPE, "sym", fqn, kind, sig, doc, file, bh if bh else f"{ls}-{le}", *calls, "|",
                     *ins, "|", mdoc)  # fmt: skip
            if eh == src and has:
                items.append(_Item(label, fqn, src, lambda: "", text_hash="="))
                continue

            def build(fqn=fqn, kind=kind, sig=sig, doc=doc, file=file, ls=ls, le=le, calls=calls, ins=ins,
                      mdoc=mdoc) -> str:  # fmt: skip
                text = body(file, ls, le) if (body and file and kind != "module") else None
                return fit(embed_text(fqn, kind, file, sig, doc, text, calls, notes=ins, module_doc=mdoc))

            items.append(_Item(label, fqn, src, build))

    sec_rows = graph.ro_query(
        f"MATCH (s:{V.SECTION}) RETURN s.key, s.heading_path, s.text, s.embed_hash, s.embedding IS NOT NULL"
    )
    for key, hp, text, eh, has in sec_rows:
        if not key:
            continue
        src = _h(model, "sec", key, hp, text)
        if eh == src and has:
            items.append(_Item("Section", key, src, lambda: "", text_hash="="))
            continue
        items.append(_Item("Section", key, src, partial(fit, f"{hp or ''}\n{text or ''}".strip())))

    commit_rows = graph.ro_query(
        f"MATCH (c:{V.COMMIT}) WHERE c.seq IS NOT NULL AND c.message IS NOT NULL "
        f"OPTIONAL MATCH (c)-[:{V.ADDRESSES}]->(t:{V.TICKET}) "
        "RETURN c.hash, c.message, collect(t.title), c.embed_hash, c.embedding IS NOT NULL, c.seq "
        "ORDER BY c.seq DESC"
    )
    for hsh, msg, titles, eh, has, _seq in commit_rows:
        titles = sorted(t for t in (titles or []) if t)
        src = _h(model, "commit", hsh, msg, *titles)
        if eh == src and has:
            items.append(_Item("Commit", hsh, src, lambda: "", text_hash="="))
            continue
        items.append(
            _Item("Commit", hsh, src, partial(fit, "\n".join([msg[:_MAX_COMMIT_CHARS], *titles])))
        )
    return items


def backfill(
    db: Database | Graph,
    ws: WorkspaceRef | Graph | None,
    embedder: Embedder,
    limit: int | None = None,
    *,
    cache: EmbeddingCache | None = None,
    body_provider: BodyProvider | None = None,
    rebuild: bool | None = None,
    progress: EmbedProgressFn | None = None,
) -> BackfillReport:
    """Embed what is missing or stale in workspace ``ws``; see the module docstring.

    ``limit`` caps the texts sent to the model in this run (the rest: ``report.remaining``).
    ``rebuild`` forces (True) or forbids (False) re-creating the HNSW indexes afterwards; by
    default they are rebuilt after re-embedding a large share of the vectors.
    """
    t0 = time.perf_counter()
    report = BackfillReport()
    graph = graph_of(db, ws)
    ensure_search_indexes(graph)
    try:
        from mnemosyne.search.doc_store import link_mentions

        link_mentions(graph)  # before search_text: the sections citing one symbol lend it their words
    except Exception as err:  # mentions are a bonus: never fail a back-fill on them
        log.warning("linking doc mentions failed: %s", err)
    names = call_names_at_head(graph)
    report.search_text_updated = refresh_search_text(graph, names)
    dim = int(embedder.dim)
    report.model_changed = prepare_model(graph, embedder.provider, embedder.model_id, dim)

    if body_provider is None:
        repo, commit = repo_and_commit(graph, db if not hasattr(db, "ro_query") else None, workspace_name(ws))
        if repo and commit and Path(repo).exists():
            body_provider = GitBodyReader(repo, commit)
    items = _collect(graph, embedder, body_provider, names)
    todo = [it for it in items if it.text_hash != "="]
    gone = [it for it in todo if it.prop == SENTENCE_PROP and not it.src_hash]  # no first sentence any more
    todo = [it for it in todo if it.prop != SENTENCE_PROP or it.src_hash]
    for label in sorted({it.label for it in gone}):
        graph.query(f"UNWIND $k AS k MATCH (n:{label} {{{VECTOR_LABELS[label]}: k}}) "
                    f"SET n.{SENTENCE_PROP} = NULL, n.{SENTENCE_HASH_PROP} = NULL",
                    {"k": [it.key for it in gone if it.label == label]})  # fmt: skip
    report.unchanged = len(items) - len(todo)
    if isinstance(body_provider, GitBodyReader):
        rows = graph.ro_query(
            f"MATCH (f) WHERE (f:{V.FUNCTION} OR f:{V.CLASS}) AND f.fully_qualified_name IN $k RETURN DISTINCT f.file",
            {"k": [it.key for it in todo if it.label in ("Function", "Class")]},
        )
        body_provider.preload(r[0] for r in rows if r[0])

    own_cache = cache is None
    cache = cache or default_cache(getattr(db, "settings", None))
    model = embedder.model_id
    try:
        for it in todo:
            it.text = it.build()
            it.text_hash = hashlib.sha256(it.text.encode("utf-8", "replace")).hexdigest()
        cached = cache.get_many(model, dim, (it.text_hash for it in todo))
        uniq: dict[str, _Item] = {}
        for it in todo:
            if it.text_hash not in cached:
                uniq.setdefault(it.text_hash, it)
        # similar lengths together (the embedder batches each chunk by token length), short first
        to_embed = sorted(uniq.values(), key=lambda it: len(it.text))
        if limit is not None and len(to_embed) > limit:
            report.remaining = len(to_embed) - limit
            to_embed = to_embed[: max(0, limit)]
        report.reused = sum(1 for it in todo if it.text_hash in cached)
        from mnemosyne.search.vectors import set_pending

        by_hash: dict[str, list[_Item]] = {}
        for it in todo:
            by_hash.setdefault(it.text_hash, []).append(it)

        def write(vectors: Iterable[tuple[str, np.ndarray]]) -> None:
            """Vectors go to the graph chunk by chunk and are not kept: an interrupted back-fill
            keeps its work, semantic search covers what is embedded so far, memory stays flat."""
            by_label: dict[tuple[str, str], list[dict[str, Any]]] = {}
            for h, v in vectors:
                for it in by_hash.get(h, []):
                    by_label.setdefault((it.label, it.prop), []).append({"k": it.key, "h": it.src_hash, "v": v.tolist()})
            for (label, prop), rows in by_label.items():
                hash_prop = "embed_hash" if prop == EMBEDDING_PROP else SENTENCE_HASH_PROP
                graph.write_batches(
                    # FalkorDB ignores a SET of a vector-indexed property that already holds a vector
                    # (measured on 4.x: the old vector stays): clear it first, then set it
                    f"UNWIND $rows AS r MATCH (n:{label} {{{VECTOR_LABELS[label]}: r.k}}) SET n.{prop} = null "
                    f"WITH n, r SET n.{prop} = vecf32(r.v), n.{hash_prop} = r.h",
                    rows, batch_size=_WRITE_BATCH,
                )
                if prop == EMBEDDING_PROP:  # the sentence vectors are no index's: not counted here
                    report.by_label[label] = report.by_label.get(label, 0) + len(rows)
                    report.written += len(rows)

        write(cached.items())
        cached.clear()
        set_pending(graph, len(to_embed) + report.remaining, total=len(to_embed) + report.remaining)
        ws_name = ws if isinstance(ws, str) else str(getattr(ws, "name", None) or getattr(graph, "name", "") or ws)
        work_total = sum(len(it.text) for it in to_embed)
        work_done = done = 0
        t_embed = time.perf_counter()
        for s in range(0, len(to_embed), _EMBED_CHUNK):
            chunk = to_embed[s : s + _EMBED_CHUNK]
            v = embedder.embed([it.text for it in chunk])
            check_dim(v, dim)
            pairs = [(it.text_hash, v[i]) for i, it in enumerate(chunk)]
            cache.put_many(model, pairs)
            write(pairs)
            done += len(chunk)
            n_sentences = sum(1 for it in chunk if it.prop == SENTENCE_PROP)
            report.sentences += n_sentences
            report.embedded += len(chunk)
            work_done += sum(len(it.text) for it in chunk)
            for it in chunk:
                it.text = ""  # embedded and written: the text is not needed any more
            set_pending(graph, len(to_embed) - done + report.remaining)
            if progress is not None:
                progress(EmbedProgress(ws_name, done, len(to_embed), time.perf_counter() - t_embed,
                                       work_done, work_total))
        report.embed_seconds = round(time.perf_counter() - t_embed, 3)
    finally:
        if own_cache:
            cache.close()

    total = len(items)
    big = report.written >= _REBUILD_MIN and report.written >= _REBUILD_SHARE * max(total, 1)
    if rebuild or (rebuild is None and big and not report.model_changed):
        rebuild_vector_indexes(graph)
        report.index_rebuilt = True
    elif rebuild is None:
        from mnemosyne.search.vectors import check_vector_health

        report.index_rebuilt = check_vector_health(graph)
    report.seconds = round(time.perf_counter() - t0, 3)
    log.info("backfill %s: %s", getattr(graph, "name", ws), report.as_dict())
    return report


def embedded_count(graph: GraphHandle) -> int:
    """How many nodes carry a vector (0: run a back-fill before semantic search)."""
    n = 0
    for label in (V.FUNCTION, V.CLASS, V.SECTION, V.COMMIT):
        rows = graph.ro_query(f"MATCH (n:{label}) WHERE n.embedding IS NOT NULL RETURN count(n)")
        n += int(rows[0][0]) if rows else 0
    return n
