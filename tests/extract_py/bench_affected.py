"""Affected-set sizes of single-file body edits (interface pruning), on a real tree.

    /work/venv/bin/python tests/extract_py/bench_affected.py ROOT [--modules 8] [--funcs 3]

Resolves every file of ROOT, then, for the most-read modules, inserts a statement at the top of
a function body (one file changed per update, then reverted) and prints how many files each
update() reports as affected. Not collected by pytest (no ``test_`` prefix).
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time

from tree_sitter import Parser

from mnemosyne.parse.python import LANGUAGE

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from bench_py import load  # noqa: E402


def body_edits(src: bytes, n: int, rng: random.Random) -> list[bytes]:
    """Up to n variants of src, each with one statement added to one function body."""
    tree = Parser(LANGUAGE).parse(src)
    stack = [tree.root_node]
    bodies = []
    while stack:
        node = stack.pop()
        if node.type == "function_definition":
            body = node.child_by_field_name("body")
            if body is not None and body.named_child_count and body.start_point[0] > node.start_point[0]:
                bodies.append(body.named_children[0])
        stack.extend(node.named_children)
    rng.shuffle(bodies)
    out = []
    for stmt in bodies[:n]:
        ind = b" " * stmt.start_point[1]
        out.append(src[: stmt.start_byte] + b"_unused_local = len([1, 2])\n" + ind + src[stmt.start_byte :])
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("root")
    ap.add_argument("--modules", type=int, default=8)
    ap.add_argument("--funcs", type=int, default=3)
    ap.add_argument("--impl", default="mnemosyne.resolve.python", help="module providing PythonIndex")
    a = ap.parse_args()
    PythonIndex = importlib.import_module(a.impl).PythonIndex
    files = load(a.root)
    ix = PythonIndex()
    ix.update(files)
    for p in sorted(ix.paths()):
        ix.facts(p)
    # the most imported modules: files named by the most other files' imports
    importers: dict[str, int] = {}
    for p in ix.paths():
        for imp in ix.facts(p).imports:
            if imp.target_kind == "file":
                importers[imp.target] = importers.get(imp.target, 0) + 1
    top = sorted(importers, key=lambda p: (-importers[p], p))[: a.modules]
    rng = random.Random(0)
    sizes = []
    t_all = 0.0
    for p in top:
        for variant in body_edits(files[p], a.funcs, rng):
            t = time.process_time()
            aff = ix.update({p: variant})
            for q in sorted(aff):
                ix.facts(q)
            t_all += time.process_time() - t
            sizes.append(len(aff))
            print(f"{p} (imported by {importers[p]}): affected {len(aff)}")
            ix.update({p: files[p]})
            for q in sorted(ix.paths()):
                ix.facts(q)
    print(f"{len(sizes)} edits: affected median {statistics.median(sizes)}, mean {statistics.mean(sizes):.1f}, "
          f"max {max(sizes)}; update+re-resolve {t_all:.2f}s CPU total")


if __name__ == "__main__":
    main()
