"""Call-graph accuracy: edge-level precision and recall against the hand-checked corpora.

For every case under tests/extract_py/corpus/* and tests/extract_ts/corpus/* (its program files
plus ``expected.json`` in PyCG format, ``{fqn: sorted callees}``), runs
``mnemosyne.extract.extract_tree`` over the case's files and ``mnemosyne.callgraph.to_pycg`` on the
snapshot, then compares (caller, callee) pairs: micro-averaged precision and recall per language,
a per-case table of misses and extras, and the totals against the targets.

    python benchmarks/accuracy.py            # table
    python benchmarks/accuracy.py --json     # machine-readable
    python benchmarks/accuracy.py -v         # list every missed and extra edge

It is a report: the exit code is 0 whatever the numbers (tests/extract_* hold the gates).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

CORPORA = {
    "python": REPO / "tests" / "extract_py" / "corpus",
    "typescript": REPO / "tests" / "extract_ts" / "corpus",
}
TARGETS = {"python": (0.99, 0.90), "typescript": (0.97, 0.90)}  # (precision, recall)
Edge = tuple[str, str]


@dataclass
class CaseResult:
    language: str
    case: str
    files: int
    expected: int
    found: int
    true_positives: int
    misses: list[Edge] = field(default_factory=list)
    extras: list[Edge] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None


def edges(graph: dict[str, list[str]]) -> set[Edge]:
    return {(caller, callee) for caller, callees in graph.items() for callee in callees}


def case_files(case: Path) -> list[tuple[str, bytes]]:
    return [
        (p.relative_to(case).as_posix(), p.read_bytes())
        for p in sorted(case.rglob("*"))
        if p.is_file() and p.name != "expected.json" and "__pycache__" not in p.parts
    ]


def run_case(language: str, case: Path) -> CaseResult:
    expected = edges(json.loads((case / "expected.json").read_text(encoding="utf-8")))
    files = case_files(case)
    t0 = time.perf_counter()
    try:
        from mnemosyne.callgraph import to_pycg
        from mnemosyne.extract import extract_tree

        found = edges(to_pycg(extract_tree(files)))
        error = None
    except Exception as exc:  # a report: a crashing case counts as all misses
        found, error = set(), f"{type(exc).__name__}: {exc}"
        if "--traceback" in sys.argv:
            traceback.print_exc()
    seconds = time.perf_counter() - t0
    return CaseResult(
        language=language,
        case=case.name,
        files=len(files),
        expected=len(expected),
        found=len(found),
        true_positives=len(expected & found),
        misses=sorted(expected - found),
        extras=sorted(found - expected),
        seconds=seconds,
        error=error,
    )


def ratio(num: int, den: int) -> float:
    return num / den if den else 1.0


def summarize(results: list[CaseResult]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for language, (p_target, r_target) in TARGETS.items():
        rs = [r for r in results if r.language == language]
        tp = sum(r.true_positives for r in rs)
        fp = sum(len(r.extras) for r in rs)
        fn = sum(len(r.misses) for r in rs)
        precision, recall = ratio(tp, tp + fp), ratio(tp, tp + fn)
        out[language] = {
            "cases": len(rs),
            "cases_exact": sum(1 for r in rs if not r.misses and not r.extras and not r.error),
            "errors": sum(1 for r in rs if r.error),
            "expected_edges": tp + fn,
            "found_edges": tp + fp,
            "true_positives": tp,
            "false_positives": fp,
            "false_negatives": fn,
            "precision": precision,
            "recall": recall,
            "precision_target": p_target,
            "recall_target": r_target,
            "meets_targets": bool(rs) and precision >= p_target and recall >= r_target,
            "seconds": sum(r.seconds for r in rs),
        }
    return out


def print_report(results: list[CaseResult], summary: dict[str, dict], verbose: bool) -> None:
    head = f"{'language':<11} {'case':<28} {'files':>5} {'expect':>6} {'found':>6} {'miss':>5} {'extra':>5}  status"
    for language in TARGETS:
        rs = [r for r in results if r.language == language]
        if not rs:
            print(f"{language}: no cases under {CORPORA[language].relative_to(REPO)}\n")
            continue
        print(head)
        print("-" * len(head))
        for r in rs:
            status = "ERROR " + (r.error or "") if r.error else ("ok" if not r.misses and not r.extras else "differs")
            print(f"{r.language:<11} {r.case:<28} {r.files:>5} {r.expected:>6} {r.found:>6} "
                  f"{len(r.misses):>5} {len(r.extras):>5}  {status[:60]}")
        print()
    detail = [r for r in results if r.misses or r.extras]
    if detail:
        print("Differences (- missed, + extra)" + ("" if verbose else "; first 5 per case, -v for all") + ":")
        for r in detail:
            print(f"  [{r.language}] {r.case}")
            for tag, items in (("-", r.misses), ("+", r.extras)):
                shown = items if verbose else items[:5]
                for caller, callee in shown:
                    print(f"    {tag} {caller} -> {callee}")
                if len(items) > len(shown):
                    print(f"    {tag} ... {len(items) - len(shown)} more")
        print()
    print(f"{'language':<11} {'cases':>5} {'exact':>5} {'edges':>6} {'TP':>6} {'FP':>5} {'FN':>5} "
          f"{'precision':>10} {'target':>7} {'recall':>8} {'target':>7}  verdict")
    for language, s in summary.items():
        if not s["cases"]:
            print(f"{language:<11} {0:>5}  (no corpus)")
            continue
        verdict = "meets targets" if s["meets_targets"] else "BELOW TARGET"
        print(f"{language:<11} {s['cases']:>5} {s['cases_exact']:>5} {s['expected_edges']:>6} "
              f"{s['true_positives']:>6} {s['false_positives']:>5} {s['false_negatives']:>5} "
              f"{s['precision']:>10.2%} {s['precision_target']:>7.0%} {s['recall']:>8.2%} "
              f"{s['recall_target']:>7.0%}  {verdict}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every missed and extra edge")
    ap.add_argument("--language", choices=sorted(TARGETS), action="append", help="only this language (repeatable)")
    ap.add_argument("--case", action="append", help="only cases whose name contains this (repeatable)")
    ap.add_argument("--traceback", action="store_true", help="print tracebacks of crashing cases")
    args = ap.parse_args(argv)
    results: list[CaseResult] = []
    for language, root in CORPORA.items():
        if args.language and language not in args.language:
            continue
        if not root.is_dir():
            continue
        for case in sorted(p for p in root.iterdir() if (p / "expected.json").is_file()):
            if args.case and not any(c in case.name for c in args.case):
                continue
            results.append(run_case(language, case))
    summary = summarize(results)
    if args.language:
        summary = {k: v for k, v in summary.items() if k in args.language}
    if args.json:
        print(json.dumps({"summary": summary, "cases": [asdict(r) for r in results]}, indent=2))
    else:
        print_report(results, summary, args.verbose)
    return 0


if __name__ == "__main__":
    sys.exit(main())
