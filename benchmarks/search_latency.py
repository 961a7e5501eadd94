"""Search latency (p50/p95 ms) per kind of lookup, and local embedder throughput (texts/s).

    /work/venv/bin/python benchmarks/search_latency.py                 # ~100k lines (400 modules), 200 queries each
    /work/venv/bin/python benchmarks/search_latency.py --modules 100   # smaller, quicker
    /work/venv/bin/python benchmarks/search_latency.py --small [--repeat 5]   # the small sample graphs
    ... [--json FILE]

Default (large) mode: the issue's targets on a ~100k-line repository -- exact lookup p95 < 10 ms,
keyword p95 < 50 ms, vector (semantic) p95 < 100 ms, hybrid p95 < 150 ms. It builds the synthetic
repository of benchmarks/query_latency.py (``build_repo``: ``--modules`` x 24 functions, 30
commits) in a private embedded FalkorDB (``_private_db.private_database``), ingests it with
``mnemosyne.ingest.ingest_path``, then stores vectors with the real back-fill
(``mnemosyne.search.backfill.backfill``: texts built from git bodies, ``prepare_model`` /
``create_vector_indexes``, ``embedding`` + ``embed_hash`` written per node, HNSW rebuilt after the
bulk write), exactly as ``mnemosyne embed`` would.

STAND-IN (stored corpus vectors only): embedding ~10k functions with the local ONNX model takes
~20 min on the shared 2-core box, so the back-fill is handed ``StandInEmbedder``: same provider,
model id, dimension and tokenizer (truncation) as the local model; the first ``--real-sample``
texts it is asked for (default 200) are embedded by the REAL model (this also gives the
code-chunk throughput), every other text gets a deterministic unit vector from an RNG seeded with
the text's SHA-256. Random 384-d vectors have no cluster structure, which is if anything the
harder case for HNSW; result quality is not measured here (that is search_eval.py).
QUERIES are real: ``mnemosyne.search.hybrid.search(db, ws, q, mode=...)`` with the real
``LocalEmbedder`` embedding every query text (the real query-time cost, one thread).

Rows (``--queries`` each, default 200):

- exact:        ``MATCH (f:Function {fully_qualified_name: $q})`` for random FQNs (the target row)
- exact search: ``search(mode='keyword')`` with a full FQN as the query (full-text + exact list)
- keyword / semantic / hybrid: ``search(mode=...)`` with short natural-language/identifier queries
- hybrid, no demotions: hybrid with ``Weights(nested_function=1.0, class_below_method_top=0)``,
  interleaved with the default: what the rerank's two demotion queries cost here
- vector:       HNSW k-NN alone (``vectors.knn``, query vector precomputed)
- embed_query:  embedding one query with the local model

Small mode (``--small``) uses the same repositories as search_eval.py (python_shop, ts_notes, itsdangerous in .bench/)
on a private embedded FalkorDB. Lookups measured, each over every question of
benchmarks/data/search_questions.json (x --repeat):

- exact:    ``MATCH (f:Function {fully_qualified_name: $q})`` for the answer FQNs
- keyword:  ``search(mode='keyword')``
- vector:   HNSW k-NN alone (query vector precomputed)
- semantic: ``search(mode='semantic')`` (includes embedding the query)
- hybrid:   ``search(mode='hybrid')`` (keyword + semantic + exact + graph rerank + details)
- embed_query: embedding one query with the local model

Throughput: the local ONNX MiniLM on code chunks (source split into ~15-line pieces, up to its
256-token window) and on short queries, one thread.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))



def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    if not s:
        return float("nan")
    k = min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))
    return s[k]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--small", action="store_true", help="the small sample graphs of search_eval.py instead")
    ap.add_argument("--repeat", type=int, default=5, help="--small: passes over the questions")
    ap.add_argument("--modules", type=int, default=400, help="large: modules of 24 functions (400 = ~100k lines)")
    ap.add_argument("--funcs", type=int, default=24)
    ap.add_argument("--commits", type=int, default=30)
    ap.add_argument("--queries", type=int, default=200, help="large: queries per row")
    ap.add_argument("--real-sample", type=int, default=200,
                    help="large: stored texts embedded by the real model (the rest: seeded random stand-ins)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args(argv)
    return run_small(args) if args.small else run_large(args)


def run_small(args: argparse.Namespace) -> int:
    import search_eval as E

    spec = json.loads(E.QUESTIONS.read_text())
    questions = spec["questions"]
    E.BENCH.mkdir(exist_ok=True)
    server, settings = E._start_server()
    try:
        from mnemosyne.search.embedders import LocalEmbedder
        from mnemosyne.search.hybrid import search
        from mnemosyne.search.vectors import knn
        from mnemosyne.store.connection import connect

        db = connect(settings)
        embedder = LocalEmbedder()
        E.prepare(db, spec["repos"], embedder, log=lambda *a: None)
        times: dict[str, list[float]] = {k: [] for k in ("exact", "keyword", "vector", "semantic", "hybrid", "embed_query")}
        qvecs = {q["q"]: embedder.embed([q["q"]])[0] for q in questions}
        for q in questions[:3]:  # warm-up
            search(db, q["repo"], q["q"], embedder=embedder)
        for _ in range(args.repeat):
            for q in questions:
                g = db.graph(q["repo"])
                t = time.perf_counter()
                g.ro_query("MATCH (f:Function {fully_qualified_name: $q}) RETURN f.file, f.line_start", {"q": q["answers"][0]})
                times["exact"].append((time.perf_counter() - t) * 1000)
                t = time.perf_counter()
                embedder.embed([q["q"]])
                times["embed_query"].append((time.perf_counter() - t) * 1000)
                t = time.perf_counter()
                knn(g, "Function", qvecs[q["q"]], 10)
                times["vector"].append((time.perf_counter() - t) * 1000)
                for mode in ("keyword", "semantic", "hybrid"):
                    t = time.perf_counter()
                    search(db, q["repo"], q["q"], mode=mode, embedder=embedder)
                    times[mode].append((time.perf_counter() - t) * 1000)
        lat = {k: {"p50_ms": round(pct(v, 50), 2), "p95_ms": round(pct(v, 95), 2), "n": len(v)} for k, v in times.items()}

        # embedder throughput
        chunks: list[str] = []
        for path in sorted((E.BENCH / "repos").rglob("*.py")) + sorted((E.BENCH / "repos").rglob("*.ts")):
            if ".git" in path.parts:
                continue
            lines = path.read_text(errors="replace").splitlines()
            for i in range(0, len(lines), 15):
                piece = "\n".join(lines[i : i + 15]).strip()
                if len(piece) > 80:
                    chunks.append(piece)
        chunks = chunks[:200]
        t = time.perf_counter()
        embedder.embed(chunks)
        code_tps = len(chunks) / (time.perf_counter() - t)
        queries = [q["q"] for q in questions] * 3
        t = time.perf_counter()
        embedder.embed(queries)
        query_tps = len(queries) / (time.perf_counter() - t)
        avg_tokens = statistics.mean(embedder.count_tokens(c) for c in chunks)
        db.close()
    finally:
        server.stop()

    print(f"latency over {len(questions)} queries x {args.repeat} (ms):")
    print(f"  {'lookup':<12} {'p50':>8} {'p95':>8}")
    for k, v in lat.items():
        print(f"  {k:<12} {v['p50_ms']:>8.2f} {v['p95_ms']:>8.2f}")
    print(f"local embedder (1 thread): {code_tps:.1f} code chunks/s ({len(chunks)} chunks, ~{avg_tokens:.0f} tokens), "
          f"{query_tps:.1f} short queries/s")
    if args.json:
        Path(args.json).write_text(json.dumps({"latency": lat, "embed_code_per_s": code_tps, "embed_query_per_s": query_tps,
                                               "chunks": len(chunks), "avg_chunk_tokens": avg_tokens}, indent=2))
    return 0


# --- large mode -------------------------------------------------------------------------------

TARGETS = {"exact": 10.0, "keyword": 50.0, "semantic": 100.0, "hybrid": 150.0}


class StandInEmbedder:
    """The local model's identity (provider, model id, dim, tokenizer) for the back-fill; the first
    ``real`` texts are embedded by the real model, the rest get deterministic random unit vectors
    (RNG seeded by the text's SHA-256). Used ONLY for the stored corpus vectors."""

    def __init__(self, real_embedder: Any, real: int) -> None:
        self._real = real_embedder
        self.provider = real_embedder.provider
        self.model_id = real_embedder.model_id
        self.max_tokens = real_embedder.max_tokens
        self.real_left = int(real)
        self.real_texts = 0
        self.real_tokens = 0
        self.real_seconds = 0.0
        self.fake_texts = 0

    @property
    def dim(self) -> int:
        return int(self._real.dim)

    def count_tokens(self, text: str) -> int:
        return self._real.count_tokens(text)

    def truncate(self, text: str, max_tokens: int | None = None) -> str:
        return self._real.truncate(text, max_tokens)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        n_real = min(self.real_left, len(texts))
        if n_real:
            t = time.perf_counter()
            out[:n_real] = self._real.embed(list(texts[:n_real]))
            self.real_seconds += time.perf_counter() - t
            self.real_left -= n_real
            self.real_texts += n_real
            self.real_tokens += sum(self._real.count_tokens(x) for x in texts[:n_real])
        for i in range(n_real, len(texts)):
            seed = int.from_bytes(hashlib.sha256(texts[i].encode("utf-8", "replace")).digest()[:8], "little")
            v = np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)
            out[i] = v / np.linalg.norm(v)
            self.fake_texts += 1
        return out


