"""THE INVARIANT on the sample repositories: at every timeline commit, the graph as of that commit
equals a fresh parse of that commit's tree, edge for edge; a second run changes nothing."""

from __future__ import annotations

import pytest

from mnemosyne.ingest import ingest_workspace
from mnemosyne.samples import build_sample_repo, list_samples

from .conftest import assert_invariant, canonical_dump

SAMPLES = [s for s in ("python_shop", "ts_notes") if s in list_samples()]


@pytest.mark.slow
@pytest.mark.parametrize("name", SAMPLES)
def test_every_commit_matches_a_fresh_parse(db, ws, tmp_path, name):
    sample = build_sample_repo(name, tmp_path / name)
    info = ws(sample.path, branch=sample.branch)
    res = ingest_workspace(db, info)
    timeline = sample.timeline_steps
    assert res.commits_ingested == len(timeline)
    assert res.last_seq == len(timeline) - 1
    g = db.graph(info.name)
    assert assert_invariant(g, sample.path, sample.branch) == len(timeline)

    # idempotent: running again changes nothing
    before = canonical_dump(g, volatile=("ingested_at", "updated_at"))
    again = ingest_workspace(db, info.name)
    assert again.commits_ingested == 0
    assert canonical_dump(g, volatile=("ingested_at", "updated_at")) == before


@pytest.mark.slow
@pytest.mark.parametrize("name", SAMPLES)
def test_resume_from_every_prefix_gives_the_same_graph(db, ws, tmp_path, name):
    """Ingesting step by step (the branch growing between runs) equals one run over everything."""
    full = build_sample_repo(name, tmp_path / "full")
    info_full = ws(full.path, branch=full.branch)
    ingest_workspace(db, info_full)

    grow = tmp_path / "grow"
    steps = full.timeline_steps
    part = build_sample_repo(name, grow, upto_step=steps[len(steps) // 2])
    info = ws(part.path, branch=part.branch)
    ingest_workspace(db, info)
    # replay the remaining history by fetching the full repository's main into the growing clone
    import subprocess

    subprocess.run(["git", "-C", str(grow), "fetch", "-q", str(full.path), "main"], check=True)
    subprocess.run(["git", "-C", str(grow), "reset", "-q", "--hard", "FETCH_HEAD"], check=True)
    res = ingest_workspace(db, info.name, verify=True)
    assert res.superseded == 0
    assert_invariant(db.graph(info.name), grow, "main")
    strip = ("ingested_at", "updated_at")
    a = [x for x in canonical_dump(db.graph(info_full.name), strip) if "Workspace" not in x]
    b = [x for x in canonical_dump(db.graph(info.name), strip) if "Workspace" not in x]
    assert a == b
