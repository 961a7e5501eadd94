"""The known facts of the sample histories (facts.json) as the graph tells them; `mnemosyne demo`."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from mnemosyne.ingest import ingest_workspace
from mnemosyne.samples import build_sample_repo
from mnemosyne.timeline.read import calls_at, commit_seq


@pytest.mark.slow
@pytest.mark.parametrize("name", ["python_shop", "ts_notes"])
def test_facts_json_holds_in_the_graph(db, ws, tmp_path, name):
    sample = build_sample_repo(name, tmp_path / name)
    facts = sample.facts
    info = ws(sample.path)
    ingest_workspace(db, info)
    g = db.graph(info.name)
    seq = {s: commit_seq(g, sample.hash_at(s)) for s in sample.timeline_steps}
    assert sorted(seq.values()) == list(range(len(sample.timeline_steps)))
    for s in facts.get("branch_steps", {}).values():
        for step in s:
            assert commit_seq(g, sample.hash_at(step)) is None  # feature-branch commits: not on the timeline

    def calls(step: int) -> set[tuple[str, str]]:
        return {(a, b) for a, b, *_ in calls_at(g, seq[step])}

    for c in facts["calls_present"]:
        assert (c["caller"], c["callee"]) in calls(c["at_step"]), c
    for c in facts["calls_removed"]:
        assert (c["caller"], c["callee"]) in calls(c["present_at_step"]), c
        assert (c["caller"], c["callee"]) not in calls(c["absent_at_step"]), c
    for c in facts["calls_added_by_merge"]:
        merge = c["on_timeline_at_step"]
        before = max(s for s in sample.timeline_steps if s < merge)
        assert (c["caller"], c["callee"]) in calls(merge) and (c["caller"], c["callee"]) not in calls(before)
    for t in facts["tickets"]:
        if t["step"] not in seq:
            continue
        rows = g.query(
            "MATCH (c:Commit {hash: $h})-[a:ADDRESSES]->(t:Ticket {key: $k}) RETURN a.kind",
            {"h": sample.hash_at(t["step"]), "k": t["key"]},
        )
        assert rows, t
        assert rows[0][0] == ("fixes" if t.get("fixes") else "refs"), t
    for pr in facts["pull_requests"]:
        rows = g.query("MATCH (p:PullRequest {number: $n})-[:MERGED_BY]->(c:Commit) RETURN c.hash", {"n": pr["number"]})
        assert rows == [[sample.hash_at(pr["step"])]]
    for dep in facts["dependencies"]:
        rows = g.query(
            "MATCH (:Package)-[e:DEPENDS_ON]->(:ThirdPartyPackage {key: $k}) RETURN min(e.valid_from_seq), "
            "collect(e.valid_to_seq)",
            {"k": f"{dep['ecosystem']}:{dep['name']}"},
        )
        assert rows[0][0] == seq[dep.get("on_timeline_at_step", dep["added_at_step"])]  # branch work: at the merge
        if dep.get("removed_at_step"):
            assert max(rows[0][1]) == seq[dep["removed_at_step"]] and None not in rows[0][1]


@pytest.mark.slow
def test_demo_command_runs(settings):
    env = {k: v for k, v in os.environ.items() if not k.startswith("MNEMOSYNE_")}
    p = subprocess.run([sys.executable, "-m", "mnemosyne.cli", "demo"], capture_output=True, text=True, env=env, timeout=180)
    assert p.returncode == 0, p.stderr
    assert "Q1." in p.stdout and "Q2." in p.stdout
    assert "shop.pricing.legacy_discount" in p.stdout and "Introduced at" in p.stdout
