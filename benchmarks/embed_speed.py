"""Embedding speed and memory: our embedding path against raw onnxruntime inference, same texts.

    .venv/bin/python benchmarks/embed_speed.py                   # click 8.1.7, 3 rounds, medians
    .venv/bin/python benchmarks/embed_speed.py --package flask==3.0.3 --runs 5 --json out.json
    .venv/bin/python benchmarks/embed_speed.py --model mpnet      # the second local model

The texts are the ones the back-fill embeds for a real package (pip-downloaded, pinned, put in a
one-commit git repository under ``.bench/``, ingested head-only into a private embedded FalkorDB):
code-aware symbol texts with their bodies, cut to the model window. Each round runs, each in its
own child process (so each peak RSS is that path's alone, model and imports included):

- ``raw``: onnxruntime alone: the model's own session (same model file, threads and options),
  the same tokenizer and the same batches (``plan_batches``: by token length, each padded to its
  longest), ``InferenceSession.run``; no pooling, no normalisation, nothing kept;
- ``embed``: ``LocalEmbedder.embed(texts)`` (tokenizing, bucketing, pooling, normalising);
- ``backfill``: the whole embedding step of an ingest on a fresh graph (every vector cleared, an
  empty on-disk cache): reading bodies from git, building texts, embedding, writing the vectors
  to the graph.

The three paths alternate within a round (the box is shared; drift hits all three alike); the
table shows medians over the rounds, the ratios are median seconds per text of a path over raw's
(wall clock, and CPU time of the child, steadier on a shared box), and peak RSS is the child's
``ru_maxrss``, the most of any round (the FalkorDB server is another process, not counted).
Targets: ``backfill`` within 1.5x of ``raw``, peak RSS <= 500 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks.extract_speed import CACHE, fetch_pypi  # noqa: E402
from benchmarks.ingest_speed import bench_git  # noqa: E402

PATHS = ("raw", "embed", "backfill")
TARGET_RATIO = 1.5
TARGET_RSS_MB = 500


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def package_repo(spec: str) -> Path:
    """The package's import folder of ``spec`` (sdist or wheel) in a one-commit git repository."""
    name = spec.split("==")[0].replace("-", "_").lower()
    dest = CACHE / "embed_speed" / spec.replace("==", "-")
    if (dest / ".git").is_dir():
        return dest
    root = fetch_pypi(spec)
    found = sorted((p for p in root.rglob(name) if p.is_dir() and (p / "__init__.py").is_file()),
                   key=lambda p: len(p.parts))  # fmt: skip
    if not found:
        raise SystemExit(f"no package folder {name!r} in {root}")
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(found[0], dest / name)
    git = bench_git(dest)
    git("init", "-q", "-b", "main")
    git("add", ".")
    git("commit", "-qm", f"Import {spec}")
    return dest


def collect_texts(db: Any, ws: str, embedder: Any) -> list[str]:
    """The texts a fresh back-fill of ``ws`` sends to the model, in its order."""
    from mnemosyne.search.backfill import GitBodyReader, _collect, call_names_at_head
    from mnemosyne.search.target import repo_and_commit

    g = db.graph(ws)
    repo, commit = repo_and_commit(g, db, ws)
    items = _collect(g, embedder, GitBodyReader(str(repo), str(commit)), call_names_at_head(g))
    return list(dict.fromkeys(it.build() for it in items))


# -- child processes: one path each -------------------------------------------------------------


def _embedder() -> Any:
    """The local model the driver names (``--model``), from the driver's home (children run in
    the private one)."""
    from mnemosyne.search.embedders import LocalEmbedder

    home = os.environ.get("MNEMOSYNE_BENCH_MODEL_HOME")
    return LocalEmbedder(model=os.environ.get("MNEMOSYNE_EMBEDDINGS_MODEL") or None, home=Path(home) if home else None)


def child_raw(texts: list[str]) -> dict[str, Any]:
    """Tokenize, batch as the embedder does, ``InferenceSession.run``: nothing else."""
    emb = _embedder()
    t0, c0 = time.perf_counter(), time.process_time()
    ids = [e.ids for e in emb._tok.encode_batch(texts)]
    for idx in emb.plan_batches([len(x) for x in ids]):
        emb.run_batch([ids[i] for i in idx])
    return {"seconds": time.perf_counter() - t0, "cpu_seconds": time.process_time() - c0, "texts": len(texts)}


def child_embed(texts: list[str]) -> dict[str, Any]:
    emb = _embedder()
    t0, c0 = time.perf_counter(), time.process_time()
    v = emb.embed(texts)
    assert v.shape[0] == len(texts)
    return {"seconds": time.perf_counter() - t0, "cpu_seconds": time.process_time() - c0, "texts": len(texts)}


def child_backfill(ws: str) -> dict[str, Any]:
    from mnemosyne.config import get_settings
    from mnemosyne.search.backfill import EmbeddingCache, backfill
    from mnemosyne.store.connection import connect

    emb = _embedder()
    db = connect(get_settings(fresh=True))
    g = db.graph(ws)
    g.query("MATCH (n) WHERE n.embedding IS NOT NULL SET n.embedding = null, n.embed_hash = null")
    with tempfile.TemporaryDirectory() as tmp:
        t0, c0 = time.perf_counter(), time.process_time()
        rep = backfill(db, ws, emb, cache=EmbeddingCache(Path(tmp) / "c.sqlite"), rebuild=False)
        secs, cpu = time.perf_counter() - t0, time.process_time() - c0
    db.close()
    return {"seconds": secs, "cpu_seconds": cpu, "texts": rep.embedded, "model_seconds": rep.embed_seconds}


