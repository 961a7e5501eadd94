"""Small, fast git probes the daemon needs (one ``git`` process each, no object walking).

- ``git_paths``: the per-worktree git dir (HEAD lives there) and the common dir (refs/, packed-refs);
  they differ in linked worktrees, where ``.git`` is a file.
- ``ref_state``: ``{refname: sha}`` for local branches plus ``HEAD``: a watcher event only ever
  triggers a diff of this state, never a re-parse.
- ``working_tree_changes``: what differs in the working tree, from ``git status --porcelain``
  (which honours .gitignore) minus the patterns in ``.mnemosyneignore`` (gitignore syntax).
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from pathlib import Path

from mnemosyne.git.command import GitError, git_output

GitProbeError = GitError  # a git probe failed (not a repository, git missing, ...)


def git(path: str | Path, *args: str, check: bool = True, timeout: float = 30.0) -> str:
    return git_output(path, *args, check=check, timeout=timeout)


@dataclass(frozen=True)
class GitPaths:
    worktree: Path
    git_dir: Path
    common_dir: Path

    @property
    def refs_dir(self) -> Path:
        return self.common_dir / "refs"


def git_paths(worktree: str | Path) -> GitPaths:
    out = git(worktree, "rev-parse", "--path-format=absolute", "--show-toplevel", "--git-dir", "--git-common-dir")
    lines = out.splitlines()
    if len(lines) < 3:
        raise GitProbeError(f"unexpected rev-parse output in {worktree}: {out!r}")
    return GitPaths(Path(lines[0]), Path(lines[1]), Path(lines[2]))


def ref_state(worktree: str | Path) -> dict[str, str]:
    """Local branch heads and HEAD (``HEAD`` -> sha, or '' on an unborn branch)."""
    out = git(worktree, "for-each-ref", "--format=%(objectname) %(refname)", "refs/heads")
    state = {}
    for line in out.splitlines():
        sha, _, ref = line.partition(" ")
        state[ref] = sha
    state["HEAD"] = git(worktree, "rev-parse", "-q", "--verify", "HEAD^{commit}", check=False).strip()
    return state


def tracked_ref(branch: str | None) -> str:
    """The ref the workspace timeline follows: ``refs/heads/<branch>``, or ``HEAD`` if none is set."""
    if not branch or branch == "HEAD":
        return "HEAD"
    return branch if branch.startswith("refs/") else f"refs/heads/{branch}"


def branch_head(worktree: str | Path, branch: str | None) -> str | None:
    sha = git(worktree, "rev-parse", "-q", "--verify", f"{tracked_ref(branch)}^{{commit}}", check=False).strip()
    return sha or None


def commits_behind(worktree: str | Path, last: str | None, head: str) -> tuple[int, int | None]:
    """(first-parent commits in ``last..head``, committer time of the oldest of them or None)."""
    rng = f"{last}..{head}" if last else head
    out = git(worktree, "log", "--first-parent", "--format=%ct", rng, check=False, timeout=60)
    times = [int(t) for t in out.split()]
    return len(times), (min(times) if times else None)


# -- working tree ------------------------------------------------------------------------------


class IgnoreRules:
    """A gitignore-syntax subset, matched with fnmatch: comments, ``!`` negation, a trailing ``/``
    (directories only), a leading or inner ``/`` (anchored at the root), ``**`` for any depth.
    The last matching rule wins, as in git."""

    def __init__(self, lines: list[str]) -> None:
        self.rules: list[tuple[bool, bool, bool, str]] = []  # (negate, dir_only, anchored, pattern)
        for raw in lines:
            line = raw.rstrip("\n").rstrip()
            if not line or line.startswith("#"):
                continue
            negate = line.startswith("!")
            if negate:
                line = line[1:]
            if line.startswith("\\"):
                line = line[1:]
            dir_only = line.endswith("/")
            line = line.rstrip("/")
            anchored = "/" in line
            line = line.lstrip("/")
            if line:
                self.rules.append((negate, dir_only, anchored, line))

    @classmethod
    def load(cls, root: str | Path) -> IgnoreRules:
        p = Path(root) / ".mnemosyneignore"
        try:
            return cls(p.read_text(encoding="utf-8", errors="replace").splitlines())
        except FileNotFoundError:
            return cls([])

    @staticmethod
    def _match(pattern: str, anchored: bool, path: str) -> bool:
        if anchored:
            if fnmatch.fnmatchcase(path, pattern):
                return True
            if pattern.startswith("**/") and fnmatch.fnmatchcase(path, pattern[3:]):
                return True
            return False
        return fnmatch.fnmatchcase(path.rsplit("/", 1)[-1], pattern)

    def ignored(self, path: str) -> bool:
        """``path``: repo-relative, ``/``-separated. A file is ignored if it or a parent folder is."""
        parts = path.strip("/").split("/")
        result = False
        # Parents first (a matched folder ignores everything under it), then the file itself.
        candidates = ["/".join(parts[: i + 1]) for i in range(len(parts))]
        for i, cand in enumerate(candidates):
            is_dir = i < len(candidates) - 1
            for negate, dir_only, anchored, pattern in self.rules:
                if dir_only and not is_dir:
                    continue
                if self._match(pattern, anchored, cand):
                    result = not negate
            if result and is_dir:
                return True
        return result


def _porcelain_paths(out: str) -> list[str]:
    """Paths from ``git status --porcelain=v1 -z`` (renames give the new path; the old one follows)."""
    fields = out.split("\0")
    paths: list[str] = []
    i = 0
    while i < len(fields):
        entry = fields[i]
        i += 1
        if len(entry) < 4:
            continue
        xy, path = entry[:2], entry[3:]
        paths.append(path)
        if "R" in xy or "C" in xy:
            i += 1  # the source path of a rename/copy
    return paths


def working_tree_changes(path: str | Path, base: str | None = None) -> list[str]:
    """Repo-relative paths whose working-tree content differs from HEAD (or from ``base``, e.g. the
    last indexed commit), untracked files included, .gitignore and ``.mnemosyneignore`` honoured.
    Computed on demand: working trees are never watched recursively (inotify limits)."""
    out = git(path, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames")
    changed = set(_porcelain_paths(out))
    if base:
        diff = git(path, "diff", "--name-only", "-z", "--no-renames", base, "--", check=False)
        changed.update(p for p in diff.split("\0") if p)
    rules = IgnoreRules.load(git_paths(path).worktree)
    return sorted(p for p in changed if p and not rules.ignored(p))
