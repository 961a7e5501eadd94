"""Search latency (p50/p95 ms) per kind of lookup, and local embedder throughput (texts/s).

    /work/venv/bin/python benchmarks/search_latency.py [--repeat 5] [--json FILE]

Uses the same repositories as search_eval.py (python_shop, ts_notes, itsdangerous in .bench/)
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
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import search_eval as E  # noqa: E402


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    if not s:
        return float("nan")
    k = min(len(s) - 1, max(0, int(round(p / 100 * (len(s) - 1)))))
    return s[k]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args(argv)
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


if __name__ == "__main__":
    raise SystemExit(main())
