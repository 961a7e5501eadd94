"""Proof that a refactor changed no fact: dump the extracted facts of real packages, then compare.

Run it once on the tree before a change and once after (each with its own checkout on
``sys.path``; the script imports ``mnemosyne`` from the repository it sits in), then compare:

    python benchmarks/facts_diff.py dump before.json                 # default: django + rxjs
    python benchmarks/facts_diff.py dump after.json --py flask==3.1.0 --ts ky@1.7.2
    python benchmarks/facts_diff.py compare before.json after.json   # exit 1 on a difference

A dump holds, per package and file, the sorted ``repr`` of every symbol, call, import and
inheritance fact and every warning (what ``tests/extract_py/test_facts_version.py`` digests for the
corpora), so ``compare`` names the files and facts that differ, gained and lost, per package.
``PYTHONHASHSEED`` may be varied between the two dumps: facts must not depend on it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from extract_speed import PY_SUFFIXES, TS_SUFFIXES, collect, fetch_npm, fetch_pypi, log  # noqa: E402

DEFAULT_PY = ["django==5.1.4"]
DEFAULT_TS = ["rxjs@7.8.1"]


def facts_of(files: dict[str, bytes]) -> dict[str, list[str]]:
    """path -> sorted fact lines (kind-prefixed reprs) of one extraction of ``files``."""
    from mnemosyne.extract import extract_tree

    snap = extract_tree(sorted(files.items()))
    out: dict[str, list[str]] = {}
    for path in sorted(snap.files):
        ff = snap.files[path]
        lines = [f"module {ff.language} {ff.module}"]
        for kind, items in (("symbol", ff.symbols), ("call", ff.calls), ("import", ff.imports),
                            ("inherits", ff.inherits)):
            lines += sorted(f"{kind} {x!r}" for x in items)
        lines += sorted(f"warning {w}" for w in ff.warnings)
        out[path] = lines
    return out


def dump(target: Path, py: list[str], ts: list[str]) -> None:
    result: dict[str, dict[str, list[str]]] = {}
    for spec in py:
        log(f"extracting {spec} ...")
        result[spec] = facts_of(collect(fetch_pypi(spec), PY_SUFFIXES))
    for spec in ts:
        log(f"extracting {spec} ...")
        result[spec] = facts_of(collect(fetch_npm(spec), TS_SUFFIXES))
    target.write_text(json.dumps(result, sort_keys=True))
    log(f"wrote {target}: {sum(len(v) for v in result.values())} files")


def compare(a: Path, b: Path, show: int) -> int:
    before, after = json.loads(a.read_text()), json.loads(b.read_text())
    differs = 0
    for pkg in sorted(set(before) | set(after)):
        fa, fb = before.get(pkg, {}), after.get(pkg, {})
        gained: list[str] = []
        lost: list[str] = []
        for path in sorted(set(fa) | set(fb)):
            sa, sb = set(fa.get(path, [])), set(fb.get(path, []))
            gained += [f"{path}: {x}" for x in sorted(sb - sa)]
            lost += [f"{path}: {x}" for x in sorted(sa - sb)]
        facts = sum(len(v) for v in fb.values())
        print(f"{pkg}: {len(fb)} files, {facts} facts, gained {len(gained)}, lost {len(lost)}")
        for label, rows in (("+", gained), ("-", lost)):
            for row in rows[:show]:
                print(f"  {label} {row}")
            if len(rows) > show:
                print(f"  {label} ... {len(rows) - show} more")
        differs += len(gained) + len(lost)
    return 1 if differs else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump", help="extract packages and write their facts to a JSON file")
    d.add_argument("out", type=Path)
    d.add_argument("--py", nargs="*", default=DEFAULT_PY, help="PyPI specs (name==version)")
    d.add_argument("--ts", nargs="*", default=DEFAULT_TS, help="npm specs (name@version)")
    c = sub.add_parser("compare", help="compare two dumps; exit 1 when a fact differs")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    c.add_argument("--show", type=int, default=20, help="differing facts printed per package and sign")
    args = ap.parse_args(argv)
    if args.cmd == "dump":
        dump(args.out, args.py, args.ts)
        return 0
    return compare(args.before, args.after, args.show)


if __name__ == "__main__":
    raise SystemExit(main())
