"""Extraction over many real packages: a sweep for the code that makes extraction slow or noisy.

``extract_speed.py`` measures a few big packages carefully; this one runs the same measurement
(tree-sitter floor vs ``Extractor.update`` + ``snapshot``, same files, same run) once over a
list of PyPI sdists and npm tarballs of different styles (visitor-heavy type checkers, symbolic
maths, web frameworks, bundled and minified JavaScript, dual ESM/CommonJS builds) and prints one
row each: ratio to the floor, call edges, files with warnings. Rows far above the usual ratio
(``--flag``, default 8x) are marked: that is where a resolver pathology hides (mypy 1.13 was 37x
before its cycles were settled once, Angular's bundles took minutes in a quadratic regex).

Downloads once into ``.bench/`` like ``extract_speed.py``. Whole packages are extracted (tests
and build output included): real repositories contain them too.

    python benchmarks/real_world.py                    # the default list (~10 min)
    python benchmarks/real_world.py --py mypy==1.13.0 --ts @angular/core@19.0.0
    python benchmarks/real_world.py --quick            # the smaller half of the list
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from extract_speed import (  # noqa: E402
    PY_SUFFIXES,
    TS_SUFFIXES,
    bench,
    collect,
    extractor_options,
    fetch_npm,
    fetch_pypi,
    log,
    time_full,
)

PY_QUICK = ["attrs==24.2.0", "requests==2.32.3", "flask==3.1.0", "black==24.10.0", "pydantic==2.10.3"]
PY_MORE = ["pytest==8.3.4", "scrapy==2.12.0", "fastapi==0.115.6", "twisted==24.10.0", "mypy==1.13.0"]
TS_QUICK = ["immer@10.1.1", "preact@10.25.0", "mobx@6.13.5", "lodash-es@4.17.21", "vite@6.0.0"]
TS_MORE = ["@tanstack/query-core@5.62.0", "@angular/core@19.0.0", "three@0.170.0", "date-fns@4.1.0"]


def py_files(spec: str) -> dict[str, bytes]:
    files = collect(fetch_pypi(spec), PY_SUFFIXES)
    tops = {p.split("/", 1)[0] for p in files}
    if len(tops) == 1 and all("/" in p for p in files):
        files = {p.split("/", 1)[1]: d for p, d in files.items()}
    return files


def ts_files(spec: str) -> dict[str, bytes]:
    root = fetch_npm(spec)
    pkg = root / "package" if (root / "package").is_dir() else root
    files = collect(pkg, TS_SUFFIXES)
    return {p: d for p, d in files.items() if not p.endswith((".d.ts", ".d.mts", ".d.cts"))}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--py", action="append", help="PyPI requirement (repeatable; replaces the default list)")
    ap.add_argument("--ts", action="append", help="npm package spec (repeatable; replaces the default list)")
    ap.add_argument("--quick", action="store_true", help="only the smaller packages of the default list")
    ap.add_argument("--runs", type=int, default=1, help="runs per package (default 1: a sweep, not a measurement)")
    ap.add_argument("--flag", type=float, default=8.0, help="mark rows whose ratio is above this (default 8)")
    args = ap.parse_args(argv)
    if args.py or args.ts:
        py, ts = args.py or [], args.ts or []
    else:
        py = PY_QUICK + ([] if args.quick else PY_MORE)
        ts = TS_QUICK + ([] if args.quick else TS_MORE)
    options, mode = extractor_options(1)
    # imports, grammars and queries load on first use: not the first package's cost
    time_full({"warm.py": b"def f():\n    g()\n", "warm.ts": b"export function f() { g() }\n"}, options)
    rows = []
    for language, specs, files_of in (("python", py, py_files), ("typescript", ts, ts_files)):
        for spec in specs:
            try:
                files = files_of(spec)
            except Exception as err:  # a registry hiccup loses one row, not the sweep
                log(f"{spec}: could not be fetched ({type(err).__name__}: {err}); skipped")
                continue
            rows.append(bench(language, spec, files, args.runs, options))
    print(f"real-world sweep, {args.runs} run(s) per package; extractor: {mode}")
    head = (f"{'language':<11} {'package':<28} {'files':>6} {'MB':>6} | {'floor s':>8} {'full s':>8} | "
            f"{'ratio':>6} | {'with facts':>10} {'calls':>8} {'warnings':>8} {'syntax err':>10}")
    print(head)
    print("-" * len(head))
    for r in rows:
        mark = "  <-- over --flag" if r["ratio"] > args.flag else ""
        print(f"{r['language']:<11} {r['source'][:28]:<28} {r['files']:>6} {r['mb']:>6.2f} | "
              f"{r['floor_seconds']:>8.2f} {r['full_seconds']:>8.2f} | {r['ratio']:>5.1f}x | "
              f"{r['files_with_facts']:>10} {r['calls']:>8} {r['warnings']:>8} {r['syntax_error_files']:>10}{mark}")
    if rows:
        print(f"median ratio {statistics.median(r['ratio'] for r in rows):.1f}x over {len(rows)} packages; "
              "floor = tree-sitter parse of the same files; full = Extractor.update + snapshot")
        print("'with facts' < files: files skipped (over MNEMOSYNE_MAX_FILE_BYTES, binary); 'warnings' counts "
              "those, syntax and depth-limit warnings, and modules defined twice (x.js and x.cjs: symbols collide)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
