"""Transaction time (``as_of_ingest``): what Mnemosyne believed at a wall-clock time, after the
history was rewritten (a reset + new commits, re-ingested). Real git repo, real ingester."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

from mnemosyne import query as Q
from mnemosyne.errors import RevisionNotFound, SymbolNotFound
from mnemosyne.ingest import ingest_path
from mnemosyne.store.connection import Database


def _git(repo: Path, *args: str, when: int | None = None) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "T",
           "GIT_COMMITTER_EMAIL": "t@x"}  # fmt: skip
    if when is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"@{when} +0000"
    out = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, env=env, check=True)
    return out.stdout.strip()


def _commit(repo: Path, files: dict[str, str], msg: str, when: int) -> str:
    for rel, text in files.items():
        (repo / rel).write_text(text)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", msg, when=when)
    return _git(repo, "rev-parse", "HEAD")


A0 = "def g():\n    return 1\n\n\ndef h():\n    return 2\n\n\ndef f():\n    return g() + h()\n"
A2 = A0.replace("return g() + h()", "return g() + h() + k()") + "\n\ndef k():\n    return 3\n"
A2_NEW = "def g():\n    return 1\n\n\ndef h():\n    return 2\n\n\ndef f():\n    return g()\n"


@dataclass
class Rewritten:
    db: Database
    name: str
    path: Path
    c0: str
    c1: str
    old: str  # c2 of the first history: superseded by the reset
    new2: str  # c2' of the rewritten history
    t: int  # a wall-clock time between the two ingestions


@pytest.fixture(scope="module")
def rewritten(db: Database):
    root = Path(tempfile.mkdtemp(prefix="mntt-", dir="/tmp"))
    name = f"tt_{uuid.uuid4().hex[:8]}"
    repo = root / "repo"
    repo.mkdir()
    try:
        _git(repo, "init", "-q", "-b", "main")
        base = 1_700_000_000
        c0 = _commit(repo, {"a.py": A0}, "f calls g and h", base)
        c1 = _commit(repo, {"b.py": "def b():\n    return 0\n"}, "add b", base + 60)
        old = _commit(repo, {"a.py": A2}, "f calls k too", base + 120)
        r1 = ingest_path(db, repo, name=name, branch="main")
        assert r1.last_seq == 2, r1
        t = int(time.time())
        while int(time.time()) <= t:  # every later write is stamped strictly after t
            time.sleep(0.05)
        _git(repo, "reset", "-q", "--hard", c1)
        new2 = _commit(repo, {"a.py": A2_NEW}, "f stops calling h", base + 180)
        _commit(repo, {"c.py": "def c():\n    return 5\n"}, "add c", base + 240)
        r2 = ingest_path(db, repo, name=name, branch="main")
        assert r2.last_seq == 3, r2
        yield Rewritten(db=db, name=name, path=repo, c0=c0, c1=c1, old=old, new2=new2, t=t)
    finally:
        if db.registry.find(name) is not None:
            db.registry.remove(name, drop_graph=True)
        shutil.rmtree(root, ignore_errors=True)


def callees(res: Q.CallsResult) -> set[str]:
    return {e.callee for e in res.edges}


@pytest.mark.slow
def test_superseded_commit_as_believed_then(rewritten):
    r = rewritten
    then = Q.calls(r.db, r.name, "a.f", at=r.old, as_of_ingest=r.t)
    assert callees(then) == {"a.g", "a.h", "a.k"}
    assert then.at.seq == 2 and then.at.on_timeline and not then.at.from_source
    assert then.at.as_of_ingest == r.t and then.at.superseded_at is not None and then.at.superseded_at > r.t
    assert "as believed at" in then.at.describe()
    # the same commit asked plainly: off the timeline now, answered from source
    now = Q.calls(r.db, r.name, "a.f", at=r.old[:10])
    assert now.at.from_source and now.at.seq is None and callees(now) == {"a.g", "a.h", "a.k"}
    # the head believed at t is the old commit; the head now is the rewritten history's
    assert callees(Q.calls(r.db, r.name, "a.f", as_of_ingest=r.t)) == {"a.g", "a.h", "a.k"}
    assert callees(Q.calls(r.db, r.name, "a.f")) == {"a.g"}
    assert Q.resolve_at(r.db, r.name, as_of_ingest=r.t).hash == r.old


def test_versions_closed_after_t_were_open_then(rewritten):
    """a.f -> a.h was open at t and was closed in place by c2' (ingested after t)."""
    r = rewritten
    assert callees(Q.calls(r.db, r.name, "a.f", at=r.new2)) == {"a.g"}
    assert callees(Q.calls(r.db, r.name, "a.f", at=r.c1, as_of_ingest=r.t)) == {"a.g", "a.h"}
    g = r.db.graph(r.name)
    rows = g.run_named("calls_at_commit_believed", {"fqn": "a.f", "seq": 2, "t": r.t, "late": []})
    assert "a.h" not in {row[0] for row in rows}  # without $late the in-place close would hide it
    then = Q.callers(r.db, r.name, "a.h", at=r.old, as_of_ingest=r.t)
    assert {e.caller for e in then.edges} == {"a.f"}
    assert Q.callers(r.db, r.name, "a.h").edges == []


def test_commit_ingested_after_t_is_answered_from_source(rewritten):
    r = rewritten
    res = Q.calls(r.db, r.name, "a.f", at=r.new2, as_of_ingest=r.t)
    assert res.at.from_source and not res.at.on_timeline and callees(res) == {"a.g"}


