"""mnemosyne.git: the one-call timeline, blobs through cat-file, trees, refs; commit messages."""

from __future__ import annotations

import pytest

from mnemosyne.errors import RevisionNotFound
from mnemosyne.git import GitRepo, NotAGitRepository
from mnemosyne.git.messages import pull_request, tickets


def test_timeline_changes_renames_numstat_and_merges(make_repo):
    repo = make_repo()
    repo.write("a/x.py", "1\n2\n3\n")
    repo.write("keep.txt", "k\n")
    c0 = repo.commit("root")
    repo.mv("a/x.py", "b/c/x.py")
    repo.write("b/c/x.py", "1\n2\n3\n4\n")
    repo.write("bin.dat", b"\x00\x01\x02")
    c1 = repo.commit("move")
    repo.git("checkout", "-q", "-b", "side")
    repo.write("side.py", "s\n")
    side = repo.commit("side work")
    repo.git("checkout", "-q", "main")
    repo.rm("keep.txt")
    repo.commit("drop")
    repo.git("merge", "-q", "--no-ff", "side", "-m", "Merge branch side")
    with GitRepo(repo.path) as g:
        head = g.rev_parse("main")
        log = g.log(head)
        assert [c.hash for c in log] == g.timeline_hashes(head) == repo.timeline()
        assert side not in [c.hash for c in log]
        assert log[0].hash == c0 and log[0].parents == []
        assert {(ch.status, ch.path) for ch in log[0].changes} == {("A", "a/x.py"), ("A", "keep.txt")}
        mv = {ch.path: ch for ch in log[1].changes}
        assert mv["b/c/x.py"].status == "R" and mv["b/c/x.py"].old_path == "a/x.py"
        assert (mv["b/c/x.py"].lines_added, mv["b/c/x.py"].lines_removed) == (1, 0)
        assert mv["bin.dat"].lines_added is None  # binary
        assert g.read_blob(mv["b/c/x.py"].new_blob) == b"1\n2\n3\n4\n"
        assert [(ch.status, ch.path) for ch in log[2].changes] == [("D", "keep.txt")]
        merge = log[3]
        assert len(merge.parents) == 2 and [(ch.status, ch.path) for ch in merge.changes] == [("A", "side.py")]
        assert g.log(head, since=c1)[0].message == "drop"
        assert g.log(head, max_count=1)[0].hash == head
        entries, subs = g.ls_tree(head)
        assert {e.path for e in entries} == {"b/c/x.py", "bin.dat", "side.py"} and subs == []
        assert g.rev_parse("HEAD~1") == log[2].hash
        with pytest.raises(RevisionNotFound):
            g.rev_parse("does-not-exist")
        assert not g.is_shallow() and g.current_branch() == "main"


def test_odd_paths_and_empty_repo(make_repo, tmp_path):
    repo = make_repo()
    assert GitRepo(repo.path).is_empty()
    repo.write("dir with space/ünïcode.py", "x = 1\n")
    repo.write("tab\tname.py", "y = 2\n")
    repo.commit("odd")
    with GitRepo(repo.path) as g:
        assert not g.is_empty()
        paths = {ch.path for ch in g.log(g.rev_parse("main"))[0].changes}
        assert paths == {"dir with space/ünïcode.py", "tab\tname.py"}
    with pytest.raises(NotAGitRepository):
        GitRepo(tmp_path / "nowhere")


def test_ticket_and_pull_request_parsing():
    assert pull_request("Merge pull request #12 from a/b\n\nNice title") .number == 12
    assert pull_request("Merge pull request #12 from a/b\n\nNice title").title == "Nice title"
    pr = pull_request("Add thing (#34)")
    assert pr.number == 34 and pr.title == "Add thing"
    assert pull_request("Fix #3") is None
    refs = {t.key: t.kind for t in tickets("Fixes #3 and closes #4, see #5, JIRA-77; UTF-8 SHA-256 (#34)", pr)}
    assert refs == {"#3": "fixes", "#4": "fixes", "#5": "refs", "JIRA-77": "refs"}
    assert tickets("no refs here, color #fff or a/b#2") == []
