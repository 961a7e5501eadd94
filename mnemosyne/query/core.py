"""Shared plumbing of the read API: workspaces, "which commit" (``resolve_at``), git access,
and answers from source for commits that are not on the timeline.

How time works (docs/schema.md): every query runs at a timeline position ``seq``. A fact holds at
``s`` iff ``valid_from_seq <= s AND (valid_to_seq IS NULL OR valid_to_seq > s) AND superseded_at
IS NULL``. ``at`` is any commit-ish (hash, short hash, branch, tag, ``HEAD~3``) resolved with
``git rev-parse`` in the workspace's repository and then looked up as ``Commit.seq``; ``as_of``
(epoch seconds) means the last timeline commit whose committer time is <= it. A commit that is
not on the timeline (a feature branch, a superseded commit, one not ingested yet) is answered by
parsing its tree (``from_source=True``).
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mnemosyne.errors import ConfigError, MnemosyneError, RevisionNotFound
from mnemosyne.git.command import GitError, git_output, run_git
from mnemosyne.git.readers import read_object
from mnemosyne.query.models import AtCommit
from mnemosyne.store.rows import Record, named_records, query_records
from mnemosyne.timeline.edges import raw_text

if TYPE_CHECKING:
    from mnemosyne.facts import Snapshot
    from mnemosyne.store.connection import Database
    from mnemosyne.store.graph import Graph
    from mnemosyne.store.registry import WorkspaceInfo

log = logging.getLogger(__name__)

_HEX = re.compile(r"^[0-9a-fA-F]{4,40}$")
_HEX40 = re.compile(r"^[0-9a-f]{40}$")


class WorkspaceNotIngested(MnemosyneError):
    """The workspace is registered but no commit has been ingested yet. ``fact`` is the sentence
    without the CLI advice (the MCP server gives its own: it can ask the daemon)."""

    def __init__(self, fact: str, advice: str = "") -> None:
        super().__init__(fact + (f"; {advice}" if advice else ""))
        self.fact = fact


# --- workspaces --------------------------------------------------------------------------------


def workspace_info(db: Database, ws: str | WorkspaceInfo | None) -> WorkspaceInfo:
    """A ``WorkspaceInfo`` from a name (registry lookup), an info, or None (current directory)."""
    if ws is None:
        from mnemosyne.workspaces import resolve_workspace

        return resolve_workspace(db, None, Path.cwd())
    if isinstance(ws, str):
        return db.registry.get(ws)
    return ws


def run(g: Graph, query_name: str, /, **params: Any) -> list[list[Any]]:
    """Run the named query ``cypher/<query_name>.cypher`` read-only; returns its rows."""
    return g.run_named(query_name, params, readonly=True)


def records(g: Graph, query_name: str, /, **params: Any) -> list[Record]:
    """Run the named query ``cypher/<query_name>.cypher`` read-only; its rows by column name."""
    return named_records(g, query_name, params)


def ingested_head(g: Graph, info: WorkspaceInfo) -> tuple[int, str | None]:
    """(last_seq, last_commit) of the workspace graph: the default "HEAD" of every query."""
    rows = records(g, "ingest_head")
    if rows and rows[0].last_seq is not None:
        return int(rows[0].last_seq), rows[0].last_commit
    if info.last_ingested_seq is not None:
        return int(info.last_ingested_seq), info.last_ingested_commit
    raise WorkspaceNotIngested(
        f"workspace {info.name!r} has no ingested commit yet", f"run `mnemosyne ingest --workspace {info.name}`"
    )


# --- time --------------------------------------------------------------------------------------


def parse_time(text: str | int | float | datetime) -> int:
    """Epoch seconds from an int, a digit string, or an ISO 8601 date/time (naive = UTC)."""
    if isinstance(text, datetime):
        return int((text if text.tzinfo else text.replace(tzinfo=UTC)).timestamp())
    if isinstance(text, int | float):
        return int(text)
    s = str(text).strip()
    if re.fullmatch(r"-?\d+(\.\d+)?", s):
        return int(float(s))
    iso = s.replace("Z", "+00:00").replace(" ", "T", 1) if "T" not in s and " " in s else s.replace("Z", "+00:00")
    try:
        dt = datetime.fromisoformat(iso)
    except ValueError:
        raise ConfigError(
            f"cannot read time {text!r}: give epoch seconds or ISO 8601 (2024-05-01, 2024-05-01T12:00:00Z)"
        ) from None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return int(dt.timestamp())


def iso(ts: int | None) -> str:
    if ts is None:
        return "?"
    return datetime.fromtimestamp(ts, tz=UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


# --- git ---------------------------------------------------------------------------------------


def git(path: str | Path, *args: str, check: bool = True) -> str:
    """Run git in ``path``; stdout. Raises ``GitError`` (a MnemosyneError) on failure."""
    return git_output(path, *args, check=check)


_REVS: OrderedDict[tuple[str, str], str] = OrderedDict()
_REVS_LOCK = threading.Lock()
_REVS_MAX = 4096


def rev_parse(path: str | Path, rev: str) -> str | None:
    """Full hash of a commit-ish in the repository at ``path``; None when it does not resolve.
    Abbreviated hashes (7+ hex digits) are cached: they name the same commit for good."""
    if not rev or rev.startswith("-"):
        return None
    key = (str(path), rev.lower())
    cacheable = len(rev) >= 7 and _HEX.match(rev) is not None
    if cacheable:
        with _REVS_LOCK:
            hit = _REVS.get(key)
            if hit is not None:
                _REVS.move_to_end(key)
                return hit
    if not Path(path).is_dir():
        return None
    try:
        out = git(path, "rev-parse", "--verify", "-q", f"{rev}^{{commit}}", check=False)
    except MnemosyneError:
        return None
    out = out.strip()
    if not _HEX40.match(out):
        return None
    if cacheable and out.startswith(rev.lower()):
        with _REVS_LOCK:
            _REVS[key] = out
            while len(_REVS) > _REVS_MAX:
                _REVS.popitem(last=False)
    return out


def commit_meta(path: str | Path, commit: str) -> dict[str, Any]:
    """Committer time, author and subject of a commit, from git (for commits not in the graph)."""
    try:
        out = git(path, "show", "-s", "--format=%ct%x1f%an%x1f%s", commit)
    except MnemosyneError:
        return {}
    parts = out.rstrip("\n").split("\x1f")
    if len(parts) < 3:
        return {}
    return {"timestamp": int(parts[0]), "author": parts[1], "message": parts[2]}


_BLOBS: OrderedDict[tuple[str, str, str], list[str]] = OrderedDict()
_BLOBS_LOCK = threading.Lock()
_BLOBS_MAX = 128  # files at a commit never change: keep the last ones read (one git process saved per hit)


def _remember(key: tuple[str, str, str], lines: list[str]) -> list[str]:
    with _BLOBS_LOCK:
        _BLOBS[key] = lines
        while len(_BLOBS) > _BLOBS_MAX:
            _BLOBS.popitem(last=False)
    return lines


def _blob_lines(path: str | Path, commit: str, file: str) -> list[str] | None:
    key = (str(path), commit, file)
    with _BLOBS_LOCK:
        hit = _BLOBS.get(key)
        if hit is not None:
            _BLOBS.move_to_end(key)
            return hit
    file = raw_text(file)  # a stored name with escaped non-UTF-8 bytes, as git has it
    data = read_object(path, f"{commit}:{file}") if _HEX40.match(commit) and "\n" not in file else None
    if data is not None:
        return _remember(key, data.decode("utf-8", errors="replace").splitlines())
    try:
        proc = run_git(path, "show", f"{commit}:{file}", check=False, text=False)
    except GitError:
        return None
    if proc.returncode != 0:
        return None
    lines = proc.stdout.decode("utf-8", errors="replace").splitlines()
    if _HEX40.match(commit):  # only an immutable name is cached (not a branch)
        _remember(key, lines)
    return lines


def file_lines(path: str | Path, commit: str, file: str, start: int | None, end: int | None) -> str | None:
    """Lines ``start..end`` (1-based, inclusive) of ``file`` at ``commit``; None if unavailable."""
    if not file or start is None or not Path(path).is_dir():
        return None
    lines = _blob_lines(path, commit, file)
    if lines is None:
        return None
    last = end if end is not None else start
    return "\n".join(lines[max(start - 1, 0) : last])


# --- which commit ------------------------------------------------------------------------------


def first_line(msg: str | None) -> str | None:
    """A commit message's first line (an empty or missing message as it is)."""
    return msg.strip().splitlines()[0] if msg and msg.strip() else msg


