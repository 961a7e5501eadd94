"""Helpers for the TypeScript extraction tests: build facts from an in-memory tree."""

from __future__ import annotations

from pathlib import Path

from mnemosyne.extract import Extractor
from mnemosyne.facts import Snapshot
from mnemosyne.resolve.typescript import TypeScriptIndex

CORPUS = Path(__file__).parent / "corpus"


def ts_snapshot(files: dict[str, bytes]) -> Snapshot:
    ex = Extractor(indexes=[TypeScriptIndex()])
    ex.update({p: d for p, d in files.items() if ex.owns(p)})
    return ex.snapshot()


def read_case(case_dir: Path) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for p in sorted(case_dir.rglob("*")):
        rel = p.relative_to(case_dir).as_posix()
        if p.is_file() and rel != "expected.json":
            out[rel] = p.read_bytes()
    return out
