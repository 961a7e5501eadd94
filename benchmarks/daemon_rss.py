"""Daemon memory over 1,000 commits: is it bounded?

    python benchmarks/daemon_rss.py                     # 1,000 commits in bursts of 20
    python benchmarks/daemon_rss.py --commits 2000 --burst 50 --json

A real daemon (own data dir and embedded FalkorDB) watches a real repository; commits arrive in
bursts (git fast-import, one ref move per burst), each burst is waited for until it is queryable,
and the daemon's RSS (and the FalkorDB server's, which holds the graph) is sampled after each.
Reports RSS over time and the growth over the second half of the run: a daemon that leaks grows
linearly with commits; a bounded one levels off once its caches are warm.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from _daemon_common import Sandbox, rss_kb, wait_indexed

from mnemosyne.workspaces import add_workspace


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--commits", type=int, default=1000)
    ap.add_argument("--burst", type=int, default=20, help="commits per burst (default 20)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    sb = Sandbox()
    samples = []
    try:
        sb.init_repo()
        db = sb.db()
        add_workspace(db.registry, "rss", sb.repo)
        pid = sb.start_daemon()
        wait_indexed(db, "rss", sb.head())
        server_pid = int((sb.home / "falkordb.pid").read_text())
        t_start = time.perf_counter()
        samples.append({"commits": 0, "daemon_rss_mb": rss_kb(pid) / 1024, "falkordb_rss_mb": rss_kb(server_pid) / 1024,
                        "elapsed_s": 0.0})
        done = 0
        while done < args.commits:
            n = min(args.burst, args.commits - done)
            sha = sb.bulk_commits(n)
            wait_indexed(db, "rss", sha, timeout=300, interval=0.02)
            done += n
            samples.append({"commits": done, "daemon_rss_mb": rss_kb(pid) / 1024,
                            "falkordb_rss_mb": rss_kb(server_pid) / 1024,
                            "elapsed_s": time.perf_counter() - t_start})
        db.close()
    finally:
        sb.close()
    half = [s for s in samples if s["commits"] >= args.commits / 2]
    growth = half[-1]["daemon_rss_mb"] - half[0]["daemon_rss_mb"] if len(half) > 1 else 0.0
    per_1k = growth / max(1, half[-1]["commits"] - half[0]["commits"]) * 1000
    summary = {
        "commits": args.commits, "burst": args.burst,
        "daemon_rss_start_mb": round(samples[0]["daemon_rss_mb"], 1),
        "daemon_rss_peak_mb": round(max(s["daemon_rss_mb"] for s in samples), 1),
        "daemon_rss_end_mb": round(samples[-1]["daemon_rss_mb"], 1),
        "daemon_growth_second_half_mb": round(growth, 1),
        "daemon_growth_per_1k_commits_second_half_mb": round(per_1k, 1),
        "falkordb_rss_end_mb": round(samples[-1]["falkordb_rss_mb"], 1),
        "commits_per_s": round(args.commits / samples[-1]["elapsed_s"], 1),
    }
    if args.json:
        print(json.dumps({"summary": summary, "samples": samples}, indent=2))
        return 0
    print(f"{'commits':>8} {'elapsed s':>10} {'daemon RSS MB':>14} {'FalkorDB RSS MB':>16}")
    step = max(1, len(samples) // 10)
    for i, s in enumerate(samples):
        if i % step == 0 or i == len(samples) - 1:
            print(f"{s['commits']:>8} {s['elapsed_s']:>10.1f} {s['daemon_rss_mb']:>14.1f} {s['falkordb_rss_mb']:>16.1f}")
    print()
    for k, v in summary.items():
        print(f"{k:<46}{v:>10}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
