"""`mnemosyne ingest` as a user runs it: registration, progress on stderr, Ctrl-C, --head-only."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from mnemosyne.workspaces import add_workspace

from .conftest import assert_invariant
from .test_random_history import build_random_repo


def _run(*args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mnemosyne.cli", *args], capture_output=True, text=True,
                          env={**os.environ, "MNEMOSYNE_EMBED_ON_INGEST": "false"}, timeout=timeout)  # not search


@pytest.mark.slow
def test_ingest_path_registers_and_reports(db, registry, make_repo):
    repo = make_repo("cli_repo")
    build_random_repo(repo, seed=5, commits=8)
    p = _run("ingest", str(repo.path), "--name", "h_cli")
    assert p.returncode == 0, p.stderr
    assert "ingested 8 commits" in p.stdout
    assert "8/8 commits" in p.stderr and "commits/s" in p.stderr and "ETA" in p.stderr
    assert registry.get("h_cli").last_ingested_seq == 7 and registry.get("h_cli").state == "ready"
    p = _run("ingest", "h_cli", "--json")
    out = json.loads(p.stdout)
    assert p.returncode == 0 and out["commits_ingested"] == 0 and out["last_seq"] == 7
    assert_invariant(db.graph("h_cli"), repo.path)
    p = _run("ingest", "no-such-workspace")
    assert p.returncode != 0 and "neither a registered workspace nor an existing path" in p.stderr


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_between_commits(db, registry, make_repo):
    repo = make_repo("cli_sigint")
    build_random_repo(repo, seed=9, commits=80)
    add_workspace(registry, "h_sigint", repo.path, branch="main")
    g = db.graph("h_sigint")
    proc = subprocess.Popen([sys.executable, "-m", "mnemosyne.cli", "ingest", "--workspace", "h_sigint"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        m = g.query("MATCH (m:Meta) RETURN m.last_seq") if g.exists() else []
        if m and m[0][0] is not None and m[0][0] >= 3:
            break
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    if proc.returncode == 0:  # finished before the signal landed: nothing to check
        return
    assert proc.returncode == 130, err
    assert "stopping after the current commit" in err and "stopped after" in out
    meta = g.query("MATCH (m:Meta) RETURN m.last_seq, m.in_progress_seq")
    assert meta[0][1] is None and meta[0][0] < 79
    p = _run("ingest", "--workspace", "h_sigint")
    assert p.returncode == 0, p.stderr
    assert_invariant(g, repo.path, seqs=[0, meta[0][0], meta[0][0] + 1, 79])


@pytest.mark.slow
def test_head_only_cli(db, registry, make_repo):
    repo = make_repo("cli_head")
    build_random_repo(repo, seed=4, commits=6)
    p = _run("ingest", str(repo.path), "--name", "h_head", "--head-only")
    assert p.returncode == 0, p.stderr
    assert "head" in p.stdout and registry.get("h_head").last_ingested_seq == 0
    p = _run("ingest", "h_head")
    assert p.returncode == 0 and "ingested 6 commits" in p.stdout and "superseded" in p.stdout
    assert_invariant(db.graph("h_head"), repo.path)


@pytest.mark.slow
def test_ingest_with_two_workers_from_the_cli(db, registry, make_repo):
    """`--workers 2` parses on a helper process (python -m mnemosyne.cli: the helpers re-import
    the CLI's main module safely) and writes the same graph as the invariant demands."""
    repo = make_repo("cli_workers")
    build_random_repo(repo, seed=12, commits=20)
    p = _run("ingest", str(repo.path), "--name", "h_workers", "--workers", "2", "--quiet")
    assert p.returncode == 0, p.stderr
    assert "ingested 20 commits" in p.stdout
    assert_invariant(db.graph("h_workers"), repo.path)
    p = _run("ingest", "h_workers", "--workers", "0")
    assert p.returncode != 0 and "--workers must be 1 or more" in p.stderr
