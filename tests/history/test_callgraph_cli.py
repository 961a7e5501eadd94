"""`mnemosyne callgraph`: graph answers equal from-source answers at every timeline commit."""

from __future__ import annotations

import json

import pytest

from mnemosyne.cli import main
from mnemosyne.git import GitRepo
from mnemosyne.ingest import ingest_workspace
from mnemosyne.samples import build_sample_repo


def _cg(capsys, *args: str):
    capsys.readouterr()
    assert main(["callgraph", *args]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.slow
def test_graph_and_source_agree_on_every_commit(db, ws, tmp_path, capsys):
    sample = build_sample_repo("python_shop", tmp_path / "shop")
    info = ws(sample.path)
    ingest_workspace(db, info)
    with GitRepo(sample.path) as r:
        timeline = r.timeline_hashes(r.rev_parse("main"))
    for h in timeline:
        from_graph = _cg(capsys, "--workspace", info.name, "--at", h)
        from_src = _cg(capsys, str(sample.path), "--at", h, "--from-source")
        assert from_graph == from_src, h
    head = _cg(capsys, info.name)
    assert head == _cg(capsys, str(sample.path), "--from-source")
    assert any(head.values())

    detail = _cg(capsys, "--workspace", info.name, "--format", "json")
    assert detail["source"] == "graph" and detail["seq"] == len(timeline) - 1
    calls = [c for cs in detail["calls"].values() for c in cs]
    assert calls and all({"callee", "resolution", "confidence", "lines"} <= set(c) for c in calls)
    src_detail = _cg(capsys, str(sample.path), "--from-source", "--format", "json")
    assert src_detail["calls"] == detail["calls"]


def test_path_not_ingested_and_plain_folder(tmp_path, capsys, settings):
    sample = build_sample_repo("python_shop", tmp_path / "shop2")
    out = _cg(capsys, str(sample.path))  # not registered: parsed from the tree at HEAD
    assert out and all(isinstance(v, list) for v in out.values())
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "m.py").write_text("def a():\n    return b()\n\ndef b():\n    return len([])\n")
    out = _cg(capsys, str(plain), "--from-source")
    assert out["m.a"] == ["m.b"] and out["m.b"] == ["<builtin>.len"]
    assert main(["callgraph", str(sample.path), "--at", "no-such-rev", "--from-source"]) != 0
