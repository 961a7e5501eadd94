"""Extraction speed on big real code, against the raw tree-sitter parse of the same files.

Downloads (once, into ``.bench/`` at the repository root, which git ignores) a big PyPI sdist
(default ``django==5.1.4``; a wheel is unpacked when no sdist can be had) and npm packages that
ship their TypeScript sources (default ``rxjs@7.8.1``, ~250 .ts files in ``src/`` that the grammar
parses cleanly, and ``effect@3.10.0``, ~360 bigger ones of which about half use syntax the
tree-sitter-typescript grammar does not know, e.g. ``in out`` variance annotations), then for each
package measures over the same files:

* floor: ``tree_sitter.Parser.parse`` of every blob, nothing else;
* full: ``Extractor.update(all files)`` then ``.snapshot()`` (parse + extraction + resolution), a
  fresh Extractor per run.

Prints files, MB, seconds, files/s and MB/s (medians of ``--runs`` runs, default 3) and the ratio
full / floor per language.

    python benchmarks/extract_speed.py
    python benchmarks/extract_speed.py --runs 5 --language python --json
    python benchmarks/extract_speed.py --workers 2   # parse on 2 processes (parse/pool.py)
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
# Downloads are kept here; MNEMOSYNE_BENCH_CACHE lets several checkouts share one folder.
CACHE = Path(os.environ.get("MNEMOSYNE_BENCH_CACHE") or REPO / ".bench")

DEFAULT_PY = "django==5.1.4"
DEFAULT_TS = ["rxjs@7.8.1", "effect@3.10.0"]
PY_SUFFIXES = (".py", ".pyi")
TS_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _safe_extract_tar(tgz: Path, dest: Path) -> None:
    with tarfile.open(tgz) as tf:
        try:
            tf.extractall(dest, filter="data")
        except TypeError:  # Python without extraction filters
            tf.extractall(dest)  # noqa: S202 - archives from the package registries only


def fetch_pypi(spec: str) -> Path:
    """Unpacked sources of a PyPI release (sdist, else wheel) under .bench/pypi/."""
    name = spec.replace("==", "-")
    root = CACHE / "pypi" / name
    if (root / ".done").is_file():
        return root
    dl = CACHE / "downloads"
    dl.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    log(f"downloading {spec} (sdist) into {dl} ...")
    before = set(dl.iterdir())
    pip = [sys.executable, "-m", "pip", "download", "--no-deps", "-d", str(dl), "-q", spec]
    if subprocess.run([*pip, "--no-binary", ":all:"]).returncode != 0:
        log("no sdist could be had; falling back to a wheel")
        subprocess.run([*pip, "--only-binary", ":all:"], check=True)
    got = sorted(set(dl.iterdir()) - before)
    if not got:  # already downloaded earlier: find it by name and version
        dist, _, version = spec.partition("==")
        stem = f"{dist}-{version}".lower().replace("_", "-")
        got = sorted(p for p in dl.iterdir() if p.name.lower().replace("_", "-").startswith(stem))
    if not got:
        raise SystemExit(f"pip download of {spec} produced no file in {dl}")
    archive = got[-1]
    if archive.suffix in (".whl", ".zip"):
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(root)
    else:
        _safe_extract_tar(archive, root)
    (root / ".done").write_text(archive.name)
    return root


def fetch_npm(spec: str) -> Path:
    """Unpacked tarball of an npm package under .bench/npm/ (``npm pack``)."""
    safe = spec.replace("/", "__").replace("@", "_")
    root = CACHE / "npm" / safe
    if (root / ".done").is_file():
        return root
    dl = CACHE / "downloads"
    dl.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    log(f"npm pack {spec} into {dl} ...")
    out = subprocess.run(["npm", "pack", spec, "--silent", "--pack-destination", str(dl)],
                         check=True, capture_output=True, text=True).stdout.strip().splitlines()
    tgz = dl / out[-1].strip()
    _safe_extract_tar(tgz, root)
    (root / ".done").write_text(tgz.name)
    return root


def collect(root: Path, suffixes: tuple[str, ...], under: str | None = None) -> dict[str, bytes]:
    """Repo-relative path -> bytes of the source files (no node_modules, no .d.ts unless asked)."""
    files: dict[str, bytes] = {}
    base = root
    for p in sorted(base.rglob("*")):
        if not p.is_file():
            continue
        rel = p.relative_to(base).as_posix()
        if "node_modules/" in rel or "__pycache__" in rel:
            continue
        if under is not None and f"/{under}/" not in f"/{rel}":
            continue
        if rel.endswith(suffixes):
            files[rel] = p.read_bytes()
    return files


def floor_parsers():
    """(suffix -> tree-sitter Parser) with the grammars the extractor uses."""
    import tree_sitter_python as tsp
    import tree_sitter_typescript as tst
    from tree_sitter import Language, Parser

    py = Parser(Language(tsp.language()))
    ts = Parser(Language(tst.language_typescript()))
    tsx = Parser(Language(tst.language_tsx()))
    table = {".py": py, ".pyi": py}
    for s in (".ts", ".mts", ".cts"):
        table[s] = ts
    for s in (".tsx", ".js", ".jsx", ".mjs", ".cjs"):  # JS: the TSX grammar (parse/typescript/grammar.py)
        table[s] = tsx
    try:  # follow the extractor's own suffix -> grammar table when it has one
        from mnemosyne.parse.typescript.grammar import GRAMMAR_OF, LANGUAGE_OF

        for s, lang in LANGUAGE_OF.items():
            table[s] = tsx if GRAMMAR_OF.get(lang) == "tsx" else ts
    except Exception:
        pass
    return table


def suffix(path: str) -> str:
    base = path.rsplit("/", 1)[-1]
    i = base.rfind(".")
    return base[i:] if i > 0 else ""


def time_floor(files: dict[str, bytes]) -> float:
    parsers = floor_parsers()
    blobs = [(parsers[suffix(p)], d) for p, d in files.items()]
    t0 = time.perf_counter()
    for parser, data in blobs:
        parser.parse(data)
    return time.perf_counter() - t0


def extractor_options(workers: int | None) -> tuple[dict, str]:
    from mnemosyne.extract import Extractor

    params = inspect.signature(Extractor.__init__).parameters
    if "parse_workers" in params:
        n = workers if workers is not None else 1
        if n > 1:
            from mnemosyne.parse.pool import shared_pool

            t0 = time.perf_counter()
            shared_pool(n).start()  # like a daemon's: started once, not per run
            opts = {"parse_workers": n}
            if "resolve_workers" in params:
                opts["resolve_workers"] = n
            return opts, (f"{', '.join(f'{k}={v}' for k, v in opts.items())} ({n - 1} helper process(es) + this "
                          f"one; started before timing, in {time.perf_counter() - t0:.2f}s)")
        return ({"parse_workers": 1, **({"resolve_workers": 1} if "resolve_workers" in params else {})},
                "serial, one core")
    note = "serial (Extractor has no parse_workers option)"
    if workers not in (None, 1):
        note += f"; --workers {workers} ignored"
    return {}, note


def time_full(files: dict[str, bytes], options: dict) -> tuple[float, dict]:
    from mnemosyne.extract import Extractor

    t0 = time.perf_counter()
    ex = Extractor(**options)
    ex.update(files)
    snap = ex.snapshot()
    seconds = time.perf_counter() - t0
    stats = {
        "files_with_facts": len(snap.files),
        "symbols": sum(len(f.symbols) for f in snap.files.values()),
        "calls": sum(len(f.calls) for f in snap.files.values()),
        "warnings": len(snap.warnings),
    }
    return seconds, stats


def syntax_error_files(files: dict[str, bytes]) -> int:
    parsers = floor_parsers()
    return sum(1 for p, d in files.items() if parsers[suffix(p)].parse(d).root_node.has_error)


def bench(language: str, source: str, files: dict[str, bytes], runs: int, options: dict) -> dict:
    size = sum(len(d) for d in files.values())
    floors, fulls, stats = [], [], {}
    for i in range(runs):
        floors.append(time_floor(files))
        full, stats = time_full(files, options)
        fulls.append(full)
        log(f"  {language} run {i + 1}/{runs}: floor {floors[-1]:.3f}s, full {full:.3f}s")
    floor, full = statistics.median(floors), statistics.median(fulls)
    return {
        "language": language,
        "source": source,
        "files": len(files),
        "bytes": size,
        "mb": size / 1e6,
        "runs": runs,
        "floor_seconds": floor,
        "full_seconds": full,
        "floor_runs": floors,
        "full_runs": fulls,
        "floor_files_per_s": len(files) / floor if floor else 0.0,
        "full_files_per_s": len(files) / full if full else 0.0,
        "floor_mb_per_s": size / 1e6 / floor if floor else 0.0,
        "full_mb_per_s": size / 1e6 / full if full else 0.0,
        "ratio": full / floor if floor else float("inf"),
        "syntax_error_files": syntax_error_files(files),
        **stats,
    }


def print_table(rows: list[dict], mode: str) -> None:
    print(f"extraction speed, median of {rows[0]['runs'] if rows else 0} runs; extractor: {mode}; "
          f"python {platform.python_version()} on {platform.machine()}")
    head = (f"{'language':<11} {'source':<22} {'files':>6} {'MB':>6} | {'floor s':>8} {'files/s':>8} {'MB/s':>6} | "
            f"{'full s':>8} {'files/s':>8} {'MB/s':>6} | {'ratio':>6}")
    print(head)
    print("-" * len(head))
    for r in rows:
        print(f"{r['language']:<11} {r['source'][:22]:<22} {r['files']:>6} {r['mb']:>6.2f} | "
              f"{r['floor_seconds']:>8.3f} {r['floor_files_per_s']:>8.0f} {r['floor_mb_per_s']:>6.2f} | "
              f"{r['full_seconds']:>8.3f} {r['full_files_per_s']:>8.0f} {r['full_mb_per_s']:>6.2f} | "
              f"{r['ratio']:>5.1f}x")
    print("floor = tree-sitter Parser.parse of every file; full = Extractor.update(all) + snapshot() "
          "(parse, extract, resolve); ratio = full / floor")
    for r in rows:
        print(f"  {r['source']}: {r['symbols']} symbols, {r['calls']} call edges, {r['warnings']} warnings, "
              f"{r['syntax_error_files']} files the grammar parses with errors")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="runs per measurement; medians are quoted (default 3)")
    ap.add_argument("--language", choices=["python", "typescript"], action="append", help="only this language")
    ap.add_argument("--py-package", default=DEFAULT_PY, help=f"pip requirement to download (default {DEFAULT_PY})")
    ap.add_argument("--ts-package", action="append", help=f"npm package to pack, repeatable (default {' '.join(DEFAULT_TS)})")
    ap.add_argument("--ts-under", default="src", help="only files under this folder of the npm package "
                    "(default src: the TypeScript sources; '' for every file)")
    ap.add_argument("--py-all", action="store_true", help="every .py of the sdist (default: skip its tests/ and docs/)")
    ap.add_argument("--workers", type=int, default=None, help="Extractor parse_workers, when it has the option")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    args = ap.parse_args(argv)
    languages = args.language or ["python", "typescript"]
    options, mode = extractor_options(args.workers)
    rows = []
    if "python" in languages:
        root = fetch_pypi(args.py_package)
        files = collect(root, PY_SUFFIXES)
        if not args.py_all:
            files = {p: d for p, d in files.items() if not any(f"/{x}/" in f"/{p}" for x in ("tests", "docs"))}
        # paths relative to the unpacked project folder (Django-5.1.4/django/... -> django/...)
        tops = {p.split("/", 1)[0] for p in files}
        if len(tops) == 1 and all("/" in p for p in files):
            files = {p.split("/", 1)[1]: d for p, d in files.items()}
        rows.append(bench("python", args.py_package, files, args.runs, options))
    if "typescript" in languages:
        for spec in args.ts_package or DEFAULT_TS:
            root = fetch_npm(spec)
            pkg = root / "package" if (root / "package").is_dir() else root
            files = collect(pkg, TS_SUFFIXES, args.ts_under or None)
            files = {p: d for p, d in files.items() if not p.endswith((".d.ts", ".d.mts", ".d.cts"))}
            rows.append(bench("typescript", spec, files, args.runs, options))
    if args.json:
        print(json.dumps({"extractor": mode, "results": rows}, indent=2))
    else:
        print_table(rows, mode)
    return 0


if __name__ == "__main__":
    sys.exit(main())
