"""`mnemosyne hook install/uninstall`: real hooks run by real git commands."""

from __future__ import annotations

import os
import stat
import statistics
import subprocess
import sys
import time
from pathlib import Path

from mnemosyne.daemon import hooks, spool

from .conftest import GIT_ENV


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("GIT_")} | GIT_ENV


def test_install_chains_user_hook_and_uninstall_restores_it_byte_for_byte(make_repo, tmp_path: Path) -> None:
    repo = make_repo("my repo")  # spaces in the repository path
    spool_dir = tmp_path / "data dir's" / "queue" / "spool"  # ... and a space and a quote in the data dir
    hooks_dir = hooks.hooks_dir(repo.path)
    marker = tmp_path / "user-hook-ran"
    user_hook = f"#!/bin/sh\n# the user's own hook\necho ran >> '{marker}'\nexit 0\n".encode()
    (hooks_dir / "post-commit").write_bytes(user_hook)
    os.chmod(hooks_dir / "post-commit", 0o750)
    py_hook = b"#!/usr/bin/env python3\nprint('python hook')\n"
    (hooks_dir / "post-merge").write_bytes(py_hook)
    os.chmod(hooks_dir / "post-merge", 0o755)

    report = hooks.install(repo.path, spool_dir)
    assert report.installed == ["post-commit"]
    assert report.created == ["post-checkout", "post-rewrite"]
    assert "post-merge" in report.skipped  # not a shell script: left alone, with a warning
    assert (hooks_dir / "post-merge").read_bytes() == py_hook
    again = hooks.install(repo.path, spool_dir)  # idempotent
    assert again.installed == ["post-commit", "post-checkout", "post-rewrite"]
    assert (hooks_dir / "post-commit").read_text().count(hooks.BEGIN) == 1

    repo.commit("with hook")
    assert marker.read_text() == "ran\n"  # the user's hook still runs
    notes = spool.read_notes(spool_dir)
    assert [n.hook for n in notes] == ["post-commit"]
    assert Path(notes[0].worktree).resolve() == repo.path.resolve()
    repo.git("commit", "-q", "--amend", "-m", "amended")  # post-rewrite and post-commit
    repo.git("checkout", "-q", "-b", "other")
    assert {n.hook for n in spool.read_notes(spool_dir)} == {"post-commit", "post-rewrite", "post-checkout"}

    report = hooks.uninstall(repo.path)
    assert report.restored == ["post-commit"]
    assert sorted(report.removed) == ["post-checkout", "post-rewrite"]
    assert (hooks_dir / "post-commit").read_bytes() == user_hook
    assert stat.S_IMODE((hooks_dir / "post-commit").stat().st_mode) == 0o750
    assert not (hooks_dir / "post-checkout").exists() and not (hooks_dir / "post-rewrite").exists()
    assert (hooks_dir / "post-merge").read_bytes() == py_hook


def test_shebang_without_newline_and_exit_in_user_hook(make_repo, tmp_path: Path) -> None:
    repo = make_repo()
    d = hooks.hooks_dir(repo.path)
    (d / "post-checkout").write_bytes(b"#!/bin/bash")
    (d / "post-rewrite").write_bytes(b"#!/usr/bin/env bash\nset -e\nexit 3\n")
    shared = tmp_path / "shared-hook"
    shared.write_bytes(b"#!/bin/sh\necho shared\n")
    (d / "post-merge").symlink_to(shared)
    for h in ("post-checkout", "post-rewrite"):
        os.chmod(d / h, 0o755)
    before = {h: (d / h).read_bytes() for h in ("post-checkout", "post-rewrite")}
    report = hooks.install(repo.path, tmp_path / "spool")
    assert "post-merge" in report.skipped and shared.read_bytes() == b"#!/bin/sh\necho shared\n"
    repo.git("commit", "-q", "--amend", "-m", "x")  # post-rewrite exits 3: git ignores it, our note is written first
    assert any(n.hook == "post-rewrite" for n in spool.read_notes(tmp_path / "spool"))
    hooks.uninstall(repo.path)
    assert {h: (d / h).read_bytes() for h in before} == before


def test_core_hooks_path_and_husky_layout_are_respected(make_repo, tmp_path: Path) -> None:
    repo = make_repo("husky repo")
    husky = repo.path / ".husky" / "_"
    husky.mkdir(parents=True)
    (husky / "post-commit").write_bytes(b'#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n')
    (husky / "h").write_bytes(b"#!/usr/bin/env sh\nexit 0\n")
    for f in husky.iterdir():
        os.chmod(f, 0o755)
    repo.git("config", "core.hooksPath", ".husky/_")
    assert hooks.hooks_dir(repo.path) == husky.resolve()
    report = hooks.install(repo.path, tmp_path / "spool")
    assert report.installed == ["post-commit"] and report.warnings  # husky regenerates: warned
    assert not (repo.path / ".git" / "hooks" / "post-commit").exists()
    repo.commit("through husky")
    assert [n.hook for n in spool.read_notes(tmp_path / "spool")] == ["post-commit"]
    hooks.uninstall(repo.path)
    assert (husky / "post-commit").read_bytes() == b'#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n'


def test_linked_worktree_shares_the_common_hooks_dir(make_repo, tmp_path: Path) -> None:
    repo = make_repo()
    wt = tmp_path / "wt two"
    repo.git("worktree", "add", "-q", "-b", "feat", str(wt))
    assert hooks.hooks_dir(wt) == hooks.hooks_dir(repo.path)
    hooks.install(wt, tmp_path / "spool")
    (wt / "z.py").write_text("z = 1\n")
    subprocess.run(["git", "-C", str(wt), "add", "z.py"], check=True, env=_env())
    subprocess.run(["git", "-C", str(wt), "commit", "-q", "-m", "wt"], check=True, env=_env())
    notes = spool.read_notes(tmp_path / "spool")
    assert [Path(n.worktree).resolve() for n in notes] == [wt.resolve()]


def test_hook_adds_little_to_git_commit(make_repo, tmp_path: Path) -> None:
    """The shell block must stay far below the 100 ms budget (median of 10 commits each way)."""
    repo = make_repo()

    def timed(n: int) -> float:
        times = []
        for i in range(n):
            (repo.path / "t.py").write_text(f"x = {time.monotonic_ns()}\n")
            repo.git("add", "t.py")
            t0 = time.perf_counter()
            subprocess.run(["git", "-C", str(repo.path), "commit", "-q", "-m", f"t{i}"], check=True, env=_env())
            times.append(time.perf_counter() - t0)
        return statistics.median(times)

    without = timed(10)
    hooks.install(repo.path, tmp_path / "spool")
    with_hook = timed(10)
    sys.stderr.write(f"git commit median: without hook {without*1000:.1f} ms, with {with_hook*1000:.1f} ms\n")
    assert with_hook - without < 0.1
    assert len(spool.read_notes(tmp_path / "spool")) == 10
