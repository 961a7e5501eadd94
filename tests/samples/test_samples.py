"""Sample repositories: real git repos built from scripted histories, deterministic, with the
known facts of facts.json checked against the built trees."""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path

import pytest

from mnemosyne.deps import extract_packages, is_manifest
from mnemosyne.samples import (
    SampleRepo,
    build_sample_repo,
    list_samples,
    load_history,
    sample_facts,
    samples_dir,
)

SAMPLES = ["python_shop", "ts_notes"]


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module", params=SAMPLES)
def built(request, tmp_path_factory) -> SampleRepo:
    t = time.perf_counter()
    repo = build_sample_repo(request.param, tmp_path_factory.mktemp(request.param) / "repo")
    repo.build_seconds = time.perf_counter() - t  # type: ignore[attr-defined]
    return repo


def files_at(repo: SampleRepo, step: int) -> dict[str, str]:
    rev = repo.hash_at(step)
    names = git(repo.path, "ls-tree", "-r", "--name-only", rev).split()
    return {n: git(repo.path, "show", f"{rev}:{n}") for n in names}


def test_list_samples_and_dir():
    assert set(SAMPLES) <= set(list_samples())
    assert (samples_dir() / "python_shop" / "FACTS.md").is_file()
    with pytest.raises(KeyError):
        load_history("no_such_sample")


def test_build_is_complete(built: SampleRepo):
    # (how long the build takes is not asserted: a timed test fails on a loaded machine, 2.007 s there)
    facts = built.facts
    assert len(built.commits) == facts["steps"] == facts["commits"] >= 12
    assert [c.step for c in built.commits] == list(range(1, facts["steps"] + 1))
    # every scripted commit is reachable from main once the branch is merged
    assert int(git(built.path, "rev-list", "--count", "main")) == len(built.commits)
    assert git(built.path, "rev-parse", "--abbrev-ref", "HEAD").strip() == "main"
    assert git(built.path, "status", "--porcelain") == ""
    assert built.branch == "main" and built.head == git(built.path, "rev-parse", "main").strip()


def test_timeline_and_merge_commit(built: SampleRepo):
    facts = built.facts
    first_parent = git(built.path, "rev-list", "--first-parent", "--reverse", "main").split()
    assert first_parent == [built.hash_at(s) for s in facts["timeline_steps"]]
    assert built.timeline_steps == facts["timeline_steps"]
    merge = facts["merge"]
    parents = git(built.path, "rev-list", "--parents", "-n", "1", built.hash_at(merge["step"])).split()[1:]
    assert len(parents) == 2
    assert parents[1] == built.hash_at(merge["branch_steps"][-1])
    message = git(built.path, "log", "-1", "--format=%B", built.hash_at(merge["step"]))
    assert message.startswith(f"Merge pull request #{merge['pull_request']} from ")
    assert git(built.path, "rev-parse", merge["branch"]).strip() == built.hash_at(merge["branch_steps"][-1])


def test_dates_increase_and_authors(built: SampleRepo):
    out = git(built.path, "log", "--reverse", "--date-order", "--format=%H %at %ct %an", "main").splitlines()
    times = {line.split()[0]: (int(line.split()[1]), int(line.split()[2])) for line in out}
    seq = [times[c.hash] for c in built.commits]
    assert all(a == c for a, c in seq)  # author time == committer time
    assert [c for _, c in seq] == sorted(c for _, c in seq) and len({c for _, c in seq}) == len(seq)
    assert {line.split(" ", 3)[3] for line in out} == set(built.facts["authors"])


@pytest.mark.slow
@pytest.mark.parametrize("name", SAMPLES)
def test_deterministic_hashes(name, tmp_path):
    a = build_sample_repo(name, tmp_path / "a")
    b = build_sample_repo(name, tmp_path / "b")
    assert a.commits == b.commits
    assert {str(c.step): c.hash for c in a.commits} == a.facts["hashes"]
    part = build_sample_repo(name, tmp_path / "c", upto_step=3)
    assert part.commits == a.commits[:3]


@pytest.mark.parametrize("name", SAMPLES)
def test_facts_json_is_current(name):
    on_disk = json.loads((samples_dir() / name / "facts.json").read_text())
    computed = sample_facts(name)
    on_disk.pop("hashes")
    assert on_disk == json.loads(json.dumps(computed)), "run: python -m mnemosyne.samples --write-facts"


def test_build_refuses_a_non_empty_destination(tmp_path):
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "f").write_text("")
    with pytest.raises(FileExistsError):
        build_sample_repo("python_shop", tmp_path / "x")


