"""Symbols, imports and inheritance facts of one commit (beyond the call graph)."""

from __future__ import annotations

import pickle

from mnemosyne.hashing import content_hash
from mnemosyne.parse.python import parse_python
from mnemosyne.resolve.python import PythonIndex, module_name

SRC = b'''"""Module doc."""
import os
import json as j
import requests
import yaml.loader
from typing import Optional
from . import sibling
from .sibling import Base
from collections import OrderedDict


@decorate
async def fetch(url: str, retries: int = 3, *args, timeout: float | None = None, **kw) -> dict[str, int]:
    """Fetch a thing.

        Indented detail.
    """
    return {}


class Child(Base, OrderedDict, Exception, metaclass=Meta):
    """A child."""

    key = lambda self, v: v

    def method(self, /, a, *, b=[1,  2]):
        inner = lambda: (lambda: 1)
        def nested(x):
            return x
        return nested


other = lambda: 0
'''


def _index() -> PythonIndex:
    ix = PythonIndex()
    ix.update({"pkg/__init__.py": b"", "pkg/sibling.py": b"class Base:\n    pass\n", "pkg/mod.py": SRC})
    return ix


def test_symbols() -> None:
    f = _index().facts("pkg/mod.py")
    assert f is not None
    assert f.module == "pkg.mod" and f.language == "python" and f.content_hash == content_hash(SRC)
    by = {s.fqn: s for s in f.symbols}
    assert list(by) == [
        "pkg.mod",
        "pkg.mod.fetch",
        "pkg.mod.Child",
        "pkg.mod.Child.<lambda:key>",
        "pkg.mod.Child.method",
        "pkg.mod.Child.method.<lambda:inner>",
        "pkg.mod.Child.method.<lambda:inner>.<lambda:return>",
        "pkg.mod.Child.method.nested",
        "pkg.mod.<lambda:other>",
    ]
    # the PyCG ordinal: source order among the lambdas of the enclosing scope
    assert [s.ordinal for s in f.symbols if s.kind == "lambda"] == [1, 1, 1, 1]
    m = by["pkg.mod"]
    assert (m.kind, m.name, m.parent, m.docstring, m.line_start) == ("module", "pkg.mod", "pkg/mod.py", "Module doc.", 1)
    fetch = by["pkg.mod.fetch"]
    assert fetch.kind == "function" and fetch.parent == "pkg/mod.py"
    assert fetch.signature == "(url: str, retries: int = 3, *args, timeout: float | None = None, **kw) -> dict[str, int]"
    assert fetch.docstring == "Fetch a thing.\n\nIndented detail."  # inspect.cleandoc
    assert (fetch.line_start, fetch.line_end) == (12, 18)  # decorator line to last line
    assert len(fetch.body_hash) == 32
    child = by["pkg.mod.Child"]
    assert (child.kind, child.signature, child.docstring) == ("class", "(Base, OrderedDict, Exception, metaclass=Meta)", "A child.")
    meth = by["pkg.mod.Child.method"]
    assert (meth.kind, meth.parent, meth.signature) == ("method", "pkg.mod.Child", "(self, /, a, *, b=[1, 2])")
    assert by["pkg.mod.Child.<lambda:key>"].kind == "lambda" and by["pkg.mod.Child.<lambda:key>"].parent == "pkg.mod.Child"
    assert by["pkg.mod.Child.<lambda:key>"].signature == "(self, v)"
    assert by["pkg.mod.Child.method.nested"].kind == "function"
    assert by["pkg.mod.Child.method.nested"].parent == "pkg.mod.Child.method"
    assert by["pkg.mod.<lambda:other>"].parent == "pkg/mod.py"


def test_imports_and_inherits() -> None:
    f = _index().facts("pkg/mod.py")
    assert f is not None
    assert [(i.target, i.target_kind, i.ecosystem) for i in f.imports] == [
        ("pkg/sibling.py", "file", ""),  # `from . import sibling`: the submodule's file
        ("requests", "package", "pypi"),
        ("yaml", "package", "pypi"),
    ]  # stdlib (os, json, typing, collections) is not a package dependency
    assert [(i.child, i.parent, i.external) for i in f.inherits] == [
        ("pkg.mod.Child", "pkg.sibling.Base", False),
        ("pkg.mod.Child", "collections.OrderedDict", True),
        ("pkg.mod.Child", "<builtin>.Exception", True),
    ]


OVERLOADS = b'''from typing import overload
import typing


class Codec:
    @overload
    def encode(self, v: int) -> bytes: ...
    @typing.overload
    def encode(self, v: str) -> bytes: ...
    def encode(self, v):
        """Encode anything."""
        return self.raw(v)

    def raw(self, v):
        return v


def twice():
    return 1


def twice():
    """Redefined: the first definition keeps the name's position."""
    return 2
'''


