from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemosyne.search.doc_store import apply_docs, sections_at
from mnemosyne.search.docs import extract_mentions, parse_document

MD = """---
title: ignored front matter
---
# Auth

Intro about `shop.auth.login` and the TokenStore.

## Tokens

### Refresh

Refresh tokens with `refresh_token()` before they expire.

```python
def renew(store):
    return compute_retry_delay(3)
```

Setext heading
--------------

Plain text.
"""

RST = """=====
Guide
=====

Intro :func:`~shop.retry.compute_retry_delay` explains waits.

Usage
-----

Example::

    with_retries(fetch)
    total = 2

.. code-block:: python

   cart.add_item("sku")

After the code.
"""


def test_markdown_heading_paths_and_mentions():
    doc = parse_document("docs/auth.md", MD)
    assert doc.title == "Auth" and doc.format == "markdown"
    by = {b.heading: b for b in doc.blocks}
    assert set(by) == {"Auth", "Auth > Tokens > Refresh", "Auth > Setext heading"}
    refresh = by["Auth > Tokens > Refresh"]
    assert refresh.has_code and "def renew" in refresh.text
    assert refresh.mentions == ["refresh_token", "compute_retry_delay"]
    assert by["Auth"].mentions == ["shop.auth.login"]
    assert "front matter" not in " ".join(b.text for b in doc.blocks)


def test_rst_titles_literal_blocks_and_roles():
    doc = parse_document("docs/guide.rst", RST)
    assert [b.heading for b in doc.blocks] == ["Guide", "Guide > Usage"]
    assert doc.blocks[0].mentions == ["shop.retry.compute_retry_delay"]
    usage = doc.blocks[1]
    assert usage.has_code and "with_retries" in usage.mentions and "cart.add_item" in usage.mentions


def _fence_ranges(text):
    lines = text.split("\n")
    return [i for i, line in enumerate(lines) if line.startswith("```")]


def test_token_limited_chunking_never_splits_code_blocks(embedder):
    count = embedder.count_tokens
    para = "The retry policy waits longer after every failure so the payment gateway can recover. " * 6
    code = "```python\n" + "\n".join(f"value_{i} = compute_retry_delay({i}) + base_delay_{i}" for i in range(25)) + "\n```"
    huge_code = "```\n" + "\n".join(f"line_{i} = very_long_identifier_number_{i}(argument_{i})" for i in range(120)) + "\n```"
    md = "# Big\n\n## Section\n\n" + "\n\n".join([para, code, para, para, code, para, huge_code, para, para * 3])
    doc = parse_document("docs/big.md", md, count, max_tokens=512)
    assert len(doc.blocks) > 3
    assert all(b.heading == "Big > Section" for b in doc.blocks)
    assert [b.chunk for b in doc.blocks] == list(range(len(doc.blocks)))
    for b in doc.blocks:
        fences = _fence_ranges(b.text)
        assert len(fences) % 2 == 0, "a code fence was split"
        if b.oversized:
            assert b.text.strip() == huge_code.strip() and count(b.text) > 512
        else:
            assert count(b.text) <= 512
    # every code block survives whole in exactly one block
    joined = [b.text for b in doc.blocks]
    assert sum(code.strip() in t for t in joined) == 2
    assert any(huge_code.strip() == t.strip() for t in joined)


def test_rst_literal_block_is_not_split(embedder):
    lit = "Example::\n\n" + "\n".join(f"    step_{i} = run_step({i})" for i in range(80)) + "\n\nAfter."
    rst = "Title\n=====\n\n" + ("Words about steps. " * 60 + "\n\n") * 2 + lit
    doc = parse_document("x.rst", rst, embedder.count_tokens, max_tokens=200)
    holders = [b for b in doc.blocks if "step_0 =" in b.text]
    assert len(holders) == 1 and "step_79 =" in holders[0].text


