"""The CLI as a newcomer meets it: short names, the freshness line, `symbol` and `impact`,
`--version`, closed pipes, `deps` formatting, `lag` without back-fill, truthful "(see above)".
Real subprocesses against the ingested python_shop sample (session FalkorDB)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest

from mnemosyne import __version__
from mnemosyne import query as Q
from mnemosyne.cli.history_cmds import with_spec
from mnemosyne.ingest import ingest_path
from mnemosyne.samples import build_sample_repo

GIT_ENV = {"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@e"}


def mn(*args: str, cwd: str | Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mnemosyne.cli", *args], capture_output=True, text=True,
                          cwd=cwd, env=dict(os.environ), timeout=120, check=False)  # fmt: skip


def test_version():
    p = mn("--version")
    assert p.returncode == 0 and p.stdout.strip() == f"mnemosyne {__version__}"


@pytest.mark.slow
def test_short_and_suffix_names_as_get_symbol_takes_them(shop):
    full = json.loads(mn("calls", "shop.checkout.checkout", "--json", "-w", shop.name).stdout)
    short = mn("calls", "checkout", "--json", "-w", shop.name)
    assert short.returncode == 0, short.stderr
    assert json.loads(short.stdout)["edges"] == full["edges"] and json.loads(short.stdout)["fqn"] == full["fqn"]
    text = mn("callers", "pricing.round_money", "--depth", "2", "-w", shop.name).stdout
    assert text.startswith("callers of shop.pricing.round_money at ")
    # history: two symbols ever ended in .compute_retry_delay; the one defined at the head is meant
    hist = mn("history", "compute_retry_delay", "-w", shop.name)
    assert hist.returncode == 0 and hist.stdout.startswith("history of shop.util.retry.compute_retry_delay ")
    # several defined at the commit: an error that lists them, the same for the API
    amb = mn("calls", "get", "-w", shop.name)
    assert amb.returncode == 1 and "'get' matches 2 symbols" in amb.stderr
    assert "shop.repositories.BaseRepository.get" in amb.stderr and "Traceback" not in amb.stderr
    imp = mn("impact", "round_money", "--json", "-w", shop.name)
    assert json.loads(imp.stdout)["targets"] == ["shop.pricing.round_money"]
    # an unknown name still gets its suggestions
    p = mn("calls", "shop.checkout.chekout", "-w", shop.name)
    assert p.returncode == 1 and "did you mean shop.checkout.checkout" in p.stderr


@pytest.mark.slow
def test_symbol_and_impact(shop):
    p = mn("symbol", "checkout", "-w", shop.name)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("shop.checkout.checkout (function) at ")
    assert "shop/checkout.py:" in p.stdout and "def checkout(" in p.stdout
    data = json.loads(mn("symbol", "shop.checkout.checkout", "--json", "--no-source", "-w", shop.name).stdout)
    assert data["fqn"] == "shop.checkout.checkout" and data["source"] is None and data["callees_count"] > 0
    old = json.loads(mn("symbol", "legacy_discount", "--at", shop.step_hash("checkout"), "--json", "-w", shop.name).stdout)
    assert old["fqn"] == "shop.pricing.legacy_discount"
    many = mn("symbol", "get", "-w", shop.name)
    assert many.returncode == 1 and "2 symbols match 'get'" in many.stdout
    text = mn("impact", "round_money", "-w", shop.name).stdout
    assert "d1 symbol shop.pricing.apply_tax" in text and "d2 symbol shop.checkout.checkout" in text
    files = json.loads(mn("impact", "--file", "shop/pricing.py", "--json", "-w", shop.name).stdout)
    assert "shop.pricing.round_money" in files["targets"] and files["files"] == ["shop/pricing.py"]


@pytest.mark.slow
def test_every_query_prints_freshness_on_stderr_and_json_stays_clean(db):
    root = Path(tempfile.mkdtemp(prefix="mnq-fr-", dir="/tmp"))
    name = f"qfr_{uuid.uuid4().hex[:8]}"
    try:
        repo = build_sample_repo("python_shop", root / "shop", upto_step=4)
        ingest_path(db, repo.path, name=name, branch="main")
        clean = mn("calls", "checkout", "-w", name)
        assert clean.stderr.strip() == f"[{name}] index up to date with main; working tree clean"
        env = {**os.environ, **GIT_ENV}
        (repo.path / "new.py").write_text("def f():\n    return 1\n")
        subprocess.run(["git", "add", "new.py"], cwd=repo.path, check=True, env=env)
        subprocess.run(["git", "commit", "-q", "-m", "new"], cwd=repo.path, check=True, env=env)
        (repo.path / "README.md").write_text("changed\n")
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo.path, capture_output=True, text=True).stdout
        want = (f"[{name}] ⚠ index is behind: main has 1 commit(s) not ingested yet (head {head[:10]}); "
                "⚠ working tree differs (1 changed file(s)); answers describe committed code")
        for args in (["calls", "checkout"], ["callers", "shop.pricing.apply_tax"], ["history", "checkout"],
                     ["diff", "HEAD~2", "HEAD~1"], ["deps"], ["lag"], ["symbol", "checkout"],
                     ["impact", "checkout"], ["search", "checkout", "--mode", "keyword"]):  # fmt: skip
            p = mn(*args, "--json", "-w", name)
            assert p.returncode == 0, (args, p.stderr)
            json.loads(p.stdout)  # stdout is the JSON answer only
            assert p.stderr.strip() == want, args
        # the MCP answers say the same thing (one computation)
        from mnemosyne.mcp.service import McpService
        from mnemosyne.mcp.tools.calls import GetCalls

        svc = McpService(db.settings)
        _res, md = GetCalls()(svc, fqn="shop.checkout.checkout", workspace=name)
        assert f"⚠ index is behind: `main` has 1 commit(s) not ingested yet (head `{head[:10]}`)" in md
        assert "⚠ working tree differs (1 changed file(s)); answers describe committed code" in md
    finally:
        if db.registry.find(name) is not None:
            db.registry.remove(name, drop_graph=True)
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.slow
def test_a_closed_pipe_ends_quietly(shop):
    """`mnemosyne deps | head -1`: the reader is gone before the answer is written."""
    proc = subprocess.Popen([sys.executable, "-m", "mnemosyne.cli", "deps", "-w", shop.name],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ))  # fmt: skip
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(60) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err and "Exception ignored" not in err


def test_deps_separates_npm_versions_from_names():
    assert with_spec("ava", "1.0.0-beta.8") == "ava 1.0.0-beta.8"
    assert with_spec("left-pad", "^1.3.0") == "left-pad ^1.3.0"
    assert with_spec("requests", ">=2.31") == "requests>=2.31"
    assert with_spec("foo", "~=1.4") == "foo~=1.4"
    assert with_spec("bar", None) == "bar"


@pytest.mark.slow
def test_see_above_points_to_a_line_above(shop):
    for fqn, direction in (("shop.pricing.round_money", "callers"), ("shop.cli.main", "calls")):
        text = mn(direction, fqn, "--depth", "4", "-w", shop.name).stdout
        seen: list[str] = []
        for line in text.splitlines()[1:]:
            m = re.match(r"\s*(?:<-|->) (\S+)", line)
            if not m:
                continue
            if line.endswith("(see above)"):
                assert m.group(1) in seen, line
            elif line.endswith("(see below)"):
                assert m.group(1) not in seen, line
            else:
                seen.append(m.group(1))
        assert "(see above)" in text or direction == "calls"


@pytest.mark.slow
def test_lag_leaves_back_fill_out(shop):
    every = Q.ingestion_lag(shop.db, shop.name, 0)
    assert every.count == 0 and every.backfilled == len(shop.repo.timeline_steps)
    text = mn("lag", "--minutes", "0", "-w", shop.name).stdout
    assert text.startswith("0 commit(s)") and f"({every.backfilled} older commit(s) were back-filled" in text
    data = json.loads(mn("lag", "--minutes", "0", "--include-backfill", "--limit", "3", "--json", "-w", shop.name).stdout)
    assert data["count"] == len(shop.repo.timeline_steps) and len(data["commits"]) == 3
    assert [c["seq"] for c in data["commits"]] == [13, 14, 15]  # the latest