def test_overloads_give_way_to_their_implementation() -> None:
    """A name declared by ``@overload`` stubs is shown by its implementation (position, signature,
    docstring, body); any other redefinition keeps the first one."""
    ix = PythonIndex()
    ix.update({"codec.py": OVERLOADS})
    f = ix.facts("codec.py")
    assert f is not None
    by = {s.fqn: s for s in f.symbols}
    enc = by["codec.Codec.encode"]
    assert (enc.line_start, enc.line_end, enc.signature, enc.docstring) == (10, 12, "(self, v)", "Encode anything.")
    assert [s.fqn for s in f.symbols].count("codec.Codec.encode") == 1
    assert by["codec.twice"].line_start == 18
    assert ("codec.Codec.encode", "codec.Codec.raw") in {(c.caller, c.callee) for c in f.calls}


def test_body_hash_tracks_the_body_only() -> None:
    a = parse_python(b"def f():\n    return 1\n\ndef g():\n    return 2\n")
    b = parse_python(b"# moved\n\ndef f():\n    return 1\n\ndef g():\n    return 3\n")
    assert a.scopes[1].body_hash == b.scopes[1].body_hash
    assert a.scopes[2].body_hash != b.scopes[2].body_hash


def test_parse_result_is_plain_picklable_data() -> None:
    pf = parse_python(SRC)
    again = pickle.loads(pickle.dumps(pf))
    assert again == pf


def test_module_names() -> None:
    present = {"src/pkg/__init__.py", "src/pkg/a.py", "tools/x.py", "__init__.py", "lib/src/__init__.py", "lib/src/m.py"}
    assert module_name("src/pkg/a.py", present) == "pkg.a"
    assert module_name("src/pkg/__init__.py", present) == "pkg"
    assert module_name("tools/x.py", present) == "tools.x"
    assert module_name("lib/src/m.py", present) == "lib.src.m"  # src/ that is a package is not a root
    assert module_name("pkg/stub.pyi", present) == "pkg.stub"


def test_a_signature_broken_over_lines_reads_as_on_one_line() -> None:
    """A formatter breaking a signature after its brackets (black's run over tenacity 8.5.0) changes
    no signature: the same text on one line and over several is the same fact."""
    one = 'def f(exc_info: t.Tuple[t.Type[BaseException], "types.TracebackType| None"], *, k: int = (1,)) -> t.Dict[str, int]:\n    pass\n'
    broken = (
        "def f(\n    exc_info: t.Tuple[\n        t.Type[BaseException], \"types.TracebackType| None\"\n    ],\n"
        "    *,\n    k: int = (1,)\n) -> t.Dict[\n    str,\n    int,\n]:\n    pass\n"
    )
    sigs = []
    for src in (one, broken):
        ix = PythonIndex()
        ix.update({"m.py": src.encode()})
        f = ix.facts("m.py")
        assert f is not None
        sigs.append({s.fqn: s.signature for s in f.symbols}["m.f"])
    assert sigs[0] == sigs[1] == '(exc_info: t.Tuple[t.Type[BaseException], "types.TracebackType| None"], *, k: int = (1,)) -> t.Dict[str, int]'


def test_a_stub_beside_its_module_is_not_warned_about() -> None:
    """attrs ships `converters.pyi` by `converters.py` (a typed package's usual layout): the stub
    yields no symbols and no warning; a module shadowed by a package of the same name still warns."""
    ix = PythonIndex()
    ix.update({"pkg/__init__.py": b"", "pkg/conv.py": b"def f():\n    pass\n", "pkg/conv.pyi": b"def f() -> None: ...\n",
               "pkg/sub.py": b"x = 1\n", "pkg/sub/__init__.py": b"y = 2\n"})  # fmt: skip
    stub = ix.facts("pkg/conv.pyi")
    assert stub is not None and stub.symbols == [] and stub.warnings == []
    shadowed = ix.facts("pkg/sub.py")
    assert shadowed is not None and shadowed.warnings == [
        "pkg/sub.py: module pkg.sub is defined by pkg/sub/__init__.py; symbols and calls of this file are not extracted"]


def test_sites_passing_nothing_for_a_parameter_are_not_evaluated() -> None:
    """Parameter flow skips a call site passing nothing for a parameter after the first (fewer
    positional arguments than its position after a bound receiver, no splat, no ``name=`` or
    ``**mapping``): what the sites that pass it give, by position, by name or spelled out from a
    splat, is unchanged."""
    src = (
        b"def run(a, cb=None):\n    return cb()\n\n\n"
        b"def job():\n    return 1\n\n\n"
        b"def other():\n    return 2\n\n\n"
        b"def by_name():\n    return 3\n\n\n"
        b"def make(x):\n    run(x)\n    run(1, job)\n    run(1, cb=by_name)\n    run(*[1, other])\n\n\n"
        b"class C:\n    def m(self, cb=None):\n        return cb()\n\n    def go(self):\n"
        b"        self.m()\n        C().m(job)\n        C.m(self, other)\n"
    )
    ix = PythonIndex()
    ix.update({"pkg/__init__.py": b"", "pkg/m.py": src})
    facts = ix.facts("pkg/m.py")
    assert facts is not None
    got = {c.callee for c in facts.calls if c.caller == "pkg.m.run"}
    assert got == {"pkg.m.job", "pkg.m.other", "pkg.m.by_name"}
    # a method: the receiver bound (``C().m(job)``) or passed (``C.m(self, other)``)
    assert {c.callee for c in facts.calls if c.caller == "pkg.m.C.m"} == {"pkg.m.job", "pkg.m.other"}
