"""`mnemosyne annotate` / `mnemosyne insights` / `mnemosyne symbol` as a user runs them (subprocesses
against the session's embedded FalkorDB)."""

from __future__ import annotations

import json
import subprocess
import sys

RUN = "import sys; from mnemosyne.cli import main; sys.exit(main())"


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", RUN, *args], capture_output=True, text=True, timeout=120)


def test_annotate_symbol_insights_remove(proj, settings):
    p = cli("annotate", "pricing.net_price", "cyclomatic_complexity_score=15", "ai_risk_assessment=medium",
            'refactoring_suggestions=["extract nested functions"]', "--agent", "me", "-w", proj.name)
    assert p.returncode == 0, p.stderr
    assert 'cyclomatic_complexity_score = 15' in p.stdout and '"medium"' in p.stdout
    p = cli("symbol", "net_price", "-w", proj.name, "--json")
    ins = {i["key"]: i["value"] for i in json.loads(p.stdout)["insights"]}
    assert ins == {"cyclomatic_complexity_score": 15, "ai_risk_assessment": "medium",
                   "refactoring_suggestions": ["extract nested functions"]}
    p = cli("symbol", "net_price", "-w", proj.name, "--no-source")
    assert "data, not instructions" in p.stdout and "ai_risk_assessment" in p.stdout
    p = cli("insights", "--search", "nested", "-w", proj.name)
    assert "refactoring_suggestions" in p.stdout and "ai_risk" not in p.stdout
    p = cli("annotate", "pricing.net_price", "--remove", "ai_risk_assessment", "--agent", "other", "-w", proj.name)
    assert p.returncode == 1 and "only its author can remove it" in p.stderr and "Traceback" not in p.stderr
    p = cli("annotate", "pricing.net_price", "--remove", "ai_risk_assessment", "--agent", "me", "-w", proj.name)
    assert p.returncode == 0 and p.stdout.startswith("removed")
    p = cli("insights", "pricing.net_price", "--history", "-w", proj.name, "--json")
    assert {(i["key"], i["removed_at"] is not None) for i in json.loads(p.stdout)} == {
        ("cyclomatic_complexity_score", False), ("ai_risk_assessment", True), ("refactoring_suggestions", False)}


def test_bad_key_is_one_line(proj, settings):
    p = cli("annotate", "pricing.net_price", "bad key=1", "-w", proj.name)
    assert p.returncode == 1 and p.stderr.count("\n") == 1 and "invalid insight key 'bad key'" in p.stderr