def test_extract_mentions_filters_noise():
    text = "See `pkg.mod.func()` and :class:`Widget <ui.widgets.Widget>`, README.md, e.g. this, and shop.cart.Cart."
    assert extract_mentions(text) == ["pkg.mod.func", "ui.widgets.Widget", "shop.cart.Cart"]


def test_apply_docs_versions_sections_next_and_mentions(code_graph):
    g = code_graph
    v1 = b"# Retries\n\n## Backoff\n\nThe delay is computed by `compute_retry_delay`.\n\n## Loop\n\n`with_retries` calls it.\n"
    r = apply_docs(g, 0, "c0", 1000, {"docs/retry.md": v1, "src/x.py": b"not a doc"})
    assert r.documents == 1 and r.sections_opened == 2 and r.mentions == 2
    secs = sections_at(g, "docs/retry.md", 0)
    assert [s["heading_path"] for s in secs] == ["Retries > Backoff", "Retries > Loop"]
    assert secs[0]["mentions"] == ["shop.retry.compute_retry_delay"]
    assert secs[1]["mentions"] == ["shop.retry.with_retries"]
    # idempotent replay
    assert apply_docs(g, 0, "c0", 1000, {"docs/retry.md": v1}).sections_opened == 0
    # commit 1 changes one section and adds one; the unchanged one keeps its version
    v2 = v1.replace(b"`with_retries` calls it.", b"`with_retries` calls it in a loop.") + b"\n## Notes\n\nNone.\n"
    r2 = apply_docs(g, 1, "c1", 2000, {"docs/retry.md": v2})
    assert r2.sections_opened == 2 and r2.sections_closed == 1
    assert [s["heading_path"] for s in sections_at(g, "docs/retry.md", 0)] == ["Retries > Backoff", "Retries > Loop"]
    now = sections_at(g, "docs/retry.md", 1)
    assert [s["heading_path"] for s in now] == ["Retries > Backoff", "Retries > Loop", "Retries > Notes"]
    assert "in a loop" in now[1]["text"] and now[0]["key"] == secs[0]["key"]
    assert sections_at(g, "docs/retry.md") == now  # HEAD
    nxt = g.ro_query(
        "MATCH (a:Section)-[r:NEXT]->(b:Section) WHERE r.valid_from_seq <= 1 AND (r.valid_to_seq IS NULL OR r.valid_to_seq > 1) "
        "RETURN a.heading_path, b.heading_path ORDER BY a.heading_path")
    assert nxt == [["Retries > Backoff", "Retries > Loop"], ["Retries > Loop", "Retries > Notes"]]
    # deleting the document closes everything
    apply_docs(g, 2, "c2", 3000, {"docs/retry.md": None})
    assert sections_at(g, "docs/retry.md", 2) == [] and len(sections_at(g, "docs/retry.md", 1)) == 3
    open_next = g.ro_query("MATCH ()-[r:NEXT]->() WHERE r.valid_to_seq IS NULL RETURN count(r)")[0][0]
    assert open_next == 0


def _doc_repo(tmp_path):
    import subprocess

    repo = tmp_path / "r"
    repo.mkdir()
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e",
           "PATH": "/usr/bin:/bin"}

    def commit(msg, files, when):
        for name, text in files.items():
            (repo / name).write_text(text)
        e = {**env, "GIT_AUTHOR_DATE": f"{when} +0000", "GIT_COMMITTER_DATE": f"{when} +0000"}
        subprocess.run(["git", "-C", str(repo), "add", "."], check=True, env=e)
        subprocess.run(["git", "-C", str(repo), "commit", "-qm", msg], check=True, env=e)

    def git(*args):
        subprocess.run(["git", "-C", str(repo), *args], check=True, env=env)

    git("init", "-q", "-b", "main")
    commit("one", {"a.py": "def f():\n    return 1\n", "README.md": "# A\n\nFirst.\n"}, 1_700_000_000)
    commit("two", {"README.md": "# A\n\nSecond.\n"}, 1_700_000_100)
    return repo, commit, git


