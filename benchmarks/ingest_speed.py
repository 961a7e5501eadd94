"""Ingestion speed on real code evolving: successive sdists of a PyPI project, committed one after
another (each release transition split into several commits of random size, so the history has
small and large commits), then ingested into a throwaway embedded FalkorDB.

    /work/venv/bin/python benchmarks/ingest_speed.py                 # rich, 24 releases
    /work/venv/bin/python benchmarks/ingest_speed.py --releases 8    # quicker
    /work/venv/bin/python benchmarks/ingest_speed.py --project click --version 8.0.0 --version 8.1.7
    /work/venv/bin/python benchmarks/ingest_speed.py --npm --project rxjs --under src \
        --version 7.0.0 --version 7.1.0 --version 7.2.0 ... --verify      # TypeScript, invariant checked
    /work/venv/bin/python benchmarks/ingest_speed.py --workers 2     # parse the next commits on a 2nd core

Downloads go to .bench/sdists/ (``pip download --no-deps --no-binary :all:``, cached), the repository
to .bench/repos/. Prints: commits/s; ms per commit (median, p95) by commit size bucket (changed
source files); total ingest time against the floor of parsing only the changed blobs with raw
tree-sitter in the same run; latency of "calls at commit" / "callers at commit" (median, p95) for
random symbols and commits, through the named queries the query layer uses.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # this checkout's code, not whatever `mnemosyne` is installed
    sys.path.insert(0, str(ROOT))

from mnemosyne.procs import cpu_ticks, read_pid_file  # noqa: E402
from mnemosyne.workspaces import add_workspace  # noqa: E402

BENCH = ROOT / ".bench"
RICH = [
    "12.0.0", "12.0.1", "12.2.0", "12.3.0", "12.4.0", "12.4.4", "12.5.1", "12.6.0", "13.0.0", "13.1.0",
    "13.2.0", "13.3.0", "13.3.5", "13.4.0", "13.4.2", "13.5.0", "13.5.3", "13.6.0", "13.7.0", "13.7.1",
    "13.8.0", "13.8.1", "13.9.0", "13.9.4",
]
BUCKETS = ((1, 1), (2, 5), (6, 20), (21, 100), (101, 10**9))


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, round(p / 100 * (len(xs) - 1))))
    return xs[k]


def download(project: str, versions: list[str]) -> list[Path]:
    d = BENCH / "sdists" / project
    d.mkdir(parents=True, exist_ok=True)
    out = []
    for v in versions:
        have = [p for p in d.glob(f"*-{v}.tar.gz")] + [p for p in d.glob(f"*-{v}.zip")]
        if not have:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                 f"{project}=={v}", "-d", str(d)],
                check=True,
            )
            have = [p for p in d.glob(f"*-{v}.tar.gz")] + [p for p in d.glob(f"*-{v}.zip")]
        out.append(have[0])
    return out


def download_npm(package: str, versions: list[str]) -> list[Path]:
    """``npm pack`` tarballs of ``package`` at ``versions`` (cached in .bench/npm-tarballs/)."""
    d = BENCH / "npm-tarballs" / package.replace("/", "_")
    d.mkdir(parents=True, exist_ok=True)
    out = []
    for v in versions:
        stem = package.lstrip("@").replace("/", "-")
        tgz = d / f"{stem}-{v}.tgz"
        if not tgz.exists():
            subprocess.run(["npm", "pack", "--silent", f"{package}@{v}", "--pack-destination", str(d)],
                           check=True, capture_output=True)
        out.append(tgz)
    return out


UNDER: str | None = None  # only archive members under this folder (e.g. an npm package's src/)


def _members(sdist: Path) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    with tarfile.open(sdist) as tf:
        for m in tf.getmembers():
            if not m.isfile():
                continue
            rel = m.name.split("/", 1)[1] if "/" in m.name else m.name
            if not rel or rel.endswith((".pyc", ".so")) or "egg-info" in rel or rel == "PKG-INFO":
                continue
            if UNDER and not rel.startswith(UNDER.rstrip("/") + "/") and "/" in rel:
                continue  # top-level files (package.json, tsconfig.json) are kept
            f = tf.extractfile(m)
            if f is not None:
                files[rel] = f.read()
    return files


def bench_git(dest: Path):
    """``git(*args, extra=None)`` in ``dest`` with a fixed identity and no user or system config
    (the benchmark repositories are the same on every machine)."""
    env = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_AUTHOR_NAME": "Bench",
           "GIT_AUTHOR_EMAIL": "bench@example.com", "GIT_COMMITTER_NAME": "Bench",
           "GIT_COMMITTER_EMAIL": "bench@example.com", "PATH": "/usr/bin:/bin"}

    def git(*a: str, extra: dict | None = None) -> None:
        subprocess.run(["git", *a], cwd=dest, env={**env, **(extra or {})}, check=True, capture_output=True)

    return git


def build_repo(project: str, sdists: list[Path], dest: Path, seed: int = 7) -> int:
    """One or more commits per release (changed files split into random chunks). Returns #commits."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    git = bench_git(dest)
    git("init", "-q", "--template=", "-b", "main", ".")
    rnd = random.Random(seed)
    current: dict[str, bytes] = {}
    clock = 1_600_000_000
    n = 0
    for sd in sdists:
        version = sd.name.rsplit("-", 1)[1].removesuffix(".tar.gz").removesuffix(".tgz")
        new = _members(sd)
        changed = sorted(p for p in set(new) | set(current) if new.get(p) != current.get(p))
        rnd.shuffle(changed)
        chunks: list[list[str]] = []
        i = 0
        while i < len(changed):
            size = 10**9 if not chunks and not current else rnd.choice([1, 1, 1, 2, 2, 3, 4, 6, 10, 25])
            chunks.append(changed[i : i + size])
            i += size
        for j, chunk in enumerate(chunks):
            for p in chunk:
                full = dest / p
                if p in new:
                    full.parent.mkdir(parents=True, exist_ok=True)
                    full.write_bytes(new[p])
                elif full.exists():
                    full.unlink()
            git("add", "-A", ".")
            clock += 3600
            msg = f"{project} {version} ({j + 1}/{len(chunks)})"
            git("commit", "-q", "--no-verify", "--allow-empty", "-m", msg,
                extra={"GIT_AUTHOR_DATE": f"@{clock} +0000", "GIT_COMMITTER_DATE": f"@{clock} +0000"})
            n += 1
        current = new
    return n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--project", default="rich")
    ap.add_argument("--version", action="append", help="release to use (repeat); default: a list of rich releases")
    ap.add_argument("--releases", type=int, default=len(RICH), help="use the first N releases of the default list")
    ap.add_argument("--queries", type=int, default=300, help="random queries per kind")
    ap.add_argument("--rebuild", action="store_true", help="rebuild the repository even if cached")
    ap.add_argument("--npm", action="store_true",
                    help="--project is an npm package (tarballs through npm pack), e.g. "
                         "--npm --project rxjs --under src --version 7.0.0 --version 7.1.0 ...")
    ap.add_argument("--under", default=None, help="only files under this folder of each release (npm: src)")
    ap.add_argument("--verify", action="store_true",
                    help="after ingesting, check the invariant at every commit: the graph as of the commit "
                         "equals a fresh parse of its tree, edge for edge (slow: one full parse per commit)")
    ap.add_argument("--workers", type=int, default=1,
                    help="parse_workers: >1 parses the next commits' files on a process pool while the "
                         "current one is resolved and written (default 1: serial)")
    ap.add_argument("--resolve-workers", type=int, default=None,
                    help="resolve_workers: 2 resolves big batches on two cores (default: --workers; the "
                         "daemon's default is 2 on a multi-core machine)")
    args = ap.parse_args()
    versions = args.version or RICH[: args.releases]

    import tree_sitter_python as tsp
    import tree_sitter_typescript as tst
    from tree_sitter import Language, Parser

    from mnemosyne.config import Settings
    from mnemosyne.extract import Extractor
    from mnemosyne.git import GitRepo
    from mnemosyne.ingest import ingest_workspace
    from mnemosyne.store.connection import connect
    from mnemosyne.store.embedded import EmbeddedFalkorDB

    global UNDER
    UNDER = args.under
    t = time.perf_counter()
    sdists = download_npm(args.project, versions) if args.npm else download(args.project, versions)
    tag = args.project.lstrip("@").replace("/", "-") + (f"-{args.under}" if args.under else "")
    repo_dir = BENCH / "repos" / f"{tag}-{len(versions)}-{versions[0]}-{versions[-1]}"
    if args.rebuild or not (repo_dir / ".git").exists():
        n = build_repo(args.project, sdists, repo_dir)
    else:
        n = int(subprocess.run(["git", "-C", str(repo_dir), "rev-list", "--count", "main"], capture_output=True,
                               text=True, check=True).stdout)
    print(f"repository: {repo_dir} ({n} commits from {len(versions)} releases of {args.project}; "
          f"prepared in {time.perf_counter() - t:.1f}s)")
    print(f"parse_workers={args.workers}, resolve_workers={args.resolve_workers or args.workers}")

    # changed source files per commit and the raw tree-sitter floor, from the same git data
    owns = Extractor().owns
    parsers = {"py": Parser(Language(tsp.language())), "ts": Parser(Language(tst.language_typescript())),
               "tsx": Parser(Language(tst.language_tsx()))}

    def parser_for(path: str):
        if path.endswith((".py", ".pyi")):
            return parsers["py"]
        if path.endswith((".tsx", ".jsx")):
            return parsers["tsx"]
        if path.endswith((".ts", ".mts", ".cts", ".js", ".mjs", ".cjs")):
            return parsers["ts"]
        return None

    with GitRepo(repo_dir) as gr:
        commits = gr.log(gr.rev_parse("main"))
        sizes: dict[str, int] = {}
        floor_s = 0.0
        for c in commits:
            paths = [ch for ch in c.changes if ch.new_blob and ch.status != "D" and owns(ch.path)]
            sizes[c.hash] = len({ch.path for ch in c.changes if owns(ch.path) or (ch.old_path and owns(ch.old_path))})
            for ch in paths:
                p = parser_for(ch.path)
                if p is None:
                    continue
                data = gr.read_blob(ch.new_blob)
                t0 = time.perf_counter()
                p.parse(data)
                floor_s += time.perf_counter() - t0

    tmp = Path(tempfile.mkdtemp(prefix="mnb-", dir="/tmp"))
    settings = Settings(home=tmp / "home", falkordb_url=None, falkordb_socket=tmp / "db.sock",
                        parse_workers=args.workers,
                        resolve_workers=args.resolve_workers or args.workers)
    server = EmbeddedFalkorDB(settings)
    server.start()
    try:
        with connect(settings) as db:
            info = add_workspace(db.registry, "bench", repo_dir, branch="main")
            per_commit: dict[str, float] = {}
            last = [time.perf_counter()]

            def progress(p) -> None:
                now = time.perf_counter()
                if p.phase == "ingesting" and p.commit:
                    per_commit[p.commit] = (now - last[0]) * 1000
                last[0] = now

            server_pid = read_pid_file(server.pid_file)
            server_ticks = cpu_ticks(server_pid) if server_pid else None
            t0 = time.perf_counter()
            cpu0 = time.process_time()
            res = ingest_workspace(db, info, progress=progress)
            total = time.perf_counter() - t0
            own_cpu = time.process_time() - cpu0
            server_after = cpu_ticks(server_pid) if server_pid else None
            print(f"ingested {res.commits_ingested} commits, {res.files_parsed} files parsed in {total:.2f}s "
                  f"= {res.commits_ingested / total:.1f} commits/s")
            if res.head_ready_s is not None:
                # the target: the head answers within 1.5x of a --head-only ingest of the same head
                clone = tmp / "head-only"
                subprocess.run(["git", "clone", "-q", "--branch", "main", str(repo_dir), str(clone)], check=True)
                t1 = time.perf_counter()
                ingest_workspace(db, add_workspace(db.registry, "bench_head", clone, branch="main"), head_only=True)
                ho = time.perf_counter() - t1
                print(f"HEAD first: the head answered after {res.head_ready_s:.2f}s; a --head-only ingest of the same "
                      f"head takes {ho:.2f}s -> {res.head_ready_s / ho:.2f}x (target <= 1.5x)")
            import resource

            print(f"peak RSS of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
            print("time by phase: " + ", ".join(f"{k} {v:.2f}s" for k, v in res.timings.items()))
            all_ms = list(per_commit.values())
            print(f"ms per commit: median {statistics.median(all_ms):.1f}, p95 {pct(all_ms, 95):.1f}, "
                  f"max {max(all_ms):.1f}")
            print("by commit size (changed source files):")
            for lo, hi in BUCKETS:
                xs = [ms for h, ms in per_commit.items() if lo <= sizes.get(h, 0) <= hi]
                if xs:
                    label = f"{lo}" if lo == hi else (f"{lo}-{hi}" if hi < 10**9 else f">{lo - 1}")
                    print(f"  {label:>8} files: {len(xs):4d} commits  median {statistics.median(xs):8.1f} ms  "
                          f"p95 {pct(xs, 95):8.1f} ms")
            xs = [ms for h, ms in per_commit.items() if 1 <= sizes.get(h, 0) <= 5]
            if xs:  # the target: a 1-5 file commit under 1 s p95
                print(f"  {'1-5':>8} files: {len(xs):4d} commits  median {statistics.median(xs):8.1f} ms  "
                      f"p95 {pct(xs, 95):8.1f} ms  (target p95 < 1000 ms)")
            xs = [ms for h, ms in per_commit.items() if sizes.get(h, 0) == 0]
            if xs:
                print(f"  {'0':>8} files: {len(xs):4d} commits  median {statistics.median(xs):8.1f} ms  "
                      f"p95 {pct(xs, 95):8.1f} ms  (no source change)")
            print(f"floor (raw tree-sitter parse of the changed blobs only): {floor_s:.2f}s "
                  f"-> ingest is {total / floor_s if floor_s else float('nan'):.1f}x the floor")
            if server_ticks is not None and server_after is not None:
                hz = os.sysconf("SC_CLK_TCK")
                db_cpu = (server_after - server_ticks) / hz
                print(f"CPU: this process {own_cpu:.2f}s (its forked resolvers not counted), FalkorDB server "
                      f"{db_cpu:.2f}s = {db_cpu / floor_s if floor_s else float('nan'):.1f}x the floor on its own")
            code = total - res.timings.get("docs", 0.0)
            print(f"  code only (total minus the documentation-sections phase, {res.timings.get('docs', 0.0):.2f}s): "
                  f"{code:.2f}s -> {code / floor_s if floor_s else float('nan'):.1f}x the floor")

            g = db.graph("bench")
            rnd = random.Random(1)
            pairs = g.query(
                "MATCH (a:Function)-[e:CALLS]->(b:Function) WHERE e.superseded_at IS NULL "
                "RETURN a.fully_qualified_name, b.fully_qualified_name, e.valid_from_seq, "
                "coalesce(e.valid_to_seq, $n)", {"n": res.last_seq + 1},
            )
            n_def = g.query("MATCH ()-[e:DEFINES]->() RETURN count(e)")[0][0]
            n_sym = g.query("MATCH ()-[e:DEFINES]->(s) RETURN count(DISTINCT s)")[0][0]
            print(f"graph: {len(pairs)} CALLS versions; {n_def} DEFINES versions for {n_sym} symbols "
                  f"({n_def / max(n_sym, 1):.2f} per symbol)")
            for kind, qname, idx in (("calls at commit", "calls_at_commit", 0), ("callers at commit", "callers_at_commit", 1)):
                lat = []
                hits = 0
                for _ in range(args.queries):
                    row = rnd.choice(pairs)
                    seq = rnd.randrange(row[2], row[3])
                    t1 = time.perf_counter()
                    rows = g.run_named(qname, {"fqn": row[idx], "seq": seq})
                    lat.append((time.perf_counter() - t1) * 1000)
                    hits += bool(rows)
                print(f"{kind:>18}: median {statistics.median(lat):.2f} ms, p95 {pct(lat, 95):.2f} ms "
                      f"({args.queries} random (symbol, commit), {hits} non-empty)")
            if args.verify:
                from mnemosyne.extract import extract_tree
                from mnemosyne.timeline.edges import diff_edge_sets, graph_edges_at, snapshot_edges

                t1 = time.perf_counter()
                bad = 0
                with GitRepo(repo_dir) as gr:
                    for seq, h in enumerate(gr.timeline_hashes(gr.rev_parse("main"))):
                        files, _ = gr.read_tree_files(h)
                        diff = diff_edge_sets(snapshot_edges(extract_tree(files.items())), graph_edges_at(g, seq))
                        if diff:
                            bad += 1
                            print(f"INVARIANT BROKEN at seq {seq} ({h[:12]}):\n{str(diff)[:2000]}", flush=True)
                        if seq % 10 == 9:
                            print(f"  verified {seq + 1} of {res.last_seq + 1} commits, {bad} unequal",
                                  file=sys.stderr, flush=True)
                print(f"invariant (graph as of each commit == fresh parse, all versioned edges): "
                      f"{res.last_seq + 1 - bad} of {res.last_seq + 1} commits equal "
                      f"({time.perf_counter() - t1:.1f}s)")
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
