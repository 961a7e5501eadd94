"""Search over a hand-written graph (filters, fusion, rerank) and over the ingested python_shop."""

from __future__ import annotations

import pytest

from mnemosyne.search.backfill import EmbeddingCache, backfill
from mnemosyne.search.commits import search_commits
from mnemosyne.search.doc_store import apply_docs, sections_at
from mnemosyne.search.errors import SearchError
from mnemosyne.search.fusion import Weights
from mnemosyne.search.hybrid import search

QUESTION = "where is the retry delay computed"


@pytest.fixture
def embedded_graph(code_graph, db, embedder, tmp_path):
    apply_docs(code_graph, 1, "c1", 2000, {"docs/payments.md": (
        b"# Payments\n\n## Retries\n\nFailed charges are retried: `with_retries` waits between attempts.\n\n"
        b"## Cart\n\nTotals come from `Cart.total`.\n")})
    backfill(db, code_graph.workspace, embedder, cache=EmbeddingCache(tmp_path / "c.sqlite"))
    return code_graph


def test_three_modes_find_the_function(embedded_graph, db, embedder):
    ws = embedded_graph.workspace
    for mode in ("keyword", "semantic", "hybrid"):
        res = search(db, ws, QUESTION, mode=mode, kind=["function", "class"], embedder=embedder)
        if mode == "hybrid":  # the doc section citing with_retries ("waits between attempts") may lift it first
            assert "shop.retry.compute_retry_delay" in res.keys()[:2]
            assert set(res.keys()[:2]) == {"shop.retry.compute_retry_delay", "shop.retry.with_retries"}
            continue
        assert res.results[0].key == "shop.retry.compute_retry_delay", mode
        top = res.results[0]
        assert top.kind == "function" and top.symbol_kind == "function" and top.file == "shop/retry.py" and top.line == 5
        assert "compute_retry_delay" in top.snippet and top.score > 0


def test_exact_identifier_lookup_wins(embedded_graph, db, embedder):
    ws = embedded_graph.workspace
    top = search(db, ws, "getUserById", embedder=embedder).results[0]
    assert top.key == "shop.http.HTTPClient.getUserById" and (top.kind, top.symbol_kind) == ("function", "method")
    res = search(db, ws, "shop.cart.Cart.total", embedder=embedder)
    assert res.results[0].key == "shop.cart.Cart.total" and res.results[0].sources.get("exact") == 1


def test_at_restricts_to_symbols_existing_then(embedded_graph, db, embedder):
    ws = embedded_graph.workspace
    head = search(db, ws, "legacy total of the cart", kind="function", embedder=embedder, limit=20).keys()
    old = search(db, ws, "legacy total of the cart", kind="function", at=0, embedder=embedder, limit=20).keys()
    assert "shop.old.legacy_total" not in head and "shop.old.legacy_total" in old


def test_kind_path_and_pagination(embedded_graph, db, embedder):
    ws = embedded_graph.workspace
    res = search(db, ws, "cart", kind="class", embedder=embedder)
    assert res.results and {r.kind for r in res.results} == {"class"}
    res = search(db, ws, "add up prices", path_prefix="shop/cart", embedder=embedder, limit=20)
    assert res.results and all(r.file.startswith("shop/cart") for r in res.results)
    full = search(db, ws, "shop", kind="all", limit=50, embedder=embedder).keys()
    page1 = search(db, ws, "shop", kind="all", limit=3, embedder=embedder)
    page2 = search(db, ws, "shop", kind="all", limit=3, offset=page1.next_offset, embedder=embedder)
    assert page1.keys() + page2.keys() == full[:6] and page1.next_offset == 3
    with pytest.raises(SearchError):
        search(db, ws, "x", kind="nonsense")
    with pytest.raises(SearchError):
        search(db, ws, "x", mode="fuzzy")


def test_docs_and_commits_are_searchable(embedded_graph, db, embedder):
    ws = embedded_graph.workspace
    docs = search(db, ws, "waiting between attempts of failed charges", kind="doc", embedder=embedder)
    assert docs.results[0].heading_path == "Payments > Retries" and docs.results[0].file == "docs/payments.md"
    commits = search(db, ws, "backoff", kind="commit", mode="keyword", embedder=embedder)
    assert commits.keys() == ["c1"]


