"""`mnemosyne calls/callers/history/diff/deps/lag` run as subprocesses against the ingested sample
(the session fixture exports MNEMOSYNE_HOME, so the child processes use the same server)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest

from mnemosyne import query as Q
from mnemosyne.errors import SymbolNotFound
from mnemosyne.ingest import ingest_path
from mnemosyne.samples import build_sample_repo


def mn(*args: str, cwd: str | Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mnemosyne.cli", *args], capture_output=True, text=True,
                          cwd=cwd, env=dict(os.environ), timeout=120, check=False)  # fmt: skip


def ok_json(*args: str, cwd: str | Path | None = None) -> dict:
    p = mn(*args, "--json", cwd=cwd)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@pytest.mark.slow
def test_calls_and_callers(shop):
    fact = shop.facts["calls_removed"][0]
    present = shop.step_hash(fact["present_at_step"])[:10]
    data = ok_json("calls", fact["caller"], "--at", present, "--workspace", shop.name)
    assert fact["callee"] in {e["callee"] for e in data["edges"]} and data["at"]["seq"] is not None
    data = ok_json("calls", fact["caller"], "-w", shop.name)
    assert fact["callee"] not in {e["callee"] for e in data["edges"]}
    data = ok_json("callers", fact["callee"], "--at", present, "-w", shop.name)
    assert fact["caller"] in {e["caller"] for e in data["edges"]}
    text = mn("calls", fact["caller"], "--at", present, "-w", shop.name)
    assert text.returncode == 0 and f"-> {fact['callee']}" in text.stdout and "seq" in text.stdout
    tree = mn("callers", "shop.pricing.round_money", "--depth", "3", "-w", shop.name)
    assert tree.returncode == 0 and "      <- shop.cli.main" in tree.stdout


@pytest.mark.slow
def test_calls_as_of_and_from_source_and_cwd(shop):
    data = ok_json("calls", "shop.checkout.checkout", "--as-of", "2024-01-10T00:00:00Z", "-w", shop.name)
    assert data["at"]["hash"] == shop.step_hash("readme")
    data = ok_json("calls", "shop.checkout.checkout", "--at", "feature/bulk-pricing", "-w", shop.name)
    assert data["from_source"] and "shop.pricing.bulk_discount" in {e["callee"] for e in data["edges"]}
    text = mn("calls", "shop.checkout.checkout", "--at", "feature/bulk-pricing", "-w", shop.name)
    assert "not on the timeline: answered from source" in text.stdout
    # the workspace is found from the current directory when --workspace is not given
    inside = mn("calls", "shop.checkout.checkout", "--json", cwd=shop.repo.path / "shop")
    assert inside.returncode == 0, inside.stderr
    assert json.loads(inside.stdout)["workspace"] == shop.name
    both = mn("calls", "x", "--at", "HEAD", "--as-of", "2024-01-01", "-w", shop.name)
    assert both.returncode == 2 and "not allowed with" in both.stderr


@pytest.mark.slow
def test_errors_exit_non_zero_with_a_message(shop):
    p = mn("calls", "shop.checkout.chekout", "-w", shop.name)
    assert p.returncode == 1 and "did you mean shop.checkout.checkout" in p.stderr
    p = mn("calls", "shop.checkout.checkout", "--at", "nope-branch", "-w", shop.name)
    assert p.returncode == 1 and "revision 'nope-branch' not found" in p.stderr
    p = mn("history", "shop.pricing.legacy_discont", "-w", shop.name)
    assert p.returncode == 1 and "shop.pricing.legacy_discount" in p.stderr
    p = mn("lag", "-w", "no_such_ws_here")
    assert p.returncode == 1 and "no_such_ws_here" in p.stderr


@pytest.mark.slow
def test_history(shop):
    fact = shop.facts["functions_removed_and_readded"][0]
    data = ok_json("history", fact["fqn"], "-w", shop.name)
    kinds = [e["kind"] for e in data["events"]]
    assert kinds.index("appeared") < kinds.index("removed") < kinds.index("re-added")
    text = mn("history", fact["fqn"], "-w", shop.name).stdout
    assert "removed from shop/notifications.py" in text and "re-added in shop/notifications.py" in text
    assert shop.step_hash(fact["readded_at_step"])[:10] in text
    moved = mn("history", "shop.util.retry.compute_retry_delay", "-w", shop.name).stdout
    assert "moved shop.retry.compute_retry_delay (shop/retry.py) -> shop.util.retry.compute_retry_delay" in moved


@pytest.mark.slow
def test_diff(shop):
    a, b = shop.step_hash("merge_bulk"), shop.step_hash("drop_legacy")
    data = ok_json("diff", a, b, "-w", shop.name)
    removed = {(c["caller"], c["callee"]) for c in data["calls_removed"]}
    assert ("shop.checkout.checkout", "shop.pricing.legacy_discount") in removed
    text = mn("diff", a[:8], b[:8], "--path-prefix", "shop/", "-w", shop.name).stdout
    assert "- shop.pricing.legacy_discount (function) shop/pricing.py" in text
    assert "- shop.checkout.checkout -> shop.pricing.legacy_discount" in text
    none = mn("diff", a, b, "--path-prefix", "docs/", "-w", shop.name).stdout
    assert "(no changes)" in none


@pytest.mark.slow
def test_deps(shop):
    data = ok_json("deps", "requests", "-w", shop.name)
    kinds = {(e["kind"], e["relation"]) for e in data["events"]}
    assert {("added", "depends"), ("spec_changed", "depends"), ("version_changed", "locks"),
            ("removed", "depends"), ("removed", "locks")} <= kinds  # fmt: skip
    text = mn("deps", "-w", shop.name).stdout
    assert "added requests>=2.31 (runtime) [pyproject.toml]" in text
    assert "lock requests 2.31.0 -> 2.32.3 [uv.lock]" in text and "removed requests>=2.32" in text
    assert "at the ingested head:" in text and "pytest>=8" in text


@pytest.mark.slow
def test_lag(shop):
    data = ok_json("lag", "--minutes", "0", "--include-backfill", "--limit", "0", "-w", shop.name)
    assert data["count"] == len(shop.repo.timeline_steps)
    text = mn("lag", "--minutes", "999999999", "-w", shop.name).stdout
    assert text.startswith("0 commit(s)")


@pytest.mark.slow
def test_status_behind_and_dirty(db):
    """list_workspaces_status: commits behind the branch head and working-tree changes."""
    root = Path(tempfile.mkdtemp(prefix="mnq-st-", dir="/tmp"))
    name = f"qst_{uuid.uuid4().hex[:8]}"
    try:
        repo = build_sample_repo("python_shop", root / "shop", upto_step=3)
        ingest_path(db, repo.path, name=name, branch="main")
        env = {**os.environ, "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "T",
               "GIT_COMMITTER_EMAIL": "t@e"}  # fmt: skip
        (repo.path / "new.py").write_text("def f():\n    return 1\n")
        subprocess.run(["git", "add", "new.py"], cwd=repo.path, check=True, env=env)
        subprocess.run(["git", "commit", "-q", "-m", "new"], cwd=repo.path, check=True, env=env)
        (repo.path / "README.md").write_text("changed\n")
        (repo.path / "scratch.txt").write_text("x\n")
        st = {s.name: s for s in Q.list_workspaces_status(db)}[name]
        assert st.commits_behind == 1 and st.branch_head != st.ingested_commit
        assert st.changed_files == ["README.md", "scratch.txt"]
        # a commit made after ingestion is not on the timeline yet: answered from source
        r = Q.calls(db, name, "shop.checkout.checkout", at="HEAD")
        assert r.from_source and r.at.on_timeline is False
        # `mnemosyne status` shows the same: ingested commit, branch head, 1 behind, 2 changed files
        text = mn("status")
        assert text.returncode == 0, text.stderr
        header = next(line for line in text.stdout.splitlines() if line.startswith("NAME"))
        assert "BRANCH HEAD" in header and "BEHIND" in header and "CHANGED" in header
        line = next(line for line in text.stdout.splitlines() if line.startswith(name + " "))
        assert st.ingested_commit[:12] in line and st.branch_head[:12] in line
        assert line.split()[6:8] == ["1", "2"], line
        data = json.loads(mn("status", "--json").stdout)
        w = next(w for w in data["workspaces"] if w["name"] == name)
        assert w["commits_behind"] == 1 and w["changed_files"] == ["README.md", "scratch.txt"]
        assert w["working_tree_dirty"] is True and w["has_graph"] is True and w["branch_head"] == st.branch_head
    finally:
        if db.registry.find(name) is not None:
            db.registry.remove(name, drop_graph=True)
        shutil.rmtree(root, ignore_errors=True)


def test_help():
    from mnemosyne.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for cmd in ("calls", "callers", "history", "diff", "deps", "lag"):
        text = sub.choices[cmd].format_help()
        assert "--workspace" in text and "--json" in text and "not implemented" not in text
    assert "--as-of" in sub.choices["calls"].format_help() and "--path-prefix" in sub.choices["diff"].format_help()


def test_rewritten_history_is_not_believed(db):
    """After a reset + new commit, the dropped commit is answered from source and its facts are gone
    from the timeline (superseded versions never match)."""
    root = Path(tempfile.mkdtemp(prefix="mnq-rw-", dir="/tmp"))
    name = f"qrw_{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "T",
           "GIT_COMMITTER_EMAIL": "t@e"}  # fmt: skip
    try:
        repo = build_sample_repo("python_shop", root / "shop", upto_step=4)
        ingest_path(db, repo.path, name=name, branch="main")
        dropped = repo.hash_at(4)  # "Add repository class hierarchy"
        assert Q.get_symbol(db, name, "shop.repository.OrderRepository").at.hash == dropped
        subprocess.run(["git", "reset", "-q", "--hard", "HEAD~1"], cwd=repo.path, check=True, env=env)
        (repo.path / "shop" / "extra.py").write_text("def extra():\n    return len([])\n")
        subprocess.run(["git", "add", "-A"], cwd=repo.path, check=True, env=env)
        subprocess.run(["git", "commit", "-q", "-m", "extra instead"], cwd=repo.path, check=True, env=env)
        ingest_path(db, repo.path, name=name, branch="main")
        head = Q.resolve_at(db, name)
        assert head.seq == 3 and head.hash != dropped
        old = Q.resolve_at(db, name, at=dropped)
        assert old.from_source and not old.on_timeline and old.seq is None
        assert Q.get_symbol(db, name, "shop.repository.OrderRepository", at=dropped).from_source
        with pytest.raises(SymbolNotFound):
            Q.get_symbol(db, name, "shop.repository.OrderRepository")
        with pytest.raises(SymbolNotFound):
            Q.symbol_history(db, name, "shop.repository.OrderRepository.save")
        assert "<builtin>.len" in {e.callee for e in Q.calls(db, name, "shop.extra.extra").edges}
        assert Q.symbol_history(db, name, "shop.extra.extra").events[0].commit == head.hash
    finally:
        if db.registry.find(name) is not None:
            db.registry.remove(name, drop_graph=True)
        shutil.rmtree(root, ignore_errors=True)


def test_a_long_signature_change_shows_the_parameters_that_differ():
    from mnemosyne.cli.history_cmds import signature_change

    old = ("(url: URLTypes, *, params: QueryParamTypes | None = None, headers: HeaderTypes | None = None, "
           "cookies: CookieTypes | None = None, auth: AuthTypes | None = None, trust_env: bool = True) -> Response")
    assert signature_change(old, old.replace("url: URLTypes", "url: URL | str")) == (
        "(url: URLTypes, …) -> (url: URL | str, …)")
    assert signature_change(old, old.replace("trust_env: bool = True", "trust_env: bool = False")) == (
        "(…, trust_env: bool = True) -> (…, trust_env: bool = False)")
    assert signature_change(old, old.replace("cookies: CookieTypes | None = None, ", "")) == (
        "(…, cookies: CookieTypes | None = None, …) -> (…)")
    assert signature_change(old, old.replace(") -> Response", ") -> Response | None")) == (
        "return Response -> Response | None")
    # brackets, strings and '->' inside a parameter do not split it; short ones are shown whole
    nested = '(self, table: dict[str, int] = {"a,b": 1}, cb: Callable[[int, str], None] = f, n=2' + ", x=0" * 20 + ")"
    assert signature_change(nested, nested.replace("n=2", "n=3")) == "(…, n=2, …) -> (…, n=3, …)"
    assert signature_change("(a)", "(a, b)") == "(a) -> (a, b)"
    assert signature_change(None, "(a)") == "(none) -> (a)"