def _timeline_at(row: Record, requested: str | None, head_seq: int, head_hash: str | None) -> AtCommit:
    hash_, seq, ts, author, message = row.hash, row.seq, row.timestamp, row.author, row.message
    return AtCommit(
        requested=requested,
        hash=hash_,
        short=hash_[:10],
        seq=int(seq),
        timestamp=ts,
        author=author,
        message=first_line(message),
        on_timeline=True,
        from_source=False,
        head_seq=head_seq,
        head_hash=head_hash,
        behind_head=head_seq - int(seq),
    )


def resolve_at(
    db: Database,
    ws: str | WorkspaceInfo | None,
    at: str | AtCommit | None = None,
    as_of: int | str | None = None,
    as_of_ingest: int | str | None = None,
) -> AtCommit:
    """The commit a question is asked at: ``at`` (commit-ish), ``as_of`` (time), or the ingested head.

    ``at`` may also be an ``AtCommit`` resolved before: it is returned as is.
    ``as_of_ingest`` (epoch seconds or ISO) asks in the belief state of that wall-clock time
    (transaction time): the timeline as it was ingested then, so a commit superseded since (history
    rewritten) is still on it at its ``old_seq``; see ``resolve_believed``.

    Raises ``RevisionNotFound`` for a commit-ish that does not resolve, or a time before the first
    ingested commit; ``WorkspaceNotFound`` / ``WorkspaceNotIngested`` for the workspace.
    """
    if isinstance(at, AtCommit):  # already resolved by the caller (the MCP layer resolves once per call)
        return at
    info = workspace_info(db, ws)
    g = db.graph(info.name)
    if at is not None and as_of is not None:
        raise ConfigError("give either a revision (--at) or a time (--as-of), not both")
    if as_of_ingest is not None:
        return resolve_believed(g, info, parse_time(as_of_ingest), at=at, as_of=as_of)
    head_seq, head_hash = ingested_head(g, info)
    if as_of is not None:
        t = parse_time(as_of)
        rows = records(g, "commit_at_time", t=t, max_seq=head_seq)
        if not rows:
            first = records(g, "commit_by_seq", seq=0)
            since = f"; the first commit is from {iso(first[0].timestamp)}" if first else ""
            raise RevisionNotFound(f"no timeline commit of workspace {info.name!r} at or before {iso(t)}{since}")
        return _timeline_at(rows[0], str(as_of), head_seq, head_hash)
    if at is None:
        rows = records(g, "commit_by_seq", seq=head_seq)
        if rows:
            return _timeline_at(rows[0], None, head_seq, head_hash)
        if head_hash:
            return AtCommit(hash=head_hash, short=head_hash[:10], seq=head_seq, head_seq=head_seq,
                            head_hash=head_hash, behind_head=0)  # fmt: skip
        raise WorkspaceNotIngested(f"workspace {info.name!r} has no commit at seq {head_seq}")
    if _HEX40.match(at):  # a full hash: the graph answers without asking git
        rows = records(g, "commit_by_hash", hash=at)
        if rows and rows[0].seq is not None and int(rows[0].seq) <= head_seq:
            return _timeline_at(rows[0], at, head_seq, head_hash)
    full = rev_parse(info.path, at)
    if full is None and _HEX.match(at) and len(at) == 40:
        full = at.lower()  # repository gone or commit unknown to git: try the graph directly
    if full is None:
        raise RevisionNotFound(
            f"revision {at!r} not found in the repository of workspace {info.name!r} ({info.path}); "
            "give a commit hash, branch, tag or HEAD~N"
        )
    rows = records(g, "commit_by_hash", hash=full)
    if rows and rows[0].seq is not None and int(rows[0].seq) <= head_seq:
        return _timeline_at(rows[0], at, head_seq, head_hash)
    meta = commit_meta(info.path, full)
    if not meta and not rows:
        raise RevisionNotFound(f"commit {full[:10]} is neither in the graph nor readable in {info.path}")
    return AtCommit(
        requested=at,
        hash=full,
        short=full[:10],
        seq=None,
        timestamp=meta.get("timestamp", rows[0].timestamp if rows else None),
        author=meta.get("author", rows[0].author if rows else None),
        message=first_line(meta.get("message", rows[0].message if rows else None)),
        on_timeline=False,
        from_source=True,
        head_seq=head_seq,
        head_hash=head_hash,
        behind_head=None,
        note=_outside_note(g),
    )