def test_graph_rerank_uses_mentions(embedded_graph, db, embedder):
    ws = embedded_graph.workspace
    res = search(db, ws, "failed charges are retried", kind="function", embedder=embedder)
    # the doc section says `with_retries`; the symbol gets the section's score
    assert res.keys()[0] == "shop.retry.with_retries"


def test_a_mention_lifts_only_a_symbol_some_list_found(embedded_graph):
    """The mention boost reranks candidates; it does not bring in a symbol no list found (tenacity's
    README cites its `retry` decorator in every example, which then topped unrelated answers)."""
    from mnemosyne.search.fusion import Weights
    from mnemosyne.search.rerank import graph_rerank

    g = embedded_graph
    section = next(s["key"] for s in sections_at(g, "docs/payments.md", 1) if s["heading_path"] == "Payments > Retries")
    fused = {("doc", section): 0.5, ("function", "shop.retry.compute_retry_delay"): 0.3}
    out = graph_rerank(g, dict(fused), 1, Weights(), {})
    assert ("function", "shop.retry.with_retries") not in out  # cited by the section, found by no list
    with_it = graph_rerank(g, {**fused, ("function", "shop.retry.with_retries"): 0.1}, 1, Weights(), {})
    assert with_it[("function", "shop.retry.with_retries")] == pytest.approx(0.1 + 0.5 * 0.5)
    old = graph_rerank(g, dict(fused), 1, Weights(mention_candidates_only=False), {})
    assert old[("function", "shop.retry.with_retries")] == pytest.approx(0.25)


def test_hostile_queries_do_not_raise(embedded_graph, db, embedder):
    ws = embedded_graph.workspace
    for q in ['foo(', 'a:b', '"', '-', '***', '', '%%', 'x' * 500]:
        search(db, ws, q, embedder=embedder)


def test_search_commits_filters(embedded_graph, db, embedder):
    ws = embedded_graph.workspace
    hits = search_commits(db, ws, "payments failing under load", embedder=embedder)
    assert hits[0].hash == "c1" and hits[0].tickets == ["#12"] and "ticket" in hits[0].sources
    assert [h.hash for h in search_commits(db, ws, "shop totals", author="ANN", embedder=embedder)] == ["c0"]
    assert search_commits(db, ws, "backoff retries", since="1970-01-01T00:20:00Z", embedder=embedder)[0].hash == "c1"
    # until: c1 (timestamp 2000) is left out, c0 (1000) is still found
    assert "c1" in [h.hash for h in search_commits(db, ws, "backoff retries", embedder=embedder)]
    assert "c1" not in [h.hash for h in search_commits(db, ws, "backoff retries", until=1500, embedder=embedder)]
    assert [h.hash for h in search_commits(db, ws, "shop totals", until=1500, embedder=embedder)] == ["c0"]
    assert [h.hash for h in search_commits(db, ws, "backoff", path="shop/retry", embedder=embedder)] == ["c1"]
    assert search_commits(db, ws, "backoff", path="shop/cart", embedder=embedder) == []


def test_keyword_only_when_nothing_embedded(code_graph, db, embedder):
    from mnemosyne.search.backfill import refresh_search_text

    refresh_search_text(code_graph)  # ingestion writes search_text; nothing is embedded yet
    res = search(db, code_graph.workspace, QUESTION, embedder=embedder)
    assert res.results[0].key == "shop.retry.compute_retry_delay"
    assert any("mnemosyne embed" in w for w in res.warnings)


# -- on the ingested sample repository ---------------------------------------------------------------

def test_ingested_sample_hybrid_finds_compute_retry_delay(shop, db, embedder):
    name, _ = shop
    res = search(db, name, QUESTION, embedder=embedder)
    fn = [r for r in res.results if r.kind == "function"]
    assert fn[0].key == "shop.util.retry.compute_retry_delay"
    assert fn[0].file == "shop/util/retry.py" and fn[0].line


