"""The known facts of the sample histories, checked against the real extractor at each step
(a fresh parse of the tree of the step's commit: what the graph must answer "at commit X")."""

from __future__ import annotations

import subprocess

import pytest

from mnemosyne.samples import SampleRepo, build_sample_repo

pytest.importorskip("mnemosyne.resolve.python")
pytest.importorskip("mnemosyne.resolve.typescript")

from mnemosyne.callgraph import call_graph  # noqa: E402
from mnemosyne.extract import extract_tree  # noqa: E402


class Trees:
    def __init__(self, repo: SampleRepo) -> None:
        self.repo = repo
        self._cache: dict[int, tuple] = {}

    def at(self, step: int):
        if step not in self._cache:
            rev = self.repo.hash_at(step)
            git = ["git", "-C", str(self.repo.path)]
            names = subprocess.run([*git, "ls-tree", "-r", "--name-only", rev], check=True,
                                   capture_output=True, text=True).stdout.split()
            files = [(n, subprocess.run([*git, "show", f"{rev}:{n}"], check=True, capture_output=True).stdout)
                     for n in names]
            snap = extract_tree(files)
            self._cache[step] = (call_graph(snap), snap)  # the graph's names
        return self._cache[step]

    def calls(self, step: int, caller: str, callee: str) -> bool:
        return callee in self.at(step)[0].get(caller, [])

    def defines(self, step: int, fqn: str) -> bool:
        return any(s.fqn == fqn for ff in self.at(step)[1].files.values() for s in ff.symbols)


@pytest.fixture(scope="module", params=["python_shop", "ts_notes"])
def trees(request, tmp_path_factory) -> Trees:
    return Trees(build_sample_repo(request.param, tmp_path_factory.mktemp(request.param) / "repo"))


def test_calls_removed_and_present(trees: Trees):
    f = trees.repo.facts
    for c in f["calls_removed"]:
        assert trees.calls(c["present_at_step"], c["caller"], c["callee"]), c
        assert not trees.calls(c["absent_at_step"], c["caller"], c["callee"]), c
    for c in f["calls_present"]:
        assert trees.calls(c["at_step"], c["caller"], c["callee"]), c


def test_call_arrives_with_the_merge(trees: Trees):
    timeline = trees.repo.timeline_steps
    for c in trees.repo.facts["calls_added_by_merge"]:
        merge = c["on_timeline_at_step"]
        before = timeline[timeline.index(merge) - 1]
        assert trees.calls(c["committed_at_step"], c["caller"], c["callee"])
        assert trees.calls(merge, c["caller"], c["callee"])
        assert not trees.calls(before, c["caller"], c["callee"])


def test_symbols_removed_readded_renamed(trees: Trees):
    f = trees.repo.facts
    for c in f["functions_removed_and_readded"]:
        assert trees.defines(c["present_at_step"], c["fqn"])
        assert not trees.defines(c["absent_at_step"], c["fqn"])
        assert trees.defines(c["readded_at_step"], c["fqn"])
    for c in f["renames"]:
        assert trees.defines(c["step"] - 1, c["symbol_before"])
        assert trees.defines(c["step"], c["symbol_after"])
        assert not trees.defines(c["step"], c["symbol_before"])


def test_inheritance(trees: Trees):
    for c in trees.repo.facts["inherits"]:
        snap = trees.at(c["at_step"])[1]
        assert any(i.child == c["child"] and i.parent == c["parent"]
                   for ff in snap.files.values() for i in ff.inherits), c