def test_ticket_references_in_messages(built: SampleRepo):
    messages = {c.step: c.message for c in built.commits}
    for t in built.facts["tickets"]:
        msg = messages[t["step"]]
        assert re.search(re.escape(t["key"]) + r"\b", msg), (t, msg)
        if t.get("fixes"):
            assert re.search(r"\b(fixes|closes)\s+" + re.escape(t["key"]), msg), msg
    assert any(re.search(r"#\d+", m) for m in messages.values())
    assert any(re.search(r"\b[A-Z]+-\d+\b", m) for m in messages.values())


# --- the known facts hold in the built trees (textual checks: no parser needed) ----------------


def symbol_source(files: dict[str, str], fqn: str) -> tuple[str, str] | None:
    """(file text, short name) of the module file defining ``fqn``, else None."""
    if "/" in fqn:  # TypeScript: path.Member[.member]
        module, _, rest = fqn.partition(".")
        for ext in (".ts", ".tsx", "/index.ts"):
            if module + ext in files:
                return files[module + ext], rest.split(".")[0]
        return None
    parts = fqn.split(".")
    for i in range(len(parts) - 1, 0, -1):
        path = "/".join(parts[:i]) + ".py"
        if path in files:
            return files[path], parts[i]
    return None


def defines(files: dict[str, str], fqn: str) -> bool:
    found = symbol_source(files, fqn)
    if found is None:
        return False
    text, name = found
    return bool(re.search(rf"^\s*(?:export\s+)?(?:default\s+)?(?:def|class|function|const|abstract class)\s+{re.escape(name)}\b",
                          text, re.M))


def test_calls_removed(built: SampleRepo):
    for fact in built.facts["calls_removed"]:
        callee_name = fact["callee"].rsplit(".", 1)[1]
        before = symbol_source(files_at(built, fact["present_at_step"]), fact["caller"])
        after = symbol_source(files_at(built, fact["absent_at_step"]), fact["caller"])
        assert before and re.search(rf"\b{callee_name}\(", before[0]), fact
        assert after is None or not re.search(rf"\b{callee_name}\(", after[0]), fact
        assert fact["present_at_step"] < fact["absent_at_step"]


def test_functions_removed_and_readded(built: SampleRepo):
    for fact in built.facts["functions_removed_and_readded"]:
        assert defines(files_at(built, fact["present_at_step"]), fact["fqn"])
        assert not defines(files_at(built, fact["absent_at_step"]), fact["fqn"])
        assert defines(files_at(built, fact["readded_at_step"]), fact["fqn"])
    for fact in built.facts["functions_removed"]:
        assert defines(files_at(built, fact["present_at_step"]), fact["fqn"])
        assert not defines(files_at(built, fact["absent_at_step"]), fact["fqn"])


def test_renames_and_deletes(built: SampleRepo):
    for r in built.facts["renames"]:
        status = git(built.path, "show", "-M", "--name-status", "--format=", built.hash_at(r["step"]))
        assert re.search(rf"^R\d+\t{re.escape(r['from'])}\t{re.escape(r['to'])}$", status, re.M), status
        assert (Path(r["from"]).parent != Path(r["to"]).parent) == r["across_directories"]
        assert defines(files_at(built, r["step"] - 1), r["symbol_before"])
        assert defines(files_at(built, r["step"]), r["symbol_after"])
    assert any(r["across_directories"] for r in built.facts["renames"])
    assert any(not r["across_directories"] for r in built.facts["renames"])
    for d in built.facts["deletes"]:
        assert d["path"] in files_at(built, d["step"] - 1)
        assert d["path"] not in files_at(built, d["step"])


def test_dependency_history_through_mnemosyne_deps(built: SampleRepo):
    """The dependency added, bumped and removed, read with mnemosyne.deps at each step."""

    def package_facts(step):
        return extract_packages({p: t.encode() for p, t in files_at(built, step).items() if is_manifest(p)})

    for dep in built.facts["dependencies"]:
        def specs(step, dep=dep):
            pf = package_facts(step)
            return (
                {d.source: d.spec for d in pf.dependencies if d.name == dep["name"] and d.ecosystem == dep["ecosystem"]},
                {v.source: v.version for v in pf.locks if v.name == dep["name"]},
                pf.warnings,
            )

        added, added_locks, warnings = specs(dep["added_at_step"])
        assert warnings == []
        assert added == {src: vs[0] for src, vs in dep["specs"].items()}
        assert added_locks == {src: vs[0] for src, vs in dep["locked"].items()}
        before, _, _ = specs(dep["added_at_step"] - 1)
        assert before == {}
        if "bumped_at_step" in dep:
            bumped, bumped_locks, _ = specs(dep["bumped_at_step"])
            assert bumped == {src: vs[1] for src, vs in dep["specs"].items()}
            assert bumped_locks == {src: vs[1] for src, vs in dep["locked"].items()}
        if "removed_at_step" in dep:
            removed, removed_locks, _ = specs(dep["removed_at_step"])
            assert removed == {} and removed_locks == {}