def test_ingested_sample_history_and_docs(shop, db, embedder):
    name, repo = shop
    # before the move (step 13 -> seq 10) the helper lived in shop/retry.py
    old = search(db, name, QUESTION, kind="function", at=repo.hash_at(12), embedder=embedder)
    assert old.results[0].key == "shop.retry.compute_retry_delay" and old.results[0].file == "shop/retry.py"
    g = db.graph(name)
    secs = sections_at(g, "docs/payments.md")
    assert [s["heading_path"] for s in secs] == ["Payments > Retries"]
    assert secs[0]["mentions"] == ["shop.util.retry.compute_retry_delay", "shop.util.retry.with_retry"]
    hits = search(db, name, "how long does the shop wait before retrying a charge", kind="doc", embedder=embedder)
    assert hits.results[0].heading_path == "Payments > Retries"
    commits = search_commits(db, name, "retry helper", embedder=embedder)
    assert commits[0].message.startswith(("Add retry helper", "Move the retry helper"))


def test_unrelated_query_gets_no_padding(embedded_graph, db, embedder):
    """k-NN always answers k neighbours: an unrelated word must not list every commit at ~0."""
    ws = embedded_graph.workspace
    for mode in ("hybrid", "semantic", "keyword"):
        res = search(db, ws, "colorama", mode=mode, kind="commit", embedder=embedder)
        assert res.results == [], (mode, [(r.key, r.score) for r in res.results])
        assert all(r.score > 0 for r in search(db, ws, "colorama", mode=mode, kind="all", embedder=embedder).results)
    assert search_commits(db, ws, "colorama", embedder=embedder) == []
    hit = search(db, ws, "payment retries backoff", kind="commit", embedder=embedder).results
    assert hit and hit[0].key == "c1" and hit[0].score > 0.1


def test_fusion_keeps_what_both_modes_rank_top3():
    from mnemosyne.search.fusion import keep_consensus

    fused = {("function", k): s for k, s in (("a", 0.9), ("b", 0.8), ("c", 0.7), ("d", 0.1))}
    kw = {("function", "d"): 1.0, ("function", "a"): 0.5}
    sem = {("function", "d"): 0.9, ("function", "e"): 0.8}
    out = keep_consensus(fused, kw, sem, 3)
    order = [k for (_, k), _ in sorted(out.items(), key=lambda kv: -kv[1])]
    assert order[:3] == ["a", "b", "d"] and order[3] == "c"
    assert keep_consensus(fused, {("function", "x"): 1.0}, sem, 3) == fused


def test_test_code_takes_no_list_place_from_library_code():
    """Hybrid fuses lists in which test code is ordered by its share of its score: a test that the
    semantic list ranks first does not push the library function down to the second place."""
    from mnemosyne.search.fusion import rrf_fusion

    sem = {"function": [("tests.test_validators.TestOr.test_success", 0.40), ("attr.validators.or_", 0.35)]}
    kw = {"function": [("attr.validators.or_", 2.0), ("tests.test_validators.TestOr", 1.0)]}
    w = Weights()
    plain = rrf_fusion(kw, sem, [], ("function",), w)
    shared = rrf_fusion(kw, sem, [], ("function",), w, test_share=0.25)
    lib, test = ("function", "attr.validators.or_"), ("function", "tests.test_validators.TestOr.test_success")
    assert plain[lib] == pytest.approx(w.keyword / 2 + w.semantic / 3)
    assert shared[lib] == pytest.approx(w.keyword / 2 + w.semantic / 2)
    assert shared[test] == pytest.approx(w.semantic / 3) and plain[test] == pytest.approx(w.semantic / 2)


