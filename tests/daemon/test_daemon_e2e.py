"""End to end: a real daemon process, real repositories, real commits, the session FalkorDB."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from mnemosyne.daemon import hooks, spool
from mnemosyne.daemon.paths import DaemonPaths
from mnemosyne.daemon.queue import INGEST, Job, WorkQueue
from mnemosyne.ingest import ingest_workspace
from mnemosyne.store.switch import side_graph
from mnemosyne.workspaces import add_workspace

from .conftest import commit_node, dump, indexed_commit, wait_for


@pytest.mark.slow
def test_commit_reaches_the_graph_without_any_command(daemon, registry, db, make_repo) -> None:
    repo = make_repo("repo one")
    add_workspace(registry, "d_commit", repo.path)
    d = daemon()
    wait_for(lambda: indexed_commit(db, "d_commit") == repo.head(), 20, what="initial ingest")
    latencies = []
    for i in range(3):
        sha = repo.commit(f"feature {i}")
        t0 = time.monotonic()
        wait_for(lambda sha=sha: indexed_commit(db, "d_commit") == sha, 15, interval=0.02, what=f"commit {i} ingested")
        latencies.append(time.monotonic() - t0)
    seq, message = commit_node(db, "d_commit", sha)
    assert message.strip() == "feature 2" and seq == 3

    # The daemon's own view (read from the registry) is refreshed just after Meta moves, when
    # the job finishes: wait for what is asserted, not for the graph as a proxy.
    def status_shows_it() -> dict | None:
        st = d.status()
        ws = next((w for w in st["workspaces"] if w["name"] == "d_commit"), None)
        return st if ws is not None and ws["watched"] and ws["last_ingested_commit"] == sha else None

    st = wait_for(status_shows_it, 10, interval=0.05, what=f"daemon status shows {sha[:12]}")
    assert st["queue"]["failed"] == 0 and st["db"]["state"] == "up", dump(st)
    print(f"commit -> queryable latencies: {[round(x, 3) for x in latencies]}")
    assert d.terminate() == 0


@pytest.mark.slow
def test_commits_made_while_stopped_are_ingested_at_start(daemon, registry, db, make_repo) -> None:
    repo = make_repo()
    add_workspace(registry, "d_offline", repo.path)
    d = daemon()
    wait_for(lambda: indexed_commit(db, "d_offline") == repo.head(), 20, what="initial ingest")
    assert d.terminate() == 0
    for i in range(3):
        repo.commit(f"offline {i}")
    repo.git("checkout", "-q", "-b", "side")  # HEAD elsewhere: the tracked branch still counts
    repo.commit("on a side branch")
    main_head = repo.git("rev-parse", "main").strip()
    daemon()
    wait_for(lambda: indexed_commit(db, "d_offline") == main_head, 20, what="catch-up at start")
    assert commit_node(db, "d_offline", main_head)[1].strip() == "offline 2"


@pytest.mark.slow
def test_hook_note_left_while_daemon_down_is_drained_at_start(daemon, registry, db, make_repo, settings) -> None:
    repo = make_repo()
    add_workspace(registry, "d_hook", repo.path)
    paths = DaemonPaths.from_settings(settings)
    hooks.install(repo.path, paths.spool_dir)
    try:
        sha = repo.commit("while the daemon is down")
        notes = spool.read_notes(paths.spool_dir)
        assert [n.hook for n in notes] == ["post-commit"]
        d = daemon()
        wait_for(lambda: indexed_commit(db, "d_hook") == sha, 20, what="ingest after drain")
        wait_for(lambda: not spool.read_notes(paths.spool_dir), 5, what="spool drained")
        # with the daemon up, a hook note alone (no watcher event needed) queues the workspace
        d.request("notify", path=str(repo.path))
        assert d.status()["spool_pending"] == 0
    finally:
        hooks.uninstall(repo.path)


@pytest.mark.slow
def test_sigterm_mid_ingest_then_restart_finishes_the_same_graph(daemon, registry, db, make_repo) -> None:
    repo = make_repo("big repo")
    head = repo.many_commits(250)
    add_workspace(registry, "d_sigterm", repo.path)
    d = daemon()

    def progressed() -> bool:
        running = d.status()["running"]
        return bool(running and (running[0].get("progress") or {}).get("done", 0) >= 10)

    wait_for(progressed, 30, interval=0.05, what="ingest under way")
    t0 = time.monotonic()
    assert d.terminate(60) == 0  # exits 0 after abandoning between commits
    assert time.monotonic() - t0 < 20
    # HEAD first (250 commits): the head answered at once; the history build was interrupted
    meta = db.graph("d_sigterm").ro_query("MATCH (m:Meta {key: 'ingest'}) RETURN m.mode, m.last_commit, m.history_build")
    assert meta == [["head_only", head, "stopped"]]  # stopped between commits by SIGTERM
    assert side_graph(db, "d_sigterm").exists()
    assert d.log_lines("event=job_interrupted")
    q = WorkQueue(d.paths.queue_db)
    assert [j.workspace for j in q.jobs(state="queued")] == ["d_sigterm"]  # kept for the next start
    q.close()
    d2 = daemon()
    wait_for(lambda: indexed_commit(db, "d_sigterm") == head and not side_graph(db, "d_sigterm").exists(), 60,
             interval=0.2, what="resumed history build switched in")
    # the same graph as one uninterrupted run (daemon stopped first: it would ingest the clone too)
    assert d2.terminate() == 0
    clone = repo.path.parent / "big repo clone"
    repo.git("clone", "-q", str(repo.path), str(clone))
    add_workspace(registry, "d_sigterm_ref", clone)
    ingest_workspace(db, "d_sigterm_ref")
    assert _graph_shape(db, "d_sigterm") == _graph_shape(db, "d_sigterm_ref")


def _graph_shape(db, ws: str) -> dict:
    g = db.graph(ws)
    out = {}
    for label in ("Commit", "File", "Function"):
        out[label] = g.ro_query(f"MATCH (n:{label}) RETURN count(n)")[0][0]
    for rel in ("DEFINES", "CALLS", "MODIFIES", "PARENT"):
        out[rel] = g.ro_query(
            f"MATCH ()-[r:{rel}]->() RETURN count(r), sum(coalesce(r.valid_from_seq, 0)), sum(coalesce(r.valid_to_seq, 0))"
        )[0]
    return out


@pytest.mark.slow
def test_two_workspaces_at_once_and_one_registered_while_running(daemon, registry, db, make_repo) -> None:
    a, b, c = make_repo("a"), make_repo("b"), make_repo("c")
    a.many_commits(60)
    b.many_commits(60)
    add_workspace(registry, "d_two_a", a.path)
    add_workspace(registry, "d_two_b", b.path)
    d = daemon(MNEMOSYNE_DAEMON_MAX_PARALLEL="2")
    wait_for(lambda: indexed_commit(db, "d_two_a") == a.head() and indexed_commit(db, "d_two_b") == b.head(),
             30, what="both ingested")
    done: dict[str, Job] = {}

    def both_done() -> bool:  # (a job is marked done just after its ingestion's last write)
        q = WorkQueue(d.paths.queue_db)
        try:
            done.update({j.workspace: j for j in q.jobs(state="done") if j.kind == INGEST})
        finally:
            q.close()
        return "d_two_a" in done and "d_two_b" in done

    wait_for(both_done, 15, what="both ingestion jobs done")
    ja, jb = done["d_two_a"], done["d_two_b"]
    assert ja.started_at < jb.finished_at and jb.started_at < ja.finished_at  # they overlapped
    other = make_repo("not ours")
    add_workspace(registry, "x_not_served", other.path)  # outside --workspace d_*: never touched
    sa, sb = a.commit("a again"), b.commit("b again")
    wait_for(lambda: indexed_commit(db, "d_two_a") == sa and indexed_commit(db, "d_two_b") == sb, 15,
             what="both commits")
    # registered while the daemon runs: picked up without a restart (health pass every 2 s here)
    add_workspace(registry, "d_two_c", c.path)
    wait_for(lambda: indexed_commit(db, "d_two_c") == c.head(), 20, what="new workspace ingested")
    sc = c.commit("c new")
    wait_for(lambda: indexed_commit(db, "d_two_c") == sc, 15, what="new workspace watched")
    st = d.status()
    assert {w["name"] for w in st["workspaces"]} == {"d_two_a", "d_two_b", "d_two_c"}
    assert indexed_commit(db, "x_not_served") is None
    assert all(w["watched"] for w in st["workspaces"] if w["name"].startswith("d_two")), dump(st)


@pytest.mark.slow
def test_cli_start_status_logs_stop(settings, registry, make_repo, db) -> None:
    import subprocess
    import sys

    from .conftest import daemon_env

    repo = make_repo()
    add_workspace(registry, "d_cli", repo.path)
    env = daemon_env(Path(settings.home))

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "mnemosyne.cli", *args], env=env, capture_output=True,
                              text=True, timeout=60)

    r = cli("daemon", "start", "--workspace", "d_cli")
    assert r.returncode == 0 and "started" in r.stdout, r.stderr
    try:
        wait_for(lambda: indexed_commit(db, "d_cli") == repo.head(), 20, what="ingest")
        r = cli("daemon", "status")
        assert r.returncode == 0 and "d_cli" in r.stdout and "database: up" in r.stdout, r.stdout
        assert "serving d_cli" in r.stdout
        r = cli("daemon", "logs", "-n", "5")
        assert r.returncode == 0 and "event=" in r.stdout
    finally:
        r = cli("daemon", "stop")
    assert r.returncode == 0 and "stopped" in r.stdout
    r = cli("daemon", "status")
    assert r.returncode == 3 and "not running" in r.stdout


@pytest.mark.slow
def test_embeddings_are_backfilled_after_an_ingest(daemon, registry, db, make_repo) -> None:
    repo = make_repo()
    add_workspace(registry, "d_embed", repo.path)
    d = daemon(MNEMOSYNE_EMBEDDINGS_PROVIDER="local")
    wait_for(lambda: indexed_commit(db, "d_embed") == repo.head(), 20, what="ingest")

    def embedded() -> int:
        return db.graph("d_embed").ro_query(
            "MATCH (f:Function) WHERE f.embedding IS NOT NULL RETURN count(f)")[0][0]

    wait_for(embedded, 60, interval=0.2, what="embeddings back-filled")

    def done_kinds() -> set[str]:
        q = WorkQueue(d.paths.queue_db)
        try:
            return {j.kind for j in q.jobs(state="done")}
        finally:
            q.close()

    # the job may still be finishing (indexes, mentions) after the vectors are written
    wait_for(lambda: {"ingest", "backfill"} <= done_kinds(), 30, interval=0.2, what="back-fill job done")

    # HNSW broken while the daemon was down (as after an AOF replay): found and rebuilt at start
    from mnemosyne.search.vectors import check_vector_health, drop_vector_indexes

    assert d.terminate() == 0
    drop_vector_indexes(db.graph("d_embed"))
    d = daemon(MNEMOSYNE_EMBEDDINGS_PROVIDER="local")
    wait_for(lambda: d.log_lines("event=vector_health workspace=d_embed rebuilt=true"), 60, interval=0.2,
             what="vector indexes checked and rebuilt at start-up")
    assert check_vector_health(db.graph("d_embed"), repair=False) is False


@pytest.mark.slow
def test_embed_on_ingest_off_leaves_embedding_to_later(daemon, registry, db, make_repo) -> None:
    repo = make_repo()
    add_workspace(registry, "d_noembed", repo.path)
    d = daemon(MNEMOSYNE_EMBEDDINGS_PROVIDER="local", MNEMOSYNE_EMBED_ON_INGEST="false")
    wait_for(lambda: indexed_commit(db, "d_noembed") == repo.head(), 20, what="ingest")

    def kinds(state: str | None = None) -> set[str]:
        q = WorkQueue(d.paths.queue_db)
        try:
            return {j.kind for j in q.jobs(state=state)}
        finally:
            q.close()

    wait_for(lambda: "ingest" in kinds("done"), 20, interval=0.2, what="ingest job done")
    assert kinds() == {"ingest"}  # no back-fill queued after it
    assert db.graph("d_noembed").ro_query("MATCH (n) WHERE n.embedding IS NOT NULL RETURN count(n)")[0][0] == 0


@pytest.mark.slow
def test_unfinished_backfill_is_resumed_at_start(daemon, registry, db, make_repo, settings, tmp_path) -> None:
    from mnemosyne.search.backfill import EmbeddingCache, backfill
    from mnemosyne.search.embedders import get_embedder
    from mnemosyne.search.vectors import get_model_info

    repo = make_repo()
    info = add_workspace(registry, "d_resume", repo.path)
    ingest_workspace(db, info)
    # an embedding step that stopped after one text (a killed daemon, an interrupted ingest)
    r = backfill(db, "d_resume", get_embedder(settings), limit=1, cache=EmbeddingCache(tmp_path / "c.sqlite"))
    assert r.embedded == 1 and get_model_info(db.graph("d_resume")).pending == r.remaining > 0
    d = daemon(MNEMOSYNE_EMBEDDINGS_PROVIDER="local")
    wait_for(lambda: get_model_info(db.graph("d_resume")).pending == 0, 90, interval=0.2, what="back-fill resumed")
    assert d.log_lines("event=backfill_resumed workspace=d_resume")


@pytest.mark.slow
def test_daemon_killed_mid_ingest_loses_no_work(daemon, registry, db, make_repo) -> None:
    repo = make_repo()
    head = repo.many_commits(200)
    add_workspace(registry, "d_crash", repo.path)
    d = daemon()

    def progressed() -> bool:
        running = d.status()["running"]
        return bool(running and (running[0].get("progress") or {}).get("done", 0) >= 5)

    wait_for(progressed, 30, what="ingest under way")
    d.kill()  # SIGKILL: no clean-up at all; the job stays 'running' in the queue file
    # HEAD first (200 commits): the head answered before the kill; its history was being built
    assert indexed_commit(db, "d_crash") == head and side_graph(db, "d_crash").exists()
    d2 = daemon()
    assert d2.log_lines("event=recovered jobs=1")
    wait_for(lambda: not side_graph(db, "d_crash").exists(), 60, interval=0.2, what="history finished after crash")
    assert db.graph("d_crash").ro_query("MATCH (m:Meta {key: 'ingest'}) RETURN m.mode, m.last_commit") \
        == [["full", head]]


@pytest.mark.slow
def test_a_second_daemon_on_the_same_home_refuses_to_start(daemon, settings) -> None:
    import subprocess
    import sys

    from .conftest import daemon_env

    daemon()
    r = subprocess.run([sys.executable, "-m", "mnemosyne.daemon", "run", "--quiet"], capture_output=True, text=True,
                       env=daemon_env(Path(settings.home)), timeout=60)
    assert r.returncode != 0 and "already runs" in r.stderr


@pytest.mark.slow
def test_linked_worktree_workspace_follows_its_branch(daemon, registry, db, make_repo, tmp_path) -> None:
    repo = make_repo("main checkout")
    wt = tmp_path / "feature checkout"
    repo.git("worktree", "add", "-q", "-b", "feature", str(wt))
    add_workspace(registry, "d_wt", wt, branch="feature")
    daemon()
    feature_head = repo.git("rev-parse", "feature").strip()
    wait_for(lambda: indexed_commit(db, "d_wt") == feature_head, 20, what="worktree ingest")
    (wt / "pkg" / "feat.py").write_text("def feat():\n    return 1\n")
    import os
    import subprocess

    from .conftest import GIT_ENV

    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")} | GIT_ENV
    subprocess.run(["git", "-C", str(wt), "add", "-A"], check=True, env=env)
    subprocess.run(["git", "-C", str(wt), "commit", "-q", "-m", "feature work"], check=True, env=env)
    new = repo.git("rev-parse", "feature").strip()
    wait_for(lambda: indexed_commit(db, "d_wt") == new, 15, what="worktree commit ingested")
    repo.commit("on main: not the tracked branch")
    time.sleep(1.0)
    assert indexed_commit(db, "d_wt") == new


@pytest.mark.slow
def test_resets_rebases_and_merges_on_the_tracked_branch_are_followed(daemon, registry, db, make_repo) -> None:
    repo = make_repo()
    for i in range(3):
        repo.commit(f"base {i}")
    add_workspace(registry, "d_rewrite", repo.path)
    daemon()
    wait_for(lambda: indexed_commit(db, "d_rewrite") == repo.head(), 20, what="initial ingest")
    repo.git("reset", "-q", "--hard", "HEAD~2")  # history rewritten backwards
    back = repo.head()
    wait_for(lambda: indexed_commit(db, "d_rewrite") == back, 15, what="reset followed")
    repo.git("commit", "-q", "--amend", "-m", "amended")  # force-update to a new commit
    amended = repo.head()
    wait_for(lambda: indexed_commit(db, "d_rewrite") == amended, 15, what="amend followed")
    repo.git("checkout", "-q", "-b", "topic")
    repo.commit("topic work")
    repo.git("checkout", "-q", "main")
    repo.commit("main work")
    repo.git("merge", "-q", "--no-ff", "-m", "Merge topic", "topic")
    merged = repo.head()
    wait_for(lambda: indexed_commit(db, "d_rewrite") == merged, 15, what="merge followed")


@pytest.mark.slow
def test_daemon_waits_while_another_process_ingests_the_workspace(daemon, registry, db, make_repo) -> None:
    from mnemosyne.ingest import _Lock

    repo = make_repo()
    add_workspace(registry, "d_locked", repo.path)
    lease = _Lock(db, "d_locked")  # the database lease a manual `mnemosyne ingest` (or another
    lease.acquire()  # machine's daemon) holds while it writes the workspace
    try:
        d = daemon()
        wait_for(lambda: d.log_lines("event=job_deferred"), 15, what="job deferred")
        assert indexed_commit(db, "d_locked") is None
        st = d.status()
        assert st["queue"]["failed"] == 0, dump(st)  # "retry later", not a failure
    finally:
        lease.release()
    wait_for(lambda: indexed_commit(db, "d_locked") == repo.head(), 30, what="ingest after the lease is free")
    assert not d.log_lines("event=job_failed")
