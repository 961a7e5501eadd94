from __future__ import annotations

import subprocess

import numpy as np
import pytest

from mnemosyne.search.backfill import EmbeddingCache, GitBodyReader, backfill, embedded_count
from mnemosyne.search.doc_store import apply_docs
from mnemosyne.search.embedders import OpenAIEmbedder
from mnemosyne.search.vectors import get_model_info, knn, rebuild_vector_indexes, vector_indexes

DOC = {"docs/retry.md": b"# Retries\n\nThe wait is computed by `compute_retry_delay`.\n"}


@pytest.mark.slow
def test_backfill_embeds_once_then_reuses(code_graph, db, embedder, tmp_path):
    g = code_graph
    apply_docs(g, 1, "c1", 2000, DOC)
    cache = EmbeddingCache(tmp_path / "emb.sqlite")
    r1 = backfill(db, g.workspace, embedder, cache=cache)
    # 7 functions (module has a docstring; external and deleted-but-defined are included) ...
    assert r1.embedded == r1.written + r1.sentences and r1.written == embedded_count(g) > 0 and r1.sentences > 0
    assert r1.by_label["Section"] == 1 and r1.by_label["Commit"] == 2 and r1.by_label["Class"] == 2
    assert "time.sleep" not in {r[0] for r in g.ro_query("MATCH (f:Function) WHERE f.embedding IS NOT NULL RETURN f.fully_qualified_name")}
    r2 = backfill(db, g.workspace, embedder, cache=cache)
    assert r2.embedded == 0 and r2.written == 0 and r2.unchanged == r1.written
    # a changed docstring re-embeds that function only
    vec = "MATCH (f:Function {fully_qualified_name: 'shop.retry.with_retries'}) RETURN f.embedding"
    v1 = np.asarray(g.ro_query(vec)[0][0])
    g.query("MATCH (f:Function {fully_qualified_name: 'shop.retry.with_retries'}) SET f.docstring = 'Loop with waits.'")
    r3 = backfill(db, g.workspace, embedder, cache=cache)
    assert (r3.embedded, r3.sentences, r3.written) == (2, 1, 1)  # its text and its new first sentence
    # the stored vector is the new one (FalkorDB ignores a plain SET over an indexed vector)
    v3 = np.asarray(g.ro_query(vec)[0][0])
    assert float(np.dot(v1, v3)) < 0.999
    assert knn(g, "Function", v3, 1)[0][0] == "shop.retry.with_retries"
    assert get_model_info(g).model == embedder.model_id and get_model_info(g).dim == 384
    assert cache.count(embedder.model_id) == r1.embedded + 2


def test_cache_survives_reingest_into_a_fresh_graph(db, embedder, tmp_path, make_code_graph):
    cache = EmbeddingCache(tmp_path / "emb.sqlite")
    first = db.graph("t_bf_a")
    second = db.graph("t_bf_b")
    try:
        for g in (first, second):
            g.delete()
            g.ensure_schema()
            make_code_graph(g)
        a = backfill(db, first.workspace, embedder, cache=cache)
        b = backfill(db, second.workspace, embedder, cache=cache)
        assert a.embedded > 0 and b.embedded == 0 and b.reused == a.embedded and b.written == a.written
    finally:
        first.delete()
        second.delete()


@pytest.mark.slow
def test_vector_index_dims_and_model_change(code_graph, db, embedder, openai_stub, tmp_path):
    g = code_graph
    cache = EmbeddingCache(tmp_path / "emb.sqlite")
    backfill(db, g.workspace, embedder, cache=cache)
    assert vector_indexes(g) == {"Function": 384, "Class": 384, "Commit": 384, "Section": 384}
    stored = g.ro_query("MATCH (f:Function {fully_qualified_name: 'shop.retry.compute_retry_delay'}) RETURN f.embedding")[0][0]
    assert len(stored) == 384
    url, _ = openai_stub
    other = OpenAIEmbedder("mini-256", dim=256, base_url=url)
    r = backfill(db, g.workspace, other, cache=cache)
    assert r.model_changed and r.embedded == r.written + r.sentences and r.written > 0
    assert vector_indexes(g) == {"Function": 256, "Class": 256, "Commit": 256, "Section": 256}
    dims = {len(row[0]) for row in g.ro_query("MATCH (n) WHERE n.embedding IS NOT NULL RETURN n.embedding")}
    assert dims == {256}
    info = get_model_info(g)
    assert (info.provider, info.model, info.dim) == ("openai", "openai:mini-256", 256)
    q = other.embed(["exponential backoff: how long to wait before the next attempt"])[0]
    assert knn(g, "Function", q, 3)[0][0] == "shop.retry.compute_retry_delay"
    assert rebuild_vector_indexes(g) == 256
    assert knn(g, "Function", q, 3)[0][0] == "shop.retry.compute_retry_delay"


