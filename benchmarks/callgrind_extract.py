"""Instruction count of one serial extraction of a package, for before/after comparisons.

    python -m compileall -q mnemosyne benchmarks > /dev/null        # byte code first (see below)
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.django
        python benchmarks/callgrind_extract.py django==5.1.4         # (one command line)
    python benchmarks/callgrind_extract.py --total /tmp/cg.django   # prints the instruction total

Compile the byte code first, on both sides of a comparison: an import that compiles a module's
source is counted (~0.6 G on vite when no ``__pycache__`` is fresh), and whether it was fresh
differed between past measurements.

callgrind counts instructions, not seconds: the same code, input and environment give the same
count whatever else the machine is doing, so a change's cost is measurable on a busy machine. The
extraction is serial (``extract_tree`` with one parse and one resolve worker: callgrind follows one
process); interpreter start-up and the download cache's reading are included in both sides.
``PYTHONHASHSEED=0`` keeps set/dict orders, hence the work done, the same between runs.

``--clone-layout`` drops the release's top folder (``Django-5.1.4/django/...`` -> ``django/...``),
the layout of a clone of the project's repository: the program's absolute imports then resolve
from the repository root, as they do in every version of the resolver (the sdist layout only
resolves them since the resolver finds deeper import roots, so it is no like-for-like comparison
across that change).
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from extract_speed import PY_SUFFIXES, TS_SUFFIXES, collect, fetch_npm, fetch_pypi  # noqa: E402


def total(path: Path) -> int:
    """The ``summary:`` (or ``totals:``) instruction count of a callgrind output file."""
    for line in path.read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise SystemExit(f"{path}: no summary line (is it a callgrind output file?)")


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "--total":
        print(total(Path(argv[1])))
        return 0
    clone = "--clone-layout" in argv
    argv = [a for a in argv if a != "--clone-layout"]
    if len(argv) != 1 or argv[0].startswith("-"):
        print(__doc__)
        return 2
    spec = argv[0]
    files = collect(fetch_pypi(spec), PY_SUFFIXES) if "==" in spec else collect(fetch_npm(spec), TS_SUFFIXES)
    tops = {path.split("/", 1)[0] for path in files}
    if clone and len(tops) == 1 and all("/" in path for path in files):
        files = {path.split("/", 1)[1]: data for path, data in files.items()}
    from mnemosyne.extract import extract_tree

    snap = extract_tree(sorted(files.items()))
    calls = sum(len(f.calls) for f in snap.files.values())
    print(f"{spec}: {len(snap.files)} files, {calls} call facts")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
