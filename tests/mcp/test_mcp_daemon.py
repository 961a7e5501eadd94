"""ingestion_status and "not ingested yet" with a real daemon running (its control socket)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mcp import Client

from mnemosyne.daemon import control
from mnemosyne.daemon.paths import DaemonPaths
from mnemosyne.workspaces import add_workspace

pytestmark = pytest.mark.anyio


def _git_repo(path: Path) -> Path:
    path.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    (path / "m.py").write_text("def helper(x):\n    return x\n\n\ndef main():\n    return helper(1)\n")
    subprocess.run(["git", "-C", str(path), "add", "."], check=True)
    subprocess.run(["git", "-C", str(path), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"],
                   check=True)  # fmt: skip
    return path


@pytest.fixture
def daemon_proc(settings):
    paths = DaemonPaths(Path(settings.home).resolve())
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update({"MNEMOSYNE_EMBEDDINGS_PROVIDER": "none", "MNEMOSYNE_RECONCILE_INTERVAL_S": "300"})
    paths.log_dir.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen([sys.executable, "-m", "mnemosyne.daemon", "run", "--quiet", "--workspace", "mq_*"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            if control.request(paths.control_socket, "ping", timeout=1.0).get("pid") == proc.pid:
                break
        except control.ControlUnavailable:
            time.sleep(0.05)
    else:
        proc.kill()
        pytest.fail("daemon did not answer")
    yield proc
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
    for f in (paths.queue_db, Path(str(paths.queue_db) + "-wal"), Path(str(paths.queue_db) + "-shm")):
        f.unlink(missing_ok=True)


@pytest.mark.slow
async def test_status_and_queueing_through_the_daemon(server, shop, registry, daemon_proc, tmp_path):
    async with Client(server) as c:
        r = await c.call_tool("ingestion_status", {})
        assert not r.is_error, r.content[0].text
        st = r.structured_content
        assert st["daemon_running"] is True and st["daemon_pid"] == daemon_proc.pid
        assert "queue" in st and "daemon** running" in r.content[0].text

        add_workspace(registry, "mq_fresh", _git_repo(tmp_path / "fresh"))
        r = await c.call_tool("get_calls", {"fqn": "m.main", "workspace": "mq_fresh"})
        if r.is_error:  # usually: not ingested yet, queued through the control socket
            assert "no ingested commit" in r.content[0].text
            assert "queued for ingestion by the daemon" in r.content[0].text, r.content[0].text
        deadline = time.time() + 60
        while r.is_error and time.time() < deadline:
            time.sleep(0.3)
            r = await c.call_tool("get_calls", {"fqn": "m.main", "workspace": "mq_fresh"})
        assert not r.is_error, r.content[0].text
        assert "m.helper" in {e["callee"] for e in r.structured_content["edges"]}
