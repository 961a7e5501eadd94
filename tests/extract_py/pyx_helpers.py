"""Helpers for the Python extraction tests: build facts from in-memory files."""

from __future__ import annotations

from pathlib import Path

from mnemosyne.extract import Extractor
from mnemosyne.facts import Snapshot
from mnemosyne.resolve.python import PythonIndex

CORPUS = Path(__file__).parent / "corpus"


def read_case(case_dir: Path) -> dict[str, bytes]:
    files = {}
    for p in sorted(case_dir.rglob("*")):
        if p.is_file() and p.name != "expected.json":
            files[p.relative_to(case_dir).as_posix()] = p.read_bytes()
    return files


def python_snapshot(files: dict[str, bytes], max_file_bytes: int = 2_000_000) -> Snapshot:
    ex = Extractor(indexes=[PythonIndex()], max_file_bytes=max_file_bytes)
    ex.update({p: d for p, d in files.items() if ex.owns(p)})
    return ex.snapshot()


