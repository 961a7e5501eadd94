"""extract.DeferredIndex: a language index is built when its first file arrives, with the same
facts as indexes built up front (a tree of one language never imports the other's pipeline)."""

from __future__ import annotations

from mnemosyne.extract import DeferredIndex, Extractor
from mnemosyne.resolve.python import PythonIndex
from mnemosyne.resolve.typescript import TypeScriptIndex

PY = {
    "app/__init__.py": b"",
    "app/core.py": b"def helper(x):\n    return x\n\n\ndef run():\n    return helper(1)\n",
}
TS = {
    "web/util.ts": b"export function fmt(s: string) { return s.trim(); }\n",
    "web/main.ts": b"import { fmt } from './util';\nexport function show() { return fmt(' a '); }\n",
    "package.json": b'{"name": "web", "version": "1.0.0"}\n',
}


def _built(ex: Extractor) -> list[bool]:
    return [isinstance(ix, DeferredIndex) and ix.built for ix in ex.indexes]


def test_a_one_language_tree_builds_one_index() -> None:
    ex = Extractor()
    ex.update(PY)
    assert _built(ex) == [True, False]
    assert ex.snapshot().files["app/core.py"].calls
    ex.update({"app/core.py": None})  # nothing of the other language arrives: still not built
    assert _built(ex) == [True, False]
    ts = Extractor()
    ts.update(TS)
    assert _built(ts) == [False, True]


def test_deferred_indexes_give_the_facts_of_indexes_built_up_front() -> None:
    both = {**PY, **TS}
    lazy, eager = Extractor(), Extractor(indexes=[PythonIndex(), TypeScriptIndex()])
    for ex in (lazy, eager):
        ex.update(PY)
        ex.update(TS)  # the second language arrives in a later commit
        ex.update({"web/util.ts": both["web/util.ts"] + b"export const k = 1;\n", "app/__init__.py": None})
    assert _built(lazy) == [True, True]
    a, b = lazy.snapshot(), eager.snapshot()
    assert a.files == b.files and sorted(a.warnings) == sorted(b.warnings)
    assert lazy.paths() == eager.paths() and "web/main.ts" in lazy.paths()
