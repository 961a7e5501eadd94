"""`history FQN` scored against hand-labelled change histories of real functions (identity across time).

Each repository is synthesized from successive releases of a real project (PyPI sdists through
``pip download --no-deps --no-binary :all:``, npm tarballs through ``npm pack``; cached in
.bench/), one commit per release, its message naming the release. The labelled set,
benchmarks/data/identity_histories.json, gives for each function (by its name at the last release)
the releases that changed its code under whatever name it had, and the renames/moves among them
(labelled by reading the diffs between releases: ``git log -L``, ``git diff -M``); formatting-only
releases are listed apart and set aside, as the issue's oracle does.

    .venv/bin/python benchmarks/identity_history.py            # all repositories of the set
    .venv/bin/python benchmarks/identity_history.py --only httpx

Prints, per function, the releases reported and labelled; then commit-level precision and recall
of ``history`` (events other than calls gained/lost and formatting_only, against the labelled
code-changing releases), the share of complete histories (every labelled release found), the
rename/move detection precision and recall on the labelled functions (the recorded RENAMED_TO
links whose old or new symbol is in a labelled chain, against the labelled renames/moves), and
the share of the ingestion time spent in the detection (``IngestResult.timings['identity']``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tarfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _private_db import private_database  # noqa: E402
from ingest_speed import bench_git, download, download_npm  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "identity_histories.json"
BENCH = ROOT / ".bench"
SKIP = (".pyc", ".so", ".map", ".d.ts")


def members(archive: Path, under: list[str]) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    with tarfile.open(archive) as tf:
        for m in tf.getmembers():
            if not m.isfile():
                continue
            rel = m.name.split("/", 1)[1] if "/" in m.name else m.name
            if not rel or rel.endswith(SKIP) or "egg-info" in rel or rel == "PKG-INFO":
                continue
            if under and not any(rel == u or rel.startswith(u.rstrip("/") + "/") for u in under):
                continue
            f = tf.extractfile(m)
            if f is not None:
                files[rel] = f.read()
    return files


def build(name: str, spec: dict) -> Path:
    """One commit per release (message: ``<project> <version>``); cached by the release list."""
    versions = spec["versions"]
    dest = BENCH / "identity" / f"{name}-{versions[0]}-{versions[-1]}-{len(versions)}"
    if (dest / ".git").exists():
        return dest
    archives = download_npm(spec["project"], versions) if spec.get("npm") else download(spec["project"], versions)
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    git = bench_git(dest)
    git("init", "-q", "--template=", "-b", "main", ".")
    clock = 1_600_000_000
    current: dict[str, bytes] = {}
    for v, arc in zip(versions, archives):
        new = members(arc, spec.get("under", []))
        for p in set(current) - set(new):
            (dest / p).unlink()
        for p, data in new.items():
            if current.get(p) != data:
                (dest / p).parent.mkdir(parents=True, exist_ok=True)
                (dest / p).write_bytes(data)
        git("add", "-A", ".")
        clock += 86400
        git("commit", "-q", "--no-verify", "--allow-empty", "-m", f"{spec['project']} {v}",
            extra={"GIT_AUTHOR_DATE": f"@{clock} +0000", "GIT_COMMITTER_DATE": f"@{clock} +0000"})
        current = new
    return dest


def _version(message: str | None) -> str | None:
    return message.split()[-1] if message else None


def score(db, ws: str, spec: dict, verbose: bool) -> dict:
    from mnemosyne import query as Q

    tp = fp = fn = 0
    complete = total = 0
    link_tp = link_fp = link_fn = 0
    fmt_total = fmt_found = fmt_wrong = 0
    g = db.graph(ws)
    for fn_spec in spec["functions"]:
        fqn = fn_spec["fqn"]
        want = set(fn_spec["changed"])
        fmt = set(fn_spec.get("formatting", []))
        h = Q.symbol_history(db, ws, fqn)
        got = {_version(e.message) for e in h.events
               if not e.kind.startswith(("calls_", "callers_")) and e.kind != "formatting_only"}
        got -= fmt  # formatting-only releases are set aside (labelled apart)
        got.discard(None)
        said_fmt = {_version(e.message) for e in h.events if e.kind == "formatting_only"}
        fmt_total += len(fmt)
        fmt_found += len(fmt & said_fmt)
        fmt_wrong += len(said_fmt - fmt)
        tp += len(got & want)
        fp += len(got - want)
        fn += len(want - got)
        total += 1
        complete += want <= got
        # rename/move detection on this function's chain
        chain = {fqn} | {r["from"] for r in fn_spec.get("renames", [])} | {r["to"] for r in fn_spec.get("renames", [])}
        labelled = {(r["from"], r["to"]) for r in fn_spec.get("renames", [])}
        rows = g.query("MATCH (a)-[e:RENAMED_TO]->(b) WHERE a.fully_qualified_name IN $f OR b.fully_qualified_name IN $f "
                       "RETURN a.fully_qualified_name, b.fully_qualified_name", {"f": sorted(chain)})
        found = {(a, b) for a, b in rows}
        link_tp += len(found & labelled)
        link_fp += len(found - labelled)
        link_fn += len(labelled - found)
        if verbose or want != got:
            mark = "ok " if want <= got and not (got - want) else "   "
            print(f"  {mark}{fqn}: missed {sorted(want - got)} extra {sorted(got - want)}"
                  + (f" links missed {sorted(labelled - found)} extra {sorted(found - labelled)}"
                     if labelled != found else ""))
    return {"tp": tp, "fp": fp, "fn": fn, "complete": complete, "total": total,
            "ltp": link_tp, "lfp": link_fp, "lfn": link_fn, "ft": fmt_total, "ff": fmt_found, "fw": fmt_wrong}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", help="repository of the set to run (repeat)")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--build-only", action="store_true", help="only build the repositories (for labelling)")
    args = ap.parse_args()
    data = json.loads(DATA.read_text())
    repos = {k: v for k, v in data["repositories"].items() if not args.only or k in args.only}
    paths = {k: build(k, v) for k, v in repos.items()}
    for k, p in paths.items():
        print(f"{k}: {p}")
    if args.build_only:
        return 0
    from mnemosyne.ingest import ingest_workspace
    from mnemosyne.workspaces import add_workspace

    agg = {"tp": 0, "fp": 0, "fn": 0, "complete": 0, "total": 0, "ltp": 0, "lfp": 0, "lfn": 0, "ft": 0, "ff": 0,
           "fw": 0}
    ident = ingest_s = 0.0
    with private_database("mnident-") as (_home, _settings, db):
        for k, spec in repos.items():
            info = add_workspace(db.registry, k, paths[k], branch="main")
            t = time.perf_counter()
            res = ingest_workspace(db, info)
            ingest_s += time.perf_counter() - t
            ident += res.timings.get("identity", 0.0)
            print(f"{k}: {res.commits_ingested} commits ingested in {res.seconds:.1f}s "
                  f"(identity detection {res.timings.get('identity', 0.0):.2f}s)")
            r = score(db, k, spec, args.verbose)
            for key in agg:
                agg[key] += r[key]
    p = agg["tp"] / max(1, agg["tp"] + agg["fp"])
    r = agg["tp"] / max(1, agg["tp"] + agg["fn"])
    lp = agg["ltp"] / max(1, agg["ltp"] + agg["lfp"])
    lr = agg["ltp"] / max(1, agg["ltp"] + agg["lfn"])
    print(f"functions: {agg['total']} over {len(repos)} repositories")
    print(f"history commits: precision {p:.1%} recall {r:.1%} (tp {agg['tp']}, fp {agg['fp']}, fn {agg['fn']})")
    print(f"complete histories: {agg['complete']}/{agg['total']} ({agg['complete'] / max(1, agg['total']):.1%})")
    print(f"rename/move detection: precision {lp:.1%} recall {lr:.1%} "
          f"(tp {agg['ltp']}, fp {agg['lfp']}, fn {agg['lfn']})")
    print(f"formatting-only: {agg['ff']} of {agg['ft']} labelled formatting-only releases reported as such, "
          f"{agg['fw']} reported where the code changed")
    print(f"identity detection: {ident:.2f}s of {ingest_s:.1f}s ingestion ({ident / max(ingest_s, 1e-9):.1%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
