"""A Python index nothing refers to any more is freed at once, by reference counting: no reference
cycle keeps a tree's parse results alive until a full collection of the cyclic GC (which would then
traverse every one of them: millions of objects on Django)."""

from __future__ import annotations

import gc
import weakref

from mnemosyne.extract import Extractor
from mnemosyne.resolve.python import PythonIndex

FILES = {
    "pkg/__init__.py": b"",
    "pkg/base.py": b"class Base:\n    def run(self):\n        self.step()\n\n    def step(self):\n        pass\n",
    "pkg/impl.py": (
        b"from pkg.base import Base\n\n\nclass Impl(Base):\n    def step(self):\n        super().step()\n\n\n"
        b"def main():\n    Impl().run()\n"
    ),
    # an __init__'s parameter fed through a subclass the module calls (``found_as_subclass``)
    "pkg/flow.py": (
        b"class Base:\n    def __init__(self, cb):\n        cb()\n\n\nclass Child(Base):\n    pass\n\n\n"
        b"def hook():\n    pass\n\n\ndef main():\n    Child(hook)\n"
    ),
}


def test_a_resolved_index_is_freed_without_the_cyclic_collector() -> None:
    was = gc.isenabled()
    gc.disable()
    try:
        ix = PythonIndex()
        ix.update(FILES)
        for p in FILES:
            assert ix.facts(p) is not None
        assert ix.hierarchy.answers  # the shared class-hierarchy answers were used
        ref = weakref.ref(ix)
        del ix
        assert ref() is None
    finally:
        if was:
            gc.enable()


def test_an_extractor_is_freed_without_the_cyclic_collector() -> None:
    was = gc.isenabled()
    gc.disable()
    try:
        ex = Extractor()
        ex.update(FILES)
        files = ex.snapshot().files
        assert files["pkg/impl.py"].calls
        assert any(c.caller == "pkg.flow.Base.__init__" and c.callee == "pkg.flow.hook" for c in files["pkg/flow.py"].calls)
        ref = weakref.ref(ex)
        ix_ref = weakref.ref(ex.indexes[0].index)  # type: ignore[attr-defined]
        del ex
        assert ref() is None and ix_ref() is None
    finally:
        if was:
            gc.enable()