def _build_meta(g: Graph) -> Record | None:
    from mnemosyne import vocabulary as V

    rows = query_records(g, f"MATCH (m:{V.META} {{key: 'ingest'}}) RETURN m.history_build AS build, "
                         "m.history_done AS done, m.history_total AS total, m.history_eta_s AS eta, "
                         "m.since_commit AS since")  # fmt: skip
    return rows[0] if rows else None


def history_build_line(g: Graph) -> str | None:
    """How far a history build behind an answering head is (HEAD first), or None: none under way."""
    row = _build_meta(g)
    if not row or row.build not in ("running", "stopped"):
        return None
    build, done, total, eta = row.build, row.done, row.total, row.eta
    how = f"{done or 0} of {total} commits" if total else "starting"
    if build == "running":
        return f"history being built: {how}" + (f", about {int(eta)} s left" if eta is not None else "")
    return f"history not built yet: the build stopped at {how}; run `mnemosyne ingest` again to continue"


def _outside_note(g: Graph) -> str | None:
    """Why a commit of the branch is not in the graph: its history is still being built (HEAD
    first), or it lies before the history window."""
    line = history_build_line(g)
    if line:
        return f"{line}: answered from source"
    row = _build_meta(g)
    if row and row.since:
        return f"before the history window (it starts at {str(row.since)[:10]}): answered from source"
    return None


