"""Git hook overhead and commit -> queryable latency of the daemon.

    python benchmarks/hook_latency.py              # 20 commits each
    python benchmarks/hook_latency.py --runs 50 --json
    python benchmarks/hook_latency.py --large      # on the ~100k-line synthetic repo (= --modules 400)
    python benchmarks/hook_latency.py --modules 100 --history 10

1. ``git commit`` time without and with the mnemosyne hooks installed (median of N): the hook
   block is pure shell (a printf and a rename into the spool dir), target < 100 ms added.
2. With the daemon running (own data dir and embedded FalkorDB): time from ``git commit``
   returning until the commit is the workspace's ``Meta.last_commit`` (what queries answer as
   HEAD), median and p95 over N commits, one at a time.

``--modules N`` / ``--large`` use the synthetic repository of ``query_latency.py`` instead of the
small one (``build_repo``: N modules x ``--funcs`` functions, ~100k lines at 400 x 24, ``--history``
commits of history). The daemon ingests that history first; every measured commit then edits 1-5
modules with ``Synth.edit`` (rewired calls, bodies, signatures, added / removed / moved functions),
like the history's commits. Commit -> queryable is timed from ``git commit`` returning (the sha is
read afterwards, outside the timed span) until ``Meta.last_commit`` is that sha, polled every 5 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from _daemon_common import Sandbox, git_env, percentile, wait_indexed

from mnemosyne.daemon import hooks
from mnemosyne.workspaces import add_workspace


def time_commits(sb: Sandbox, n: int) -> list[float]:
    times = []
    for _ in range(n):
        sb.n += 1
        (sb.repo / "t.py").write_text(f"x = {sb.n}\n")
        sb.git("add", "t.py")
        t0 = time.perf_counter()
        subprocess.run(["git", "-C", str(sb.repo), "commit", "-q", "-m", f"t{sb.n}"], check=True, env=git_env(sb.tmp))
        times.append(time.perf_counter() - t0)
    return times


class SynthCommits:
    """Commits of 1-5 ``Synth.edit``-ed modules on a ``query_latency.build_repo`` repository."""

    def __init__(self, sb: Sandbox, syn, step: int) -> None:
        self.sb, self.syn, self.step = sb, syn, step

    def edit(self) -> str:
        syn, repo = self.syn, self.sb.repo
        self.step += 1
        touched: set[int] = set()
        what = []
        for _ in range(syn.rnd.randint(1, 5)):
            m = syn.rnd.randrange(0, syn.n)
            what.append(syn.edit(m, self.step))
            touched.add(m)
            if "->" in what[-1]:
                touched.add(int(what[-1].rsplit("->", 1)[1]))
        for m in touched:
            f = repo / syn.path(m)
            f.parent.mkdir(parents=True, exist_ok=True)
            if not (f.parent / "__init__.py").exists():
                (f.parent / "__init__.py").write_text("")
            f.write_text(syn.render(m))
        self.sb.git("add", "-A")
        return f"step {self.step}: {', '.join(what)}"

    def commit(self) -> tuple[str, float]:
        """Edit, stage, ``git commit``; returns (sha, perf_counter() when git commit returned)."""
        msg = self.edit()
        subprocess.run(["git", "-C", str(self.sb.repo), "commit", "-q", "-m", msg], check=True,
                       env=git_env(self.sb.tmp))
        t_return = time.perf_counter()
        return self.sb.head(), t_return


def time_synth_commits(sc: SynthCommits, n: int) -> list[float]:
    times = []
    for _ in range(n):
        msg = sc.edit()
        t0 = time.perf_counter()
        subprocess.run(["git", "-C", str(sc.sb.repo), "commit", "-q", "-m", msg], check=True,
                       env=git_env(sc.sb.tmp))
        times.append(time.perf_counter() - t0)
    return times


def wait_from(db, ws: str, sha: str, t_return: float, timeout: float = 600.0) -> float:
    """Seconds from ``t_return`` (git commit returned) until ``sha`` is the indexed commit."""
    wait_indexed(db, ws, sha, timeout=timeout)
    return time.perf_counter() - t_return


def measure_synth(sc: SynthCommits, db, n: int, how: str) -> dict:
    lat = []
    for _ in range(n):
        sha, t_return = sc.commit()
        lat.append(wait_from(db, "bench", sha, t_return))
        time.sleep(0.05)
    return {"median": round(statistics.median(lat) * 1000, 1), "p95": round(percentile(lat, 95) * 1000, 1),
            "max": round(max(lat) * 1000, 1), "n": len(lat), "how": how}


def measure(sb: Sandbox, db, n: int, how: str) -> dict:
    lat = []
    for _ in range(n):
        sha = sb.commit()  # returns when `git commit` (and its hook) has returned
        lat.append(wait_indexed(db, "bench", sha, timeout=60))
        time.sleep(0.05)
    return {"median": round(statistics.median(lat) * 1000, 1), "p95": round(percentile(lat, 95) * 1000, 1),
            "max": round(max(lat) * 1000, 1), "n": len(lat), "how": how}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=20, help="commits per measurement (default 20)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--modules", type=int, default=0,
                    help="use query_latency's synthetic repository with N modules (0: the small repo)")
    ap.add_argument("--large", action="store_true", help="the ~100k-line synthetic repository (--modules 400)")
    ap.add_argument("--funcs", type=int, default=24, help="functions per synthetic module (default 24)")
    ap.add_argument("--history", type=int, default=30, help="commits of synthetic history ingested first (default 30)")
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    if args.large and not args.modules:
        args.modules = 400
    out: dict = {}
    sb = Sandbox()
    sc: SynthCommits | None = None
    try:
        if args.modules:
            from query_latency import build_repo

            t0 = time.perf_counter()
            syn, hashes = build_repo(sb.repo, args.modules, args.funcs, args.history, args.seed)
            lines = sum(len(p.read_text().splitlines()) for p in (sb.repo / "synth").rglob("*.py"))
            out["repository"] = {"modules": args.modules, "funcs": args.funcs, "lines": lines,
                                 "history_commits": len(hashes), "build_s": round(time.perf_counter() - t0, 1)}
            print(f"repository: {args.modules} modules, {lines} lines, {len(hashes)} commits", file=sys.stderr)
            sc = SynthCommits(sb, syn, len(hashes))

            def timed(n: int) -> list[float]:
                return time_synth_commits(sc, n)
        else:
            sb.init_repo()

            def timed(n: int) -> list[float]:
                return time_commits(sb, n)

        timed(3)  # warm the page cache
        without = timed(args.runs)
        hooks.install(sb.repo, sb.paths.spool_dir)
        with_hook = timed(args.runs)
        out["git_commit_ms"] = {
            "without_hook_median": round(statistics.median(without) * 1000, 2),
            "with_hook_median": round(statistics.median(with_hook) * 1000, 2),
            "overhead_median": round((statistics.median(with_hook) - statistics.median(without)) * 1000, 2),
            "target_overhead": 100,
        }
        for f in sb.paths.spool_dir.glob("*"):
            f.unlink()

        db = sb.db()
        add_workspace(db.registry, "bench", sb.repo)
        if sc:  # the history plus the commits timed above
            out["repository"]["commits_at_start"] = int(sb.git("rev-list", "--count", "HEAD"))
        t0 = time.perf_counter()
        sb.start_daemon()
        wait_indexed(db, "bench", sb.head(), timeout=3600 if sc else 120)
        if sc:
            out["repository"]["initial_ingest_s"] = round(time.perf_counter() - t0, 1)
            print(f"initial ingest by the daemon: {out['repository']['initial_ingest_s']} s", file=sys.stderr)

        def run(how: str) -> dict:
            return measure_synth(sc, db, args.runs, how) if sc else measure(sb, db, args.runs, how)

        # hooks installed: the spool note wakes the daemon at once (the watcher fires 0.3 s later)
        out["commit_to_queryable_ms"] = run("hooks + watcher")
        # watcher only: the ref move is seen by inotify, then debounced (0.3 s quiet period)
        hooks.uninstall(sb.repo)
        out["commit_to_queryable_watcher_only_ms"] = run("watcher only")
        db.close()
    finally:
        sb.close()
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        g = out["git_commit_ms"]
        if "repository" in out:
            r = out["repository"]
            print(f"repository: {r['lines']} lines, {r['modules']} modules, {r['commits_at_start']} commits "
                  f"(the daemon ingested them in {r['initial_ingest_s']} s); measured commits change 1-5 files")
        print(f"{'measure':<52}{'value':>10}")
        print(f"{'git commit, no hook (median ms)':<52}{g['without_hook_median']:>10.1f}")
        print(f"{'git commit, with hook (median ms)':<52}{g['with_hook_median']:>10.1f}")
        print(f"{'hook overhead (median ms, target < 100)':<52}{g['overhead_median']:>10.1f}")
        for key in ("commit_to_queryable_ms", "commit_to_queryable_watcher_only_ms"):
            c = out[key]
            for stat in ("median", "p95", "max"):
                label = f"commit -> queryable, {c['how']}, {stat} (ms)"
                print(f"{label:<52}{c[stat]:>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
