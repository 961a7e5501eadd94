"""Incremental check: single-file body edits on a real package, then their reverts.

Usage: python tests/extract_ts/bench_incremental_ts.py DIR

For every .ts file with a ``return``, inserts ``void 0;`` before the first one (a body-only edit),
updates the index, then reverts. Prints the mean / max size of the affected sets (interface
pruning makes it 1), the update CPU time per edit against the raw tree-sitter parse of the
edited blob, and the time per revert (a cached parse result).
"""

from __future__ import annotations

import pathlib
import statistics
import sys
import time

from mnemosyne.parse.typescript.grammar import tools
from mnemosyne.resolve.typescript import TypeScriptIndex

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
ix = TypeScriptIndex()
files = {}
for p in sorted(root.rglob("*")):
    rel = p.relative_to(root).as_posix()
    if p.is_file() and "node_modules" not in rel and ix.owns(rel):
        files[rel] = p.read_bytes()
ix.update(files)
sizes = []
te = tr = traw = 0.0
for path in sorted(files):
    d = files[path]
    i = d.find(b"return ")
    if i < 0 or not path.endswith(".ts"):
        continue
    new = d[:i] + b"void 0; " + d[i:]
    t = time.process_time()
    tools("typescript")[0].parse(new)
    traw += time.process_time() - t
    t = time.process_time()
    sizes.append(len(ix.update({path: new})))
    te += time.process_time() - t
    t = time.process_time()
    ix.update({path: d})
    tr += time.process_time() - t
n = len(sizes)
print(f"{root}: {n} edits, affected mean {statistics.mean(sizes):.2f} max {max(sizes)}; "
      f"edit update {te/n*1000:.2f} ms = {te/traw:.1f}x raw parse of the blob; revert {tr/n*1000:.2f} ms")
