"""Edge cases with defined behaviour (docs/schema.md, "Ingestion details")."""

from __future__ import annotations

import subprocess
import time

import pytest

from mnemosyne.errors import RevisionNotFound
from mnemosyne.ingest import ingest_path, ingest_workspace

from .conftest import assert_invariant

PY = "def {n}():\n    return {c}()\n"


def test_empty_repository(db, registry, make_repo):
    repo = make_repo("empty")
    res = ingest_path(db, repo.path, name="h_empty_repo")
    assert res.commits_ingested == 0 and res.last_seq is None
    assert "no commits" in res.message
    assert db.graph("h_empty_repo").query("MATCH (c:Commit) RETURN count(c)") in ([[0]], [])
    # the first commit later is ingested normally
    repo.write("a.py", PY.format(n="a", c="len"))
    repo.commit("first")
    assert ingest_workspace(db, "h_empty_repo").commits_ingested == 1
    assert_invariant(db.graph("h_empty_repo"), repo.path)


def test_single_commit(db, ws, make_repo):
    repo = make_repo()
    repo.write("m.py", PY.format(n="f", c="g") + "\n" + PY.format(n="g", c="len"))
    repo.commit("only")
    info = ws(repo.path)
    res = ingest_workspace(db, info)
    assert res.commits_ingested == 1 and res.last_seq == 0
    assert assert_invariant(db.graph(info.name), repo.path) == 1


def test_shallow_clone(db, ws, make_repo, tmp_path):
    repo = make_repo()
    for i in range(6):
        repo.write(f"m{i}.py", PY.format(n=f"f{i}", c=f"f{i - 1}" if i else "len"))
        repo.commit(f"c{i}")
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "3", f"file://{repo.path}", str(shallow)], check=True)
    info = ws(shallow)
    res = ingest_workspace(db, info)
    assert res.commits_ingested == 3
    assert any("shallow" in w for w in res.warnings)
    assert assert_invariant(db.graph(info.name), shallow) == 3


def test_detached_head_uses_registered_branch(db, ws, make_repo):
    repo = make_repo()
    for i in range(3):
        repo.write("m.py", "".join(PY.format(n=f"f{j}", c="len") + "\n" for j in range(i + 1)))
        repo.commit(f"c{i}")
    repo.git("checkout", "-q", "--detach", "HEAD~2")
    info = ws(repo.path, branch="main")
    res = ingest_workspace(db, info)
    assert res.commits_ingested == 3 and res.branch == "main"
    assert_invariant(db.graph(info.name), repo.path, "main")


def test_detached_head_without_branch_tracks_head(db, registry, make_repo):
    repo = make_repo()
    for i in range(3):
        repo.write("m.py", PY.format(n=f"f{i}", c="len"))
        repo.commit(f"c{i}")
    repo.git("checkout", "-q", "--detach", "HEAD~1")
    res = ingest_path(db, repo.path, name="h_detached")
    assert res.branch == "HEAD" and res.commits_ingested == 2
    assert any("detached" in w for w in res.warnings)
    assert_invariant(db.graph("h_detached"), repo.path, "HEAD")


def test_missing_branch_is_a_clear_error(db, ws, make_repo):
    repo = make_repo()
    repo.write("a.py", "x = 1\n")
    repo.commit("a")
    info = ws(repo.path, branch="main")
    repo.git("branch", "-q", "-m", "main", "trunk")
    with pytest.raises(RevisionNotFound, match="branch 'main'"):
        ingest_workspace(db, info)


def test_submodule_is_skipped_with_a_warning(db, ws, make_repo):
    sub = make_repo("sub")
    sub.write("lib.py", "def lib():\n    pass\n")
    sub_head = sub.commit("lib")
    repo = make_repo("super")
    repo.write("app.py", "def app():\n    pass\n")
    repo.commit("app")
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{sub_head},vendor/lib")
    repo.write(".gitmodules", f'[submodule "vendor/lib"]\n\tpath = vendor/lib\n\turl = {sub.path}\n')
    repo.git("add", ".gitmodules")
    repo.git("commit", "-q", "-m", "add submodule")  # not commit(): `add -A` would drop the gitlink
    info = ws(repo.path)
    res = ingest_workspace(db, info)
    assert res.commits_ingested == 2
    assert any("vendor/lib" in w and "submodule" in w for w in res.warnings)
    g = db.graph(info.name)
    assert g.query("MATCH (f:File {path: 'vendor/lib'}) RETURN count(f)") == [[0]]
    assert_invariant(g, repo.path)


def test_lfs_pointer_is_skipped(db, ws, make_repo):
    repo = make_repo()
    repo.write("big.py", "version https://git-lfs.github.com/spec/v1\noid sha256:" + "a" * 64 + "\nsize 123456\n")
    repo.write("ok.py", "def ok():\n    pass\n")
    repo.commit("lfs")
    info = ws(repo.path)
    res = ingest_workspace(db, info)
    assert any("big.py" in w and "LFS" in w for w in res.warnings)
    g = db.graph(info.name)
    assert g.query("MATCH (:File {path: 'big.py'})-[e:DEFINES]->() RETURN count(e)") == [[0]]
    assert_invariant(g, repo.path)