def run_child(path: str, texts_file: Path, ws: str) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--child", path, "--texts-file", str(texts_file), "--workspace", ws]
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if p.returncode != 0:
        raise SystemExit(f"{path} child failed:\n{p.stderr[-3000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


# -- the driver ---------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--package", default="click==8.1.7", help="pinned PyPI release whose code is embedded")
    ap.add_argument("--runs", type=int, default=3, help="rounds of the three paths (medians)")
    ap.add_argument("--json", metavar="FILE", help="write the numbers as JSON")
    ap.add_argument("--texts-only", action="store_true", help="only write the texts file (.bench/embed_speed/)")
    ap.add_argument("--model", default=None, help="local model: minilm (default) or mpnet (model_files.LOCAL_MODELS)")
    ap.add_argument("--child", choices=PATHS, help=argparse.SUPPRESS)
    ap.add_argument("--texts-file", help=argparse.SUPPRESS)
    ap.add_argument("--workspace", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.child:
        texts = json.loads(Path(args.texts_file).read_text())
        run = {"raw": lambda: child_raw(texts), "embed": lambda: child_embed(texts),
               "backfill": lambda: child_backfill(args.workspace)}[args.child]  # fmt: skip
        out = run()
        out["peak_rss_mb"] = round(peak_rss_mb(), 1)
        print(json.dumps(out))
        return 0

    from benchmarks._private_db import private_database
    from mnemosyne.config import get_settings
    from mnemosyne.ingest import ingest_path

    os.environ["MNEMOSYNE_BENCH_MODEL_HOME"] = str(get_settings(fresh=True).home)  # for the children
    if args.model:
        os.environ["MNEMOSYNE_EMBEDDINGS_MODEL"] = args.model
    repo = package_repo(args.package)
    ws = "embedspeed"
    with private_database("mnembed-") as (home, _settings, db):
        t0 = time.perf_counter()
        ingest_path(db, repo, name=ws, head_only=True)
        print(f"ingested {args.package} in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        os.environ["MNEMOSYNE_EMBEDDINGS_PROVIDER"] = "local"  # for the children
        texts = collect_texts(db, ws, _embedder())
        texts_file = CACHE / "embed_speed" / f"{args.package.replace('==', '-')}.texts.json"  # kept for profiling
        texts_file.write_text(json.dumps(texts))
        if args.texts_only:
            print(texts_file)
            return 0
        runs: dict[str, list[dict[str, Any]]] = {p: [] for p in PATHS}
        for r in range(args.runs):
            for p in PATHS:
                runs[p].append(run_child(p, texts_file, ws))
                print(f"  round {r + 1} {p:<8} {runs[p][-1]}", file=sys.stderr)
        db.close()

    med = {p: {"seconds": statistics.median(x["seconds"] for x in rs),
               "cpu_seconds": statistics.median(x["cpu_seconds"] for x in rs),
               "texts": statistics.median(x["texts"] for x in rs),
               "peak_rss_mb": max(x["peak_rss_mb"] for x in rs)} for p, rs in runs.items()}  # fmt: skip
    per_text_raw = med["raw"]["seconds"] / max(med["raw"]["texts"], 1)
    cpu_per_text_raw = med["raw"]["cpu_seconds"] / max(med["raw"]["texts"], 1)
    for p in PATHS:
        med[p]["rate"] = med[p]["texts"] / max(med[p]["seconds"], 1e-9)
        med[p]["ratio"] = (med[p]["seconds"] / max(med[p]["texts"], 1)) / per_text_raw
        med[p]["cpu_ratio"] = (med[p]["cpu_seconds"] / max(med[p]["texts"], 1)) / max(cpu_per_text_raw, 1e-9)
    ntok = sum(len(t) for t in texts)
    print(f"\n{args.package}, model {args.model or 'minilm'}: {len(texts)} texts ({ntok / max(len(texts), 1):.0f} chars each on average), "
          f"medians of {args.runs} rounds")
    print(f"{'path':<9} {'texts':>6} {'seconds':>8} {'texts/s':>8} {'x raw':>6} {'CPU s':>7} {'CPU x raw':>9} "
          f"{'peak RSS MB':>12}")
    for p in PATHS:
        m = med[p]
        print(f"{p:<9} {m['texts']:>6.0f} {m['seconds']:>8.2f} {m['rate']:>8.1f} {m['ratio']:>6.2f} "
              f"{m['cpu_seconds']:>7.1f} {m['cpu_ratio']:>9.2f} {m['peak_rss_mb']:>12.0f}")
    ok_ratio = med["backfill"]["ratio"] <= TARGET_RATIO
    ok_rss = med["backfill"]["peak_rss_mb"] <= TARGET_RSS_MB
    print(f"targets: back-fill <= {TARGET_RATIO}x raw: {'met' if ok_ratio else 'NOT met'}; "
          f"peak RSS <= {TARGET_RSS_MB} MB: {'met' if ok_rss else 'NOT met'}")
    if args.json:
        Path(args.json).write_text(json.dumps({"package": args.package, "model": args.model or "minilm", "rounds": runs, "median": med}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
