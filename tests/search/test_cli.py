"""`mnemosyne search`, `mnemosyne embed`, `mnemosyne models` as a user runs them (subprocesses
against the session's embedded FalkorDB, found through the exported MNEMOSYNE_* variables)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

RUN = "import sys; from mnemosyne.cli import main; sys.exit(main())"


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    import os

    return subprocess.run([sys.executable, "-c", RUN, *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})  # fmt: skip


@pytest.mark.slow
def test_cli_search_json_and_text(shop, settings):
    name, _ = shop
    p = cli("search", "where", "is", "the", "retry", "delay", "computed", "--workspace", name, "--kind", "function", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    top = out["results"][0]
    assert top["key"] == "shop.util.retry.compute_retry_delay" and top["file"] == "shop/util/retry.py" and top["line"]
    p = cli("search", "retry delay", "-w", name, "--mode", "keyword", "--limit", "3")
    assert p.returncode == 0, p.stderr
    assert "shop.util.retry.compute_retry_delay" in p.stdout and "shop/util/retry.py:" in p.stdout
    p = cli("search", "retry helper", "-w", name, "--kind", "commit", "--json")
    assert json.loads(p.stdout)["results"][0]["kind"] == "commit"
    p = cli("search", "x", "-w", name, "--kind", "bogus")
    assert p.returncode != 0 and "unknown kind" in p.stderr


@pytest.mark.slow
def test_cli_embed_is_incremental(shop, settings):
    name, _ = shop
    p = cli("embed", "--workspace", name, "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["embeddings"]["embedded"] == 0 and out["embeddings"]["unchanged"] > 0


def test_cli_models_status(settings, tokenizer_json):
    p = cli("models", "status")
    assert p.returncode == 0, p.stderr
    assert "tokenizer.json" in p.stdout and "model.onnx" in p.stdout


@pytest.mark.slow
def test_cli_ingest_embeds_with_progress_and_search_falls_back_before(settings, tmp_path, tokenizer_json):
    """`ingest` embeds what it ingested, with a progress line; before that (setting
    embed_on_ingest off) semantic and hybrid answer keyword results and say why instead of '0 results'."""
    import uuid

    from mnemosyne.samples import build_sample_repo

    repo = build_sample_repo("python_shop", tmp_path / "python_shop")
    name = f"ie_{uuid.uuid4().hex[:8]}"
    p = cli("ingest", str(repo.path), "--name", name, env={"MNEMOSYNE_EMBED_ON_INGEST": "false"})  # the setting
    assert p.returncode == 0, p.stderr
    assert "embedding" not in p.stderr and "embedded" not in p.stdout
    p = cli("search", "compute_retry_delay", "-w", name, "--mode", "semantic", "--no-embed", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["mode"] == "keyword" and out["results"] and "nothing is embedded" in " ".join(out["warnings"])
    p = cli("ingest", name)
    assert p.returncode == 0, p.stderr
    line = [x for x in p.stderr.splitlines() if "embedding" in x][-1]
    assert f"[{name}] embedding " in line and "/s" in line and "ETA" in line
    total = int(line.split("embedding ")[1].split("/")[0])
    assert total > 0 and f"embedded {total} texts" in p.stdout
    p = cli("search", "how long to wait before trying a payment again", "-w", name, "--mode", "semantic", "--json")
    out = json.loads(p.stdout)
    assert out["mode"] == "semantic" and out["results"] and not out["warnings"]
    p = cli("ingest", name)  # nothing changed: nothing re-embedded
    assert p.returncode == 0 and "embedded 0 texts" in p.stdout, p.stdout + p.stderr
    cli("workspace", "remove", name)


@pytest.mark.slow
def test_cli_init_embeds_the_head_it_ingests(settings, tmp_path, tokenizer_json):
    import uuid

    from mnemosyne.samples import build_sample_repo

    repo = build_sample_repo("python_shop", tmp_path / "python_shop")
    name = f"ii_{uuid.uuid4().hex[:8]}"
    p = cli("init", str(repo.path), "--agent", "claude-code", "--no-daemon", "--name", name)
    assert p.returncode == 0, p.stderr
    # the texts are those of the ingest test's sample: embedded there, taken from the cache here
    assert "embedded for semantic search: " in p.stderr, p.stderr
    p = cli("search", "how long to wait before trying a payment again", "-w", name, "--mode", "semantic", "--json",
            "--no-embed")  # fmt: skip
    out = json.loads(p.stdout)
    assert out["mode"] == "semantic" and out["results"] and not out["warnings"]
    cli("workspace", "remove", name)
