"""Bounds on implicit calls. Operator sites (``a + b``, ``x[k]``, f-strings) are resolved only
while a file's resolution has made fewer than ``OPERATOR_BUDGET`` evaluations: past it they are
left unresolved, with a warning saying so, and the rest of the file's calls are unaffected; and
``__getattr__`` is assumed only for classes with few subclasses."""

from __future__ import annotations

import pytest

from mnemosyne.resolve.python import PythonIndex, bounds

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
    monkeypatch.setattr(bounds, "OPERATOR_BUDGET", 0)
    calls, warnings = _calls_and_warnings()
    assert ("m.use", "m.helper") in calls  # ordinary calls are unaffected
    assert not any(callee.startswith("m.V.__") for _, callee in calls)
    assert len(warnings) == 1 and "operator sites" in warnings[0] and "left unresolved" in warnings[0]


PROXY = b'''
class Proxy:
    def __getattr__(self, name):
        return 1

class Sub(Proxy):
    pass

def use(p: Proxy):
    return p.anything
'''


@pytest.mark.parametrize("limit, expected", [(64, True), (0, False)])
def test_getattr_not_assumed_for_a_base_of_many_subclasses(monkeypatch: pytest.MonkeyPatch, limit: int, expected: bool) -> None:
    """``__getattr__`` is assumed only for a class with at most ``GETATTR_MAX_SUBCLASSES``
    subclasses: any of them might bind the attribute, and checking each of thousands (pydantic's
    BaseModel) for every attribute read was too slow."""
    monkeypatch.setattr(bounds, "GETATTR_MAX_SUBCLASSES", limit)
    ix = PythonIndex()
    ix.update({"m.py": PROXY})
    f = ix.facts("m.py")
    assert f is not None
    assert (("m.use", "m.Proxy.__getattr__") in {(c.caller, c.callee) for c in f.calls}) is expected