def test_git_body_reader(tmp_path):
    repo = tmp_path / "r"
    repo.mkdir()
    (repo / "a.py").write_text("import os\n\ndef f(x):\n    return x + 1\n")
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e",
           "PATH": "/usr/bin:/bin"}
    subprocess.run(["git", "init", "-q", str(repo)], check=True, env=env)
    subprocess.run(["git", "-C", str(repo), "add", "."], check=True, env=env)
    subprocess.run(["git", "-C", str(repo), "commit", "-qm", "x"], check=True, env=env)
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    r = GitBodyReader(repo, head)
    r.preload(["a.py", "missing.py"])
    assert r("a.py", 3, 4) == "def f(x):\n    return x + 1"
    assert r("missing.py", 1, 2) is None


def test_limit_leaves_the_rest_for_later(code_graph, db, embedder, tmp_path):
    cache = EmbeddingCache(tmp_path / "emb.sqlite")
    r = backfill(db, code_graph.workspace, embedder, limit=3, cache=cache)
    assert r.embedded == 3 and r.remaining > 0
    r2 = backfill(db, code_graph.workspace, embedder, cache=cache)
    assert r2.embedded == r.remaining and r2.remaining == 0
    assert np.isfinite(r2.seconds)


def test_vector_health_check_finds_stored_vectors(code_graph, db, embedder, tmp_path):
    from mnemosyne.search.vectors import check_vector_health, drop_vector_indexes

    backfill(db, code_graph.workspace, embedder, cache=EmbeddingCache(tmp_path / "c.sqlite"))
    assert check_vector_health(code_graph) is False
    drop_vector_indexes(code_graph)  # an index that finds nothing, as after a bad AOF replay
    assert check_vector_health(code_graph) is True  # detected and rebuilt
    assert check_vector_health(code_graph) is False


@pytest.mark.slow
def test_refresh_workspace_is_the_post_ingest_step(shop, db, embedder):
    from mnemosyne.search import refresh_workspace

    name, _ = shop
    out = refresh_workspace(db, name, embedder)
    assert out["docs"]["commits"] == 0  # ingestion wrote the docs: nothing to catch up
    assert out["embeddings"]["embedded"] == 0 and out["embeddings"]["unchanged"] > 0
    assert "embeddings_error" not in out


def test_ingestion_writes_the_search_text_backfill_would(db, tmp_path):
    """One definition of search_text: ingestion writes it without call names, the back-fill's
    refresh adds the names each symbol calls and is called by at HEAD, then rewrites nothing."""
    import uuid

    from mnemosyne.ingest import ingest_path
    from mnemosyne.samples import build_sample_repo
    from mnemosyne.search.backfill import call_names_at_head, refresh_search_text
    from mnemosyne.search.text import search_text

    repo = build_sample_repo("python_shop", tmp_path / "python_shop")
    name = f"st_{uuid.uuid4().hex[:8]}"
    try:
        ingest_path(db, repo.path, name=name)
        g = db.graph(name)
        plain = {r[0]: r[1] for r in g.ro_query("MATCH (f:Function) RETURN f.fully_qualified_name, f.search_text")}
        names = call_names_at_head(g)
        assert names.calls and names.callers
        assert refresh_search_text(g) > 0
        assert refresh_search_text(g) == 0
        rows = g.ro_query(
            "MATCH (f:Function) WHERE f.kind = 'function' AND f.docstring <> '' "
            "RETURN f.fully_qualified_name, f.name, f.signature, f.docstring, f.file, f.search_text")
        for fqn, name_, sig, doc, file, st in rows:
            calls, callers = names.calls.get(fqn, ()), names.callers.get(fqn, ())
            assert st == search_text(fqn, name_, sig, doc, file, calls, callers)
            if not calls and not callers:
                assert st == plain[fqn] == search_text(fqn, name_, sig, doc, file)
    finally:
        db.registry.remove(name, drop_graph=True)


