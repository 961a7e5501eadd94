"""The one place that spawns ``git`` processes (besides GitPython inside ``GitRepo``).

``run_git`` runs one command in a repository with a safe environment: the ``GIT_DIR`` family
inherited from a hook or a test (naming *another* repository) is dropped, optional locks are off
(``git status`` must not take index.lock while the user commits) and messages are in the C locale.
``cat_file_batch`` reads many ``<commit>:<path>`` objects with one ``git cat-file --batch``.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path

from mnemosyne.errors import MnemosyneError

_GIT_ENV_DROP = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX", "GIT_COMMON_DIR")


class GitError(MnemosyneError, RuntimeError):
    """A git command could not run, timed out, or (with ``check``) exited non-zero."""


def git_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for a git process: ours without the ``GIT_DIR`` family, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k not in _GIT_ENV_DROP}
    env["GIT_OPTIONAL_LOCKS"] = "0"
    env["LC_ALL"] = "C"
    env.update(extra or {})
    return env


def run_git(
    path: str | Path,
    *args: str,
    input: bytes | str | None = None,  # noqa: A002 - the subprocess name
    check: bool = True,
    timeout: float | None = 60.0,
    text: bool = True,
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess:
    """``git -C path args...``; the completed process (stdout/stderr as str, or bytes with
    ``text=False``). ``GitError`` when git cannot run or times out, or exits non-zero with ``check``.
    ``env``: the whole environment of the process (default ``git_env()``)."""
    try:
        proc = subprocess.run(
            ["git", "-C", str(path), *args],
            input=input,
            capture_output=True,
            text=text,
            env=git_env() if env is None else dict(env),
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as err:
        raise GitError(f"git {' '.join(args)} failed in {path}: {err}") from err
    if check and proc.returncode != 0:
        out = proc.stderr or proc.stdout
        out = out if text else out.decode(errors="replace")
        raise GitError(f"git {' '.join(args)} failed in {path}: {out.strip() or proc.returncode}")
    return proc


def git_output(path: str | Path, *args: str, check: bool = True, timeout: float = 60.0) -> str:
    """stdout of ``run_git`` as text."""
    return run_git(path, *args, check=check, timeout=timeout).stdout


def cat_file_batch(path: str | Path, specs: Iterable[str], timeout: float = 300.0) -> list[bytes | None]:
    """Contents of the objects ``specs`` (``<commit>:<path>``, blob ids) through one ``git cat-file
    --batch``, in order; None for a missing object or one that is not a blob."""
    specs = list(specs)
    if not specs:
        return []
    out = run_git(path, "cat-file", "--batch", input="".join(f"{s}\n" for s in specs).encode(),
                  text=False, timeout=timeout).stdout  # fmt: skip
    res: list[bytes | None] = []
    pos = 0
    for _ in specs:
        nl = out.find(b"\n", pos)
        if nl < 0:  # truncated output: the rest is unreadable
            res.append(None)
            continue
        header = out[pos:nl].split()
        pos = nl + 1
        if len(header) < 3 or header[1] == b"missing":
            res.append(None)
            continue
        size = int(header[2])
        res.append(out[pos : pos + size] if header[1] == b"blob" else None)
        pos += size + 1
    return res