def test_sentence_rerank_orders_the_top_by_the_first_sentence(embedded_graph, embedder):
    """Hybrid's last rerank: each top candidate gains a share of the best score by its rank on the
    question's cosine to its first docstring sentence; the closest sentence gains the most."""
    from mnemosyne.search.rerank import sentence_rerank

    q = embedder.embed(["how long to wait before trying again"])[0]
    fused = {("function", "shop.cart.Cart.total"): 0.5, ("function", "shop.retry.compute_retry_delay"): 0.4,
             ("doc", "docs/payments.md#x"): 0.45}  # fmt: skip
    w = Weights(sentence_rerank=0.3, sentence_rerank_top=15)
    out = sentence_rerank(embedded_graph, fused, q, w)
    assert out[("function", "shop.retry.compute_retry_delay")] == pytest.approx(0.4 + 0.3 * 0.5)
    assert out[("function", "shop.cart.Cart.total")] == pytest.approx(0.5 + 0.3 * 0.5 * 2 / 3)
    assert out[("doc", "docs/payments.md#x")] == 0.45  # sections are not reranked
    assert sentence_rerank(embedded_graph, fused, q, Weights(sentence_rerank=0)) == fused


SHOP_QUESTIONS = (
    "where is the retry delay computed", "keep calling a flaky function until it succeeds",
    "how much does the customer pay at checkout", "discount for buying many items", "add VAT to a price",
    "round an amount to whole cents", "email the receipt to the customer", "look up an order by its id",
    "dictionary backed storage kept in memory", "command line entry point that parses arguments",
    "bulk_discount", "OrderRepository find",
)


def test_hybrid_keeps_what_both_modes_rank_top3_on_the_ingested_sample(shop, db, embedder):
    """The fusion property on real search over a real ingested repository: a result that keyword
    and semantic search both rank in their top 3 is in hybrid's top 3 too."""
    name, _ = shop
    agreed = 0
    for q in SHOP_QUESTIONS:
        top = {m: search(db, name, q, mode=m, limit=3, embedder=embedder).keys()
               for m in ("keyword", "semantic", "hybrid")}  # fmt: skip
        both = set(top["keyword"]) & set(top["semantic"])
        agreed += len(both)
        assert both <= set(top["hybrid"]), (q, top)
    assert agreed >= 5  # the property was exercised, not vacuous


def test_keyword_ranking_is_bm25_over_the_code_aware_text(code_graph, db):
    """Words of the name weigh most, a rare word outranks a common one, and retry/retries/retried
    meet (lexical.term)."""
    from mnemosyne.search.backfill import refresh_search_text
    from mnemosyne.search.lexical import query_terms, tokens

    refresh_search_text(code_graph)
    assert query_terms("retries") == query_terms("retry") == tokens("retried")
    res = search(db, code_graph.workspace, "exponential backoff", mode="keyword", embedder=None)
    assert res.keys()[0] == "shop.retry.compute_retry_delay"
    # "user" is in one symbol's text (getUserById), "cart" in several: the rare word decides
    res = search(db, code_graph.workspace, "user cart", mode="keyword", kind="function", embedder=None)
    assert res.keys()[0] == "shop.http.HTTPClient.getUserById"


def test_commit_search_returns_only_matches_on_the_ingested_sample(shop, db, embedder):
    """No zero-score padding on a real history: a word no commit is about finds no commit."""
    name, _ = shop
    for mode in ("hybrid", "semantic", "keyword"):
        assert search(db, name, "colorama", mode=mode, kind="commit", embedder=embedder).results == [], mode
    assert search_commits(db, name, "colorama", embedder=embedder) == []
    hits = search(db, name, "retry helper", kind="commit", embedder=embedder).results
    assert hits and all(r.score > 0 for r in hits)


# -- test code ranks after the code it tests, unless the question asks for tests ---------------------

LIBRARY = '''\
def normalise_address(address):
    """Lower-case the domain part of an e-mail address."""
    user, _, domain = address.partition("@")
    return user + "@" + domain.lower()


def is_valid_address(address):
    """Whether an e-mail address is well formed: one at sign and a dotted domain."""
    user, at, domain = normalise_address(address).partition("@")
    return bool(user) and bool(at) and "." in domain
'''

TESTS = '''\
from mailer.addresses import is_valid_address


def test_valid_address_is_well_formed():
    """An e-mail address with one at sign and a dotted domain is well formed."""
    assert is_valid_address("a@example.org")


def test_address_without_domain_is_not_well_formed():
    assert not is_valid_address("a@")
'''


