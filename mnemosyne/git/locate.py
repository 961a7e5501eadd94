"""Which repository a path is in, and which branch to track: the git half of ``workspace add``
(the registry stores the plain values)."""

from __future__ import annotations

from pathlib import Path

from mnemosyne.errors import ConfigError
from mnemosyne.git.command import run_git


def repo_root(path: str | Path) -> Path:
    """The top-level folder of the git repository containing ``path`` (ConfigError if none)."""
    p = Path(path).expanduser().resolve()
    if not p.is_dir():
        raise ConfigError(f"{p} is not a directory")
    proc = run_git(p, "rev-parse", "--show-toplevel", check=False)
    if proc.returncode != 0:
        raise ConfigError(f"{p} is not inside a git repository (run `git init` there, or pick another path)")
    return Path(proc.stdout.strip()).resolve()


def default_branch(path: str | Path) -> str:
    """The repository's current branch, else the branch ``origin/HEAD`` points to."""
    proc = run_git(path, "symbolic-ref", "--quiet", "--short", "HEAD", check=False)
    if proc.returncode == 0 and proc.stdout.strip():
        return proc.stdout.strip()
    proc = run_git(path, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD", check=False)
    if proc.returncode == 0 and proc.stdout.strip():
        return proc.stdout.strip().removeprefix("origin/")
    raise ConfigError(f"cannot tell the branch to track in {path} (detached HEAD, no origin/HEAD); pass --branch")
