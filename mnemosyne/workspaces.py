"""Which workspace a command or tool means.

By ``--workspace NAME`` when given; else the registered workspace whose path contains the current
directory (the deepest one, for nested repositories); else the only registered workspace; else a
``WorkspaceAmbiguous`` error listing the choices.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from mnemosyne.errors import WorkspaceAmbiguous, WorkspaceNotFound

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database
    from mnemosyne.store.registry import WorkspaceInfo, WorkspaceRegistry


# how to name one: the CLI option and the MCP tools' argument (the same error reaches both)
CHOOSE = "name one (CLI: --workspace NAME; MCP tools: the `workspace` argument)"


def _contains(parent: Path, child: Path) -> bool:
    return child == parent or parent in child.parents


def resolve_workspace(db: Database, name: str | None, cwd: Path | None = None) -> WorkspaceInfo:
    """The workspace meant by ``name`` (or by the current directory when ``name`` is None)."""
    registry = db.registry
    if name:
        return registry.get(name)
    workspaces = registry.list()
    if not workspaces:
        raise WorkspaceNotFound("no workspace registered yet; run `mnemosyne workspace add PATH`")
    here = Path(cwd or Path.cwd()).expanduser().resolve()
    containing = [w for w in workspaces if _contains(Path(w.path), here)]
    if containing:
        deepest = max(len(Path(w.path).parts) for w in containing)
        best = [w for w in containing if len(Path(w.path).parts) == deepest]
        if len(best) == 1:
            return best[0]
        choices = ", ".join(f"{w.name} (branch {w.branch})" for w in best)
        raise WorkspaceAmbiguous(f"{here} belongs to several workspaces: {choices}; {CHOOSE}")
    if len(workspaces) == 1:
        return workspaces[0]
    choices = ", ".join(f"{w.name} ({w.path})" for w in workspaces)
    raise WorkspaceAmbiguous(f"several workspaces are registered ({choices}); {CHOOSE}")


def add_workspace(registry: WorkspaceRegistry, name: str, path: str | Path, branch: str | None = None) -> WorkspaceInfo:
    """Register the git repository containing ``path`` as workspace ``name``, tracking ``branch``
    (default: the checked-out branch, else origin's HEAD). ``ConfigError`` for a bad name, a path
    outside any repository, or no branch to tell."""
    from mnemosyne.git.locate import default_branch, repo_root
    from mnemosyne.store.connection import graph_key

    graph_key(name)  # validates the name before looking at the path
    root = repo_root(path)
    if branch:
        check_branch(root, branch)
    return registry.add(name, root, branch or default_branch(root))


def check_branch(root: str | Path, branch: str) -> None:
    """``ConfigError`` unless ``branch`` names a commit in the repository at ``root`` (a branch,
    a remote branch or a tag, as ingestion resolves it); an empty repository's own HEAD branch
    is accepted."""
    from mnemosyne.errors import ConfigError
    from mnemosyne.git.command import run_git

    if run_git(root, "rev-parse", "--verify", "-q", f"{branch}^{{commit}}", check=False).returncode == 0:
        return
    unborn = run_git(root, "symbolic-ref", "--quiet", "--short", "HEAD", check=False).stdout.strip()
    if unborn == branch and run_git(root, "rev-parse", "--verify", "-q", "HEAD", check=False).returncode != 0:
        return
    names = run_git(root, "for-each-ref", "--format=%(refname:short)", "refs/heads", check=False).stdout.split()
    have = f"its branches: {', '.join(names[:10])}" if names else "it has no branches yet"
    raise ConfigError(f"branch {branch!r} does not exist in {root} ({have})")


def tell_daemon(settings: Any = None) -> str:
    """Ask a running daemon to look at the registry again now (it queues what needs ingesting);
    the sentence to show either way."""
    from mnemosyne.config import get_settings
    from mnemosyne.daemon import control
    from mnemosyne.daemon.paths import DaemonPaths

    sock = DaemonPaths.from_settings(settings or get_settings()).control_socket
    try:
        reply = control.request(sock, "reconcile", timeout=30.0)
    except control.ControlUnavailable:
        return "no daemon is running"
    queued = reply.get("queued") or []
    if reply.get("skipped"):
        return "the daemon is reconciling already and will see it"
    return "the daemon queued " + (", ".join(queued) if queued else "nothing (up to date)")
