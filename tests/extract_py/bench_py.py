"""Speed of Python extraction + resolution against raw tree-sitter parsing of the same files.

    /work/venv/bin/python tests/extract_py/bench_py.py [ROOT] [--runs 3]

ROOT defaults to the running interpreter's stdlib (without test suites). Prints, per run, the
CPU time (process time, so other load on the machine matters less) of a raw tree-sitter parse of
every file and of a fresh PythonIndex doing update() + facts() for every file, and the median
ratio. Not collected by pytest (no ``test_`` prefix).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import sysconfig
import time

from tree_sitter import Parser

from mnemosyne.parse.python import LANGUAGE
from mnemosyne.resolve.python import PythonIndex

SKIP_DIRS = {"site-packages", "__pycache__", "test", "tests", "idlelib", "lib2to3", "node_modules", ".git"}


def load(root: str) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for dp, dn, fn in os.walk(root):
        dn[:] = sorted(d for d in dn if d not in SKIP_DIRS)
        for f in sorted(fn):
            if f.endswith(".py"):
                p = os.path.join(dp, f)
                with open(p, "rb") as fh:
                    data = fh.read()
                if len(data) <= 2_000_000 and b"\x00" not in data[:8192]:
                    files[os.path.relpath(p, root).replace(os.sep, "/")] = data
    return files


def run_once(files: dict[str, bytes]) -> tuple[float, float, int]:
    parser = Parser(LANGUAGE)
    t = time.process_time()
    for d in files.values():
        parser.parse(d)
    raw = time.process_time() - t
    t = time.process_time()
    ix = PythonIndex()
    ix.update(files)
    n = 0
    for p in sorted(ix.paths()):
        f = ix.facts(p)
        n += len(f.calls) if f is not None else 0
    full = time.process_time() - t
    return raw, full, n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("root", nargs="?", default=sysconfig.get_paths()["stdlib"])
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    files = load(a.root)
    size = sum(map(len, files.values()))
    print(f"{a.root}: {len(files)} files, {size / 1e6:.1f} MB")
    ratios = []
    for i in range(a.runs):
        raw, full, n = run_once(files)
        ratios.append(full / raw)
        print(f"run {i + 1}: raw parse {raw:.2f}s, extract+resolve {full:.2f}s, ratio {full / raw:.2f}x, {n} call edges")
    print(f"median ratio {statistics.median(ratios):.2f}x")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
