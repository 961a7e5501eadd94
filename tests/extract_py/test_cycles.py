"""Cycles of values (visitors, translators, functions given themselves) are settled once, with
their outermost key, and keep the instances that flow around them.

Visitor-heavy code makes one large cycle of mutually dependent values (``node.accept(visitor)``
-> ``visitor.visit_x(node)`` -> ``node.child.accept(self)`` ...). Settling every nested key on its
own, inside every round of the key around it, cost ``SETTLE_ROUNDS ** depth`` recomputations (mypy
1.13's ``types.py`` made each of the ~20 files that read it take ~1 s). The work is counted here
in settle rounds, a deterministic number, not in seconds.
"""

from __future__ import annotations

from mnemosyne.callgraph import to_pycg
from mnemosyne.extract import extract_tree
from mnemosyne.resolve.python import SETTLE_BUDGET, SETTLE_ROUNDS, PythonIndex, _FileResolver


def visitor_module(n: int) -> bytes:
    """Node classes T0..T(n-1) with ``accept``; a translator building the next node kind from
    each node's children and a printer walking them; ``main`` builds a small tree."""
    out = ["class Node:", "    def accept(self, visitor):", "        raise NotImplementedError", ""]
    for i in range(n):
        out += [
            f"class T{i}(Node):",
            f"    def __init__(self, a{i}, *rest):",
            f"        self.a{i} = a{i}",
            "        self.rest = tuple(rest)",
            "    def accept(self, visitor):",
            f"        return visitor.visit_t{i}(self)",
            "",
        ]
    out.append("class Visitor:")
    for i in range(n):
        out += [f"    def visit_t{i}(self, t):", "        raise NotImplementedError"]
    out += ["", "class Translator(Visitor):"]
    for i in range(n):
        out += [
            f"    def visit_t{i}(self, t):",
            f"        return T{(i + 1) % n}(t.a{i}.accept(self), *[r.accept(self) for r in t.rest])",
        ]
    out += ["", "class Printer(Visitor):"]
    for i in range(n):
        out += [
            f"    def visit_t{i}(self, t):",
            f"        s = t.a{i}.accept(self)",
            "        return self.join([s] + [r.accept(self) for r in t.rest])",
        ]
    out += [
        "    def join(self, xs):",
        "        return ', '.join(xs)",
        "",
        "def main():",
        "    tree = T0(T1(None), T2(None))",
        "    return tree.accept(Translator()).accept(Printer())",
        "",
    ]
    return "\n".join(out).encode()


def settle_rounds(source: bytes) -> int:
    ix = PythonIndex()
    ix.update({"mod.py": source})
    r = _FileResolver(ix, "mod.py")
    r.run()
    return SETTLE_BUDGET - r.settle_budget


def test_nested_cycles_settle_with_the_outermost_key() -> None:
    # one cycle through every visit method: settled in a few rounds whatever its size (settling
    # each nested key on its own took 27 rounds for 4 node kinds, 135 for 16)
    for n in (4, 16):
        assert settle_rounds(visitor_module(n)) <= SETTLE_ROUNDS


def test_instances_flowing_around_a_cycle_are_kept() -> None:
    g = to_pycg(extract_tree([("mod.py", visitor_module(3))]))
    # main's tree is T0(T1(None), T2(None)): the translator's visit of it accepts both children,
    # which reach the translator's visits (the children were found only as what flows around the
    # cycle of accept -> visit -> accept)
    assert {"mod.T1.accept", "mod.T2.accept"} <= set(g["mod.Translator.visit_t0"])
    assert "mod.Translator.visit_t2" in g["mod.T2.accept"]
    assert "mod.Translator.visit_t0" in g["mod.T0.accept"]
    assert "mod.Printer.visit_t1" in g["mod.T1.accept"]  # main's .accept(Printer()) on T1(...)
    # nothing invented: accept methods reach visits only
    for i in range(3):
        assert all(".visit_t" in c for c in g[f"mod.T{i}.accept"]), g[f"mod.T{i}.accept"]


def test_a_function_given_itself_still_settles() -> None:
    src = b"""
def g():
    pass

def f(a, depth):
    if depth:
        return a(f, depth - 1)
    return g()

def start():
    return f(f, 3)
"""
    g = to_pycg(extract_tree([("mod.py", src)]))
    assert set(g["mod.f"]) == {"mod.f", "mod.g"}
    assert g["mod.start"] == ["mod.f"]


class _Unmemoised(_FileResolver):
    """The resolver with ``getattr``'s memo turned off: every attribute read computed again."""

    __slots__ = ()

    def getattr(self, b, attr):  # type: ignore[override]
        return self._getattr(b, attr)


def _edges(resolver_class: type[_FileResolver], source: bytes) -> tuple[list, bool]:
    ix = PythonIndex()
    ix.update({"mod.py": source})
    r = resolver_class(ix, "mod.py")
    facts = r.run()
    return sorted((c.caller, c.callee, c.resolution) for c in facts.calls), r.truncated


def test_attribute_reads_memoised_only_when_final() -> None:
    # reads of t.aN / self.rest inside the accept -> visit cycle rest on values still being
    # settled: keeping such an answer would freeze what the first round knew
    for n in (3, 8):
        src = visitor_module(n)
        memo_edges, memo_cut = _edges(_FileResolver, src)
        assert (memo_edges, memo_cut) == _edges(_Unmemoised, src)
        assert len(memo_edges) > 4 * n
    # and the memo is used: one class's attributes read in many methods are computed once
    src = b"class Conf:\n    def __init__(self):\n        self.level = Level()\n\n" \
          b"class Level:\n    def up(self):\n        pass\n\n" \
          b"class User:\n    def __init__(self):\n        self.conf = Conf()\n" + b"".join(
              f"    def m{i}(self):\n        self.conf.level.up()\n".encode() for i in range(20))
    ix = PythonIndex()
    ix.update({"mod.py": src})
    computed = []

    class Counting(_FileResolver):
        __slots__ = ()

        def _getattr(self, b, attr):  # type: ignore[override]
            computed.append((b, attr))
            return super()._getattr(b, attr)

    calls = Counting(ix, "mod.py").run().calls
    assert sum(1 for c in calls if c.callee == "mod.Level.up") == 20
    assert len(computed) == len(set(computed)) < 10
