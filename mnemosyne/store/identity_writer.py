"""Writes a commit's identity facts (timeline/identity.py): renames/moves and formatting-only edits.

- ``(old)-[:RENAMED_TO {commit, seq, kind, similarity}]->(new)`` between ``Function``/``Class``
  nodes: ``old`` is ``new`` from commit ``seq`` on (``kind``: rename, move, rename_move);
- ``(:Commit)-[:REFORMATS {seq}]->(symbol)``: the commit changed the symbol's body text but not
  its code (same normalized tokens).

They are unversioned facts of the commit, believed while the commit holds that ``seq``: a history
rewrite supersedes the commit (``seq`` null) and with it these facts; a commit ingested again
(another ``--since`` window, a rollback re-applied) MERGEs them again under its seq, so writing
twice is harmless. The endpoints are MERGEd (a symbol that appeared in the window being written
has no node yet; the window's node rows fill it in) and so is the Commit node (its properties are
written with the window). Queries go through the ``VersionStore`` (its write-behind queue, in order
with the window's writes).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping

from mnemosyne import vocabulary as V
from mnemosyne.facts import FileFacts
from mnemosyne.git.repo import NULL_SHA, CommitInfo
from mnemosyne.store.versions import VersionStore
from mnemosyne.timeline.identity import CommitIdentity, commit_identity
from mnemosyne.timeline.state import Delta


def _label(is_class: bool) -> str:
    return V.CLASS if is_class else V.FUNCTION


def write_identity(store: VersionStore, commit: str, seq: int, facts: CommitIdentity) -> None:
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for lk in facts.links:
        groups[(_label(lk.old_is_class), _label(lk.new_is_class))].append(
            {"o": lk.old, "n": lk.new, "kind": lk.kind, "sim": lk.similarity})
    for (ol, nl), rows in sorted(groups.items()):
        store.batches(
            f"UNWIND $rows AS r MERGE (a:{ol} {{{V.FQN}: r.o}}) MERGE (b:{nl} {{{V.FQN}: r.n}}) "
            f"MERGE (a)-[e:{V.RENAMED_TO} {{commit: $h, seq: $seq}}]->(b) SET e.kind = r.kind, e.similarity = r.sim",
            rows, h=commit, seq=seq,
        )
    fmt: dict[str, list[dict]] = defaultdict(list)
    for fqn, is_class in facts.reformatted:
        fmt[_label(is_class)].append({"f": fqn})
    for label, rows in sorted(fmt.items()):
        store.batches(
            f"UNWIND $rows AS r MERGE (c:{V.COMMIT} {{hash: $h}}) MERGE (s:{label} {{{V.FQN}: r.f}}) "
            f"MERGE (c)-[e:{V.REFORMATS} {{seq: $seq}}]->(s)",
            rows, h=commit, seq=seq,
        )


def record_identity(store: VersionStore, c: CommitInfo, seq: int, files: Mapping[str, bytes | None],
                    old_facts: Mapping[str, FileFacts | None], new_facts: Mapping[str, FileFacts], delta: Delta,
                    read_blob: Callable[[str], bytes]) -> CommitIdentity:
    """The ingest hook: detect the identity facts of timeline commit ``seq`` from its ``DEFINES``
    delta and write them. ``files``: the source paths it changed -> new bytes; ``old_facts``: their
    facts before it; ``new_facts``: after; ``read_blob``: a blob's bytes (the files before it)."""
    old_blobs = {(ch.old_path or ch.path): ch.old_blob for ch in c.changes
                 if ch.old_blob and ch.old_blob != NULL_SHA}  # fmt: skip

    def old_text(path: str) -> str | None:
        sha = old_blobs.get(path)
        return None if sha is None else read_blob(sha).decode("utf-8", "replace")

    def new_text(path: str) -> str | None:
        data = files.get(path)
        return None if data is None else data.decode("utf-8", "replace")

    facts = commit_identity(delta, old_facts, new_facts, old_text, new_text)
    if facts:
        write_identity(store, c.hash, seq, facts)
    return facts