def test_repeated_rebuilds_always_leave_working_indexes(code_graph, db, embedder, tmp_path):
    """Regression: a CREATE issued while the DROP of the same vector index was still pending
    vanished, so the index never came back and every k-NN query failed."""
    backfill(db, code_graph.workspace, embedder, cache=EmbeddingCache(tmp_path / "emb.sqlite"))
    q = embedder.embed(["exponential backoff: how long to wait before the next attempt"])[0]
    for _ in range(8):
        assert rebuild_vector_indexes(code_graph) == 384
        assert set(vector_indexes(code_graph)) == {"Function", "Class", "Commit", "Section"}
        assert knn(code_graph, "Function", q, 3)[0][0] == "shop.retry.compute_retry_delay"


def test_callee_names_make_the_text_code_aware(code_graph, db, embedder, tmp_path):
    """A function is about what it calls: with_retries calls compute_retry_delay, so both its
    keyword text and its embedded text carry the callee's words; the callee's keyword text carries
    its caller's name; the callee's embedded text does not (callers change without it)."""
    from mnemosyne.search.backfill import call_names_at_head
    from mnemosyne.search.text import embed_text

    names = call_names_at_head(code_graph)
    assert names.calls["shop.retry.with_retries"] == ("shop.retry.compute_retry_delay",)
    assert "shop.cart.Cart.total" in names.calls["shop.cart.Cart"]  # a class: its methods
    backfill(db, code_graph.workspace, embedder, cache=EmbeddingCache(tmp_path / "c.sqlite"))
    st = dict(code_graph.ro_query("MATCH (f:Function) RETURN f.fully_qualified_name, f.search_text"))
    assert "compute retry delay" in st["shop.retry.with_retries"]
    assert st["shop.retry.compute_retry_delay"].endswith("with retries")
    text = embed_text("shop.retry.with_retries", "function", "shop/retry.py", "def with_retries(fn)", "Call fn again.",
                      None, names.calls["shop.retry.with_retries"])
    assert "uses: compute retry delay" in text.splitlines()
    assert "with retries" not in embed_text("shop.retry.compute_retry_delay", "function", "shop/retry.py", None,
                                            "Exponential backoff.", "def compute_retry_delay(): ...", ())
    # the recipe is part of embed_hash: a second back-fill embeds nothing
    again = backfill(db, code_graph.workspace, embedder, cache=EmbeddingCache(tmp_path / "c.sqlite"))
    assert again.embedded == 0 and again.written == 0


def test_unfinished_backfill_says_how_far_and_falls_back_to_keywords(code_graph, db, embedder, tmp_path):
    from mnemosyne.search.backfill import refresh_search_text
    from mnemosyne.search.hybrid import search
    from mnemosyne.search.vectors import prepare_model, set_pending

    g = code_graph
    refresh_search_text(g)  # ingestion writes search_text
    # the daemon's back-fill has started (model recorded, 9 texts to do) but written nothing yet
    prepare_model(g, embedder.provider, embedder.model_id, embedder.dim)
    set_pending(g, 9, total=9)
    for mode in ("semantic", "hybrid"):
        res = search(db, g.workspace, "where is the retry delay computed", mode=mode, embedder=embedder)
        assert res.results and res.results[0].key == "shop.retry.compute_retry_delay"  # keyword answers
        assert any("0 of 9 texts embedded" in w and "keyword results" in w for w in res.warnings), res.warnings
    # part of it done: semantic answers from what is embedded and says how far
    r = backfill(db, g.workspace, embedder, limit=3, cache=EmbeddingCache(tmp_path / "c.sqlite"))
    info = get_model_info(g)
    assert (info.pending, info.pending_of) == (r.remaining, r.remaining + 3)
    res = search(db, g.workspace, "where is the retry delay computed", mode="semantic", embedder=embedder)
    assert any(f"3 of {r.remaining + 3} texts embedded" in w for w in res.warnings), res.warnings
    backfill(db, g.workspace, embedder, cache=EmbeddingCache(tmp_path / "c.sqlite"))
    assert get_model_info(g).pending == 0 and get_model_info(g).progress_note() is None
    res = search(db, g.workspace, "where is the retry delay computed", mode="semantic", embedder=embedder)
    assert not any("back-fill" in w for w in res.warnings)


