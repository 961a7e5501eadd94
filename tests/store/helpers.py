"""Helpers for the store tests: run the CLI in a subprocess, make a tiny git repository."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CLI = [sys.executable, "-c", "import sys; from mnemosyne.cli import main; sys.exit(main())"]


def run_cli(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """``mnemosyne ARGS`` in a fresh process (inherits os.environ, so the session's MNEMOSYNE_HOME)."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [*CLI, *args], capture_output=True, text=True, env=full_env, cwd=cwd, timeout=timeout, check=False
    )


def make_git_repo(path: Path, branch: str = "main") -> Path:
    """``git init`` + one commit with a Python file."""
    path.mkdir(parents=True, exist_ok=True)
    git = ["git", "-C", str(path), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q", "-b", branch], check=True)
    (path / "app.py").write_text("def hello():\n    return 'hi'\n")
    subprocess.run([*git, "add", "app.py"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "first"], check=True)
    return path
