"""Load test of the MCP streamable-HTTP server: N concurrent clients, mixed tool calls, T seconds.

    python benchmarks/mcp_load.py                       # python_shop sample, 20 clients, 30 s
    python benchmarks/mcp_load.py --synthetic 300       # a generated repo: 300 modules, 12 commits
    python benchmarks/mcp_load.py --large               # ~116k lines, 30 commits (query_latency.py's repo)
    python benchmarks/mcp_load.py --clients 50 --seconds 60

Sets up a private MNEMOSYNE_HOME (embedded FalkorDB), builds and ingests the repository, starts
`mnemosyne mcp --http --token T` as a separate process on a random loopback port, then runs the
clients (each its own MCP session). Checks: no tool error, no transport error, every request
answered (sent == received) with structured content for the right workspace. Prints, per tool, the
client-observed p50/p95/max latency (protocol, HTTP, queueing and CPU contention included) next to
the server-side p50/p95 (the server's own timing of the tool, read from the `mnemosyne://stats`
resource at the end), the throughput, and the issue's server-side targets (get_symbol and get_calls
p95 < 20 ms, search_code p95 < 150 ms). Exit code 1 when any check fails (a missed latency target
is reported, not failed: it depends on the machine).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

TOKEN = "load-test-token"
SERVER_TARGETS = {"get_symbol": 20.0, "get_calls depth 1": 20.0, "search_code": 150.0}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def git(repo: Path, *args: str, env: dict | None = None) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


def build_synthetic(dest: Path, modules: int, commits: int = 12, seed: int = 7) -> dict:
    """A Python package ``synth`` of ``modules`` modules (8 functions each, calls within and across
    modules), committed in ``commits`` steps that add modules and rewire calls."""
    rnd = random.Random(seed)
    dest.mkdir(parents=True)
    git(dest, "init", "-q", "-b", "main")
    pkg = dest / "synth"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('"""Synthetic package."""\n')
    env = {**os.environ, "GIT_AUTHOR_NAME": "Load", "GIT_AUTHOR_EMAIL": "l@x", "GIT_COMMITTER_NAME": "Load",
           "GIT_COMMITTER_EMAIL": "l@x"}  # fmt: skip
    per_commit = max(1, modules // commits)
    made = 0
    fqns: list[str] = []
    for c in range(commits):
        upto = modules if c == commits - 1 else min(modules, made + per_commit)
        for m in range(made, upto):
            lines = [f'"""Module {m}: synthetic code for load tests."""', ""]
            imports = sorted({rnd.randrange(0, m) for _ in range(2)}) if m else []
            for i in imports:
                lines.insert(1, f"from synth import mod{i}")
            for f in range(8):
                body = [f"    total = x + {f}"]
                if f:
                    body.append(f"    total += fn{rnd.randrange(0, f)}(x)")
                for i in imports:
                    body.append(f"    total += mod{i}.fn{rnd.randrange(0, 8)}(total)")
                lines += [f"def fn{f}(x):", f'    """Compute step {f} of module {m}."""', *body, "    return total", ""]
                fqns.append(f"synth.mod{m}.fn{f}")
            (pkg / f"mod{m}.py").write_text("\n".join(lines))
        made = upto
        if c and made:  # rewire one call so history has changes
            m = rnd.randrange(0, made)
            p = pkg / f"mod{m}.py"
            p.write_text(p.read_text().replace("total = x + 3", f"total = x + 3 + {c}"))
        git(dest, "add", "-A", env=env)
        git(dest, "commit", "-qm", f"step {c}: modules up to {made} (LOAD-{c})", env=env)
    return {"fqns": fqns, "module": "synth.mod0"}


def mixed_calls(ws: str, fqns: list[str], old_rev: str, files: list[str]) -> list[tuple[str, dict]]:
    f = lambda: random.choice(fqns)  # noqa: E731
    return [
        ("get_symbol", lambda: {"name_or_fqn": f(), "workspace": ws}),
        ("get_calls", lambda: {"fqn": f(), "depth": random.choice([1, 2, 3]), "workspace": ws}),
        ("get_calls", lambda: {"fqn": f(), "direction": "callers", "workspace": ws}),
        ("get_calls", lambda: {"fqn": fqns[0], "at": old_rev, "workspace": ws}),  # defined at both commits
        ("search_code", lambda: {"query": random.choice(["compute step", "retry delay", "discount", "module"]),
                                 "mode": "keyword", "workspace": ws}),
        ("symbol_history", lambda: {"fqn": f(), "workspace": ws}),
        ("impact", lambda: {"target": f(), "depth": 2, "workspace": ws}),
        ("impact", lambda: {"target": [random.choice(files)], "workspace": ws}),
        ("diff_commits", lambda: {"rev_a": old_rev, "rev_b": "HEAD", "limit": 20, "workspace": ws}),
        ("search_commits", lambda: {"query": random.choice(["step", "receipt", "add"]), "workspace": ws}),
        ("run_cypher", lambda: {"query": "MATCH (f:Function) RETURN f.fully_qualified_name LIMIT 20", "workspace": ws}),
        ("list_locks", lambda: {"workspace": ws}),
        ("list_workspaces", lambda: {}),
    ]  # type: ignore[return-value]


async def client_loop(url: str, ws: str, calls: list, until: float, stats: dict, errors: list, counts: dict) -> None:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60)
    async with Client(streamable_http_client(url, http_client=http)) as c:
        while time.monotonic() < until:
            name, make = random.choice(calls)
            args = make()
            counts["sent"] += 1
            t0 = time.perf_counter()
            try:
                r = await c.call_tool(name, args)
            except Exception as err:  # noqa: BLE001 - counted as a failure
                errors.append(f"{name} {args}: transport {type(err).__name__}: {err}")
                continue
            ms = (time.perf_counter() - t0) * 1000
            stats[name].append(ms)
            if name == "get_calls":  # also per depth, as the server records it
                stats[f"get_calls depth {args.get('depth', 1)}"].append(ms)
            counts["received"] += 1
            if r.is_error:
                errors.append(f"{name} {args}: {r.content[0].text[:200]}")
            elif r.structured_content is None or ("workspace" in args and r.structured_content.get("workspace") != ws):
                errors.append(f"{name} {args}: missing or foreign structured content")


async def server_stats(url: str) -> dict:
    """The server's own per-tool timing (``mnemosyne://stats``)."""
    import json

    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60)
    async with Client(streamable_http_client(url, http_client=http)) as c:
        res = await c.read_resource("mnemosyne://stats")
        return json.loads(res.contents[0].text)["tools"]


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--synthetic", type=int, default=0, metavar="MODULES", help="generated repo instead of python_shop")
    ap.add_argument("--large", action="store_true", help="the ~100k-line repository of benchmarks/query_latency.py "
                    "(400 modules x 24 functions, 30 commits of 1-5 file edits)")  # fmt: skip
    args = ap.parse_args()

    home = Path(tempfile.mkdtemp(prefix="mnl-", dir="/tmp"))
    os.environ["MNEMOSYNE_HOME"] = str(home)
    os.environ.pop("MNEMOSYNE_FALKORDB_URL", None)
    os.environ["MNEMOSYNE_EMBEDDINGS_PROVIDER"] = "none"
    from mnemosyne.config import get_settings
    from mnemosyne.ingest import ingest_path
    from mnemosyne.store.connection import connect
    from mnemosyne.store.embedded import EmbeddedFalkorDB

    settings = get_settings(fresh=True)
    server_db = EmbeddedFalkorDB(settings)
    server_db.start()
    proc = None
    try:
        db = connect(settings)
        t0 = time.perf_counter()
        if args.large:
            sys.path.insert(0, str(Path(__file__).resolve().parent))
            from query_latency import build_repo

            repo, ws = home / "large", "large"
            syn, _hashes = build_repo(repo, 400, 24, 30, 11)
            fqns = sorted(f for f in syn.fqns() if f.rsplit(".", 1)[-1].startswith("fn"))
            fqns = [f for f in fqns if (repo / (f.rsplit(".", 1)[0].replace(".", "/") + ".py")).exists()]
            files = sorted({f.rsplit(".", 1)[0].replace(".", "/") + ".py" for f in fqns})
        elif args.synthetic:
            repo = home / "synthetic"
            info = build_synthetic(repo, args.synthetic)
            fqns, ws = info["fqns"], "synthetic"  # fqns[0] = synth.mod0.fn0 exists from the first commit
            files = [f"synth/mod{i}.py" for i in range(args.synthetic)]
        else:
            from mnemosyne.samples import build_sample_repo

            sample = build_sample_repo("python_shop", home / "python_shop")
            repo, ws = Path(sample.path), "shop"
            fqns = ["shop.checkout.checkout", "shop.pricing.apply_tax", "shop.pricing.bulk_discount",
                    "shop.util.retry.with_retry", "shop.util.retry.compute_retry_delay", "shop.cli.main",
                    "shop.notifications.send_receipt", "shop.notifications.format_receipt",
                    "shop.repositories.OrderRepository.save", "shop.pricing.compute_subtotal"]  # fmt: skip
            files = ["shop/pricing.py", "shop/checkout.py", "shop/notifications.py"]
        res = ingest_path(db, repo, name=ws, branch="main")
        old_rev = subprocess.run(["git", "-C", str(repo), "rev-list", "--max-count=1", "--skip=3", "HEAD"],
                                 capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
        n_fn = db.graph(ws).ro_query("MATCH (f:Function) RETURN count(f)")[0][0]
        print(f"ingested {ws}: {res.last_seq + 1} commits, {n_fn} functions in {time.perf_counter() - t0:.1f}s")
        db.close()

        port = free_port()
        url = f"http://127.0.0.1:{port}/mcp"
        proc = subprocess.Popen([sys.executable, "-m", "mnemosyne.cli", "mcp", "--http", "--port", str(port),
                                 "--token", TOKEN], env=dict(os.environ), stderr=subprocess.DEVNULL)  # fmt: skip
        deadline = time.time() + 20
        while time.time() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        calls = mixed_calls(ws, fqns, old_rev, files)
        stats: dict[str, list[float]] = defaultdict(list)
        errors: list[str] = []
        counts = {"sent": 0, "received": 0}

        async def run() -> float:
            until = time.monotonic() + args.seconds
            t = time.perf_counter()
            await asyncio.gather(*(client_loop(url, ws, calls, until, stats, errors, counts)
                                   for _ in range(args.clients)))  # fmt: skip
            return time.perf_counter() - t

        wall = asyncio.run(run())
        try:
            srv = asyncio.run(server_stats(url))
        except Exception as err:  # noqa: BLE001 - reported; the client-side numbers still count
            print(f"could not read mnemosyne://stats: {err}")
            srv = {}
        total = sum(len(v) for k, v in stats.items() if not k.startswith("get_calls depth"))
        print(f"\n{args.clients} clients x {args.seconds:.0f}s: {total} calls in {wall:.1f}s = {total / wall:.1f} calls/s; "
              f"sent {counts['sent']}, received {counts['received']}, errors {len(errors)}")  # fmt: skip
        print(f"{'':<18}{'':>7}{'client (observed)':^30}{'server-side (execution)':^30}{'slot wait':^20}")
        print(f"{'tool':<18}{'n':>7}{'p50 ms':>10}{'p95 ms':>10}{'max ms':>10}{'p50 ms':>10}{'p95 ms':>10}{'max ms':>10}"
              f"{'p50 ms':>10}{'p95 ms':>10}{'target':>10}  ok")  # fmt: skip
        for name in sorted(stats):
            v = stats[name]
            s = srv.get(name) or {}
            tgt = SERVER_TARGETS.get(name)
            ok = "" if tgt is None or s.get("p95_ms") is None else ("yes" if s["p95_ms"] < tgt else "NO")
            fmt = lambda x: f"{x:>10.1f}" if isinstance(x, (int, float)) else f"{'?':>10}"  # noqa: E731
            print(f"{name:<18}{len(v):>7}{statistics.median(v):>10.1f}{pct(v, 95):>10.1f}{max(v):>10.1f}"
                  f"{fmt(s.get('p50_ms'))}{fmt(s.get('p95_ms'))}{fmt(s.get('max_ms'))}"
                  f"{fmt(s.get('wait_p50_ms'))}{fmt(s.get('wait_p95_ms'))}"
                  f"{'< ' + format(tgt, 'g') if tgt else '':>10}  {ok}")  # fmt: skip
        for e in errors[:10]:
            print("ERROR", e)
        return 0 if not errors and counts["sent"] == counts["received"] and total else 1
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        server_db.stop()
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
