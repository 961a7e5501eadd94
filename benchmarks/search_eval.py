"""Search quality: recall@5, recall@10 and MRR of keyword, semantic and hybrid search.

    /work/venv/bin/python benchmarks/search_eval.py            # table + benchmarks/.. JSON with --json
    /work/venv/bin/python benchmarks/search_eval.py --grid     # also a small grid over RRF k / weights
    /work/venv/bin/python benchmarks/search_eval.py --verbose  # every question's rank per mode
    python benchmarks/search_eval.py --repos cachetools --weights mentioned_by_section=0  # a variant

Questions: benchmarks/data/search_questions.json (natural language, each with the symbols that
answer it). Repositories: the python_shop and ts_notes samples (built with
``mnemosyne.samples``), three real packages (itsdangerous, flask, click; pinned wheels) and
four whole source distributions with their documentation and tests (cachetools, tenacity, attrs,
marshmallow; ``"sdist": true``),
pip-downloaded into ``$MNEMOSYNE_BENCH_CACHE/downloads`` (default ``.bench/downloads``) at run
time and committed to throwaway git repositories under ``.bench/repos`` (never to ours).
Questions of type ``paraphrase`` are written as a user would ask, from the code: the benchmark
refuses one that uses a word of an answer's own name. Everything runs on a
private embedded FalkorDB under ``.bench/`` with a local ONNX model (``--model``: minilm, the
default, or mpnet after ``mnemosyne models fetch --model mpnet``; ``--onnx FILE`` runs another
export of the same model, e.g. fp32); embeddings are cached in ``.bench/embeddings.sqlite`` between
runs, by model id.

A question scores rank r when one of its answers is the r-th function/class result
(kind=function,class; limit 10). MRR counts ranks up to 10.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / ".bench"
# pip downloads are kept here; MNEMOSYNE_BENCH_CACHE lets several checkouts share one folder
DOWNLOADS = Path(os.environ.get("MNEMOSYNE_BENCH_CACHE") or BENCH) / "downloads"
QUESTIONS = ROOT / "benchmarks" / "data" / "search_questions.json"
MODES = ("keyword", "semantic", "hybrid")
#: the repository whose questions the fusion weights were not chosen on (``--grid``)
HELD_OUT = "click"
_GIT_ENV = {"GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "bench@example.com", "GIT_COMMITTER_NAME": "Bench",
            "GIT_COMMITTER_EMAIL": "bench@example.com", "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z",
            "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z"}  # fmt: skip


def _start_server() -> tuple[Any, Any]:
    """A private embedded FalkorDB (short socket path) and its settings."""
    home = Path(tempfile.mkdtemp(prefix="mnb-", dir="/tmp"))
    os.environ["MNEMOSYNE_HOME"] = str(home)
    os.environ["MNEMOSYNE_FALKORDB_SOCKET"] = str(home / "f.sock")
    os.environ.pop("MNEMOSYNE_FALKORDB_URL", None)
    from mnemosyne.config import get_settings
    from mnemosyne.store.embedded import EmbeddedFalkorDB

    settings = get_settings(fresh=True)
    server = EmbeddedFalkorDB(settings)
    server.start()
    return server, settings


def _pypi_repo(name: str, spec: dict[str, Any]) -> Path:
    """Download the pinned wheel, unpack its package into a one-commit git repository; with
    ``"sdist": true`` the source distribution instead, whole (documentation, tests and all: the
    shape of a project's own repository, so documentation sections take part in the ranking)."""
    dest = BENCH / "repos" / name
    if (dest / ".git").exists():
        return dest
    dl = DOWNLOADS
    dl.mkdir(parents=True, exist_ok=True)
    kind = ["--no-binary", ":all:"] if spec.get("sdist") else ["--only-binary", ":all:"]
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", *kind, "-q",
                    "--disable-pip-version-check", "-d", str(dl), spec["requirement"]], check=True)  # fmt: skip
    dist, ver = spec["requirement"].split("==")
    dest.mkdir(parents=True, exist_ok=True)
    if spec.get("sdist"):
        sdist = dl / f"{dist}-{ver}.tar.gz"
        with tarfile.open(sdist) as tf:
            for m in tf.getmembers():
                top, _, rest = m.name.partition("/")
                if rest and (m.isfile() or m.isdir()):
                    m.name = rest
                    tf.extract(m, dest, filter="data")
    else:
        wheel = sorted(dl.glob(f"{dist.replace('-', '_')}-*.whl"))[-1]
        with zipfile.ZipFile(wheel) as zf:
            for member in zf.namelist():
                if member.startswith(spec["package_dir"] + "/"):
                    zf.extract(member, dest)
    env = {**os.environ, **_GIT_ENV}
    subprocess.run(["git", "init", "-q", "-b", "main", str(dest)], check=True, env=env)
    subprocess.run(["git", "-C", str(dest), "add", "."], check=True, env=env)
    subprocess.run(["git", "-C", str(dest), "commit", "-qm", f"Import {spec['requirement']}"], check=True, env=env)
    return dest