def test_get_symbol_and_callgraph_as_believed(rewritten):
    r = rewritten
    s = Q.get_symbol(r.db, r.name, "a.k", at=r.old, as_of_ingest=r.t, with_source=False)
    assert isinstance(s, Q.SymbolResult) and s.callers_count == 1 and s.at.seq == 2
    short = Q.get_symbol(r.db, r.name, "k", as_of_ingest=r.t, with_source=False)
    assert isinstance(short, Q.SymbolResult) and short.fqn == "a.k"
    with pytest.raises(Q.UnknownSymbol):
        Q.get_symbol(r.db, r.name, "a.k", with_source=False)
    # the invariant, in the belief state of t: the graph as believed at t equals a parse of the tree
    believed = Q.callgraph_at(r.db, r.name, at=r.old, as_of_ingest=r.t)
    assert believed == Q.callgraph_at(r.db, r.name, at=r.old)  # from source (superseded commit)
    assert believed["a.f"] == ["a.g", "a.h", "a.k"]
    tree = Q.call_tree(r.db, r.name, "a.f", depth=2, at=r.old, as_of_ingest=r.t)
    assert {c.fqn for c in tree.root.children} == {"a.g", "a.h", "a.k"}


def test_as_of_ingest_before_anything_was_ingested(rewritten):
    r = rewritten
    with pytest.raises(RevisionNotFound):
        Q.calls(r.db, r.name, "a.f", as_of_ingest=1_000_000_000)
    iso = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(r.t))
    assert Q.resolve_at(r.db, r.name, as_of_ingest=iso).hash == r.old


@pytest.mark.slow
def test_cli_as_of_ingest(rewritten):
    r = rewritten

    def mn(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "mnemosyne.cli", *args, "-w", r.name], capture_output=True,
                              text=True, env=dict(os.environ), timeout=120, check=False)  # fmt: skip

    p = mn("calls", "a.f", "--at", r.old[:10], "--as-of-ingest", str(r.t), "--json")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert {e["callee"] for e in data["edges"]} == {"a.g", "a.h", "a.k"} and data["at"]["seq"] == 2
    plain = json.loads(mn("calls", "a.f", "--at", r.old[:10], "--json").stdout)
    assert plain["at"]["from_source"] and plain["at"]["seq"] is None
    text = mn("callers", "a.h", "--at", r.old[:10], "--as-of-ingest", str(r.t))
    assert text.returncode == 0 and "<- a.f" in text.stdout and "as believed at" in text.stdout
    tree = mn("calls", "a.f", "--depth", "2", "--as-of-ingest", str(r.t))
    assert tree.returncode == 0 and "-> a.k" in tree.stdout


def test_symbol_history_as_believed(rewritten):
    """History in transaction time: the superseded commit's events as they were believed then."""
    r = rewritten

    def events(h: Q.HistoryResult) -> list[tuple]:
        return [(e.kind, e.seq, e.commit, tuple(sorted(e.details.get("callees") or e.details.get("callers") or [])))
                for e in h.events]

    then = Q.symbol_history(r.db, r.name, "a.f", as_of_ingest=r.t)
    assert then.as_of_ingest == r.t and then.head_seq == 2 and then.exists_at_head
    assert ("calls_gained", 2, r.old, ("a.k",)) in events(then)
    assert not any(k == "calls_lost" for k, *_ in events(then))
    now = Q.symbol_history(r.db, r.name, "a.f")
    assert now.as_of_ingest is None and now.head_seq == 3
    assert ("calls_lost", 2, r.new2, ("a.h",)) in events(now)
    assert not any(e[0] == "calls_gained" and "a.k" in e[3] for e in events(now))
    # a symbol only the superseded history had: defined then, unknown now
    k_then = Q.symbol_history(r.db, r.name, "a.k", as_of_ingest=r.t)
    assert [(e.kind, e.seq, e.commit) for e in k_then.events if e.kind == "appeared"] == [("appeared", 2, r.old)]
    assert k_then.exists_at_head
    with pytest.raises(SymbolNotFound):
        Q.symbol_history(r.db, r.name, "a.k")


def test_cli_history_as_of_ingest(rewritten):
    r = rewritten
    p = subprocess.run([sys.executable, "-m", "mnemosyne.cli", "history", "a.k", "--as-of-ingest", str(r.t), "-w", r.name],
                       capture_output=True, text=True, env=dict(os.environ), timeout=120, check=False)  # fmt: skip
    assert p.returncode == 0, p.stderr
    assert "as believed at" in p.stdout and "appeared in a.py" in p.stdout and r.old[:10] in p.stdout


def test_diff_as_believed(rewritten):
    """A diff in transaction time: a version closed by a commit ingested after T was open at T."""
    r = rewritten
    then = Q.diff_commits(r.db, r.name, r.c1, r.old, as_of_ingest=r.t)
    assert then.a.seq == 1 and then.b.seq == 2 and not then.from_source
    assert {(c.caller, c.callee) for c in then.calls_added} == {("a.f", "a.k")}
    assert then.calls_removed == []  # f -> h ended at new2, ingested after T: still held at T
    assert [s.fqn for s in then.symbols_added] == ["a.k"]
    now = Q.diff_commits(r.db, r.name, r.c1, r.new2)
    assert {(c.caller, c.callee) for c in now.calls_removed} == {("a.f", "a.h")} and now.calls_added == []
    p = subprocess.run([sys.executable, "-m", "mnemosyne.cli", "diff", r.c1[:10], r.old[:10], "--as-of-ingest", str(r.t),
                        "-w", r.name, "--json"], capture_output=True, text=True, env=dict(os.environ), timeout=120,
                       check=False)  # fmt: skip
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert [(c["caller"], c["callee"]) for c in data["calls_added"]] == [("a.f", "a.k")] and data["calls_removed"] == []
