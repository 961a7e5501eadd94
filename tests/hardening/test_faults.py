"""Faults from the hardening issue (items 8-12): an unusable home or a server that cannot save,
a SIGKILLed multi-process ingest, file names that are not UTF-8, a shallow clone made whole, a
deleted repository under the daemon. Real processes, real git, the session's real FalkorDB."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from history.conftest import GIT_ENV


def git(cwd: Path, *args: str) -> str:
    out = subprocess.run(["git", *args], cwd=cwd, env={**os.environ, **GIT_ENV}, capture_output=True, check=True)
    return out.stdout.decode(errors="replace")


def commit_all(cwd: Path, message: str) -> str:
    git(cwd, "add", "-A", ".")
    git(cwd, "commit", "-q", "--no-verify", "-m", message)
    return git(cwd, "rev-parse", "HEAD").strip()


def new_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    git(path, "init", "-q", "--template=", "-b", "main", ".")
    return path


def cli(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mnemosyne.cli", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=timeout, check=False)


# -- 8: a home that cannot be used; a server that cannot save ------------------------------------


def _unusable_homes(tmp_path: Path) -> list[Path]:
    homes = [Path("/proc/nope"), tmp_path / "a-file"]
    homes[1].write_text("not a folder\n")
    locked = tmp_path / "no-write"
    locked.mkdir(mode=0o500)
    if os.geteuid() != 0:
        homes.append(locked)  # root writes anyway: /sys stands for a folder it cannot write
    elif Path("/sys").is_dir() and not _writable(Path("/sys")):
        homes.append(Path("/sys"))
    return homes


def _writable(d: Path) -> bool:
    try:
        (d / f".probe-{os.getpid()}").touch()
    except OSError:
        return False
    (d / f".probe-{os.getpid()}").unlink()
    return True


@pytest.mark.slow
@pytest.mark.parametrize("command", [["status"], ["workspace", "list"], ["db", "start"], ["daemon", "run"],
                                     ["ingest", "."], ["search", "anything"]])
def test_unusable_home_is_one_clear_line(command: list[str], tmp_path: Path) -> None:
    for home in _unusable_homes(tmp_path):
        env = {"MNEMOSYNE_HOME": str(home), "MNEMOSYNE_EMBEDDINGS_PROVIDER": "none"}
        r = cli(*command, env={**env, "MNEMOSYNE_FALKORDB_URL": ""}, timeout=60)
        assert r.returncode != 0, (home, r.stdout)
        assert "Traceback" not in r.stderr, (home, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1, (home, r.stderr)
        assert lines[0].startswith("mnemosyne: ") and str(home) in lines[0] and "MNEMOSYNE_HOME" in lines[0], lines


@pytest.fixture
def own_server(tmp_path_factory):
    """A FalkorDB of its own (its own short home): this test breaks its disk."""
    import shutil
    import tempfile

    from mnemosyne.config import Settings
    from mnemosyne.store.embedded import EmbeddedFalkorDB

    home = Path(tempfile.mkdtemp(prefix="mnf-", dir="/tmp"))
    env = {"MNEMOSYNE_HOME": str(home), "MNEMOSYNE_EMBEDDINGS_PROVIDER": "none", "MNEMOSYNE_FALKORDB_URL": "",
           "MNEMOSYNE_FALKORDB_SOCKET": str(home / "falkordb.sock")}
    server = EmbeddedFalkorDB(Settings(home=home, falkordb_socket=home / "falkordb.sock"))
    try:
        yield home, env, server
    finally:
        pid = server._read_pid()
        if pid is not None:  # it cannot write its snapshot, so it would refuse SIGTERM
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(home, ignore_errors=True)


@pytest.mark.slow
def test_failed_background_save_keeps_reads_working_and_says_so(own_server, tmp_path: Path) -> None:
    import redis

    from mnemosyne.errors import CannotSave
    from mnemosyne.store.connection import connect

    home, env, server = own_server
    repo = new_repo(tmp_path / "saved")
    (repo / "a.py").write_text("def f():\n    return 1\n")
    commit_all(repo, "one")
    r = cli("ingest", str(repo), "--name", "saved", "--quiet", env=env)
    assert r.returncode == 0, r.stderr

    # the disk goes away under the server: its next background save fails (MISCONF from then on)
    import shutil

    shutil.rmtree(home / "db")
    client = redis.Redis(unix_socket_path=str(server.socket), decode_responses=True)
    client.bgsave()
    deadline = time.monotonic() + 20
    while client.info("persistence").get("rdb_last_bgsave_status") != "err" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert client.info("persistence")["rdb_last_bgsave_status"] == "err"
    pid = server._read_pid()

    st = cli("db", "status", env=env)
    assert st.returncode == 0 and "running" in st.stdout and "not running" not in st.stdout, st.stdout
    assert "cannot save to disk" in st.stdout, st.stdout
    for command in (["status"], ["workspace", "list"], ["cypher", "-w", "saved", "MATCH (c:Commit) RETURN count(c)"]):
        out = cli(*command, env=env)
        assert out.returncode == 0, (command, out.stderr)
        assert "Traceback" not in out.stderr and "MISCONF" not in out.stderr, (command, out.stderr)
        assert "saved" in out.stdout or "1" in out.stdout, (command, out.stdout)
    assert "writes are refused" in cli("status", env=env).stdout

    (repo / "b.py").write_text("def g():\n    return 2\n")
    commit_all(repo, "two")
    w = cli("ingest", "saved", "--quiet", env=env)
    assert w.returncode != 0
    lines = w.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot save to disk" in lines[0] and "Traceback" not in w.stderr, w.stderr
    assert server._read_pid() == pid, "the server was restarted instead of being read from"

    from mnemosyne.config import Settings

    db = connect(Settings(home=home, falkordb_socket=home / "falkordb.sock"))
    try:  # a read sent as GRAPH.QUERY is served read-only; a write says what to do
        assert db.graph("saved").query("MATCH (c:Commit) RETURN count(c)") == [[1]]
        with pytest.raises(CannotSave, match="cannot save to disk"):
            db.graph("saved").query("CREATE (:Scratch)")
    finally:
        db.close()


# -- 9: a SIGKILLed `ingest --workers 2` leaves no process behind ---------------------------------


def _session_members(sid: int) -> dict[int, str]:
    """Live processes of session ``sid`` (pid -> command line)."""
    out: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[-1].split()
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[3]) == sid:  # state, ppid, pgrp, session
            out[int(entry.name)] = cmd
    return out


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from procfs")
def test_sigkilled_parallel_ingest_leaves_no_helper(settings, tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "many")
    body = "\n".join(f"def f{i}(a):\n    return helper(a) + {i}\n" for i in range(250))
    for c in range(30):  # enough parsing that the helpers are busy when the kill comes
        for f in range(24):
            (repo / f"mod{f}.py").write_text(f"from util import helper\n# {c}\n{body}\n")
        (repo / "util.py").write_text(f"def helper(a):\n    return a * {c}\n")
        commit_all(repo, f"c{c}")
    p = subprocess.Popen([sys.executable, "-m", "mnemosyne.cli", "ingest", str(repo), "--workers", "2", "--quiet"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        seen: dict[int, str] = {}
        while time.monotonic() < deadline and p.poll() is None:
            seen = _session_members(p.pid)
            helpers = [pid for pid, cmd in seen.items() if "forkserver" in cmd]
            if len(helpers) >= 2:  # the forkserver and a parse helper forked from it
                break
            time.sleep(0.05)
        assert p.poll() is None, "ingestion ended before its helpers ran; make the repository bigger"
        assert any("resource_tracker" in cmd for cmd in seen.values()), seen
        time.sleep(0.5)  # inside a batch
        os.kill(p.pid, signal.SIGKILL)  # the ingest alone: its helpers must notice by themselves
        p.wait()
        deadline = time.monotonic() + 5
        while _session_members(p.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _session_members(p.pid) == {}, f"left behind: {_session_members(p.pid)}"
    finally:
        if _session_members(p.pid):
            os.killpg(p.pid, signal.SIGKILL)


# -- 10: file names that are not UTF-8 stay apart and readable ----------------------------------


def test_non_utf8_file_names_are_two_nodes_whose_source_reads_back(db, registry, tmp_path: Path) -> None:
    import uuid

    from mnemosyne.ingest import ingest_path
    from mnemosyne.query.api import get_symbol

    repo = new_repo(tmp_path / "names")
    raw = os.fsencode(repo)
    for name, body in ((b"x\xfe.py", b"def alpha():\n    return 1\n"), (b"x\xff.py", b"def beta():\n    return 2\n"),
                       ("é.py".encode(), b"def gamma():\n    return 3\n")):
        Path(os.fsdecode(raw + b"/" + name)).write_bytes(body)
    commit_all(repo, "odd names")
    ws = f"names_{uuid.uuid4().hex[:8]}"
    ingest_path(db, repo, name=ws)

    files = sorted(r[0] for r in db.graph(ws).ro_query("MATCH (f:File) RETURN f.path"))
    assert len(files) == 3, files  # before: x\xfe.py and x\xff.py were one node, "x\ufffd.py"
    assert "é.py" in files  # valid UTF-8: exactly as it was
    assert len({f for f in files if f.startswith("x")}) == 2
    for short, text in (("alpha", "return 1"), ("beta", "return 2"), ("gamma", "return 3")):
        sym = get_symbol(db, ws, short)
        assert sym.source is not None and text in sym.source, (short, sym.file, sym.source)
        sym.model_dump_json()  # the answer is plain UTF-8 text


def test_escaped_names_are_byte_exact_and_reversible() -> None:
    from mnemosyne.timeline.edges import clean, raw_text

    names = [b"x\xfe.py", b"x\xff.py", b"d\xc3/\xe9t\xe9.py", "ok/é.py".encode(), b"plain.py", b"\x80\xff"]
    cleaned = [clean(n.decode("utf-8", "surrogateescape")) for n in names]
    assert len(set(cleaned)) == len(names)
    for n, c in zip(names, cleaned):
        c.encode("utf-8")  # storable
        assert os.fsencode(raw_text(c)) == n
    assert cleaned[3] == "ok/é.py" and cleaned[4] == "plain.py"


# -- 12: a deleted repository under the daemon: said once, then backed off -----------------------


def test_daemon_backs_off_a_deleted_repository_and_says_once_what_to_do(settings, db, registry, tmp_path: Path,
                                                                         caplog) -> None:
    import logging
    import shutil
    import uuid

    from mnemosyne.daemon.core import Daemon
    from mnemosyne.store.connection import connect
    from mnemosyne.workspaces import add_workspace

    repo = new_repo(tmp_path / "doomed")
    (repo / "a.py").write_text("def f():\n    return 1\n")
    commit_all(repo, "one")
    name = f"doomed_{uuid.uuid4().hex[:8]}"
    add_workspace(registry, name, repo)
    shutil.rmtree(repo)  # deleted before the daemon looks: it cannot be watched, so it is polled

    own = settings.model_copy(update={"home": tmp_path / "home"})
    daemon = Daemon(own, connect=lambda s, start=True: connect(settings), only=[name])
    caplog.set_level(logging.DEBUG, logger="mnemosyne.daemon")
    try:
        daemon.refresh_workspaces()
        for _ in range(10):  # the scheduler's 5 s polls
            daemon.poll_unwatched()
        daemon.reconcile()  # an explicit pass looks again, quietly
        warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(warnings) == 1, warnings
        assert "event=repo_unavailable" in warnings[0] and f"mnemosyne workspace remove {name}" in warnings[0]
        assert "is gone" in warnings[0]
        probes = [r for r in caplog.records if "check_failed" in r.getMessage()]
        assert len(probes) == 1, "the polls did not back off"  # only the reconcile pass probed git again
        ws = next(w for w in daemon.status()["workspaces"] if w["name"] == name)
        assert ws["repo_error"]

        new_repo(repo)  # restored: the next pass finds it, says so, and queues its ingest
        (repo / "a.py").write_text("def f():\n    return 2\n")
        commit_all(repo, "back")
        out = daemon.reconcile()
        assert out["queued"] == [name]
        assert any("event=repo_available" in r.getMessage() for r in caplog.records)
        assert next(w for w in daemon.status()["workspaces"] if w["name"] == name)["repo_error"] is None
    finally:
        daemon.pool.shutdown(wait=False)
        daemon.queue.close()


# -- 11: a shallow clone made whole: its boundary commit gets its real changes -------------------


def test_unshallowed_clone_rederives_the_boundary_commit(db, registry, tmp_path: Path) -> None:
    import uuid

    from mnemosyne.ingest import ingest_path

    src = new_repo(tmp_path / "full")
    for i in range(12):
        (src / f"m{i}.py").write_text(f"def f{i}():\n    return {i}\n")
    commit_all(src, "root: twelve files")
    for c in range(3):
        with (src / f"m{c}.py").open("a") as fh:
            fh.write(f"\n\ndef g{c}():\n    return f{c}()\n")
        (src / f"n{c}.py").write_text(f"x = {c}\n")
        commit_all(src, f"change {c}")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "2", f"file://{src}", str(clone))
    boundary = git(clone, "rev-parse", "HEAD~1").strip()
    ws = f"shallow_{uuid.uuid4().hex[:8]}"
    g = db.graph(ws)

    def modifies(commit: str) -> set[str]:
        rows = g.ro_query("MATCH (:Commit {hash: $h})-[:MODIFIES]->(f:File) RETURN f.path", {"h": commit})
        return {r[0] for r in rows}

    first = ingest_path(db, clone, name=ws)
    assert any("shallow clone" in w for w in first.warnings)
    assert len(modifies(boundary)) == 14  # the boundary's change is its whole tree

    git(clone, "fetch", "-q", "--unshallow")
    second = ingest_path(db, clone, name=ws)
    assert any("has its history now" in w for w in second.warnings), second.warnings
    for commit in git(clone, "rev-list", "--first-parent", "HEAD").split():
        real = set(git(clone, "diff-tree", "--root", "--no-commit-id", "-r", "--name-only", commit).split())
        assert modifies(commit) == real, commit  # before: the boundary kept its 14 edges (real: 2)
    assert len(modifies(boundary)) == 2
    # commit search by path: m9.py was written by the root commit only
    rows = g.ro_query("MATCH (c:Commit)-[:MODIFIES]->(:File {path: 'm9.py'}) WHERE c.seq IS NOT NULL "
                      "RETURN c.seq")
    assert rows == [[0]]
    seqs = g.ro_query("MATCH (c:Commit {hash: $h}) RETURN c.seq, c.parents", {"h": boundary})
    assert seqs[0][0] == 2 and len(seqs[0][1]) == 1
    third = ingest_path(db, clone, name=ws)  # settled: nothing re-derived again
    assert third.commits_ingested == 0 and not any("has its history now" in w for w in third.warnings)
