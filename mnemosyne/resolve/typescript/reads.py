"""Recorded cross-module reads of the TypeScript resolver (interface pruning).

Resolving a file F reads other files' parse results only through the read kinds below; the
resolver (``CtxState.read``, ``state.py``) records, per foreign path, the set of read keys it
issued. F's facts are a deterministic function of its own parse result, the file set, the
config and the answers to those reads. So when a file P changes content (same path, no config
change), a dependent F need not be re-resolved if every recorded key answers the same on the new
P as on the version F was resolved against.

Keys name scopes by ``ParsedFile.scope_key`` (scope fqn + ordinal), and answers are normalised:
scope indices become scope keys and ``('defat', start_byte)`` becomes the definition it points
to, so edits that only move code (byte offsets, scope numbering elsewhere) answer the same.
The read kinds are the ``READ_*`` constants below (docs/resolve-typescript.md lists them). Reads
live in the index's memory only: no state format holds them across processes or runs.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from mnemosyne.parse.typescript import ParsedFile, called_params, class_names_extended, this_owner
from mnemosyne.parse.typescript.tags import (
    DECO,
    DEFAT,
    EXPR,
    FIELD,
    FLOW,
    IFACE,
    IN,
    ITEM,
    MIXIN,
    PARAM,
    PVAL,
    REACH,
    SNAP,
    UNKNOWN,
    VAR,
)

# a recorded read: (READ_* kind, arguments...), issued on one foreign ParsedFile
ReadKey: TypeAlias = tuple[Any, ...]

# ('lk', scope_key, name): the bindings a name finds from a scope: ((scope_key, bindings), ...) up
# to the first a value sees (interface-only scopes are seen by types alone) | None
READ_LOOKUP = "lk"
READ_EXPORT = "x"  # ('x', name): an export entry
READ_STARS = "st"  # ('st',): the ``export *`` specifiers
READ_CJS = "cjs"  # ('cjs',): whether ``require()`` gives the default export
# ('th', scope_key): what ``this`` is in a scope (or the function it belongs to), and whether it is an
# unnamed object literal's value for a key (``ParsedFile.keyed``)
READ_THIS = "th"
READ_NAMESPACE = "ns"  # ('ns', fqn, name): a TS namespace member's bindings
READ_OBJECT = "o"  # ('o', fqn): a named object literal (scope, members)
READ_CLASS = "ci"  # ('ci', fqn): a class or interface (scope, extends, has_ctor, members, implements)
# ('r', fqn): a function's return annotation and returned expressions, and whether it returns a
# promise (async)
READ_RETURNS = "r"
READ_THROWS = "tw"  # ('tw', fqn): the ``new E()`` a function throws out of its body (``ParsedFile.throws``)
READ_SUBCLASSES = "sb"  # ('sb', name): the classes whose ``extends`` expression ends with ``name``
READ_CALL_SITES = "cs"  # ('cs', name): the calls whose callee ends with ``name`` that pass arguments

# depends_on entries besides module names (``TypeScriptIndex.update`` re-resolves their holders):
CONFIG_DEP = "<config>"  # "resolved a non-relative specifier (read the configs)"
SUB_PREFIX = "<sub>"  # + NAME: "the files with a class whose extends clause is named NAME"
CALLS_PREFIX = "<calls>"  # + NAME: "the files with a call named NAME that passes arguments"

_MISSING = ("<missing>",)  # the answer when a recorded scope no longer exists
_NOT_CACHED = object()


def _e(pf: ParsedFile, x):
    """An expression with its definition offsets replaced by the definitions."""
    if type(x) is not tuple:
        return x
    if len(x) == 2 and x[0] == DEFAT and type(x[1]) is int:
        return ("@", pf.defs_at.get(x[1]))
    if len(x) == 3 and x[0] == PVAL and type(x[2]) is int:  # a destructured parameter: its scope by key
        return (PVAL, x[1], pf.scope_key[x[2]])
    if len(x) == 4 and x[0] == SNAP and type(x[2]) is int:  # a swap's right side: its scope by key
        return (SNAP, x[1], pf.scope_key[x[2]], x[3])
    if len(x) == 4 and x[0] == REACH and type(x[2]) is int:  # a binding flow order chose: its scope by key
        return (REACH, x[1], pf.scope_key[x[2]], x[3])
    if len(x) == 3 and x[0] == FLOW and type(x[1]) is int:  # a member's value flow order chose
        return (FLOW, pf.scope_key[x[1]], _e(pf, x[2]))
    if len(x) == 3 and x[0] == IN and type(x[1]) is int:  # a member added from another scope
        return (IN, pf.scope_key[x[1]], _e(pf, x[2]))
    return tuple([_e(pf, y) for y in x])


def _binding(pf: ParsedFile, b: tuple) -> tuple:
    if b[0] == VAR:  # (with a call's own arguments: ``const a = id(f)``)
        if len(b) > 4:
            return (VAR, _e(pf, b[1]), _e(pf, b[2]), pf.scope_key[b[3]], _e(pf, b[4]))
        return (VAR, _e(pf, b[1]), _e(pf, b[2]), pf.scope_key[b[3]])
    if b[0] == PARAM or (b[0] == UNKNOWN and len(b) == 3):
        return (b[0], b[1], pf.scope_key[b[2]])
    if b[0] == DECO:
        return (DECO, pf.scope_key[b[1]], _e(pf, b[2]))
    return b


def _bl(pf: ParsedFile, bl) -> tuple | None:
    return None if bl is None else tuple([_binding(pf, b) for b in bl])


def _export(pf: ParsedFile, x):
    if x is None:
        return None
    k = x[0]
    if k == EXPR:
        return (EXPR, _e(pf, x[1]), pf.scope_key[x[2]])
    if k == DEFAT:
        return ("@", pf.defs_at.get(x[1]))
    return x


def _member(pf: ParsedFile, ent: tuple) -> tuple:
    if ent[0] == FIELD or ent[0] == ITEM or ent[0] == MIXIN or ent[0] == DECO:
        return (ent[0], pf.scope_key[ent[1]], _e(pf, ent[2]))
    return ent


def scope_index(pf: ParsedFile, key, cache: dict) -> int | None:
    inv = cache.get(id(pf))
    if inv is None:
        inv = cache[id(pf)] = {k: i for i, k in enumerate(pf.scope_key)}
    return inv.get(key)


def answer(pf: ParsedFile, key: ReadKey, cache: dict) -> Any:
    """The normalised answer of one recorded read on ``pf`` (``cache``: per-check scratch)."""
    k = key[0]
    if k == READ_LOOKUP:
        s = scope_index(pf, key[1], cache)
        if s is None:
            return _MISSING
        # the scopes up to the first binding a value can see: interfaces only are seen by
        # types, and a value lookup goes past them
        found = []
        while s >= 0:
            bl = pf.bindings[s].get(key[2])
            if bl is not None:
                found.append((pf.scope_key[s], _bl(pf, bl)))
                if any(b[0] != IFACE for b in bl):
                    break
            s = pf.scope_parent[s]
        return tuple(found) or None
    if k == READ_EXPORT:
        return _export(pf, pf.exports.get(key[1]))
    if k == READ_STARS:
        return tuple(pf.stars)
    if k == READ_CJS:
        return pf.cjs_whole
    if k == READ_THIS:
        s = scope_index(pf, key[1], cache)
        if s is None:
            return _MISSING
        this = pf.scope_this[s]  # with no ``this`` of its own, the function it is the ``this`` of
        ans = _e(pf, this) if this is not None else (None, pf.scope_key[this_owner(pf, s)])
        # (is_method: a keyed value calling its parameters is searched for by its key)
        return (ans, "keyed", called_params(pf).get(s, ())) if s in pf.keyed else ans
    if k == READ_NAMESPACE:
        for s in pf.namespaces.get(key[1], ()):
            bl = pf.bindings[s].get(key[2])
            if bl is not None:
                return (pf.scope_key[s], _bl(pf, bl))
        return None
    if k == READ_OBJECT:
        o = pf.objects.get(key[1])
        if o is None:
            return None
        return (pf.scope_key[o[0]], {n: _e(pf, e) for n, e in o[1].items()})
    if k == READ_CLASS:
        info = pf.classes.get(key[1])
        if info is None:
            return None
        return (
            pf.scope_key[info.scope],
            _e(pf, info.extends),
            info.has_ctor,
            {n: tuple([_member(pf, m) for m in ents]) for n, ents in info.members.items()},
            info.implements,
            info.is_interface,
        )
    if k == READ_RETURNS:
        r = pf.returns.get(key[1])
        if r is None:
            return None
        return (pf.scope_key[r[0]], tuple([_e(pf, e) for e in r[1]]), _e(pf, r[2]), key[1] in pf.asyncs)
    if k == READ_THROWS:
        t = pf.throws.get(key[1])
        return (pf.scope_key[t[0]], tuple([_e(pf, e) for e in t[1]])) if t is not None else None
    if k == READ_SUBCLASSES:
        return class_names_extended(pf).get(key[1])
    if k == READ_CALL_SITES:
        return tuple(
            [(pf.scope_key[sc], _e(pf, e), tuple([_e(pf, a) for a in args])) for sc, e, args in pf.call_args.get(key[1], ())]
        )
    raise ValueError(f"unknown read kind {key!r}")


def same_answers(old: ParsedFile, new: ParsedFile, keys, cache: dict) -> bool:
    """True when every key answers the same on both versions (answers memoised in ``cache``)."""
    for key in keys:
        ko = (id(old), key)
        a = cache.get(ko, _NOT_CACHED)
        if a is _NOT_CACHED:
            a = cache[ko] = answer(old, key, cache)
        kn = (id(new), key)
        b = cache.get(kn, _NOT_CACHED)
        if b is _NOT_CACHED:
            b = cache[kn] = answer(new, key, cache)
        if a != b:
            return False
    return True