def test_rename_across_directories(db, ws, make_repo):
    repo = make_repo()
    repo.write("pkg/__init__.py", "")
    repo.write("pkg/util.py", "def helper():\n    return 1\n")
    repo.write("pkg/app.py", "from pkg.util import helper\n\ndef run():\n    return helper()\n")
    repo.commit("start")
    repo.write("lib/__init__.py", "")
    repo.mv("pkg/util.py", "lib/tools/util.py")
    repo.write("lib/tools/__init__.py", "")
    repo.commit("move util")  # app.py unchanged: its call into pkg.util.helper must end
    repo.write("pkg/app.py", "from lib.tools.util import helper\n\ndef run():\n    return helper()\n")
    repo.commit("follow")
    info = ws(repo.path)
    ingest_workspace(db, info)
    g = db.graph(info.name)
    assert assert_invariant(g, repo.path) == 3
    rows = g.query(
        "MATCH (c:Commit {seq: 1})-[m:MODIFIES]->(f:File {path: 'lib/tools/util.py'}) RETURN m.change_type, m.old_path"
    )
    assert rows == [["R", "pkg/util.py"]]


def test_file_changes_language_js_to_ts(db, ws, make_repo):
    repo = make_repo()
    repo.write("src/util.js", "export function slug(s) { return s.trim(); }\n")
    repo.write("src/main.ts", "import { slug } from './util';\nexport function go(): string { return slug(' x '); }\n")
    repo.commit("js")
    repo.mv("src/util.js", "src/util.ts")
    repo.write("src/util.ts", "export function slug(s: string): string { return s.trim(); }\n")
    repo.commit("to ts")
    info = ws(repo.path)
    ingest_workspace(db, info)
    g = db.graph(info.name)
    assert assert_invariant(g, repo.path) == 2
    lang = g.query("MATCH (f:File {path: 'src/util.ts'}) RETURN f.language")
    assert lang and lang[0][0] in ("typescript", "tsx")


def test_non_utf8_message_and_tickets(db, ws, make_repo):
    repo = make_repo()
    repo.write("a.py", "x = 1\n")
    repo.commit(b"caf\xe9: fixes #12, see SHOP-7 and UTF-8\n\nbody \xff\n")
    repo.write("a.py", "x = 2\n")
    repo.commit("Squash feature (#31)")
    repo.git("checkout", "-q", "-b", "feat")
    repo.write("b.py", "def b():\n    pass\n")
    repo.commit("feature work")
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-ff", "feat", "-m", "Merge pull request #40 from me/feat\n\nAdd b")
    info = ws(repo.path)
    res = ingest_workspace(db, info)
    assert res.commits_ingested == 3  # the merge is one step; the feature commit is not on the timeline
    g = db.graph(info.name)
    msg = g.query("MATCH (c:Commit {seq: 0}) RETURN c.message")[0][0]
    # git re-encodes a non-UTF-8 message for output (Latin-1 guess); anything left is replaced
    assert msg.startswith("caf") and msg[3] in ("\ufffd", "\u00e9") and msg[4:].startswith(": fixes #12")
    tickets = dict(g.query("MATCH (:Commit {seq: 0})-[a:ADDRESSES]->(t:Ticket) RETURN t.key, a.kind"))
    assert tickets == {"#12": "fixes", "SHOP-7": "refs"}
    prs = g.query("MATCH (p:PullRequest)-[:MERGED_BY]->(c:Commit) RETURN p.number, p.title, c.seq ORDER BY c.seq")
    assert prs == [[31, "Squash feature", 1], [40, "Add b", 2]]
    assert g.query("MATCH (c:Commit {seq: 2})-[:PARENT]->(p) RETURN count(p)") == [[2]]
    assert_invariant(g, repo.path)


def test_identical_and_out_of_order_timestamps(db, ws, make_repo):
    repo = make_repo()
    times = [1_700_000_000, 1_700_000_000, 1_699_000_000, 1_700_000_000]
    for i, t in enumerate(times):
        repo.write("m.py", "".join(PY.format(n=f"f{j}", c=f"f{j - 1}" if j else "len") + "\n" for j in range(i + 1)))
        repo.commit(f"c{i}", when=t)
    info = ws(repo.path)
    ingest_workspace(db, info)
    g = db.graph(info.name)
    assert assert_invariant(g, repo.path) == 4
    rows = g.query("MATCH (c:Commit) RETURN c.seq, c.timestamp ORDER BY c.seq")
    assert rows == [[i, t] for i, t in enumerate(times)]
    started = g.query(
        "MATCH (:File {path: 'm.py'})-[e:DEFINES]->(:Function {fully_qualified_name: 'm.f2'}) "
        "RETURN e.valid_from_seq, e.valid_from"
    )
    assert started == [[2, 1_699_000_000]]


