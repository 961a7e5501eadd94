"""Speed check: TypeScript extraction + resolution vs raw tree-sitter parsing of the same files.

Usage: python tests/extract_ts/bench_ts.py DIR   (3 rounds of 8 interleaved runs; each round's
ratio is min(extract+resolve) / min(raw parse), CPU time; prints the median of the 3 rounds)
"""

from __future__ import annotations

import pathlib
import statistics
import sys
import time

from mnemosyne.parse.typescript.grammar import GRAMMAR_OF, LANGUAGE_OF, suffix_of, tools
from mnemosyne.resolve.typescript import TypeScriptIndex


def main() -> None:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    owner = TypeScriptIndex()
    files = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if p.is_file() and "node_modules" not in rel and owner.owns(rel):
            files[rel] = p.read_bytes()
    src = {p: d for p, d in files.items() if suffix_of(p) in LANGUAGE_OF}

    def raw() -> None:
        for p, d in src.items():
            tools(GRAMMAR_OF[LANGUAGE_OF[suffix_of(p)]])[0].parse(d)

    def full() -> None:
        TypeScriptIndex().update(files)

    size = sum(len(d) for d in src.values())
    ratios = []
    for _ in range(3):
        r, f = [], []
        for _ in range(8):
            t = time.process_time()
            raw()
            r.append(time.process_time() - t)
            t = time.process_time()
            full()
            f.append(time.process_time() - t)
        ratios.append(min(f) / min(r))
        print(f"{len(src)} files, {size / 1e6:.2f} MB: raw parse {min(r):.3f}s, "
              f"extract+resolve {min(f):.3f}s, ratio {ratios[-1]:.2f}")
    print(f"median ratio {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
