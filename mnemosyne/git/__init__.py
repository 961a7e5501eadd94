"""Git access (timeline, blobs, trees) as a thin layer over batched git commands."""

from mnemosyne.git.repo import CommitInfo, FileChange, GitRepo, NotAGitRepository, TreeEntry, parse_log

__all__ = ["CommitInfo", "FileChange", "GitRepo", "NotAGitRepository", "TreeEntry", "parse_log"]
