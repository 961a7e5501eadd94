from __future__ import annotations

import numpy as np
import pytest

from mnemosyne.config import Settings
from mnemosyne.search.embedders import LocalEmbedder, OpenAIEmbedder, get_embedder
from mnemosyne.search.errors import EmbeddingDimensionMismatch, EmbeddingError
from mnemosyne.search.model_files import TOKENIZER_SHA256, sha256_file


def test_tokenizer_is_fetched_and_verified(tokenizer_json):
    assert sha256_file(tokenizer_json) == TOKENIZER_SHA256


def test_semantic_ordering_is_real(embedder: LocalEmbedder):
    v = embedder.embed(["def add(a, b): return a + b", "sum two numbers", "parse an XML document",
                        "def compute_retry_delay(attempt): return 0.5 * 2 ** attempt", "how long to wait before retrying"])
    assert v.shape == (5, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert v[0] @ v[1] > v[0] @ v[2]
    assert v[3] @ v[4] > v[3] @ v[2]


def test_batching_and_order_do_not_change_vectors(embedder: LocalEmbedder):
    texts = ["short", "a much longer text about retries and exponential backoff " * 5, ""]
    a = embedder.embed(texts)
    b = np.vstack([embedder.embed([t]) for t in texts])
    assert np.allclose(a, b, atol=1e-5)


def test_token_count_and_truncate_use_the_real_tokenizer(embedder: LocalEmbedder):
    assert embedder.count_tokens("compute_retry_delay") == 2 + 6  # compute _ re ##try _ delay
    long = "retry delay " * 400
    cut = embedder.truncate(long)
    assert embedder.count_tokens(cut) <= embedder.max_tokens
    assert long.startswith(cut) and len(cut) < len(long)
    assert embedder.truncate("tiny") == "tiny"


def test_openai_path_offline_via_loopback(embedder, openai_stub):
    url, state = openai_stub
    oa = OpenAIEmbedder("all-MiniLM-L6-v2", dim=384, base_url=url, request_token_budget=40, max_batch=3)
    texts = ["def add(a, b): return a + b", "sum two numbers", "parse an XML document", "retry later", "x"]
    before = len(state.requests)
    got = oa.embed(texts)
    assert np.allclose(got, embedder.embed(texts), atol=1e-5)
    sent = state.requests[before:]
    assert len(sent) >= 2 and all(len(r["input"]) <= 3 for r in sent)  # batched under the budget
    assert sum(len(r["input"]) for r in sent) == len(texts)


def test_openai_rate_limit_is_retried_with_backoff(openai_stub):
    url, state = openai_stub
    sleeps: list[float] = []
    oa = OpenAIEmbedder("m", dim=384, base_url=url, backoff_base_s=0.01, sleep=sleeps.append)
    state.fail_next, state.retry_after = 2, None
    v = oa.embed(["hello"])
    assert v.shape == (1, 384) and oa.retries == 2 and len(sleeps) == 2
    state.fail_next, state.retry_after = 2, "0.05"
    oa.embed(["hello"])
    assert sleeps[-1] == pytest.approx(0.05)
    state.fail_next = 10
    oa2 = OpenAIEmbedder("m", dim=384, base_url=url, max_retries=1, sleep=lambda s: None)
    with pytest.raises(EmbeddingError, match="rate-limited"):
        oa2.embed(["hello"])
    state.fail_next = 0


def test_openai_dimension_checked_and_learned(openai_stub):
    url, _ = openai_stub
    with pytest.raises(EmbeddingDimensionMismatch):
        OpenAIEmbedder("m", dim=1536, base_url=url).embed(["x"])
    assert OpenAIEmbedder("some-local-model", base_url=url).dim == 384


def test_openai_down_server_is_a_typed_error():
    oa = OpenAIEmbedder("m", dim=384, base_url="http://127.0.0.1:9/v1", timeout_s=2, sleep=lambda s: None)
    with pytest.raises(EmbeddingError, match="unavailable"):
        oa.embed(["x"])


def test_get_embedder_by_settings(tmp_path, openai_stub, tokenizer_json):
    url, _ = openai_stub
    assert get_embedder(Settings(home=tmp_path, embeddings_provider="none")) is None
    oa = get_embedder(Settings(home=tmp_path, embeddings_provider="openai", embeddings_base_url=url,
                               embeddings_model="mini", embeddings_dim=384))
    assert isinstance(oa, OpenAIEmbedder) and oa.dim == 384
    local = get_embedder(Settings(home=tmp_path, embeddings_provider="local"))
    assert isinstance(local, LocalEmbedder) and local.dim == 384


def test_batches_group_similar_lengths_under_the_budget(embedder: LocalEmbedder):
    lengths = [300, 3, 40, 256, 8, 120, 256, 5, 60, 200] * 7
    plan = embedder.plan_batches(lengths)
    assert sorted(i for b in plan for i in b) == list(range(len(lengths)))  # every text once
    for b in plan:
        longest = max(lengths[i] for i in b)
        assert len(b) <= embedder.max_batch
        assert len(b) == 1 or len(b) * longest * longest <= embedder.batch_budget
    flat = [lengths[i] for b in plan for i in b]
    assert flat == sorted(flat)  # shortest first: each batch pads to little more than its own texts
    assert len(plan[0]) > 8 * len(plan[-1])  # many short texts per batch, few long ones


def test_small_budget_same_vectors_in_callers_order(tokenizer_json):
    texts = [f"def f{i}(x): return x * {i}  # " + "word " * (i * 7) for i in range(12)][::-1]
    big = LocalEmbedder(tokenizer_json, max_batch=64)
    small = LocalEmbedder(tokenizer_json, max_batch=3, batch_budget=2000)
    assert len(small.plan_batches([len(x) for x in small.encode(texts)])) > 4
    assert np.allclose(big.embed(texts), small.embed(texts), atol=1e-5)
    assert np.allclose(small.embed(texts[5:6])[0], small.embed(texts)[5], atol=1e-5)
