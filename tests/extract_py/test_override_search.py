"""``self.m()``'s override search (``resolve/python/overrides.py``) over subclass shapes the grouped
search treats apart: chains sharing their base's answer, multiple inheritance (a mixin's method),
a class decorator storing the method, ``__getattr__``, ``self.m = f``; with and without an external
base (whose members make the search skip ``getattr`` for the subclasses binding nothing); and the
incremental contract when a class decorator comes or goes in another file."""

from __future__ import annotations

import random

import pytest

from mnemosyne.resolve.python import PythonIndex

BASE = """{imports}
class Base({base}):
    def run(self):
        self.step()
        self.missing()
        self.__probe__()

    def step(self):
        pass


def add_missing(cls):
    cls.missing = helper
    return cls


def helper(self):
    pass


def other(self):
    pass
"""

SUBS = """from {pkg}.base import Base, add_missing, other


class A(Base):
    def step(self):
        pass


class A2(A):
    pass


class A3(A2):
    pass


class M:
    def step(self):
        pass

    def missing(self):
        pass


class D(M, Base):
    pass


class D2(D):
    pass


{deco}class Deco(Base):
    pass


{deco_child}class DecoChild(Deco):
    pass


class Dyn(Base):
    def __getattr__(self, name):
        return other


class DynChild(Dyn):
    pass


class Assign(A2):
    def __init__(self):
        self.step = other
"""


def _files(pkg: str, external: bool, deco: str = "@add_missing\n", deco_child: str = "") -> dict[str, bytes]:
    base = BASE.format(imports="import unittest\n\n" if external else "", base="unittest.TestCase" if external else "")
    return {
        f"{pkg}/__init__.py": b"",
        f"{pkg}/base.py": base.encode(),
        f"{pkg}/subs.py": SUBS.format(pkg=pkg, deco=deco, deco_child=deco_child).encode(),
    }


def _overrides(ix: PythonIndex, path: str, source: bytes) -> dict[str, set[str]]:
    """method called on ``self`` -> the ``subclass`` edges of ``Base.run`` at that call."""
    f = ix.facts(path)
    assert f is not None
    lines = source.decode().splitlines()
    out: dict[str, set[str]] = {}
    for c in f.calls:
        if c.caller.endswith(".Base.run") and c.resolution == "subclass":
            for line in c.lines:
                out.setdefault(lines[line - 1].strip().split("(")[0].removeprefix("self."), set()).add(c.callee)
    return out


@pytest.mark.parametrize("external", [False, True])
def test_override_search_over_subclass_shapes(external: bool) -> None:
    files = _files("pkg", external)
    ix = PythonIndex()
    ix.update(files)
    got = _overrides(ix, "pkg/base.py", files["pkg/base.py"])
    # self.step(): A's override (for A, A2, A3, Assign), the mixin's (D, D2), what Assign stores
    assert got["step"] == {"pkg.subs.A.step", "pkg.subs.M.step", "pkg.base.other"}
    # self.missing(): the mixin's, the function the class decorator stores (Deco, DecoChild); with
    # no external base, Dyn's __getattr__ too (an external base may have the member itself)
    missing = {"pkg.subs.M.missing", "pkg.base.helper"}
    if not external:
        missing |= {"pkg.subs.Dyn.__getattr__", "pkg.base.other"}
    assert got["missing"] == missing
    assert "__probe__" not in got  # a dunder no class binds: nothing


@pytest.mark.parametrize("external", [False, True])
def test_a_class_decorator_moved_in_another_file_re_resolves_the_search(external: bool) -> None:
    files = _files("pkg", external)
    src = files["pkg/base.py"]
    ix = PythonIndex()
    ix.update(files)
    assert "pkg.base.helper" in _overrides(ix, "pkg/base.py", src)["missing"]
    for deco, child in (("", ""), ("", "@add_missing\n"), ("@add_missing\n", "")):
        changed = _files("pkg", external, deco, child)
        affected = ix.update({"pkg/subs.py": changed["pkg/subs.py"]})
        fresh = PythonIndex()
        fresh.update(changed)
        assert ix.facts("pkg/base.py") == fresh.facts("pkg/base.py")  # (a stale one if not re-resolved)
        assert "pkg/base.py" in affected
        assert ("pkg.base.helper" in _overrides(ix, "pkg/base.py", src).get("missing", set())) == bool(deco or child)


def test_a_regular_subclass_starting_to_bind_the_method_re_resolves_the_search() -> None:
    """The search visits the subclasses that bind ``m`` (and the irregular ones, and one regular
    child of the class): ``B2`` below binds nothing at first, so its answer is ``B``'s and it is
    not visited; its file's ``MB`` read (the classes binding ``step``) is what tells the search
    that it started binding it, nothing else of the search's reads changes."""
    base = b"class Base:\n    def run(self):\n        self.step()\n\n    def step(self):\n        pass\n"
    more0 = b"from pkg.base import Base\n\n\nclass B(Base):\n    pass\n\n\nclass B2(B):\n    pass\n"
    more1 = b"from pkg.base import Base\n\n\nclass B(Base):\n    pass\n\n\nclass B2(B):\n    def step(self):\n        pass\n"
    files = {"pkg/__init__.py": b"", "pkg/base.py": base, "pkg/more.py": more0}
    ix = PythonIndex()
    ix.update(files)
    assert "step" not in _overrides(ix, "pkg/base.py", base)  # (Base.step: the call's own edge)
    for more, want in ((more1, {"pkg.more.B2.step"}), (more0, set())):
        affected = ix.update({"pkg/more.py": more})
        assert "pkg/base.py" in affected
        assert _overrides(ix, "pkg/base.py", base).get("step", set()) == want


