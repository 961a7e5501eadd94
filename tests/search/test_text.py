from __future__ import annotations

import pytest

from mnemosyne.search.text import ft_query, identifier_like, query_words, search_text, snippet, split_identifier


@pytest.mark.parametrize(
    ("ident", "words"),
    [
        ("getUserById", ["get", "user", "by", "id"]),
        ("get_user_by_id", ["get", "user", "by", "id"]),
        ("HTTPServer", ["http", "server"]),
        ("parseHTTPResponse2", ["parse", "http", "response", "2"]),
        ("__init__", ["init"]),
        ("XMLHttpRequest", ["xml", "http", "request"]),
        ("compute_retry_delay", ["compute", "retry", "delay"]),
        ("café_au_lait", ["café", "au", "lait"]),
    ],
)
def test_split_identifier(ident, words):
    assert split_identifier(ident) == words


def test_search_text_has_split_words_and_exact_name():
    st = search_text("shop.retry.compute_retry_delay", "compute_retry_delay",
                     "def compute_retry_delay(attempt: int) -> float", "Exponential backoff.")
    toks = st.split()
    for w in ("compute", "retry", "delay", "compute_retry_delay", "shop", "attempt", "Exponential"):
        assert w in toks


@pytest.mark.parametrize("raw", ['foo(', 'a:b', '"unterminated', '-', '|||', '@#$%^&*', '%%x%%', '', '   ', 'x*y~z',
                                 'where is the (retry) delay computed?', "O'Reilly's [book]", '{"a": 1}',
                                 'the of a', 'where is it', 'café crème', '日本語 テキスト', 'a' * 300, 'x_y_z 1 2 3'])
def test_ft_query_is_always_safe(raw, graph):
    q = ft_query(raw)
    if q is None:
        return
    # runs against the real full-text index without a RediSearch syntax error
    graph.query("CREATE (:Function {fully_qualified_name: 'x', search_text: 'retry delay'})")
    graph.ro_query("CALL db.idx.fulltext.queryNodes('Function', $q) YIELD node RETURN count(node)", {"q": q})


def test_ft_query_words_and_prefixes():
    q = ft_query("Where is the retry delay computed?")
    assert q == "retry|retry*|delay|delay*|computed|computed*"
    assert ft_query("the of a") is not None  # only stopwords: falls back to them
    assert query_words("getUserById please") == ["user", "id"]  # get/by/please are stopwords


def test_identifier_like():
    assert identifier_like("compute_retry_delay") == "compute_retry_delay"
    assert identifier_like("`shop.retry.compute_retry_delay()`") == "shop.retry.compute_retry_delay"
    assert identifier_like("src/api/client.ApiClient.get") == "src/api/client.ApiClient.get"
    assert identifier_like("where is it") is None


def test_snippet_centres_on_query_word():
    text = "x " * 200 + "the retry delay doubles each time " + "y " * 200
    s = snippet(text, "retry delay", width=80)
    assert "retry delay" in s and len(s) <= 82


def test_module_doc_line_follows_the_header_of_embedded_text():
    from mnemosyne.search.text import embed_text, first_paragraph

    assert first_paragraph("  Retrying flaky calls\n  with backoff.\n\n  More.") == "Retrying flaky calls with backoff."
    assert first_paragraph(None) == first_paragraph("  ") == ""
    text = embed_text("shop.util.retry.compute_retry_delay", "function", "shop/util/retry.py", None, "Delay.",
                      "def compute_retry_delay(): ...", module_doc="Retrying flaky calls with exponential backoff.")
    assert text.splitlines()[:3] == [
        "compute retry delay (function compute_retry_delay in shop/util/retry.py)",
        "Retrying flaky calls with exponential backoff.", "Delay."]
    # a module is not told about itself twice
    mod = embed_text("shop.util.retry", "module", "shop/util/retry.py", None, "Retrying.", None, module_doc="Retrying.")
    assert mod.splitlines().count("Retrying.") == 1