_WORDS = ["compute", "total", "module", "step", "modulo", "result", "value", "sum", "function", "calls",
          "synthetic", "benchmark", "repository", "limit", "overflow", "threshold", "add", "multiply"]  # fmt: skip


def make_queries(rnd: random.Random, syn: Any, n: int) -> list[str]:
    """Short queries of the kinds users type: docstring-like phrases, identifiers, free words."""
    out: list[str] = []
    mods = list(syn.mods)
    for i in range(n):
        m = rnd.choice(mods)
        fn = rnd.choice(syn.mods[m]["fns"])["name"]
        kind = i % 4
        if kind == 0:
            out.append(f"compute {fn} of module {m}")
        elif kind == 1:
            out.append(f"{fn} mod{m}")
        elif kind == 2:
            out.append(" ".join(rnd.sample(_WORDS, 3)))
        else:
            out.append(f"where is the total reduced modulo 997 when it exceeds {rnd.choice([100, 1000, 5000])}")
    return out


def run_large(args: argparse.Namespace) -> int:
    from _private_db import private_database
    from query_latency import build_repo

    from mnemosyne.ingest import ingest_path
    from mnemosyne.search.backfill import EmbeddingCache, backfill, embedded_count
    from mnemosyne.search.embedders import LocalEmbedder
    from mnemosyne.search.fusion import Weights
    from mnemosyne.search.hybrid import search
    from mnemosyne.search.vectors import knn

    # hybrid without the graph demotions (nested functions, a class above its method), interleaved
    # with the default: what those two graph queries cost on this repository, under the same load
    no_demotions = Weights(nested_function=1.0, class_below_method_top=0)
    embedder = LocalEmbedder()  # before the private home: the installed tokenizer is found, not fetched
    rnd = random.Random(args.seed)
    with private_database("mnsl-") as (home, _settings, db):
        repo = home / "repo"
        t0 = time.perf_counter()
        syn, hashes = build_repo(repo, args.modules, args.funcs, args.commits, args.seed)
        lines = sum(len(p.read_text().splitlines()) for p in (repo / "synth").rglob("*.py"))
        print(f"repository: {args.modules} modules, {lines} lines, {len(hashes)} commits "
              f"(built in {time.perf_counter() - t0:.1f}s)", flush=True)  # fmt: skip
        t0 = time.perf_counter()
        ingest_path(db, repo, name="bench", branch="main")
        g = db.graph("bench")
        n_fn = g.ro_query("MATCH (f:Function) WHERE coalesce(f.external, false) = false RETURN count(f)")[0][0]
        print(f"ingested: {n_fn} functions in {time.perf_counter() - t0:.1f}s", flush=True)

        standin = StandInEmbedder(embedder, args.real_sample)
        cache = EmbeddingCache(home / "cache" / "standin-embeddings.sqlite")
        t0 = time.perf_counter()
        rep = backfill(db, "bench", standin, cache=cache)
        cache.close()
        n_vec = embedded_count(g)
        print(f"back-fill (STAND-IN vectors): {rep.written} vectors written ({standin.real_texts} by the real model, "
              f"{standin.fake_texts} seeded-random stand-ins), index rebuilt: {rep.index_rebuilt}, "
              f"{n_vec} nodes with a vector, {time.perf_counter() - t0:.1f}s", flush=True)  # fmt: skip

        fqns = syn.fqns()
        exact_q = [rnd.choice(fqns) for _ in range(args.queries)]
        queries = make_queries(rnd, syn, args.queries)
        qvecs = embedder.embed(queries)
        for q in queries[:5]:  # warm-up (query texts, HNSW pages, ONNX session)
            for mode in ("keyword", "semantic", "hybrid"):
                search(db, "bench", q, mode=mode, embedder=embedder)
        times: dict[str, list[float]] = {k: [] for k in
                                         ("exact", "exact search", "keyword", "vector", "semantic", "hybrid",
                                          "hybrid, no demotions", "embed_query")}  # fmt: skip
        empty: dict[str, int] = {k: 0 for k in times}
        warned: list[str] = []
        empty_examples: dict[str, list[str]] = {}
        for i, (fq, q) in enumerate(zip(exact_q, queries, strict=True)):
            t = time.perf_counter()
            rows = g.ro_query("MATCH (f:Function {fully_qualified_name: $q}) RETURN f.file, f.line_start", {"q": fq})
            times["exact"].append((time.perf_counter() - t) * 1000)
            empty["exact"] += not rows
            t = time.perf_counter()
            r = search(db, "bench", fq, mode="keyword", embedder=embedder)
            times["exact search"].append((time.perf_counter() - t) * 1000)
            found = r.keys()  # SearchResults.keys(): the result keys (a list, not a dict view)
            empty["exact search"] += fq not in found
            t = time.perf_counter()
            embedder.embed([q])
            times["embed_query"].append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            rows = knn(g, "Function", qvecs[i], 10)
            times["vector"].append((time.perf_counter() - t) * 1000)
            empty["vector"] += not rows
            for mode in ("keyword", "semantic", "hybrid"):
                t = time.perf_counter()
                r = search(db, "bench", q, mode=mode, embedder=embedder)
                times[mode].append((time.perf_counter() - t) * 1000)
                empty[mode] += not len(r)
                if not len(r) and len(empty_examples.setdefault(mode, [])) < 5:
                    empty_examples[mode].append(q)
                warned += [w for w in r.warnings if w not in warned]
            t = time.perf_counter()
            search(db, "bench", q, mode="hybrid", embedder=embedder, weights=no_demotions)
            times["hybrid, no demotions"].append((time.perf_counter() - t) * 1000)
        lat = {k: {"median_ms": round(statistics.median(v), 2), "p95_ms": round(pct(v, 95), 2),
                   "max_ms": round(max(v), 2), "n": len(v), "empty": empty[k], "target_p95_ms": TARGETS.get(k)}
               for k, v in times.items()}  # fmt: skip

        # throughput: code chunks = the back-fill's own function texts embedded by the real model
        code_tps = standin.real_texts / standin.real_seconds if standin.real_seconds else float("nan")
        avg_tokens = standin.real_tokens / standin.real_texts if standin.real_texts else float("nan")
        t = time.perf_counter()
        embedder.embed(queries)
        query_tps = len(queries) / (time.perf_counter() - t)
        db.close()

    print(f"\nsearch latency on {lines} lines / {n_fn} functions, {args.queries} queries per row "
          f"(stored vectors: STAND-IN, queries: real local embedder)")  # fmt: skip
    print(f"{'lookup':<22}{'n':>5}{'median ms':>11}{'p95 ms':>9}{'max ms':>9}{'target p95':>12}  ok")
    for k, v in lat.items():
        tgt = v["target_p95_ms"]
        ok = "" if tgt is None else ("yes" if v["p95_ms"] < tgt else "NO")
        print(f"{k:<22}{v['n']:>5}{v['median_ms']:>11.2f}{v['p95_ms']:>9.2f}{v['max_ms']:>9.2f}"
              f"{'< ' + format(tgt, 'g') if tgt else '':>12}  {ok}" + (f"  ({v['empty']} empty)" if v["empty"] else ""))
    print(f"local embedder (1 thread): {code_tps:.1f} code chunks/s ({standin.real_texts} function texts of the "
          f"back-fill, ~{avg_tokens:.0f} tokens), {query_tps:.1f} short queries/s ({len(queries)} queries)")
    print("targets: the issue's (100k-line repository). 'exact' is the Cypher FQN lookup; 'vector' is k-NN alone, "
          "'semantic' the whole semantic search (query embedding included).")
    for mode, qs in empty_examples.items():
        print(f"{mode}: no result for e.g. {qs[:3]}")
    if warned:
        print("search warnings: " + "; ".join(warned[:3]))
    if args.json:
        Path(args.json).write_text(json.dumps({
            "lines": lines, "functions": n_fn, "vectors": n_vec, "real_vectors": standin.real_texts,
            "standin_vectors": standin.fake_texts, "latency": lat, "embed_code_per_s": code_tps,
            "avg_chunk_tokens": avg_tokens, "embed_query_per_s": query_tps,
            "empty_examples": empty_examples}, indent=2))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
