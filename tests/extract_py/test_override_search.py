"""``self.m()``'s override search (``resolve/python/overrides.py``) over subclass shapes the grouped
search treats apart: chains sharing their base's answer, multiple inheritance (a mixin's method),
a class decorator storing the method, ``__getattr__``, ``self.m = f``; with and without an external
base (whose members make the search skip ``getattr`` for the subclasses binding nothing); and the
incremental contract when a class decorator comes or goes in another file."""

from __future__ import annotations

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