def test_progress_eta_counts_text_length(code_graph, db, embedder, tmp_path):
    seen = []
    r = backfill(db, code_graph.workspace, embedder, cache=EmbeddingCache(tmp_path / "c.sqlite"), progress=seen.append)
    assert seen and seen[-1].done == seen[-1].total == r.embedded
    assert seen[-1].work_done == seen[-1].work_total > 0 and seen[-1].eta_s == 0
    # unchanged bodies are never embedded again, not even from the cache
    again = backfill(db, code_graph.workspace, embedder, cache=EmbeddingCache(tmp_path / "c.sqlite"))
    assert again.embedded == again.reused == again.written == 0 and again.unchanged == r.written




def test_symbols_are_embedded_with_what_their_module_is_about(code_graph, db, embedder, tmp_path):
    """The first paragraph of a module's docstring is embedded with each symbol of the module,
    after the header line, and is part of embed_hash: a changed module docstring re-embeds the
    module and its symbols, nothing else."""
    from mnemosyne.search.backfill import _collect, call_names_at_head, module_docs

    assert module_docs(code_graph) == {"shop/retry.py": "Retry helpers."}
    texts = {it.key: it.build() for it in _collect(code_graph, embedder, None, call_names_at_head(code_graph))
             if it.label == "Function"}  # fmt: skip
    assert texts["shop.retry.compute_retry_delay"].splitlines()[1] == "Retry helpers."
    assert texts["shop.retry.with_retries"].splitlines()[1] == "Retry helpers."
    assert texts["shop.retry"].count("Retry helpers.") == 1  # the module itself: its docstring once
    assert "Retry helpers." not in texts["shop.cart.Cart.total"]
    cache = EmbeddingCache(tmp_path / "m.sqlite")
    backfill(db, code_graph.workspace, embedder, cache=cache)
    assert backfill(db, code_graph.workspace, embedder, cache=cache).embedded == 0
    code_graph.query("MATCH ()-[d:DEFINES]->(m:Function {fully_qualified_name: 'shop.retry'}) "
                     "SET m.docstring = $doc, d.docstring = $doc", {"doc": "Backoff for flaky payment calls."})
    rep = backfill(db, code_graph.workspace, embedder, cache=cache)
    assert (rep.embedded, rep.sentences) == (4, 1)  # the module's and its two symbols' texts; its first sentence


