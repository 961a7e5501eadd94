"""Cheaper constructors for the frozen fact dataclasses the TypeScript extractor emits in bulk.

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__`` by
name (~2 us for a ``Symbol``, ~1.8 us for a ``Call``). With ``slots=True`` every field is a slot
descriptor, so setting the slots directly builds the same object (same class, same field values,
equal and hashing alike) in about a third of the time. The field lists are checked at import: a
change to ``mnemosyne.facts`` fails loudly here instead of building wrong objects.
"""

from __future__ import annotations

import dataclasses

from mnemosyne.facts import Call, Import, Symbol

_SYMBOL_FIELDS = (
    "fqn", "name", "kind", "file", "parent", "line_start", "line_end", "signature", "docstring", "body_hash", "ordinal",
    "complexity", "loc", "params", "nesting",
)
_CALL_FIELDS = ("caller", "callee", "resolution", "confidence", "lines", "external")
_IMPORT_FIELDS = ("file", "target", "target_kind", "ecosystem")
assert tuple(f.name for f in dataclasses.fields(Symbol)) == _SYMBOL_FIELDS
assert tuple(f.name for f in dataclasses.fields(Call)) == _CALL_FIELDS
assert tuple(f.name for f in dataclasses.fields(Import)) == _IMPORT_FIELDS
assert not any(hasattr(c, "__post_init__") for c in (Symbol, Call, Import))


def _setters(cls: type, names: tuple[str, ...]) -> list:
    return [cls.__dict__[n].__set__ for n in names]


_new = object.__new__


def _make_symbol_factory():
    s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14 = _setters(Symbol, _SYMBOL_FIELDS)

    def make_symbol(fqn, name, kind, file, parent, line_start, line_end, signature="", docstring="", body_hash="",
                    ordinal=0, complexity=0, loc=0, params=0, nesting=0):
        """``Symbol(...)`` with the same positional order and defaults."""
        o = _new(Symbol)
        s0(o, fqn)
        s1(o, name)
        s2(o, kind)
        s3(o, file)
        s4(o, parent)
        s5(o, line_start)
        s6(o, line_end)
        s7(o, signature)
        s8(o, docstring)
        s9(o, body_hash)
        s10(o, ordinal)
        s11(o, complexity)
        s12(o, loc)
        s13(o, params)
        s14(o, nesting)
        return o

    return make_symbol


def _make_call_factory():
    s0, s1, s2, s3, s4, s5 = _setters(Call, _CALL_FIELDS)

    def make_call(caller, callee, resolution, confidence, lines=(), external=False):
        """``Call(...)`` with the same positional order and defaults."""
        o = _new(Call)
        s0(o, caller)
        s1(o, callee)
        s2(o, resolution)
        s3(o, confidence)
        s4(o, lines)
        s5(o, external)
        return o

    return make_call


def _make_import_factory():
    s0, s1, s2, s3 = _setters(Import, _IMPORT_FIELDS)

    def make_import(file, target, target_kind, ecosystem=""):
        """``Import(...)`` with the same positional order and defaults."""
        o = _new(Import)
        s0(o, file)
        s1(o, target)
        s2(o, target_kind)
        s3(o, ecosystem)
        return o

    return make_import


make_symbol = _make_symbol_factory()
make_call = _make_call_factory()
make_import = _make_import_factory()
