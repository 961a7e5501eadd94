"""Rows an ingestion run writes besides versions: node rows of a file's facts, the endpoints of new
versions, a package's files; the documentation writer over the store's queue; the history window's start."""

from __future__ import annotations

import logging
import re
from typing import Any

from mnemosyne import vocabulary as V
from mnemosyne.errors import MnemosyneError, RevisionNotFound
from mnemosyne.facts import FileFacts
from mnemosyne.git.repo import GitRepo
from mnemosyne.search.text import search_text
from mnemosyne.store.versions import NodeRows, VersionStore
from mnemosyne.timeline.edges import EdgeKey

log = logging.getLogger(__name__)

class _QueuedWrites:
    """The store's ordered queue as a documentation writer (``doc_store.DocWriter``): writes run on
    the write-behind thread after the commit's code writes; no results come back."""

    def __init__(self, store: VersionStore) -> None:
        self.store = store

    def query(self, cypher: str, params: dict[str, Any] | None = None) -> list[list[Any]]:
        self.store.q(cypher, params or {})
        return []

    def write_batches(self, cypher: str, rows: list[dict[str, Any]], batch_size: int | None = None, *,
                      params: dict[str, Any] | None = None) -> dict[str, int]:
        size = max(1, batch_size or self.store.batch_size)
        for i in range(0, len(rows), size):
            self.store.q(cypher, {**(params or {}), "rows": rows[i : i + size]})
        return {}


def _file_nodes(ff: FileFacts) -> dict[tuple[str, str], dict]:
    """Node rows of one file's facts, keyed by (NodeRows attribute, key)."""
    rows: dict[tuple[str, str], dict] = {
        ("files", ff.path): {"path": ff.path, "p": {"language": ff.language, "module": ff.module,
                                                  "content_hash": ff.content_hash}},
    }
    for s in ff.symbols:
        # the one definition of search_text (the back-fill's refresh_search_text computes the same
        # value from the node's properties, so it never rewrites what ingestion wrote)
        sig = None if s.kind == "class" else (s.signature or "")
        props = {"name": s.name, "file": s.file, "docstring": s.docstring or "", "line_start": s.line_start,
                 "line_end": s.line_end, "external": False,
                 "search_text": search_text(s.fqn, s.name, sig, s.docstring or "", s.file)}
        if s.kind == "class":
            rows[("classes", s.fqn)] = {"k": s.fqn, "p": props}
        else:
            props.update(kind=s.kind, signature=s.signature or "", body_hash=s.body_hash or "")
            rows[("functions", s.fqn)] = {"k": s.fqn, "p": props}
    return rows


def _changed_props(prev: dict | None, row: dict) -> dict:
    """The node row to write over ``prev`` (what this run last wrote for the node): only the
    properties that changed (``SET n += r.p``), so a function moved by an edit above it sends its
    line range, not its docstring and search text again."""
    if prev is None:
        return row
    old = prev["p"]
    return {**row, "p": {k: v for k, v in row["p"].items() if old.get(k) != v}}


def _endpoint_nodes(opened: list[tuple[EdgeKey, dict]], computed: dict[str, FileFacts], nodes: NodeRows,
                    known: set[tuple[str, str]]) -> None:
    """Make sure both ends of every new version exist (external callees and bases, packages).
    ``known``: nodes this run already wrote (nodes are never deleted), updated here."""
    known.update((V.FUNCTION, r["k"]) for r in nodes.functions)
    known.update((V.CLASS, r["k"]) for r in nodes.classes)
    known.update((V.FILE, r["path"]) for r in nodes.files)
    external: set[str] = set()
    for ff in computed.values():
        external.update(c.callee for c in ff.calls if c.external)
        external.update(i.parent for i in ff.inherits if i.external)
    for k, _ in opened:
        for label, key in ((k.src_label, k.src), (k.dst_label, k.dst)):
            if (label, key) in known:
                continue
            known.add((label, key))
            if label == V.FUNCTION:
                nodes.ext_functions.append({"k": key, "name": key.rsplit(".", 1)[-1], "ext": key in external})
            elif label == V.CLASS:
                nodes.ext_classes.append({"k": key, "name": key.rsplit(".", 1)[-1], "ext": key in external})
            elif label == V.THIRD_PARTY_PACKAGE:
                eco, _, name = key.partition(":")
                nodes.third_party.append({"k": key, "eco": eco, "name": name})
            elif label == V.FILE:
                nodes.ensure_files.append({"path": key})


def _package_of(path: str, pkg_paths: list[str], nodes: NodeRows) -> None:
    for pp in pkg_paths:  # longest first
        if pp == "." or path.startswith(pp.rstrip("/") + "/"):
            nodes.package_files.append({"pkg": pp, "path": path})
            return


def window_index(repo: GitRepo, timeline: list[str], since: str) -> int:
    """Index in ``timeline`` (first-parent hashes, root first) where a history window given by
    ``since`` starts: the first commit at or after a date (YYYY-MM-DD, ISO time, epoch seconds),
    or a revision that is on the timeline."""
    from mnemosyne.errors import ConfigError
    from mnemosyne.query.core import parse_time

    text = since.strip()
    when: int | None = None
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}([T ].*)?|\d{9,}", text):
        try:
            when = parse_time(text)
        except MnemosyneError:
            when = None
    if when is not None:
        stamped = repo.git.rev_list("--first-parent", "--reverse", "--timestamp", timeline[-1]).split("\n")
        times = {h: int(t) for t, _, h in (line.partition(" ") for line in stamped if line.strip())}
        for i, h in enumerate(timeline):
            if times.get(h, 0) >= when:
                return i
        return len(timeline) - 1  # nothing that recent: the window is the head alone
    try:
        commit = repo.rev_parse(text)
    except RevisionNotFound:
        raise ConfigError(f"--since {since!r} is neither a date (YYYY-MM-DD) nor a revision of this repository") from None
    if commit not in timeline:
        raise ConfigError(
            f"--since {since!r} ({commit[:12]}) is not on the first-parent history of the tracked branch; "
            "give a commit of that history or a date"
        )
    return timeline.index(commit)