def prepare(db: Any, repos: dict[str, dict[str, Any]], embedder: Any, log=print) -> dict[str, str]:
    """Build, ingest, catch docs up and embed every repository; returns repo -> workspace name."""
    from mnemosyne import vocabulary as V
    from mnemosyne.ingest import ingest_path
    from mnemosyne.samples import build_sample_repo
    from mnemosyne.search.backfill import EmbeddingCache, backfill
    from mnemosyne.search.doc_store import sync_docs

    cache = EmbeddingCache(BENCH / "embeddings.sqlite")
    out: dict[str, str] = {}
    for name, spec in repos.items():
        t0 = time.perf_counter()
        if spec["source"] == "sample":
            path = BENCH / "repos" / name
            if not (path / ".git").exists():
                build_sample_repo(name, path)
        else:
            path = _pypi_repo(name, spec)
        res = ingest_path(db, path, name=name)
        sync_docs(db, name)
        rep = backfill(db, name, embedder, cache=cache)
        ((n_sections,),) = db.graph(name).ro_query(f"MATCH (s:{V.SECTION}) RETURN count(s)")
        log(f"  {name}: {res.commits_ingested} commits ingested, {n_sections} doc sections, "
            f"{rep.embedded} embedded ({rep.sentences} first sentences) + {rep.reused} from cache, {time.perf_counter() - t0:.1f} s")  # fmt: skip
        out[name] = name
    cache.close()
    return out


def check_answers(db: Any, questions: list[dict[str, Any]]) -> list[str]:
    """Answers that are not symbols at HEAD (a stale question set)."""
    bad = []
    for q in questions:
        g = db.graph(q["repo"])
        rows = g.ro_query(
            "MATCH ()-[d:DEFINES]->(n) WHERE n.fully_qualified_name IN $a AND d.valid_to_seq IS NULL "
            "RETURN DISTINCT n.fully_qualified_name", {"a": q["answers"]},
        )  # fmt: skip
        if not rows:
            bad.append(f"{q['repo']}: {q['q']!r} -> none of {q['answers']} exists at HEAD")
    return bad


def name_parts(fqn: str) -> list[str]:
    """The identifier parts a paraphrase must not use: the answer's own name and, for a method,
    its class's name (``flask.sessions.SessionInterface.should_set_cookie`` -> should set cookie
    session interface)."""
    from mnemosyne.search.text import split_identifier

    parts = [p for p in fqn.replace("/", ".").split(".") if p]
    names = parts[-1:] + [p for p in parts[-2:-1] if p[:1].isupper()]
    return [w for n in names for w in split_identifier(n)]