# --- transaction time ---------------------------------------------------------------------------


def _believed_at(row: Record, requested: str | None, t: int, head: Record) -> AtCommit:
    seq = int(row.seq)
    return AtCommit(
        requested=requested, hash=row.hash, short=row.hash[:10], seq=seq, timestamp=row.timestamp,
        author=row.author, message=first_line(row.message), on_timeline=True, from_source=False,
        head_seq=int(head.seq), head_hash=head.hash, behind_head=int(head.seq) - seq, as_of_ingest=t,
        superseded_at=row.superseded_at,
    )  # fmt: skip


def resolve_believed(
    g: Graph, info: WorkspaceInfo, t: int, at: str | None = None, as_of: int | str | None = None
) -> AtCommit:
    """The commit a question is asked at in the belief state of wall-clock time ``t``.

    The timeline believed at ``t`` is the commits ingested by ``t`` and not superseded by ``t``, at
    their seq then (``old_seq`` for a commit superseded since). Its head is the default; ``at`` names
    a commit (a superseded one resolves to its ``old_seq``); ``as_of`` is the last believed commit
    committed by that time. A commit that was not on the believed timeline (not ingested yet at
    ``t``, a feature branch) is answered from source, as usual.
    """
    head = records(g, "believed_head", t=t)
    if not head:
        raise RevisionNotFound(f"nothing of workspace {info.name!r} had been ingested at {iso(t)}")
    head_row = head[0]
    head_seq = int(head_row.seq)
    if as_of is not None:
        rows = records(g, "commit_at_time_believed", time=parse_time(as_of), t=t, max_seq=head_seq)
        if not rows:
            raise RevisionNotFound(f"no commit of workspace {info.name!r} at or before {iso(parse_time(as_of))} "
                                   f"was on the timeline believed at {iso(t)}")  # fmt: skip
        return _believed_at(rows[0], str(as_of), t, head_row)
    if at is None:
        return _believed_at(head_row, None, t, head_row)
    full = at.lower() if _HEX40.match(at.lower()) else rev_parse(info.path, at)
    if full is None:
        raise RevisionNotFound(
            f"revision {at!r} not found in the repository of workspace {info.name!r} ({info.path}); "
            "give a commit hash, branch, tag or HEAD~N"
        )
    rows = records(g, "commit_by_hash_believed", hash=full, t=t)
    if rows and rows[0].believed and rows[0].seq is not None:
        return _believed_at(rows[0], at, t, head_row)
    meta = commit_meta(info.path, full)
    if not meta and not rows:
        raise RevisionNotFound(f"commit {full[:10]} is neither in the graph nor readable in {info.path}")
    return AtCommit(
        requested=at, hash=full, short=full[:10], seq=None,
        timestamp=meta.get("timestamp", rows[0].timestamp if rows else None),
        author=meta.get("author", rows[0].author if rows else None),
        message=first_line(meta.get("message", rows[0].message if rows else None)),
        on_timeline=False, from_source=True, head_seq=head_seq, head_hash=head_row.hash, behind_head=None,
        as_of_ingest=t,
    )  # fmt: skip


