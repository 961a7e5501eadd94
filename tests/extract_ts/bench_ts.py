"""Speed check: TypeScript extraction + resolution vs raw tree-sitter parsing of the same files.

Usage: python tests/extract_ts/bench_ts.py DIR [repeats]   (prints the median ratio of `repeats` runs)
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from mnemosyne.parse.typescript import _GRAMMAR_OF, LANGUAGE_OF, _tools, suffix_of
from mnemosyne.resolve.typescript import TypeScriptIndex


def main() -> None:
    root = Path(sys.argv[1])
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    files = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if p.is_file() and "node_modules" not in rel and TypeScriptIndex().owns(rel):
            files[rel] = p.read_bytes()
    src = {p: d for p, d in files.items() if suffix_of(p) in LANGUAGE_OF}
    size = sum(len(d) for d in src.values())
    ratios = []
    for _ in range(repeats):
        raws = []
        for _k in range(3):  # best of 3 raw parses: the floor, so the ratio is not flattered
            t0 = time.process_time()
            for p, d in src.items():
                _tools(_GRAMMAR_OF[LANGUAGE_OF[suffix_of(p)]])[0].parse(d)
            raws.append(time.process_time() - t0)
        raw = min(raws)
        fulls = []
        for _k in range(3):
            t0 = time.process_time()
            ix = TypeScriptIndex()
            ix.update(files)
            fulls.append(time.process_time() - t0)
        full = min(fulls)
        ratios.append(full / raw)
        edges = sum(len(ix.facts(p).calls) for p in ix.paths())
        print(f"{len(src)} files, {size / 1e6:.2f} MB: parse {raw:.3f}s, extract+resolve {full:.3f}s, "
              f"ratio {full / raw:.2f}, {edges} call edges")
    print(f"median ratio {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