def _mailer_workspace(db, tmp_path, embedder, prefix: str, extra: dict[str, str]) -> str:
    """A git repository of the mailer library plus ``extra`` files, ingested and embedded: its workspace name."""
    import subprocess
    import uuid

    from mnemosyne.ingest import ingest_path

    repo = tmp_path / f"mailer_{prefix}"
    for rel, text in {"mailer/__init__.py": "", "mailer/addresses.py": LIBRARY, **extra}.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e",
           "PATH": "/usr/bin:/bin"}
    for args in (["init", "-q", "-b", "main"], ["add", "."], ["commit", "-qm", "mailer"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True, env=env)
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    ingest_path(db, repo, name=name)
    backfill(db, name, embedder, cache=EmbeddingCache(tmp_path / "c.sqlite"))
    return name


def test_test_code_ranks_after_library_code_unless_asked_for(db, tmp_path, embedder):
    from mnemosyne.search.text import is_test_code

    name = _mailer_workspace(db, tmp_path, embedder, "tc", {"tests/test_addresses.py": TESTS})
    try:
        for mode in ("keyword", "semantic", "hybrid"):
            res = search(db, name, "check that an e-mail address is well formed", mode=mode, kind="function",
                         embedder=embedder)
            keys = res.keys()
            scores = [r.score for r in res.results]
            assert scores == sorted(scores, reverse=True), (mode, scores)  # the shown score is the ranking score
            assert keys[0] == "mailer.addresses.is_valid_address", (mode, keys)
            tests = [k for k in keys if is_test_code(k)]
            assert "tests.test_addresses.test_valid_address_is_well_formed" in tests, (mode, keys)  # still found
            assert all(keys.index(t) > keys.index("mailer.addresses.is_valid_address") for t in tests)
        asked = search(db, name, "tests that an e-mail address is well formed", mode="hybrid", kind="function",
                       embedder=embedder).keys()
        assert asked[0] == "tests.test_addresses.test_valid_address_is_well_formed", asked
    finally:
        db.registry.remove(name, drop_graph=True)


# -- a function nested in another ranks after the function that defines it -----------------------------

RETRY = '''\
import time


def retry_on_failure(attempts=3, wait=0.1):
    """Decorator: call the function again after a failure, waiting longer before each new attempt."""

    def decorator(func):
        def wrapper(*args, **kwargs):
            """Call the function again after a failure, waiting longer before each new attempt."""
            delay = wait
            for n in range(attempts):
                try:
                    return func(*args, **kwargs)
                except Exception:
                    if n == attempts - 1:
                        raise
                    time.sleep(delay)
                    delay *= 2

        return wrapper

    return decorator


def parse_price(text):
    """Read a price such as '3.50' into cents."""
    whole, _, frac = text.partition(".")
    return int(whole) * 100 + int((frac + "00")[:2])
'''


def test_nested_function_ranks_after_the_function_defining_it(db, tmp_path, embedder):
    """Hybrid ranks a decorator's inner wrapper (same words, the loop itself) after the decorator
    a question about retrying is after; the wrapper is still found."""
    import subprocess
    import uuid

    from mnemosyne.ingest import ingest_path
    from mnemosyne.search.fusion import Weights

    repo = tmp_path / "retry_repo"
    (repo / "util").mkdir(parents=True)
    (repo / "util" / "__init__.py").write_text("")
    (repo / "util" / "retrying.py").write_text(RETRY)
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e",
           "PATH": "/usr/bin:/bin"}
    for args in (["init", "-q", "-b", "main"], ["add", "."], ["commit", "-qm", "retry"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True, env=env)
    name = f"nf_{uuid.uuid4().hex[:8]}"
    q = "call the function again after a failure, waiting longer before each attempt"
    outer, inner = "util.retrying.retry_on_failure", "util.retrying.retry_on_failure.decorator.wrapper"
    try:
        ingest_path(db, repo, name=name)
        backfill(db, name, embedder, cache=EmbeddingCache(tmp_path / "c.sqlite"))
        keys = search(db, name, q, kind="function", embedder=embedder).keys()
        assert keys[0] == outer and inner in keys, keys
        # the demotion is what orders them: without it the wrapper comes first
        flat = search(db, name, q, kind="function", embedder=embedder, weights=Weights(nested_function=1.0)).keys()
        assert flat.index(inner) < flat.index(outer), flat
    finally:
        db.registry.remove(name, drop_graph=True)


def test_class_goes_below_its_own_method_near_the_top(shop, db, embedder):
    """A class matches through its methods' names (its text lists them); asked what one method
    does, hybrid ranks the method first and its class right after it."""
    from mnemosyne.search.fusion import Weights

    name, _ = shop
    q = "put a product into an order"
    keys = search(db, name, q, kind=["function", "class"], embedder=embedder).keys()
    assert keys[:2] == ["shop.models.Order.add", "shop.models.Order"], keys
    off = search(db, name, q, kind=["function", "class"], embedder=embedder,
                 weights=Weights(class_below_method_top=0)).keys()
    assert off[:2] == ["shop.models.Order", "shop.models.Order.add"], off


def test_a_section_copied_into_another_file_is_one_result(code_graph, db, embedder, tmp_path):
    """A README copied into docs/index.rst (tenacity ships both): the same section in both files is
    one result that names the other file, in every mode; the freed place goes to the next result."""
    readme = (b"Guide\n=====\n\nStopping\n--------\n\nGive up on a failed charge after a number of attempts.\n\n"
              b"Waiting\n-------\n\nWait longer between the attempts each time.\n")  # fmt: skip
    apply_docs(code_graph, 1, "c1", 2000, {"README.rst": readme, "docs/index.rst": readme})
    backfill(db, code_graph.workspace, embedder, cache=EmbeddingCache(tmp_path / "c.sqlite"))
    for mode in ("keyword", "semantic", "hybrid"):
        res = search(db, code_graph.workspace, "give up after a number of failed attempts", mode=mode, kind="doc",
                     embedder=embedder)  # fmt: skip
        paths = [r.heading_path for r in res.results]
        assert paths.count("Guide > Stopping") == 1, (mode, paths)
        top = res.results[0]
        assert top.heading_path == "Guide > Stopping", (mode, paths)
        other = f"{'docs/index.rst' if top.file == 'README.rst' else 'README.rst'}:{top.line}"
        assert top.also_in == [other] and top.to_dict()["also_in"] == [other]
        if mode != "keyword":  # "Waiting" shares no word with the question
            assert "Guide > Waiting" in paths


# -- release notes rank after code and documentation unless the question is about releases -------------

HISTORY = '''\
# Release History

## 0.4.0 (2019-03-02)

- Addresses with a missing domain are no longer well formed; check the domain of an e-mail address.

## 0.3.0 (2018-11-08)

- Fixed a crash on empty addresses.
'''


def test_release_notes_rank_after_code_unless_asked_for(db, tmp_path, embedder):
    from mnemosyne.search.text import is_release_notes

    name = _mailer_workspace(db, tmp_path, embedder, "rn", {"HISTORY.md": HISTORY})
    try:
        question = "check the domain of an e-mail address is well formed"
        for mode in ("keyword", "hybrid"):
            plain = search(db, name, question, mode=mode, embedder=embedder,
                           weights=Weights(release_notes=1.0)).results
            notes = [r for r in plain if r.kind == "doc" and is_release_notes(r.key)]
            assert notes, (mode, [r.key for r in plain])
            if mode == "keyword":  # the entry shares the most words: undemoted, it comes first
                assert plain[0].kind == "doc" and is_release_notes(plain[0].key), [r.key for r in plain]
            res = search(db, name, question, mode=mode, embedder=embedder).results
            keys = [r.key for r in res]
            assert keys[0] == "mailer.addresses.is_valid_address", (mode, keys)
            assert notes[0].key in keys, (mode, keys)  # still found, after the code
            scores = [r.score for r in res]
            assert scores == sorted(scores, reverse=True), (mode, scores)
        asked = search(db, name, "which release changed the domain check of an e-mail address", mode="keyword",
                       embedder=embedder).results
        assert asked[0].kind == "doc" and is_release_notes(asked[0].key), [r.key for r in asked]
    finally:
        db.registry.remove(name, drop_graph=True)