def test_ingestion_writes_docs_and_a_history_rewrite_supersedes_them(db, tmp_path):
    import uuid

    from mnemosyne.ingest import ingest_path
    from mnemosyne.search.doc_store import sync_docs

    repo, commit, git = _doc_repo(tmp_path)
    name = f"rw_{uuid.uuid4().hex[:8]}"
    try:
        ingest_path(db, repo, name=name)
        g = db.graph(name)
        assert [s["text"] for s in sections_at(g, "README.md")] == ["Second."]
        assert g.ro_query("MATCH (m:Meta) RETURN m.docs_seq")[0][0] == 1
        assert sync_docs(db, name).commits == 0  # ingestion already did it: nothing to catch up
        # rewrite: drop commit two, commit something else instead
        git("reset", "-q", "--hard", "HEAD~1")
        commit("two again", {"README.md": "# A\n\nThird.\n"}, 1_700_000_200)
        ingest_path(db, repo, name=name)
        assert sync_docs(db, name).commits == 0
        assert [s["text"] for s in sections_at(g, "README.md")] == ["Third."]
        assert [s["text"] for s in sections_at(g, "README.md", 0)] == ["First."]
        believed = g.ro_query("MATCH (:Document)-[e:HAS_SECTION]->(s:Section) WHERE e.superseded_at IS NULL "
                              "RETURN s.text, e.valid_from_seq, e.valid_to_seq ORDER BY e.valid_from_seq")
        assert believed == [["First.", 0, 1], ["Third.", 1, None]]
        assert g.ro_query("MATCH ()-[e:HAS_SECTION]->() WHERE e.superseded_at IS NOT NULL RETURN count(e)")[0][0] == 2
        # reset to the first commit only: the doc versions after it are superseded too
        git("reset", "-q", "--hard", "HEAD~1")
        ingest_path(db, repo, name=name)
        assert [s["text"] for s in sections_at(g, "README.md")] == ["First."]
        assert g.ro_query("MATCH (m:Meta) RETURN m.last_seq, m.docs_seq")[0] == [0, 0]
    finally:
        db.registry.remove(name, drop_graph=True)


def test_graph_ingested_before_docs_is_caught_up_once(db, tmp_path):
    """A graph written before ingestion applied docs (no Meta.docs_seq, no doc versions) is
    caught up from git: by sync_docs, or by the next ingestion run, then never again."""
    import uuid

    from mnemosyne.ingest import ingest_path
    from mnemosyne.search.doc_store import sync_docs

    repo, commit, _git = _doc_repo(tmp_path)
    name = f"old_{uuid.uuid4().hex[:8]}"

    def make_legacy(g):
        g.query("MATCH (n) WHERE n:Document OR n:Section DETACH DELETE n")
        g.query("MATCH (m:Meta) SET m.docs_seq = null, m.docs_commit = null")

    try:
        ingest_path(db, repo, name=name)
        g = db.graph(name)
        make_legacy(g)
        r = sync_docs(db, name)
        assert r.commits == 2 and [s["text"] for s in sections_at(g, "README.md")] == ["Second."]
        assert [s["text"] for s in sections_at(g, "README.md", 0)] == ["First."]
        assert sync_docs(db, name).commits == 0
        # ... or by ingestion, before it applies the new commits
        make_legacy(g)
        commit("three", {"README.md": "# A\n\nFourth.\n", "docs.rst": "Title\n=====\n\nx\n"}, 1_700_000_300)
        res = ingest_path(db, repo, name=name)
        assert res.commits_ingested == 1 and any("documentation caught up" in w for w in res.warnings)
        assert [[s["text"] for s in sections_at(g, "README.md", i)] for i in range(3)] == [["First."], ["Second."], ["Fourth."]]
        assert [s["text"] for s in sections_at(g, "docs.rst")] == ["x"]
        assert g.ro_query("MATCH (m:Meta) RETURN m.docs_seq")[0][0] == 2
        # a legacy catch-up whose docs_commit was rewritten away (docs_seq at a superseded commit)
        g.query("MATCH (m:Meta) SET m.docs_commit = 'not-on-the-timeline'")
        r = sync_docs(db, name)
        assert r.replayed and [s["text"] for s in sections_at(g, "README.md")] == ["Fourth."]
        believed = g.ro_query("MATCH (:Document {path: 'README.md'})-[e:HAS_SECTION]->(s) WHERE e.superseded_at IS NULL "
                              "RETURN s.text, e.valid_from_seq, e.valid_to_seq ORDER BY e.valid_from_seq")
        assert believed == [["First.", 0, 1], ["Second.", 1, 2], ["Fourth.", 2, None]]
    finally:
        db.registry.remove(name, drop_graph=True)


