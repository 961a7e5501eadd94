"""FalkorDB killed (SIGKILL) under a running daemon while commits arrive: nothing is lost.

Runs on its own MNEMOSYNE_HOME and socket, with an embedded server the daemon starts itself,
so the session server of the other tests is never touched."""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mnemosyne.config import Settings
from mnemosyne.store.connection import connect
from mnemosyne.store.embedded import EmbeddedFalkorDB
from mnemosyne.workspaces import add_workspace

from .conftest import DaemonProc, daemon_env, dump, indexed_commit, wait_for


@pytest.fixture
def own_home() -> Iterator[Path]:
    home = Path(tempfile.mkdtemp(prefix="mnd-", dir="/tmp"))
    try:
        yield home
    finally:
        EmbeddedFalkorDB(Settings(home=home, falkordb_socket=home / "falkordb.sock")).stop()
        shutil.rmtree(home, ignore_errors=True)


def _daemon_with_workspace(home: Path, make_repo, name: str, **env_extra: str) -> tuple[Settings, object, DaemonProc]:  # noqa: ANN001
    """A daemon running on ``home`` (it starts the embedded FalkorDB of this home) with a new
    repository registered as workspace ``name`` and ingested."""
    env = daemon_env(home, MNEMOSYNE_FALKORDB_SOCKET=str(home / "falkordb.sock"), **env_extra)
    env.pop("MNEMOSYNE_FALKORDB_URL", None)
    settings = Settings(home=home, falkordb_socket=home / "falkordb.sock")
    repo = make_repo()
    d = DaemonProc(env).start()
    try:
        db = connect(settings, start=False)
        add_workspace(db.registry, name, repo.path)
        d.request("reconcile")
        wait_for(lambda: indexed_commit(db, name) == repo.head(), 20, what="initial ingest")
        db.close()
    except BaseException:
        d.terminate()
        raise
    return settings, repo, d


@pytest.mark.slow
def test_falkordb_killed_and_restarted_while_commits_arrive(own_home: Path, make_repo) -> None:
    settings, repo, d = _daemon_with_workspace(own_home, make_repo, "fault")
    try:
        server_pid = int((own_home / "falkordb.pid").read_text())
        os.kill(server_pid, signal.SIGKILL)
        shas = []
        for i in range(4):  # commits keep arriving while the database is gone / coming back
            shas.append(repo.commit(f"during outage {i}"))
            time.sleep(0.4)
        wait_for(lambda: d.status()["db"]["state"] == "up", 30, what="database back")
        db = connect(settings, start=False)
        wait_for(lambda: indexed_commit(db, "fault") == shas[-1], 30, what="catch-up after outage")
        for sha in shas:
            assert db.graph("fault").ro_query("MATCH (c:Commit {hash: $h}) RETURN c.seq", {"h": sha}), sha
        db.close()
        assert int((own_home / "falkordb.pid").read_text()) != server_pid  # the daemon restarted it
        st = d.status()
        assert st["queue"]["failed"] == 0, dump(st)
        # one clear line per outage, no traceback storm
        down = d.log_lines("event=db_unavailable")
        assert 1 <= len(down) <= 2, down
        assert not d.log_lines("Traceback")
        assert d.log_lines("event=db_available")
        print("\n".join(d.log_lines("level=")))  # shown with -s or on failure
    finally:
        assert d.terminate() == 0


@pytest.mark.slow
def test_deadlocked_falkordb_is_killed_and_replaced(own_home: Path, make_repo) -> None:
    """A FalkorDB that deadlocks (no answer, no CPU; here SIGSTOP) under the running daemon is
    killed after ``falkordb_hang_s`` and started again; the commits made meanwhile are ingested.
    Without the watch, the daemon's next query would wait out its socket timeout (330 s)."""
    settings, repo, d = _daemon_with_workspace(own_home, make_repo, "hang", MNEMOSYNE_FALKORDB_HANG_S="2")
    server_pid = 0
    try:
        server_pid = int((own_home / "falkordb.pid").read_text())
        os.kill(server_pid, signal.SIGSTOP)
        sha = repo.commit("while the database is deadlocked")
        wait_for(lambda: d.log_lines("event=db_deadlocked"), 30, what="the deadlock noticed")
        wait_for(lambda: d.status()["db"]["state"] == "up", 30, what="database back")
        db = connect(settings, start=False)
        wait_for(lambda: indexed_commit(db, "hang") == sha, 30, what="the commit ingested after the restart")
        db.close()
        assert int((own_home / "falkordb.pid").read_text()) != server_pid
        assert d.status()["queue"]["failed"] == 0
        assert not d.log_lines("Traceback")
    finally:
        if server_pid:
            try:
                os.kill(server_pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        assert d.terminate() == 0
