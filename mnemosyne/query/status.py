"""The state of the workspaces: each one's status (``list_workspaces_status``: branch, ingested commit,
commits behind, changed files) and its ingestion lag (``ingestion_lag``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mnemosyne.errors import ConfigError
from mnemosyne.query.core import first_line, git, history_build_line, ingested_head, records, workspace_info
from mnemosyne.query.models import LagCommit, LagResult, WorkspaceStatus

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database
    from mnemosyne.store.handles import WorkspaceRef

# --- ingestion lag -----------------------------------------------------------------------------


def ingestion_lag(db: Database, ws: WorkspaceRef | None, minutes: float = 0, include_backfill: bool = False) -> LagResult:
    """Timeline commits ingested more than ``minutes`` after they were committed. History that was
    already there when the workspace was first ingested (committed before the first commit was
    ingested) is back-fill, not lag: left out (and counted in ``backfilled``) unless
    ``include_backfill``."""
    if minutes < 0:
        raise ConfigError("minutes must be >= 0")
    info = workspace_info(db, ws)
    g = db.graph(info.name)
    ingested_head(g, info)
    rows = records(g, "ingestion_lag", minutes=minutes)
    commits = [LagCommit(hash=r.hash, seq=r.seq, timestamp=r.timestamp, ingested_at=int(r.ingested_at),
                         lag_s=int(r.lag_s), author=r.author, message=first_line(r.message)) for r in rows]  # fmt: skip
    backfilled = 0
    if not include_backfill and commits:
        first = records(g, "ingestion_lag", minutes=-1e12)  # every ingested commit: when watching began
        started = min(int(r.ingested_at) for r in first) if first else 0
        kept = [c for c in commits if c.timestamp >= started]
        backfilled = len(commits) - len(kept)
        commits = kept
    lags = [c.lag_s for c in commits]
    return LagResult(workspace=info.name, minutes=minutes, commits=commits, count=len(commits),
                     max_lag_s=max(lags) if lags else None, backfilled=backfilled,
                     mean_lag_s=round(sum(lags) / len(lags), 1) if lags else None)  # fmt: skip


# --- workspaces --------------------------------------------------------------------------------


def list_workspaces_status(db: Database) -> list[WorkspaceStatus]:
    """Per registered workspace: path, tracked branch, ingested commit, the branch's head now,
    how many commits it is behind, and the working tree's changed files."""
    out = []
    for w in db.registry.list():
        st = WorkspaceStatus(name=w.name, path=w.path, branch=w.branch, state=w.state,
                             ingested_commit=w.last_ingested_commit, ingested_seq=w.last_ingested_seq)  # fmt: skip
        if not Path(w.path).is_dir():
            st.path_exists = False
            st.error = f"path {w.path} does not exist"
            out.append(st)
            continue
        try:
            st.history = history_build_line(db.graph(w.name))
            head = git(w.path, "rev-parse", "--verify", "-q", f"{w.branch or 'HEAD'}^{{commit}}", check=False).strip()
            st.branch_head = head or None
            if head and w.last_ingested_commit:
                if head == w.last_ingested_commit:
                    st.commits_behind = 0
                else:
                    n = git(w.path, "rev-list", "--count", "--first-parent", f"{w.last_ingested_commit}..{head}",
                            check=False).strip()  # fmt: skip
                    st.commits_behind = int(n) if n.isdigit() else None
            elif head:
                n = git(w.path, "rev-list", "--count", "--first-parent", head, check=False).strip()
                st.commits_behind = int(n) if n.isdigit() else None
            porcelain = git(w.path, "status", "--porcelain", check=False)
            st.changed_files = sorted({line[3:] for line in porcelain.splitlines() if len(line) > 3})
        except Exception as err:  # noqa: BLE001 - one broken repo must not hide the others
            st.error = str(err)
        out.append(st)
    return out