@pytest.mark.slow
def test_commit_touching_10000_files(db, ws, make_repo):
    repo = make_repo()
    repo.write("pkg/__init__.py", "")
    repo.commit("init")
    for i in range(10_000):
        repo.write(f"pkg/m{i // 100}/f{i}.py", f"def a{i}():\n    return b{i}()\n\ndef b{i}():\n    return {i}\n")
    for d in range(100):
        repo.write(f"pkg/m{d}/__init__.py", "")
    repo.commit("huge")
    repo.write("pkg/m0/f0.py", "def a0():\n    return 0\n")
    repo.commit("small")
    info = ws(repo.path)
    t = time.monotonic()
    res = ingest_workspace(db, info)
    took = time.monotonic() - t
    assert res.commits_ingested == 3 and res.files_parsed >= 10_000
    assert took < 240, f"10,000-file commit took {took:.0f}s"
    g = db.graph(info.name)
    assert g.query("MATCH ()-[e:CALLS]->() WHERE e.valid_to_seq IS NULL RETURN count(e)") == [[9_999]]
    assert_invariant(g, repo.path, seqs=[2])


def test_two_ingesters_never_write_one_graph_at_once(db, ws, make_repo):
    from mnemosyne.ingest import IngestBusy, _Lock

    repo = make_repo()
    repo.write("a.py", "x = 1\n")
    repo.commit("a")
    info = ws(repo.path)
    other = _Lock(db, info.name)
    other.value = "some-other-host:1:abc"  # a live holder elsewhere
    other.acquire()
    try:
        with pytest.raises(IngestBusy, match="being ingested by another process"):
            ingest_workspace(db, info)
    finally:
        db.execute("DEL", other.key)
    # a lease left by a dead process on this host is taken over
    dead = subprocess.Popen(["true"])
    dead.wait()
    db.execute("SET", other.key, f"{other.host}:{dead.pid}:zzz", "PX", 60_000)
    assert ingest_workspace(db, info).commits_ingested == 1
    assert db.execute("GET", other.key) is None


def test_non_utf8_file_name(db, ws, make_repo):
    repo = make_repo()
    (repo.path / "pkg").mkdir()
    (repo.path / "pkg" / "__init__.py").write_bytes(b"")
    (repo.path / "pkg" / b"caf\xe9.py".decode("utf-8", "surrogateescape")).write_bytes(b"def f():\n    return 1\n")
    repo.write("pkg/ok.py", 'def g():\n    """doc"""\n    return 2\n')
    repo.commit("odd name")
    info = ws(repo.path)
    res = ingest_workspace(db, info)
    assert res.commits_ingested == 1
    g = db.graph(info.name)
    names = [r[0] for r in g.query("MATCH (f:File) RETURN f.path")]
    assert any(n.startswith("pkg/caf") and "\ufffd" in n for n in names)
    assert_invariant(g, repo.path)


def test_file_becomes_symlink_and_back(db, ws, make_repo):
    import os

    repo = make_repo()
    repo.write("real.py", "def real():\n    return 1\n")
    repo.write("alias.py", "def alias():\n    return real()\n")
    repo.commit("two files")
    (repo.path / "alias.py").unlink()
    os.symlink("real.py", repo.path / "alias.py")
    repo.commit("alias becomes a symlink")  # type change T: no longer a source file
    (repo.path / "alias.py").unlink()
    repo.write("alias.py", "def alias2():\n    return 2\n")
    repo.commit("and a file again")
    info = ws(repo.path)
    ingest_workspace(db, info)
    g = db.graph(info.name)
    assert assert_invariant(g, repo.path) == 3
    assert g.query("MATCH (:Commit {seq: 1})-[m:MODIFIES]->(:File {path: 'alias.py'}) RETURN m.change_type") == [["T"]]


def test_symbol_node_properties_follow_edits_above_them(db, ws, make_repo, tmp_path):
    """Node properties are written as deltas (an edit above a function sends its new line range
    only): after a history they equal what a head-only ingest of the last commit writes."""
    repo = make_repo("nodeprops")
    body = 'def helper(x):\n    """Help with x."""\n    return x\n\n\nclass Box:\n    """A box."""\n\n    def get(self):\n        return helper(1)\n'
    repo.write("app.py", body)
    repo.commit("start")
    repo.write("app.py", "import os\n\n\ndef first():\n    return os.getcwd()\n\n\n" + body)
    repo.commit("add a function above")
    repo.write("app.py", "import os\n\n\ndef first():\n    return os.getcwd()\n\n\n" + body.replace("Help with x.", "Help with y."))
    repo.commit("docstring")
    full = ws(repo.path)
    ingest_workspace(db, full)
    clone = tmp_path / "nodeprops-clone"
    subprocess.run(["git", "clone", "-q", str(repo.path), str(clone)], check=True)
    head = ws(clone)
    ingest_workspace(db, head, head_only=True)
    q = ("MATCH (n) WHERE n:Function OR n:Class OR n:File "
         "RETURN coalesce(n.fully_qualified_name, n.path), properties(n) ORDER BY coalesce(n.fully_qualified_name, n.path)")
    got = {k: p for k, p in db.graph(full.name).query(q)}
    want = {k: p for k, p in db.graph(head.name).query(q)}
    assert got == want
    assert got["app.helper"]["line_start"] == 8 and got["app.helper"]["docstring"] == "Help with y."
    assert got["app.Box.get"]["line_start"] == 16