def believed_params(g: Graph, atc: AtCommit) -> dict[str, Any]:
    """Extra parameters of the ``*_believed`` queries for ``atc`` (``t`` and the ``late`` hashes)."""
    t = int(atc.as_of_ingest)  # type: ignore[arg-type]
    late = [r.hash for r in records(g, "commits_ingested_after", t=t)]
    return {"t": t, "late": late}


# --- answers from source -----------------------------------------------------------------------

_SNAPSHOTS: OrderedDict[tuple[str, str], Snapshot] = OrderedDict()
_SNAP_LOCK = threading.Lock()
_SNAP_MAX = 8


def snapshot(info: WorkspaceInfo, commit: str, max_file_bytes: int = 2_000_000, parse_workers: int = 1,
             resolve_workers: int = 1) -> Snapshot:
    """Facts of the whole tree at ``commit`` (parsed with the extractor; cached per commit)."""
    key = (str(Path(info.path).resolve()), commit)
    with _SNAP_LOCK:
        if key in _SNAPSHOTS:
            _SNAPSHOTS.move_to_end(key)
            return _SNAPSHOTS[key]
    from mnemosyne.extract import Extractor, extract_tree
    from mnemosyne.git.repo import GitRepo

    owner = Extractor(max_file_bytes=max_file_bytes)
    repo = GitRepo(info.path)
    try:
        files, _subs = repo.read_tree_files(commit, wanted=owner.owns)
    finally:
        repo.close()
    snap = extract_tree(sorted(files.items()), max_file_bytes=max_file_bytes, parse_workers=parse_workers,
                        resolve_workers=resolve_workers)
    with _SNAP_LOCK:
        _SNAPSHOTS[key] = snap
        while len(_SNAPSHOTS) > _SNAP_MAX:
            _SNAPSHOTS.popitem(last=False)
    return snap
