"""Git access: the only package that spawns git.

- ``command``: ``run_git`` (one command, safe environment), ``cat_file_batch``;
- ``locate``: the repository root and the branch to track, for ``workspace add``;
- ``repo``: ``GitRepo`` (timeline, blobs, trees over batched git commands, a long-lived
  ``git cat-file --batch``) and ``readers``: a shared per-repository ``GitRepo`` cache.

``GitRepo`` and friends are imported lazily: GitPython costs ~60 ms at start-up and most commands
only need ``run_git``.
"""

from __future__ import annotations

from typing import Any

from mnemosyne.git.command import GitError, cat_file_batch, git_output, run_git

_REPO_NAMES = ("CommitInfo", "FileChange", "GitRepo", "NotAGitRepository", "TreeEntry", "parse_log")

__all__ = ["GitError", "cat_file_batch", "git_output", "run_git", *_REPO_NAMES]


def __getattr__(name: str) -> Any:
    if name in _REPO_NAMES:
        from mnemosyne.git import repo

        return getattr(repo, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
