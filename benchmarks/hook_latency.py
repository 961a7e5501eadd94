"""Git hook overhead and commit -> queryable latency of the daemon.

    python benchmarks/hook_latency.py              # 20 commits each
    python benchmarks/hook_latency.py --runs 50 --json

1. ``git commit`` time without and with the mnemosyne hooks installed (median of N): the hook
   block is pure shell (a printf and a rename into the spool dir), target < 100 ms added.
2. With the daemon running (own data dir and embedded FalkorDB): time from ``git commit``
   returning until the commit is the workspace's ``Meta.last_commit`` (what queries answer as
   HEAD), median and p95 over N commits, one at a time.
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
    args = ap.parse_args(argv)
    out: dict = {}
    sb = Sandbox()
    try:
        sb.init_repo()
        time_commits(sb, 3)  # warm the page cache
        without = time_commits(sb, args.runs)
        hooks.install(sb.repo, sb.paths.spool_dir)
        with_hook = time_commits(sb, args.runs)
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
        sb.start_daemon()
        wait_indexed(db, "bench", sb.head(), timeout=120)
        # hooks installed: the spool note wakes the daemon at once (the watcher fires 0.3 s later)
        out["commit_to_queryable_ms"] = measure(sb, db, args.runs, "hooks + watcher")
        # watcher only: the ref move is seen by inotify, then debounced (0.3 s quiet period)
        hooks.uninstall(sb.repo)
        out["commit_to_queryable_watcher_only_ms"] = measure(sb, db, args.runs, "watcher only")
        db.close()
    finally:
        sb.close()
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        g = out["git_commit_ms"]
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
