"""Operator sites (``a + b``, ``x[k]``, f-strings) are resolved only while a file's resolution has
made fewer than ``OPERATOR_BUDGET`` evaluations: past it they are left unresolved, with a
warning saying so, and the rest of the file's calls are unaffected."""

from __future__ import annotations

import pytest

import mnemosyne.resolve.python as rp
from mnemosyne.resolve.python import PythonIndex

SRC = b'''
class V:
    def __add__(self, other):
        return self
    def __str__(self):
        return "v"

def helper():
    return V()

def use(v: V):
    helper()
    w = v + v
    return f"{v}", w
'''


def _calls_and_warnings() -> tuple[set[tuple[str, str]], list[str]]:
    ix = PythonIndex()
    ix.update({"m.py": SRC})
    f = ix.facts("m.py")
    assert f is not None
    return {(c.caller, c.callee) for c in f.calls}, list(f.warnings)


def test_operators_resolved_within_the_budget() -> None:
    calls, warnings = _calls_and_warnings()
    assert {("m.use", "m.V.__add__"), ("m.use", "m.V.__str__"), ("m.use", "m.helper")} <= calls
    assert warnings == []


def test_operators_past_the_budget_are_skipped_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rp, "OPERATOR_BUDGET", 0)
    calls, warnings = _calls_and_warnings()
    assert ("m.use", "m.helper") in calls  # ordinary calls are unaffected
    assert not any(callee.startswith("m.V.__") for _, callee in calls)
    assert len(warnings) == 1 and "operator sites" in warnings[0] and "left unresolved" in warnings[0]
