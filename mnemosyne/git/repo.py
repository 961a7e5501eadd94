"""Git access for ingestion: GitPython as a thin layer over batched git commands.

- the timeline (first-parent history of the tracked branch, oldest first) comes from ONE
  ``git log --first-parent --reverse --raw --numstat -M -z`` call: every commit's metadata, its
  changed paths with status A/M/D/R/C/T (renames followed), blob ids, modes and line counts;
- blobs are read through ONE long-lived ``git cat-file --batch`` process (GitPython's persistent
  ``get_object_data``), by blob id, so paths need no quoting;
- a full tree is ``git ls-tree -r -z``;
- never GitPython's per-commit object API (``commit.diff``/``commit.stats``) in a loop.

Submodules (gitlink entries, mode 160000) are not ingested: they have no blob in this repository.
They are left out of the tree and of the changes, and reported once per path as a warning.
Symlinks (mode 120000) are not source files either and are left out silently.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Generator
from dataclasses import dataclass, field
from pathlib import Path

import git as gitpython
from git.exc import GitCommandError, InvalidGitRepositoryError, NoSuchPathError

from mnemosyne.errors import MnemosyneError, RevisionNotFound

GITLINK_MODE = "160000"
SYMLINK_MODE = "120000"
NULL_SHA = "0" * 40
_FIELD = "\x1f"
_MARK = b"\x1eMNEMO\x1f"
_FORMAT = "%x1eMNEMO%x1f%H%x1f%P%x1f%an%x1f%ae%x1f%cn%x1f%ce%x1f%ct%x1f%at%x1f%B%x1fEND"
_HEX40 = re.compile(r"^[0-9a-f]{40}$")


class NotAGitRepository(MnemosyneError):
    """The path given is not inside a Git working tree."""


@dataclass(frozen=True, slots=True)
class FileChange:
    """One changed path of a commit, relative to its first parent (root: the empty tree)."""

    status: str  # A M D R C T
    path: str  # the new path (the deleted path for D)
    old_path: str | None = None  # for R and C
    old_blob: str | None = None
    new_blob: str | None = None  # None when deleted
    old_mode: str = ""
    new_mode: str = ""
    lines_added: int | None = None  # None for binary files
    lines_removed: int | None = None
    similarity: int | None = None  # rename/copy score

    @property
    def is_submodule(self) -> bool:
        return GITLINK_MODE in (self.old_mode, self.new_mode)


@dataclass(slots=True)
class CommitInfo:
    hash: str
    parents: list[str]
    author: str
    author_email: str
    committer: str
    committer_email: str
    timestamp: int  # committer time, epoch seconds
    authored_at: int
    message: str
    changes: list[FileChange] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class TreeEntry:
    path: str
    mode: str
    blob: str


def _dec(b: bytes) -> str:
    return b.decode("utf-8", errors="replace")


def _path(b: bytes) -> str:
    # git writes paths as raw bytes with -z; non-UTF-8 names are kept distinct via surrogateescape
    return b.decode("utf-8", errors="surrogateescape")


def parse_log(raw: bytes) -> list[CommitInfo]:
    """Parse the output of ``git log -z --raw --numstat --format=_FORMAT``."""
    commits: list[CommitInfo] = []
    for chunk in raw.split(_MARK)[1:]:
        end = chunk.rfind(b"\x1fEND")
        header, rest = chunk[:end], chunk[end + 4 :]
        parts = header.split(_FIELD.encode(), 8)
        h, parents, an, ae, cn, ce, ct, at, msg = parts
        info = CommitInfo(
            hash=_dec(h),
            parents=_dec(parents).split(),
            author=_dec(an),
            author_email=_dec(ae),
            committer=_dec(cn),
            committer_email=_dec(ce),
            timestamp=int(ct or 0),
            authored_at=int(at or 0),
            message=_dec(msg).rstrip("\n"),
        )
        info.changes = _parse_changes(rest)
        commits.append(info)
    return commits


def _parse_changes(rest: bytes) -> list[FileChange]:
    tokens = rest.split(b"\x00")
    raw_entries: list[dict] = []
    numstat: dict[str, tuple[int | None, int | None]] = {}
    i = 0
    n = len(tokens)
    while i < n:
        tok = tokens[i].lstrip(b"\n")
        i += 1
        if not tok:
            continue
        if tok.startswith(b":"):
            meta = tok[1:].split()
            old_mode, new_mode, old_sha, new_sha, status = (_dec(x) for x in meta[:5])
            letter = status[0]
            score = int(status[1:]) if len(status) > 1 and status[1:].isdigit() else None
            if letter in "RC":
                old_p, new_p = _path(tokens[i]), _path(tokens[i + 1])
                i += 2
            else:
                old_p, new_p = None, _path(tokens[i])
                i += 1
            raw_entries.append(
                dict(
                    status=letter,
                    path=new_p,
                    old_path=old_p,
                    old_blob=None if old_sha == NULL_SHA else old_sha,
                    new_blob=None if (new_sha == NULL_SHA or letter == "D") else new_sha,
                    old_mode=old_mode,
                    new_mode=new_mode,
                    similarity=score,
                )
            )
        else:
            # numstat: "added\tremoved\tpath" or, for renames, "added\tremoved\t" + old + new
            cols = tok.split(b"\t", 2)
            if len(cols) < 3:
                continue
            a = int(cols[0]) if cols[0].isdigit() else None
            r = int(cols[1]) if cols[1].isdigit() else None
            if cols[2]:
                numstat[_path(cols[2])] = (a, r)
            else:
                new_p = _path(tokens[i + 1])
                i += 2
                numstat[new_p] = (a, r)
    out = []
    for e in raw_entries:
        a, r = numstat.get(e["path"], (None, None))
        out.append(FileChange(lines_added=a, lines_removed=r, **e))
    return out


class GitRepo:
    """One repository. Not thread-safe (one long-lived cat-file process); use one per thread."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        try:
            self.repo = gitpython.Repo(str(path), search_parent_directories=True)
        except (InvalidGitRepositoryError, NoSuchPathError) as err:
            raise NotAGitRepository(f"{path} is not inside a Git repository") from err
        if self.repo.bare:
            self.root = Path(self.repo.git_dir)
        else:
            self.root = Path(self.repo.working_tree_dir or path)
        self.git = self.repo.git
        self._lock = threading.Lock()

    # --- lifecycle -------------------------------------------------------------------------------
    def close(self) -> None:
        try:
            self.git.clear_cache()
        finally:
            self.repo.close()

    def __enter__(self) -> GitRepo:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- refs ------------------------------------------------------------------------------------
    def is_empty(self) -> bool:
        """No commit at all (a fresh ``git init``)."""
        try:
            self.git.rev_parse("--verify", "-q", "HEAD^{commit}")
            return False
        except GitCommandError:
            return not self._any_ref()

    def _any_ref(self) -> bool:
        try:
            out = self.git.for_each_ref("--count=1", "refs/heads")
        except GitCommandError:
            return False
        return bool(out.strip())

    def is_shallow(self) -> bool:
        try:
            return self.git.rev_parse("--is-shallow-repository").strip() == "true"
        except GitCommandError:
            return (Path(self.repo.git_dir) / "shallow").exists()

    def shallow_boundary(self) -> set[str]:
        """The boundary commits of a shallow clone (git shows them without parents); empty once
        the clone is complete (``git fetch --unshallow``)."""
        try:
            text = (Path(self.repo.common_dir) / "shallow").read_text()
        except OSError:
            return set()
        return set(text.split())

    def current_branch(self) -> str | None:
        """The checked-out branch name, or None on a detached HEAD (or an unborn one)."""
        try:
            return self.git.symbolic_ref("--short", "-q", "HEAD").strip() or None
        except GitCommandError:
            return None

    def default_branch(self) -> str | None:
        """The branch to track by default: the checked-out one, else origin's HEAD, else None."""
        b = self.current_branch()
        if b and self.branch_exists(b):
            return b
        try:
            ref = self.git.symbolic_ref("-q", "refs/remotes/origin/HEAD").strip()
            if ref:
                return ref.removeprefix("refs/remotes/")
        except GitCommandError:
            pass
        return None

    def branch_exists(self, name: str) -> bool:
        try:
            self.git.rev_parse("--verify", "-q", f"refs/heads/{name}^{{commit}}")
            return True
        except GitCommandError:
            return False

    def rev_parse(self, rev: str) -> str:
        """Full hash of the commit a commit-ish names; RevisionNotFound otherwise."""
        if not rev or rev.startswith("-"):
            raise RevisionNotFound(f"'{rev}' is not a revision")
        candidates = [rev]
        if not _HEX40.match(rev) and self.branch_exists(rev):
            candidates.insert(0, f"refs/heads/{rev}")
        for cand in candidates:
            try:
                return self.git.rev_parse("--verify", "-q", f"{cand}^{{commit}}").strip()
            except GitCommandError:
                continue
        raise RevisionNotFound(f"revision '{rev}' not found in {self.root}")

    def branch_head(self, branch: str | None) -> str | None:
        """Head commit of the tracked branch (None = HEAD); None when the repository is empty."""
        if self.is_empty():
            return None
        return self.rev_parse(branch or "HEAD")

    # --- timeline --------------------------------------------------------------------------------
    def timeline_hashes(self, head: str) -> list[str]:
        """First-parent commits ending at ``head``, root first (cheap: hashes only)."""
        out = self.git.rev_list("--first-parent", "--reverse", head)
        return out.split()

    def log(self, head: str, since: str | None = None, max_count: int | None = None) -> list[CommitInfo]:
        """Timeline commits (first-parent, oldest first) up to ``head``, after ``since`` if given,
        with their changes against the first parent, renames followed (-M) and line counts."""
        return list(self.iter_log(head, since, max_count))

    def _log_args(self, rng: str, max_count: int | None = None) -> list[str]:
        limit = [f"--max-count={max_count}"] if max_count else []
        return [
            "git",
            "-c",
            "core.quotePath=false",
            "-c",
            "diff.renameLimit=20000",
            "log",
            "--first-parent",
            "--reverse",
            "--root",
            "--diff-merges=first-parent",
            "--raw",
            "--numstat",
            "-M",
            "-z",
            "--no-abbrev",
            "--no-color",
            "--no-ext-diff",
            "--encoding=UTF-8",
            f"--format={_FORMAT}",
            *limit,
            rng,
            "--",
        ]

    def iter_log(
        self, head: str, since: str | None = None, max_count: int | None = None, chunk_bytes: int = 1 << 20
    ) -> Generator[CommitInfo, None, None]:
        """``log`` as a stream: each commit is parsed as soon as git has printed it, so a long
        history starts being ingested at once and is never held in memory whole. Closing the
        iterator early stops git."""
        rng = f"{since}..{head}" if since else head
        proc = self.repo.git.execute(self._log_args(rng, max_count), as_process=True, stdout_as_string=False)
        try:
            buf = b""
            while True:
                data = proc.stdout.read(chunk_bytes)
                if data:
                    buf += data
                    # a record is complete once the next one has started
                    cut = buf.rfind(_MARK)
                    if cut > 0:
                        yield from parse_log(buf[:cut])
                        buf = buf[cut:]
                    continue
                if buf:
                    yield from parse_log(buf)
                break
            proc.wait()  # raises GitCommandError (stderr included) if git failed
        finally:
            if proc.proc is not None and proc.proc.poll() is None:
                proc.proc.kill()
                proc.proc.wait()

    # --- trees and blobs -------------------------------------------------------------------------
    def ls_tree(self, commit: str) -> tuple[list[TreeEntry], list[str]]:
        """Blobs of the full tree at ``commit`` and the submodule (gitlink) paths, separately."""
        raw = self.repo.git.execute(
            ["git", "ls-tree", "-r", "-z", "--full-tree", commit], stdout_as_string=False
        )
        entries: list[TreeEntry] = []
        submodules: list[str] = []
        for rec in raw.split(b"\x00"):
            if not rec:
                continue
            meta, _, p = rec.partition(b"\t")
            mode, typ, sha = (_dec(x) for x in meta.split())
            path = _path(p)
            if mode == GITLINK_MODE or typ == "commit":
                submodules.append(path)
            elif typ == "blob" and mode != SYMLINK_MODE:
                entries.append(TreeEntry(path, mode, sha))
        return entries, submodules

    def read_blob(self, sha: str) -> bytes:
        """Content of a blob through the long-lived ``git cat-file --batch`` process."""
        with self._lock:
            try:
                _, typ, _, data = self.git.get_object_data(sha)
            except ValueError as err:  # "SHA ... missing" (e.g. beyond a shallow boundary)
                raise MnemosyneError(f"blob {sha} is missing from the repository: {err}") from err
        if isinstance(typ, bytes):
            typ = typ.decode()
        if typ != "blob":
            raise MnemosyneError(f"object {sha} is a {typ}, not a blob")
        return data

    def read_blobs(self, shas: list[str]) -> dict[str, bytes]:
        out: dict[str, bytes] = {}
        for sha in shas:
            if sha not in out:
                out[sha] = self.read_blob(sha)
        return out

    def read_tree_files(self, commit: str, wanted=None) -> tuple[dict[str, bytes], list[str]]:
        """All blob files of the tree at ``commit`` (filtered by ``wanted(path)``) and submodules."""
        entries, subs = self.ls_tree(commit)
        files = {e.path: self.read_blob(e.blob) for e in entries if wanted is None or wanted(e.path)}
        return files, subs
