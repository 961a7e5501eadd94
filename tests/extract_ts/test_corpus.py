"""Every corpus case: the pycg call graph of the extracted facts equals the hand-written one."""

from __future__ import annotations

import json

import pytest

from .ts_helpers import CORPUS, read_case, ts_snapshot

CASES = sorted(p.name for p in CORPUS.iterdir() if (p / "expected.json").exists())


def _diff(expected: dict[str, list[str]], got: dict[str, list[str]]) -> str:
    lines = []
    for k in sorted(set(expected) | set(got)):
        if k not in got:
            lines.append(f"  missing key   {k}")
        elif k not in expected:
            lines.append(f"  extra key     {k} -> {got[k]}")
        else:
            e, g = set(expected[k]), set(got[k])
            for x in sorted(e - g):
                lines.append(f"  missing edge  {k} -> {x}")
            for x in sorted(g - e):
                lines.append(f"  extra edge    {k} -> {x}")
    return "\n".join(lines)


@pytest.mark.parametrize("case", CASES)
def test_corpus_case(case: str) -> None:
    from mnemosyne.callgraph import to_pycg  # imported lazily: owned by the Python extraction

    case_dir = CORPUS / case
    expected = json.loads((case_dir / "expected.json").read_text())
    got = to_pycg(ts_snapshot(read_case(case_dir)))
    assert got == expected, f"{case}: call graph differs from expected.json\n{_diff(expected, got)}"


def test_corpus_is_not_trivial() -> None:
    assert len(CASES) >= 20