def _bound_corpus() -> list[str]:
    """Real documentation and source of this repository, plus text that is hard on an estimate:
    punctuation-dense code, tables, hashes, version strings, accents, CJK and Hangul."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    texts = [p.read_text(encoding="utf-8", errors="replace") for pattern in ("*.md", "docs/*.md", "benchmarks/*.md",
             "mnemosyne/search/*.py", "mnemosyne/query/*.py") for p in sorted(root.glob(pattern))]  # fmt: skip
    texts += [
        "| a | b | c |\n|---|---|---|\n" * 20,
        "f(x)[0].y = {a: b, c: [d, e]}; g(*args, **kw) -> h[i:j] " * 20,
        " ".join(f"{i:040x}" for i in range(3, 10_000, 997)),
        "v1.2.3-rc4 py3.11 x86_64 sha256:9f86d081884c7d65 PyCG YYYY pkg fqn JSX " * 10,
        "Café naïve résumé Ångström façade über straße İstanbul " * 10,
        "これは日本語の文章です。中文文本也在这里。한국어 문장도 있습니다. " * 10,
    ]
    return texts


def test_doc_token_estimate_bounds_the_real_tokenizer():
    """Sections are cut by ``approx_tokens`` on every machine (the graph must not depend on
    whether tokenizer.json is present); where the real tokenizer is available, check that the
    estimate never undercounts it, so blocks stay within the model's 512 tokens."""
    from mnemosyne.config import get_settings
    from mnemosyne.search.doc_store import default_token_counter
    from mnemosyne.search.docs import MAX_BLOCK_TOKENS, approx_tokens
    from mnemosyne.search.embedders import WordPieceCounter
    from mnemosyne.search.model_files import find_tokenizer

    assert default_token_counter() is approx_tokens
    path = find_tokenizer(get_settings().home)
    if path is None:
        pytest.skip("tokenizer.json not present: nothing to compare the estimate with")
    real = WordPieceCounter(path).count
    for text in _bound_corpus():
        lines = text.split("\n")
        for i in range(0, len(lines), 15):
            chunk = "\n".join(lines[i : i + 15])
            assert approx_tokens(chunk) >= real(chunk), chunk[:200]
        doc = parse_document("docs/x.md", text)
        for b in doc.blocks:
            if not b.oversized:
                assert real(b.text) <= MAX_BLOCK_TOKENS, b.text[:200]


def _tokens_one_by_one(text: str) -> int:
    """The reference definition of ``approx_tokens``: BERT-like pre-tokens counted one by one."""
    import re
    import unicodedata

    n = 2
    for m in re.finditer(r"[A-Za-z0-9]+|\S", text):
        tok = m.group()
        if tok[0].isascii() and tok[0].isalnum():
            k = len(tok)
            n += k if k <= 4 or any(c.isdigit() for c in tok) else (k + 1) // 2 + 1
        elif tok[0].isascii():
            n += 1
        else:
            n += len(unicodedata.normalize("NFD", tok))
    return n