def test_a_symbol_with_a_docstring_gets_a_vector_of_its_first_sentence(code_graph, db, embedder, tmp_path):
    """The second vector (``sentence_embedding``) is of the docstring's first sentence; it follows
    the docstring: re-embedded when the sentence changes, cleared when there is none any more."""
    from mnemosyne.search.text import first_sentence

    assert first_sentence("Compute the delay. Doubles each time.\n\nMore.") == "Compute the delay."
    cache = EmbeddingCache(tmp_path / "s.sqlite")
    backfill(db, code_graph.workspace, embedder, cache=cache)
    rows = dict(code_graph.ro_query("MATCH (f:Function) RETURN f.fully_qualified_name, f.sentence_embedding IS NOT NULL"))
    docs = dict(code_graph.ro_query("MATCH (f:Function) WHERE f.embedding IS NOT NULL "
                                    "RETURN f.fully_qualified_name, f.docstring"))  # fmt: skip
    assert len(docs) > 3 and all(docs.values())
    for fqn, doc in docs.items():
        assert rows[fqn] == bool(first_sentence(doc)), fqn
    fqn = "shop.cart.Cart.add_item"  # a method: its docstring is in no other symbol's text
    (v1,) = code_graph.ro_query("MATCH (f:Function {fully_qualified_name: $f}) RETURN f.sentence_embedding", {"f": fqn})[0]
    code_graph.query("MATCH ()-[d:DEFINES]->(m:Function {fully_qualified_name: $f}) SET m.docstring = $doc, "
                     "d.docstring = $doc", {"f": fqn, "doc": "Send the receipt by email."})  # fmt: skip
    backfill(db, code_graph.workspace, embedder, cache=cache)
    (v2,) = code_graph.ro_query("MATCH (f:Function {fully_qualified_name: $f}) RETURN f.sentence_embedding", {"f": fqn})[0]
    assert v2 is not None and list(v2) != list(v1)
    code_graph.query("MATCH ()-[d:DEFINES]->(m:Function {fully_qualified_name: $f}) SET m.docstring = null, "
                     "d.docstring = null", {"f": fqn})  # fmt: skip
    rep = backfill(db, code_graph.workspace, embedder, cache=cache)
    assert (rep.embedded, rep.sentences) == (1, 0)  # its whole text only
    rows = code_graph.ro_query("MATCH (f:Function {fully_qualified_name: $f}) RETURN f.sentence_embedding, "
                               "f.sentence_hash", {"f": fqn})  # fmt: skip
    assert rows == [[None, None]]


def test_documentation_describing_a_symbol_lends_it_words(code_graph, db, embedder, tmp_path):
    """What a Sphinx directive documents goes into that symbol's keyword text and embedded text
    (``described_by_sections``), its name qualified by the module directive in effect, even from an
    earlier heading; a bare name that only a symbol's short name matches lends nothing, nor does
    prose citing a symbol; a changed description re-embeds the symbol it describes."""
    from mnemosyne.search.backfill import _collect, call_names_at_head, described_by_sections

    api = (b"API\n===\n\n.. module:: shop.cart\n\nCart\n----\n\n.. autoclass:: Cart\n   :members: total\n\n"
           b"   Keeps what a customer picked until checkout.\n\n   .. method:: total()\n\n      Adds it all up.\n\n"
           b".. autofunction:: shop.retry.with_retries\n\n   Runs a flaky call until it succeeds.\n\n"
           b".. function:: compute_retry_delay\n\n   Not resolved: shop.cart has no such function.\n")  # fmt: skip
    readme = b"# Shop\n\nThe wait between tries grows: see `compute_retry_delay`.\n"
    apply_docs(code_graph, 1, "c1", 2000, {"docs/api.rst": api, "README.md": readme})
    described = described_by_sections(code_graph)
    assert described == {"shop.cart.Cart": "Keeps what a customer picked until checkout. Adds it all up.",
                         "shop.cart.Cart.total": "Adds it all up.",
                         "shop.retry.with_retries": "Runs a flaky call until it succeeds."}  # fmt: skip
    texts = {it.key: it.build() for it in _collect(code_graph, embedder, None, call_names_at_head(code_graph))}
    assert "documentation: Runs a flaky call until it succeeds." in texts["shop.retry.with_retries"].splitlines()
    cache = EmbeddingCache(tmp_path / "d.sqlite")
    backfill(db, code_graph.workspace, embedder, cache=cache)
    st = dict(code_graph.ro_query("MATCH (n) WHERE n:Function OR n:Class RETURN n.fully_qualified_name, n.search_text"))
    assert "customer picked until checkout" in st["shop.cart.Cart"]
    assert "tries grows" not in st["shop.retry.compute_retry_delay"]
    api2 = api.replace(b"until it succeeds", b"with growing waits")
    apply_docs(code_graph, 1, "c1", 2000, {"docs/api.rst": api2})
    assert backfill(db, code_graph.workspace, embedder, cache=cache).by_label.get("Function") == 1