def name_word_leaks(questions: list[dict[str, Any]]) -> list[str]:
    """Paraphrased questions that use a word of an answer's identifier parts (``name_parts``; by
    light stem or 4+ letter prefix, as ``text.name_overlap`` matches): those would test keyword
    luck, not intent."""
    from mnemosyne.search.text import query_words, stem

    def hit(w: str, pool: set[str]) -> bool:
        return any(w == x or (len(w) >= 4 and len(x) >= 4 and (x.startswith(w) or w.startswith(x))) for x in pool)

    bad = []
    for q in questions:
        if q.get("type") != "paraphrase":
            continue
        qw = {stem(w) for w in query_words(q["q"]) if not w.isdigit()}
        for a in q["answers"]:
            own = {stem(w) for w in name_parts(a)}
            leaked = sorted(w for w in qw if hit(w, own))
            if leaked:
                bad.append(f"{q['repo']}: {q['q']!r} uses {leaked} of {a}")
    return bad


def rank_of(results: list[Any], answers: list[str]) -> int | None:
    for i, r in enumerate(results, start=1):
        if r.key in answers:
            return i
    return None


def consensus_losses(questions: list[dict[str, Any]], keyword: list[int | None], semantic: list[int | None],
                     hybrid: list[int | None], top: int = 3) -> list[str]:
    """Questions that keyword and semantic both answer in their top ``top`` and hybrid does not (the
    issue's rule: fusion never loses what both single modes rank near the top)."""
    return [f"kw={k} sem={s} hyb={h or '-'}  [{q['repo']}] {q['q']}"
            for q, k, s, h in zip(questions, keyword, semantic, hybrid, strict=True)
            if k and s and k <= top and s <= top and not (h and h <= top)]  # fmt: skip


def evaluate(db: Any, questions: list[dict[str, Any]], embedder: Any, weights: Any = None,
             modes=MODES) -> dict[str, Any]:  # fmt: skip
    from mnemosyne.search.hybrid import search

    per_mode: dict[str, Any] = {}
    for mode in modes:
        ranks = []
        for q in questions:
            res = search(db, q["repo"], q["q"], mode=mode, kind=["function", "class"], limit=10,
                         embedder=embedder, weights=weights)  # fmt: skip
            ranks.append(rank_of(res.results, q["answers"]))
        n = len(ranks)
        per_mode[mode] = {
            "recall@1": sum(1 for r in ranks if r and r <= 1) / n,
            "recall@5": sum(1 for r in ranks if r and r <= 5) / n,
            "recall@10": sum(1 for r in ranks if r and r <= 10) / n,
            "mrr": sum(1.0 / r for r in ranks if r) / n,
            "ranks": ranks,
        }
    return per_mode