def test_doc_token_estimate_equals_its_token_by_token_definition():
    """``approx_tokens`` counts words in bulk; it must give exactly the token-by-token count
    (sections, and so the graph, depend on it), whitespace of every kind and non-ASCII included."""
    import random

    from mnemosyne.search.docs import approx_tokens

    rng = random.Random(11)
    alphabet = "abcXYZ0189 _-.:/\t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u2003\u3000éÅİß日本한🙂\u0301(){}[]#*`"
    texts = [*_bound_corpus(), "", " ", "\u3000", "a", "12345", "abcde"]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 300))) for _ in range(400)]
    for text in texts:
        assert approx_tokens(text) == _tokens_one_by_one(text), repr(text[:80])


@pytest.mark.slow
def test_chunking_with_running_totals_equals_recounting():
    """Chunking keeps running token totals for ``approx_tokens`` (additive over whitespace joins);
    it must cut exactly where recounting the joined text cuts (any other counter does that)."""
    import random

    from mnemosyne.search.docs import approx_tokens

    rng = random.Random(5)
    words = ["alpha", "beta", "x1", "Größe", "日本語", "(f)", "a.b.c", "sha256:9f86d0", "über", "—", "fn()", "`code`"]
    texts = list(_bound_corpus())
    for _ in range(12):
        lines = []
        for _ in range(rng.randint(1, 150)):
            n = rng.choice([0, 1, 5, 20, 80, 400])
            lines.append(" ".join(rng.choice(words) for _ in range(n)) + rng.choice(["", ".", "!", "? More."]))
            if rng.random() < 0.1:
                lines.append("```\n" + "x = f(y)\n" * rng.randint(1, 300) + "```")
            if rng.random() < 0.1:
                lines.append("#" * rng.randint(1, 3) + " Heading " + rng.choice(words))
        texts.append("\n".join(lines))
    for text in texts:
        fast = parse_document("docs/x.md", text, approx_tokens)
        slow = parse_document("docs/x.md", text, lambda s: approx_tokens(s))
        assert [(b.key("docs/x.md"), b.line_start, b.line_end, b.tokens) for b in fast.blocks] == [
            (b.key("docs/x.md"), b.line_start, b.line_end, b.tokens) for b in slow.blocks
        ]


def test_sections_at_an_earlier_commit_keep_that_commits_order(code_graph):
    """Ordinals are updated in place on the open versions; an earlier commit's order is its NEXT chain."""
    g = code_graph
    a, b, c = "## Alpha\n\nFirst part.\n", "## Beta\n\nSecond part.\n", "## Gamma\n\nThird part.\n"
    apply_docs(g, 0, "c0", 1000, {"docs/order.md": f"# Order\n\n{a}\n{b}\n{c}".encode()})
    apply_docs(g, 1, "c1", 2000, {"docs/order.md": f"# Order\n\n{c}\n{a}\n{b}".encode()})  # same sections, moved
    old = [s["heading_path"] for s in sections_at(g, "docs/order.md", 0)]
    assert old == ["Order > Alpha", "Order > Beta", "Order > Gamma"]
    assert [s["ordinal"] for s in sections_at(g, "docs/order.md", 0)] == [0, 1, 2]
    new = [s["heading_path"] for s in sections_at(g, "docs/order.md", 1)]
    assert new == ["Order > Gamma", "Order > Alpha", "Order > Beta"] == [s["heading_path"] for s in sections_at(g, "docs/order.md")]


@pytest.mark.parametrize("tail", ["", "\n", "\n\n   \n"])
def test_rst_directive_or_literal_marker_on_the_last_line(tail):
    """tenacity's changelog.rst ends with ``.. release-notes::`` and a newline: a paragraph ending
    in ``::`` with only blank lines after it introduces no literal block (it read past the end)."""
    text = "Changelog\n=========\n\n.. release-notes::" + tail
    doc = parse_document("doc/changelog.rst", text)
    assert doc.title == "Changelog"
    assert any(".. release-notes::" in b.text for b in doc.blocks)
    code = parse_document("a.rst", "Title\n=====\n\n.. code-block:: python" + tail)
    assert code.blocks and ".. code-block:: python" in code.blocks[-1].text