RUNNER = """class Base:
    def run(self):
        self.step()
        self.other()

    def step(self):
        pass


def helper(self):
    pass


def deco(cls):
    cls.other = helper
    return cls


class Mixin:
    def other(self):
        pass
"""
# class bodies a subclass may have: binding nothing, binding a searched method, assigning one on
# self (the search then visits every subclass), binding ``__getattr__``
BODIES = (
    "    pass",
    "    def step(self):\n        pass",
    "    def other(self):\n        pass",
    "    def __init__(self):\n        self.step = helper",
    "    def __getattr__(self, name):\n        return helper",
)


def _subclasses_module(rng: random.Random, k: int) -> list[str]:
    """A module's classes under ``Base``: chains within the module and from the previous module,
    with a class decorator or a mixin now and then (irregular subclasses)."""
    classes = []
    bases = ["Base"] + ([f"P{k - 1}_{j}" for j in range(3)] if k else [])
    for j in range(rng.randint(1, 4)):
        base = rng.choice(bases)
        if rng.random() < 0.15:
            base = f"Mixin, {base}"
        deco = "@deco\n" if rng.random() < 0.15 else ""
        body = BODIES[0] if rng.random() < 0.5 else rng.choice(BODIES)
        classes.append(f"{deco}class K{j}({base}):\n{body}\n")
        bases.append(f"K{j}")
    return classes


def _module_text(k: int, classes: list[str]) -> bytes:
    head = "from pkg.runner import Base, Mixin, deco, helper\n"
    if k:
        head += "".join(f"from pkg.s{k - 1} import K{j} as P{k - 1}_{j}\n" for j in range(3))
    return (head + "\n\n" + "\n\n".join(classes)).encode()


@pytest.mark.parametrize("seed", range(30))
def test_random_class_body_edits_under_the_searched_class_match_fresh(seed: int) -> None:
    """Edits of one subclass's body at a time (``self.m()``'s search in ``runner.py`` must see a
    class starting or stopping to bind ``m``, however deep under ``Base``): the incremental
    index's facts equal a fresh index's after every edit."""
    rng = random.Random(seed)
    mods = {k: _subclasses_module(rng, k) for k in range(3)}
    files = {"pkg/__init__.py": b"", "pkg/runner.py": RUNNER.encode()}
    files |= {f"pkg/s{k}.py": _module_text(k, cs) for k, cs in mods.items()}
    ix = PythonIndex()
    ix.update(files)
    ix.facts("pkg/runner.py")
    for _step in range(10):
        k = rng.randrange(3)
        cs = mods[k]
        j = rng.randrange(len(cs))
        head, _sep, _body = cs[j].partition(":\n")
        cs[j] = f"{head}:\n{rng.choice(BODIES)}\n"
        changed = {f"pkg/s{k}.py": _module_text(k, cs)}
        files |= changed
        ix.update(changed)
        fresh = PythonIndex()
        fresh.update(files)
        for p in sorted(files):
            assert ix.facts(p) == fresh.facts(p), f"seed {seed}: {p} differs after editing {cs[j]!r}"


def test_shared_answers_hold_within_the_depth_they_needed() -> None:
    """A shared MRO, subclass search or module attribute is kept with the depth its computation
    needed (its resolver's ``peak``), not the budget it was given: computed again from nothing within
    just that depth, each gives the same answer (and an asker with that much depth left takes it)."""
    from mnemosyne.resolve.python import bounds
    from mnemosyne.resolve.python.classes import _shared_mro, _shared_subclasses
    from mnemosyne.resolve.python.hierarchy import SHARED_MODULE_ATTR, SHARED_MRO, SHARED_SUBCLASSES
    from mnemosyne.resolve.python.names import _shared_module_attr

    computes = {SHARED_MRO: _shared_mro, SHARED_SUBCLASSES: _shared_subclasses, SHARED_MODULE_ATTR: _shared_module_attr}

    files = _files("pkg", True)
    files["pkg/more.py"] = b"from pkg.subs import A3, D2\n\n\nclass E(A3):\n    pass\n\n\nclass F(E, D2):\n    pass\n"
    ix = PythonIndex()
    ix.update(files)
    for p in sorted(files):
        ix.facts(p)
    answers = dict(ix.hierarchy.answers)
    assert answers and all(a.budget <= bounds.MAX_DEPTH // 10 for a in answers.values())  # (shallow here)
    for (kind, path, cidx), a in sorted(answers.items(), key=lambda kv: repr(kv[0])):
        r = ix.hierarchy.make(ix, path, a.budget)
        value = computes[kind](r, path, cidx)  # type: ignore[operator]
        assert not r.truncated and value == a.value, (kind, path, cidx)
