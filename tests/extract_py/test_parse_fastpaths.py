"""The parse walk's hand-written fast paths stay equivalent to what they replace."""

from __future__ import annotations

import ast
import dataclasses
import inspect

import pytest

from mnemosyne.parse.python import parse_python
from mnemosyne.parse.python.model import Scope, fresh_scope


def testfresh_scope_sets_every_field_like_the_dataclass() -> None:
    """``fresh_scope`` bypasses ``Scope.__init__``: a field added to Scope must be added there too
    (an unset slot would raise AttributeError when read)."""
    fast = fresh_scope("function", "f", "C.f", 1, 2, 3, 4, "h")
    slow = Scope(kind="function", name="f", qual="C.f", parent=1, owner=2, line_start=3, line_end=4, body_hash="h")
    for f in dataclasses.fields(Scope):
        a, b = getattr(fast, f.name), getattr(slow, f.name)
        assert a == b and type(a) is type(b), f.name
    # mutable defaults are fresh objects, not shared between scopes
    other = fresh_scope("class", "C", "C", 0, 0, 1, 9, "g")
    for f in dataclasses.fields(Scope):
        v = getattr(fast, f.name)
        if isinstance(v, (list, dict, set)):
            assert v is not getattr(other, f.name), f.name


@pytest.mark.parametrize("body", [
    "plain", "  lead and trail  ", "   ", "", "a\tb", "\tx", "x\\ry", "x\\ty", "one\n    two\n  three",
    "\n\n  x\n\n", "caf\u00e9", "line\n", " \\n x",
])
def test_docstring_is_cleandoc(body: str) -> None:
    """A docstring is inspect.cleandoc of its value (a single line without tabs skips cleandoc)."""
    literal = '"""' + body + '"""'
    pf = parse_python(f"def f():\n    {literal}\n    return 1\n".encode())
    assert pf.scopes[1].docstring == inspect.cleandoc(ast.literal_eval(literal))


def test_the_module_body_hash_given_is_the_one_computed() -> None:
    """The index hands ``parse_python`` the content hash it computed (the module's body hash): the
    file's bytes are hashed once, to the same value."""
    from mnemosyne.hashing import content_hash

    data = b"def f():\n    return 1\n"
    assert parse_python(data).scopes[0].body_hash == content_hash(data)
    assert parse_python(data, content_hash(data)).scopes[0].body_hash == content_hash(data)