def throughput(db: Any, ws: str, embedder: Any) -> dict[str, float]:
    """The embedding step against raw onnxruntime on the same texts, in this run: a fresh
    back-fill of ``ws`` (no cache, vectors written to the graph) vs ``InferenceSession.run`` alone
    on pre-tokenized, length-sorted batches of the same size with the same threads."""
    import resource

    import numpy as np

    from mnemosyne.search.backfill import EmbeddingCache, backfill

    g = db.graph(ws)
    g.query("MATCH (n) WHERE n.embedding IS NOT NULL REMOVE n.embed_hash")
    with tempfile.TemporaryDirectory() as tmp:
        t0, c0 = time.perf_counter(), time.process_time()
        rep = backfill(db, ws, embedder, cache=EmbeddingCache(Path(tmp) / "c.sqlite"), rebuild=False)
        step, step_cpu = time.perf_counter() - t0, time.process_time() - c0
    texts = [t for (t,) in g.ro_query("MATCH (n) WHERE n.embedding IS NOT NULL RETURN n.fully_qualified_name")]
    # the same texts the back-fill embedded: rebuild them through the back-fill's own collector
    from mnemosyne.search.backfill import GitBodyReader, _collect, call_names_at_head
    from mnemosyne.search.target import repo_and_commit

    repo, commit = repo_and_commit(g, db, ws)
    g.query("MATCH (n) WHERE n.embedding IS NOT NULL REMOVE n.embed_hash")
    items = _collect(g, embedder, GitBodyReader(repo, commit), call_names_at_head(g))
    texts = [it.build() for it in items]
    sess, tok = embedder._sess, embedder._tok
    enc = sorted(tok.encode_batch(texts), key=lambda e: len(e.ids))
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(0, len(enc), embedder.batch_size):
        chunk = enc[i : i + embedder.batch_size]
        n = max(len(e.ids) for e in chunk)
        ids = np.array([e.ids + [embedder.pad_id] * (n - len(e.ids)) for e in chunk], dtype=np.int64)
        mask = np.array([e.attention_mask + [0] * (n - len(e.ids)) for e in chunk], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in embedder._input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        sess.run(None, feeds)
    raw, raw_cpu = time.perf_counter() - t0, time.process_time() - c0
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    sent = rep.embedded  # whole texts and first sentences, as the raw loop's texts
    return {"texts": sent, "step_s": round(step, 2), "embed_s": rep.embed_seconds, "raw_texts": len(texts),
            "raw_s": round(raw, 2), "rate": round(sent / max(rep.embed_seconds, 1e-9), 1),
            "raw_rate": round(len(texts) / max(raw, 1e-9), 1),
            "ratio": round((rep.embed_seconds / max(sent, 1)) / (raw / max(len(texts), 1)), 2),
            "peak_rss_mb": round(peak_mb), "step_cpu_s": round(step_cpu, 1), "raw_cpu_s": round(raw_cpu, 1),
            "cpu_ratio": round((step_cpu / max(sent, 1)) / max(raw_cpu / max(len(texts), 1), 1e-9), 2)}


def _table(per_mode: dict[str, Any], title: str) -> str:
    lines = [title, f"{'mode':<10} {'R@1':>6} {'R@5':>6} {'R@10':>6} {'MRR':>6}"]
    for mode, m in per_mode.items():
        lines.append(f"{mode:<10} {m['recall@1']:>6.3f} {m['recall@5']:>6.3f} {m['recall@10']:>6.3f} {m['mrr']:>6.3f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--grid", action="store_true", help="also evaluate hybrid over a grid of RRF k and weights")
    ap.add_argument("--verbose", action="store_true", help="print each question's rank per mode")
    ap.add_argument("--json", metavar="FILE", help="write the numbers as JSON")
    ap.add_argument("--throughput", metavar="REPO", nargs="?", const="click",
                    help="also time a fresh back-fill of REPO (default click) against raw onnxruntime, print peak RSS")
    ap.add_argument("--model", default=None, help="local model: minilm (default) or mpnet (model_files.LOCAL_MODELS)")
    ap.add_argument("--onnx", metavar="FILE", help="another ONNX export of --model (its own model id, e.g. fp32)")
    ap.add_argument("--repos", help="comma-separated repositories: only these and their questions")
    ap.add_argument("--weights", metavar="K=V,...", help="hybrid with these Weights fields changed (e.g. "
                    "mentioned_by_section=0): a variant against the defaults, on the same questions")
    args = ap.parse_args(argv)

    spec = json.loads(QUESTIONS.read_text())
    if args.repos:
        keep = args.repos.split(",")
        unknown = sorted(set(keep) - set(spec["repos"]))
        if unknown:
            ap.error(f"unknown repositories {unknown}: {sorted(spec['repos'])}")
        spec["repos"] = {r: v for r, v in spec["repos"].items() if r in keep}
        spec["questions"] = [q for q in spec["questions"] if q["repo"] in keep]
    questions = spec["questions"]
    BENCH.mkdir(exist_ok=True)
    from mnemosyne.config import get_settings
    from mnemosyne.search.embedders import LocalEmbedder

    # before the private home: a model converted into the user's home is found there
    embedder = LocalEmbedder(model=args.model, onnx_path=Path(args.onnx) if args.onnx else None,
                             home=Path(get_settings(fresh=True).home))  # fmt: skip
    print(f"model {embedder.model_id} ({embedder.dim} dims)")
    server, settings = _start_server()
    try:
        from mnemosyne.search.fusion import Weights
        from mnemosyne.store.connection import connect

        db = connect(settings)
        print(f"preparing {len(spec['repos'])} repositories ...")
        prepare(db, spec["repos"], embedder)
        bad = check_answers(db, questions) + name_word_leaks(questions)
        if bad:
            print("stale questions:\n  " + "\n  ".join(bad))
            return 1
        t0 = time.perf_counter()
        per_mode = evaluate(db, questions, embedder)
        secs = time.perf_counter() - t0
        by_repo = {}
        for repo in spec["repos"]:
            qs = [q for q in questions if q["repo"] == repo]
            by_repo[repo] = evaluate(db, qs, embedder)
        # the fusion weights were chosen on every repository but HELD_OUT
        halves = {"tuning": [q for q in questions if q["repo"] != HELD_OUT],
                  "held_out": [q for q in questions if q["repo"] == HELD_OUT]}
        split = {part: evaluate(db, qs, embedder) for part, qs in halves.items() if qs}
        by_type = {}
        for typ in ("question", "identifier", "paraphrase"):
            qs = [q for q in questions if q.get("type", "question") == typ]
            if qs:
                by_type[typ] = evaluate(db, qs, embedder)
        print()
        print(_table(per_mode, f"all {len(questions)} questions ({secs:.1f} s for {len(questions) * 3} searches)"))
        for typ, pm in by_type.items():
            print()
            print(_table(pm, f"type {typ} ({sum(1 for q in questions if q.get('type', 'question') == typ)} questions)"))
        for repo, pm in by_repo.items():
            print()
            print(_table(pm, f"{repo} ({sum(1 for q in questions if q['repo'] == repo)} questions)"))
        for part, pm in split.items():
            print()
            print(_table(pm, f"{part} ({len(pm['hybrid']['ranks'])} questions; held out = {HELD_OUT})"))
        tp = None
        if args.throughput:
            tp = throughput(db, args.throughput, embedder)
            print(f"\nembedding {args.throughput}: {tp['texts']} texts in {tp['embed_s']} s ({tp['rate']}/s; whole step "
                  f"{tp['step_s']} s) vs raw onnxruntime {tp['raw_texts']} texts in {tp['raw_s']} s ({tp['raw_rate']}/s): "
                  f"ratio {tp['ratio']} per text; CPU {tp['step_cpu_s']} s (whole step) vs {tp['raw_cpu_s']} s raw: "
                  f"ratio {tp['cpu_ratio']}; peak RSS {tp['peak_rss_mb']} MB")
        if args.verbose:
            print()
            for i, q in enumerate(questions):
                ranks = " ".join(f"{m[:3]}={per_mode[m]['ranks'][i] or '-':>2}" for m in MODES)
                print(f"  {ranks}  [{q['repo']}] {q['q']}")
        lost = consensus_losses(questions, *(per_mode[m]["ranks"] for m in MODES))
        print(f"\nquestions both single modes rank in their top 3 and hybrid does not: {len(lost)}")
        for line in lost:
            print(f"  {line}")
        if args.weights:
            def value(k: str, v: str) -> Any:
                default = getattr(Weights(), k)
                return v.lower() in ("1", "true", "yes") if isinstance(default, bool) else type(default)(v)

            changed = {k: value(k, v) for k, v in (kv.split("=", 1) for kv in args.weights.split(","))}
            variant = evaluate(db, questions, embedder, weights=Weights(**changed), modes=("hybrid",))
            print()
            print(_table({"hybrid": per_mode["hybrid"], f"hybrid {args.weights}": variant["hybrid"]},
                         f"hybrid, defaults against {args.weights}"))
            for part, keep in (("tuning", lambda q: q["repo"] != HELD_OUT), ("held out", lambda q: q["repo"] == HELD_OUT)):
                cols = [(a, b) for q, a, b in zip(questions, per_mode["hybrid"]["ranks"], variant["hybrid"]["ranks"])
                        if keep(q)]  # fmt: skip
                if cols:
                    n = len(cols)
                    r5 = [sum(1 for x in side if x and x <= 5) / n for side in zip(*cols)]
                    mrr = [sum(1.0 / x for x in side if x) / n for side in zip(*cols)]
                    print(f"  {part} ({n}): R@5 / MRR {r5[0]:.3f} / {mrr[0]:.3f} -> {r5[1]:.3f} / {mrr[1]:.3f}")
            moved = [(q, a, b) for q, a, b in zip(questions, per_mode["hybrid"]["ranks"], variant["hybrid"]["ranks"])
                     if a != b]  # fmt: skip
            for q, a, b in moved:
                print(f"  {a or '-':>2} -> {b or '-':>2}  [{q['repo']}] {q['q']}")
            lost = consensus_losses(questions, per_mode["keyword"]["ranks"], per_mode["semantic"]["ranks"],
                                    variant["hybrid"]["ranks"])  # fmt: skip
            print(f"  questions both single modes rank in their top 3 and the variant does not: {len(lost)}")
            for line in lost:
                print(f"    {line}")
        grid = []
        if args.grid:
            print("\nhybrid grid:")
            off = {"called_by_matches": 0, "mentioned_by_section": 0, "mentions_matches": 0, "class_of_matches": 0}
            configs = []
            for k in (1, 3, 5, 10, 30):
                for wk in (0.35, 0.4, 0.5, 0.75, 1.0):
                    configs.append((f"rrf k={k} w_kw={wk}", Weights(fusion="rrf", rrf_k=k, keyword=wk)))
            configs.append(("rrf defaults, rerank off", Weights(**off)))
            configs.append(("rrf defaults, no consensus", Weights(consensus_top=0)))
            for a in (0.7, 0.8, 0.9, 1.0):
                configs.append((f"linear alpha={a}", Weights(fusion="linear", alpha=a)))
            tune = [q for q in questions if q["repo"] != HELD_OUT]
            held = [q for q in questions if q["repo"] == HELD_OUT]
            print(f"  (tune = every repository but {HELD_OUT}, held out = {HELD_OUT}; defaults were chosen on 'tune')")
            for label, w in configs:
                mt = evaluate(db, tune, embedder, weights=w, modes=("hybrid",))["hybrid"]
                mh = evaluate(db, held, embedder, weights=w, modes=("hybrid",))["hybrid"]
                grid.append({"config": label, "tune": {x: mt[x] for x in ("recall@1", "recall@5", "recall@10", "mrr")},
                             "held_out": {x: mh[x] for x in ("recall@1", "recall@5", "recall@10", "mrr")}})
                print(f"  {label:<42} tune R@5={mt['recall@5']:.3f} R@10={mt['recall@10']:.3f} MRR={mt['mrr']:.3f}"
                      f" | held-out R@5={mh['recall@5']:.3f} R@10={mh['recall@10']:.3f} MRR={mh['mrr']:.3f}")
        if args.json:
            out = {"questions": len(questions), "all": {m: {k: v for k, v in d.items() if k != "ranks"}
                   for m, d in per_mode.items()}, "by_repo": {r: {m: {k: v for k, v in d.items() if k != "ranks"}
                   for m, d in pm.items()} for r, pm in by_repo.items()}, "by_type": {t: {m: {k: v for k, v in d.items() if k != "ranks"}
                   for m, d in pm.items()} for t, pm in by_type.items()}, "grid": grid, "throughput": tp,
                   "model": embedder.model_id, "split": {p: {m: {k: v for k, v in d.items() if k != "ranks"}
                   for m, d in pm.items()} for p, pm in split.items()}}  # fmt: skip
            Path(args.json).write_text(json.dumps(out, indent=2))
        db.close()
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