_DOC_LINES = ["Title", "=====", "-----", "~~~~~", "", "   ", "text::", "::", "  indented", "    deeper",
              ".. code-block:: python", ".. note::", "# Heading", "## Sub", "```", "```python", "~~~",
              "    code", "- item", "para text.", "   ::", "=====", "| table |", "<!-- c -->", "\t tab"]


@given(st.lists(st.sampled_from(_DOC_LINES), max_size=14), st.sampled_from(["", "\n"]),
       st.sampled_from(["a.rst", "a.md"]))
@settings(max_examples=400, deadline=None)
def test_any_line_mix_parses(lines, end, path):
    """No mix of headings, adornments, directives, literal markers and fences makes the parser raise,
    and every block's lines lie inside the document."""
    text = "\n".join(lines) + end
    doc = parse_document(path, text)
    for b in doc.blocks:
        assert 1 <= b.line_start <= b.line_end <= max(1, len(text.split("\n")))


def test_a_document_the_parser_fails_on_is_skipped_and_loses_nothing(code_graph, monkeypatch, caplog):
    """Fault injection: a parser defect on one document (as tenacity's changelog was) leaves that
    document's sections as they were, warns, and the other documents of the commit are applied."""
    import mnemosyne.search.doc_store as doc_store

    g = code_graph
    v1 = b"# Retries\n\n## Backoff\n\nThe delay is computed by `compute_retry_delay`.\n"
    apply_docs(g, 0, "c0", 1000, {"docs/retry.md": v1})
    real = doc_store.parse_document

    def failing(path, raw, count):
        if path == "docs/retry.md":
            raise IndexError("list index out of range")
        return real(path, raw, count)

    monkeypatch.setattr(doc_store, "parse_document", failing)
    r = apply_docs(g, 1, "c1", 2000, {"docs/retry.md": v1 + b"\n## New\n\nMore.\n", "docs/other.md": b"# Other\n\nText.\n"})
    assert r.unreadable == ["docs/retry.md"] and r.sections_opened == 1 and r.sections_closed == 0
    assert "docs/retry.md could not be split" in caplog.text
    assert [s["heading_path"] for s in sections_at(g, "docs/retry.md", 1)] == ["Retries > Backoff"]
    assert [s["heading_path"] for s in sections_at(g, "docs/other.md", 1)] == ["Other"]


def test_sphinx_directives_name_what_a_block_documents():
    from mnemosyne.search.docs import described_names, described_parts

    rst = (
        ".. module:: shop.cache\n\n"
        ".. autoclass:: LruStore(maxsize, getsizeof=None)\n   :members: popitem\n\n"
        "   Discards the least recently used items first.\n\n"
        "   .. method:: expire(self, time=None)\n\n      Removes expired items.\n\n"
        ".. py:function:: shop.cache.make_key(*args)\n\n   Builds a key from the arguments.\n"
    )
    assert described_names(rst) == ["shop.cache.LruStore", "shop.cache.LruStore.expire", "shop.cache.make_key"]
    parts = dict(described_parts(rst))
    assert "least recently used" in parts["shop.cache.LruStore"] and "Removes expired" in parts["shop.cache.LruStore"]
    assert "least recently" not in parts["shop.cache.LruStore.expire"]
    assert parts["shop.cache.make_key"].strip().endswith("Builds a key from the arguments.")
    # the documented objects are mentions too, first
    assert extract_mentions(rst)[:3] == described_names(rst)


def test_section_description_keeps_the_prose():
    from mnemosyne.search.text import section_description

    part = ".. autoclass:: LruStore(maxsize)\n   :members: popitem\n\n   Discards the least\n   recently used items first.\n"
    assert section_description([part, part]) == "Discards the least recently used items first."
    assert len(section_description(["word " * 500], limit=50)) == 50
