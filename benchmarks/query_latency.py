"""In-process latency of the read API (mnemosyne.query) and of the MCP tools' logic on a ~100k-line repo.

    python benchmarks/query_latency.py                    # ~100k lines: 400 modules x 24 functions, 30 commits
    python benchmarks/query_latency.py --modules 100      # smaller, quicker
    python benchmarks/query_latency.py --samples 300 --json out.json

Sets up a private MNEMOSYNE_HOME (embedded FalkorDB, no embeddings), generates a synthetic Python
repository (``synth/pkgN/modM.py``: functions calling functions of their own module and of imported
modules), commits it in ``--commits`` steps (the first adds everything, each later one edits 1-5
files: rewired calls, changed bodies and signatures, added, removed and moved functions), ingests it
with ``mnemosyne.ingest.ingest_path``, then times each operation over random symbols and commits
(median, p95, max in ms; ``q/call`` = database queries per call). The MCP rows time the
``get_symbol`` / ``get_calls`` tools (``mnemosyne/mcp/tools/``) in process: the tool's whole server-side
work (workspace, commit, freshness, query, constraints, locks, answer model, Markdown) without the
transport.
Targets (from the issue): get_symbol and get_calls depth 1 p95 < 20 ms; calls/callers at a commit
p95 < 20 ms. Exit code 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from _private_db import private_database  # noqa: E402

GIT_ENV = {"GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "b@x", "GIT_COMMITTER_NAME": "Bench",
           "GIT_COMMITTER_EMAIL": "b@x", "GIT_CONFIG_NOSYSTEM": "1"}  # fmt: skip
TARGETS = {"calls": 20.0, "callers": 20.0, "get_symbol": 20.0, "mcp get_symbol": 20.0, "mcp get_calls d1": 20.0,
           "call_tree d1": 20.0}  # fmt: skip


def git(repo: Path, *args: str, when: int | None = None) -> str:
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("GIT_")}, **GIT_ENV}
    if when is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"@{when} +0000"
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True,
                          env=env).stdout  # fmt: skip


# --- the synthetic repository --------------------------------------------------------------------


class Synth:
    """Modules as lists of functions; each function: name, params, calls (local names and
    ``modK.fnJ`` through imports). Rendered to Python text."""

    def __init__(self, modules: int, funcs: int, seed: int) -> None:
        self.rnd = random.Random(seed)
        self.n = modules
        self.mods: dict[int, dict[str, Any]] = {}
        for m in range(modules):
            imports = sorted({self.rnd.randrange(0, m) for _ in range(3)}) if m else []
            fns = []
            for f in range(funcs):
                calls = [f"fn{self.rnd.randrange(0, f)}" for _ in range(min(f, 2))]
                calls += [f"mod{i}.fn{self.rnd.randrange(0, funcs)}" for i in self.rnd.sample(imports, min(len(imports), 2))]
                fns.append({"name": f"fn{f}", "params": "x, y=1", "calls": calls, "salt": 0})
            self.mods[m] = {"imports": imports, "fns": fns}

    def path(self, m: int) -> str:
        return f"synth/pkg{m // 50}/mod{m}.py"

    def module(self, m: int) -> str:
        return f"synth.pkg{m // 50}.mod{m}"

    def render(self, m: int) -> str:
        mod = self.mods[m]
        out = [f'"""Module {m} of the synthetic benchmark repository."""', ""]
        for i in mod["imports"]:
            out.append(f"from synth.pkg{i // 50} import mod{i}")
        out += ["", ""]
        for fn in mod["fns"]:
            out.append(f"def {fn['name']}({fn['params']}):")
            out.append(f'    """Compute {fn["name"]} of module {m} (step {fn["salt"]})."""')
            out.append(f"    total = x * {len(fn['calls']) + 1} + y + {fn['salt']}")
            for c in fn["calls"]:
                out.append(f"    total += {c}(total)")
            out.append("    if total > 1000:")
            out.append("        total = total % 997")
            out.append("    return total")
            out += ["", ""]
        return "\n".join(out).rstrip() + "\n"

    def fqns(self) -> list[str]:
        return [f"{self.module(m)}.{fn['name']}" for m, mod in self.mods.items() for fn in mod["fns"]]

    def edit(self, m: int, step: int) -> str:
        """One random edit of module ``m``; returns what it did."""
        mod = self.mods[m]
        fns = mod["fns"]
        kind = self.rnd.choice(["rewire", "body", "signature", "add", "remove", "move"])
        fn = self.rnd.choice(fns)
        if kind == "rewire" and fn["calls"]:
            fn["calls"][self.rnd.randrange(len(fn["calls"]))] = f"fn{self.rnd.randrange(0, len(fns))}"
        elif kind == "signature":
            fn["params"] = fn["params"] + f", z{step}=0"
        elif kind == "add":
            fns.append({"name": f"added{step}", "params": "x, y=1", "calls": [fns[0]["name"]], "salt": step})
        elif kind == "remove" and len(fns) > 4:
            victim = fns.pop()
            for other in fns:  # nothing may call a removed function
                other["calls"] = [c for c in other["calls"] if c != victim["name"]]
        elif kind == "move" and len(fns) > 4:
            # move the last function to a new module (same name, same body): a rename in its history,
            # with the same short name in hundreds of modules (the rename lookup's worst case)
            moved = fns.pop()
            for other in fns:
                other["calls"] = [c for c in other["calls"] if c != moved["name"]]
            dest = self.n
            self.n += 1
            self.mods[dest] = {"imports": [], "fns": [{**moved, "calls": []}]}
            fns[-1]["salt"] = step
            return f"move {moved['name']} {m}->{dest}"
        else:
            kind = "body"
        fn["salt"] = step
        return kind


def build_repo(dest: Path, modules: int, funcs: int, commits: int, seed: int) -> tuple[Synth, list[str]]:
    syn = Synth(modules, funcs, seed)
    dest.mkdir(parents=True)
    git(dest, "init", "-q", "-b", "main")
    base = 1_700_000_000
    for m in range(modules):
        p = dest / syn.path(m)
        p.parent.mkdir(parents=True, exist_ok=True)
        (p.parent / "__init__.py").write_text("")
        p.write_text(syn.render(m))
    (dest / "synth" / "__init__.py").write_text('"""Synthetic package."""\n')
    git(dest, "add", "-A")
    git(dest, "commit", "-qm", "initial import", when=base)
    hashes = [git(dest, "rev-parse", "HEAD").strip()]
    for step in range(1, commits):
        touched: set[int] = set()
        what = []
        for _ in range(syn.rnd.randint(1, 5)):
            m = syn.rnd.randrange(0, modules)
            what.append(syn.edit(m, step))
            touched.add(m)
            if "->" in what[-1]:
                touched.add(int(what[-1].rsplit("->", 1)[1]))
        for m in touched:
            p = dest / syn.path(m)
            p.parent.mkdir(parents=True, exist_ok=True)
            if not (p.parent / "__init__.py").exists():
                (p.parent / "__init__.py").write_text("")
            p.write_text(syn.render(m))
        git(dest, "add", "-A")
        git(dest, "commit", "-qm", f"step {step}: {', '.join(what)} (BENCH-{step})", when=base + step * 3600)
        hashes.append(git(dest, "rev-parse", "HEAD").strip())
    return syn, hashes


# --- measuring ------------------------------------------------------------------------------------


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


class QueryCounter:
    """Counts database round trips (Graph.query_result) while enabled."""

    def __init__(self) -> None:
        from mnemosyne.store.graph import Graph

        self.n = 0
        orig = Graph.query_result
        counter = self

        def counted(self: Any, *a: Any, **kw: Any) -> Any:
            counter.n += 1
            return orig(self, *a, **kw)

        Graph.query_result = counted  # type: ignore[method-assign]


def measure(name: str, fn: Any, args: list[Any], counter: QueryCounter) -> dict[str, Any]:
    times: list[float] = []
    errors = 0
    q0 = counter.n
    for a in args:
        t0 = time.perf_counter()
        try:
            fn(a)
        except Exception as err:  # noqa: BLE001 - counted, first one shown
            errors += 1
            if errors == 1:
                print(f"  {name}: {type(err).__name__}: {str(err)[:160]}", file=sys.stderr)
        times.append((time.perf_counter() - t0) * 1000)
    return {"op": name, "n": len(times), "median_ms": statistics.median(times), "p95_ms": pct(times, 95),
            "max_ms": max(times), "queries_per_call": (counter.n - q0) / len(times), "errors": errors,
            "target_p95_ms": TARGETS.get(name)}  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--modules", type=int, default=400)
    ap.add_argument("--funcs", type=int, default=24, help="functions per module")
    ap.add_argument("--commits", type=int, default=30)
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = ap.parse_args()

    from mnemosyne import query as Q
    from mnemosyne.ingest import ingest_path
    from mnemosyne.mcp.service import McpService
    from mnemosyne.mcp.tools.calls import GetCalls
    from mnemosyne.mcp.tools.symbols import GetSymbol

    with private_database("mnql-") as (home, settings, db):
        repo = home / "repo"
        t0 = time.perf_counter()
        syn, hashes = build_repo(repo, args.modules, args.funcs, args.commits, args.seed)
        lines = sum(len(p.read_text().splitlines()) for p in (repo / "synth").rglob("*.py"))
        print(f"repository: {args.modules} modules, {lines} lines, {len(hashes)} commits "
              f"(built in {time.perf_counter() - t0:.1f}s)")  # fmt: skip
        t0 = time.perf_counter()
        res = ingest_path(db, repo, name="bench", branch="main")
        g = db.graph("bench")
        n_fn = g.ro_query("MATCH (f:Function) WHERE coalesce(f.external, false) = false RETURN count(f)")[0][0]
        n_calls = g.ro_query("MATCH ()-[r:CALLS]->() RETURN count(r)")[0][0]
        print(f"ingested: seq 0..{res.last_seq}, {n_fn} functions, {n_calls} CALLS versions in "
              f"{time.perf_counter() - t0:.1f}s")  # fmt: skip

        rnd = random.Random(args.seed)
        head = Q.callgraph_at(db, "bench")
        first = Q.callgraph_at(db, "bench", at=hashes[0])
        stable = sorted(f for f in head if f in first and f.rsplit(".", 1)[-1].startswith("fn"))
        n = args.samples
        syms = [rnd.choice(stable) for _ in range(n)]
        commits = [rnd.choice(hashes) for _ in range(n)]
        pairs = [(s, c) for s, c in zip(syms, commits, strict=True)]
        diff_pairs = []
        for _ in range(max(20, n // 4)):
            i = rnd.randrange(0, len(hashes) - 1)
            j = min(len(hashes) - 1, i + rnd.randint(1, 5))
            diff_pairs.append((hashes[i], hashes[j]))
        changed = sorted({f for f in head if f not in first} | {f for f in first if f not in head})
        # histories of stable symbols, and of added / removed / moved ones (their rename lookups)
        hist_syms = [rnd.choice(stable) for _ in range(n // 2)] + [rnd.choice(changed or stable) for _ in range(n // 4)]
        counter = QueryCounter()
        svc = McpService(settings)
        svc._db = db  # the service's own connection would do the same; share the open one
        info = db.registry.get("bench")
        t_ingest = int(time.time())

        # warm caches (named query texts, connection) once
        Q.calls(db, info, syms[0], at=commits[0])
        get_symbol, get_calls = GetSymbol(), GetCalls()
        get_symbol(svc, name_or_fqn=syms[0], workspace="bench")

        rows = [
            measure("resolve_at", lambda c: Q.resolve_at(db, info, at=c), commits, counter),
            measure("calls", lambda p: Q.calls(db, info, p[0], at=p[1]), pairs, counter),
            measure("callers", lambda p: Q.callers(db, info, p[0], at=p[1]), pairs, counter),
            measure("calls as_of_ingest", lambda p: Q.calls(db, info, p[0], at=p[1], as_of_ingest=t_ingest), pairs,
                    counter),  # fmt: skip
            measure("get_symbol", lambda p: Q.get_symbol(db, info, p[0], at=p[1]), pairs, counter),
            measure("call_tree d1", lambda p: Q.call_tree(db, info, p[0], depth=1, at=p[1]), pairs, counter),
            measure("call_tree d3", lambda p: Q.call_tree(db, info, p[0], depth=3, at=p[1]), pairs, counter),
            measure("symbol_history", lambda s: Q.symbol_history(db, info, s), hist_syms, counter),
            measure("diff_commits", lambda p: Q.diff_commits(db, info, p[0], p[1]), diff_pairs, counter),
            measure("impact d3", lambda p: Q.impact(db, info, fqns=[p[0]], depth=3, at=p[1]), pairs, counter),
            measure("mcp get_symbol", lambda p: get_symbol(svc, name_or_fqn=p[0], workspace="bench"), pairs, counter),
            measure("mcp get_calls d1", lambda p: get_calls(svc, fqn=p[0], depth=1, workspace="bench"), pairs, counter),
            measure("mcp get_calls d1 at", lambda p: get_calls(svc, fqn=p[0], depth=1, at=p[1][:10], workspace="bench"),
                    pairs, counter),  # fmt: skip
        ]
        print(f"\n{'operation':<22}{'n':>5}{'median ms':>11}{'p95 ms':>9}{'max ms':>9}{'q/call':>8}{'target':>9}  ok")
        failed = False
        for r in rows:
            tgt = r["target_p95_ms"]
            ok = "" if tgt is None else ("yes" if r["p95_ms"] < tgt and not r["errors"] else "NO")
            failed |= ok == "NO"
            print(f"{r['op']:<22}{r['n']:>5}{r['median_ms']:>11.2f}{r['p95_ms']:>9.2f}{r['max_ms']:>9.2f}"
                  f"{r['queries_per_call']:>8.1f}{'< ' + format(tgt, 'g') if tgt else '':>9}  {ok}"
                  + (f"  ({r['errors']} errors)" if r["errors"] else ""))  # fmt: skip
        if args.json:
            Path(args.json).write_text(json.dumps({"lines": lines, "functions": n_fn, "calls_versions": n_calls,
                                                   "commits": len(hashes), "rows": rows}, indent=1))  # fmt: skip
        db.close()
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
