"""How fresh the index is: the tracked branch's head and the working tree compared with the last
ingested commit. One computation for the MCP answers (their header and ``freshness`` field) and
the CLI's freshness line (stderr), so both say the same thing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from mnemosyne.errors import MnemosyneError
from mnemosyne.query.core import git

if TYPE_CHECKING:
    from mnemosyne.store.registry import WorkspaceInfo


class Freshness(BaseModel):
    """How the index compares with the repository right now."""

    ingested_commit: str | None = None
    ingested_seq: int | None = None
    branch: str | None = None
    branch_head: str | None = None
    index_behind_branch: bool | None = Field(default=None, description="the branch has commits not ingested yet")
    commits_behind: int | None = None
    working_tree_dirty: bool | None = Field(default=None, description="uncommitted changes in the working tree")
    changed_files: int | None = Field(default=None, description="files changed in the working tree (git status)")
    note: str | None = None


def compute_freshness(info: WorkspaceInfo, ingested: str | None, seq: int | None) -> Freshness:
    """Branch head, commits behind (first parent) and working-tree state of workspace ``info``
    (a ``WorkspaceInfo``) against ``ingested`` (the last ingested commit, at ``seq``)."""
    fr = Freshness(ingested_commit=ingested, ingested_seq=seq, branch=info.branch)
    if not Path(info.path).is_dir():
        fr.note = f"repository path {info.path} does not exist"
        return fr
    try:
        head = git(info.path, "rev-parse", "--verify", "-q", f"{info.branch or 'HEAD'}^{{commit}}",
                   check=False).strip() or None  # fmt: skip
        fr.branch_head = head
        if head and ingested:
            if head == ingested:
                fr.commits_behind = 0
            else:
                n = git(info.path, "rev-list", "--count", "--first-parent", f"{ingested}..{head}",
                        check=False).strip()  # fmt: skip
                fr.commits_behind = int(n) if n.isdigit() else None
            fr.index_behind_branch = head != ingested
        porcelain = git(info.path, "status", "--porcelain", check=False)
        changed = [ln for ln in porcelain.splitlines() if len(ln) > 3]
        fr.changed_files = len(changed)
        fr.working_tree_dirty = bool(changed)
    except MnemosyneError as err:
        fr.note = str(err)[:300]
    return fr


def freshness_notes(fr: Freshness, code: Callable[[str], str] = lambda s: s) -> list[str]:
    """The freshness as short sentences (``code`` quotes a name: backticks in Markdown)."""
    notes = []
    if fr.index_behind_branch:
        n = f"{fr.commits_behind} commit(s)" if fr.commits_behind is not None else "some commits"
        notes.append(f"⚠ index is behind: {code(fr.branch or 'HEAD')} has {n} not ingested yet "
                     f"(head {code((fr.branch_head or '')[:10])})")  # fmt: skip
    elif fr.index_behind_branch is False:
        notes.append(f"index up to date with {code(fr.branch or 'HEAD')}")
    if fr.working_tree_dirty:
        notes.append(f"⚠ working tree differs ({fr.changed_files} changed file(s)); answers describe committed code")
    elif fr.working_tree_dirty is False:
        notes.append("working tree clean")
    if fr.note:
        notes.append(code(fr.note))
    return notes
