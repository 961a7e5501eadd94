"""Recorded cross-file reads of the Python resolver (interface pruning).

Resolving a file reads other files' parse results only through the recording accessors of
``mnemosyne.resolve.python.resolver._FileResolver`` (``hdr``, ``binds``, ``sites``, ...). Each read is a
key; when a file changes, a reader of it is re-resolved only if one of its keys answers
differently on the new version (``reads_differ``).

Keys are recorded with scope indices (cheap, on the hot path) and kept so, with the parse result
they were made on. When a changed file numbers its scopes differently, keys and answers are
compared in **stable** form (``stable_keys``, ``answer``): a scope is named by its qualified name
and its ordinal among the scopes of that name (``scope_keys``), so a function added above the
scopes a reader used does not make its reads look different; scope indices inside values
(``('def', i)`` bindings, parents, call-site scopes, lambdas) become scope keys too. Keys that
still answer the same are carried over to the new numbering (``rebase_keys``).

The key tags (``READ_*`` below; docs/resolve-python.md lists them):

  ('h', s)             a scope's header: kind, name, qual, parent, decorators, is_generator
  ('g', s)             its ``global`` / ``nonlocal`` names
  ('b', s, name)       its bindings of a name           ('ib', s, name)  its item bindings
  ('bp', s, prefix)    the names it binds that start with a prefix
  ('pm', s)            its parameters                   ('r', s)         returns, annotation, yields
  ('bs', s)            a class's bases, metaclass       ('ia'|'ii', s, name)  instance attributes / items
  ('st', s)            what a function's body says about it being a stub (``stub_body``)
  ('cs', name)         call sites by callee name        ('D', name)      decorator sites by name
  ('AS', name, attr)   ``name.attr = value`` stores     ('SB', name)     classes by base name
  ('OS', attr)         stores onto an object's attribute (``obj_stores``: object, value, item?)
  ('MB', name)         the classes whose body binds the name or assigns ``self.name``
  ('CC',)              the file's classes it calls by their name
  ('si',) ('A',)       star imports, ``__all__``
  ('AL', k) ('PA', k)  aliases of / passing of a name or a lambda (``('λ', s)`` when stable)
  ('PC',)              names of parameters called in their function
  ('PT', name)         the names bound to ``partial(name, ...)`` (``file_partials``)

The resolver sorts values by ``repr`` in places (an MRO over a union, the order of cycle-guarded
evaluations), and ``repr`` orders scope indices as text; so renumbered scopes count as the same
only if the scopes a reader used keep that order too (``_same_order``).
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from typing import Any

from mnemosyne.parse.python import (
    ParsedFile,
    file_aliases,
    file_attr_stores,
    file_called_classes,
    file_member_classes,
    file_param_calls,
    file_partials,
    file_stored_params,
    file_subclasses,
)
from mnemosyne.parse.python.tags import (
    SCOPE_FUNCTION,
    T_ATTR,
    T_DEF,
    T_LAMBDA,
    T_NAME,
    T_PARAM,
)

READ_HEADER = "h"  # ('h', s): a scope's header (kind, name, qual, parent, decorators, is_generator)
READ_GLOBALS = "g"  # ('g', s): a scope's ``global`` / ``nonlocal`` names
READ_BINDS = "b"  # ('b', s, name): a scope's bindings of a name
READ_PREFIXED = "bp"  # ('bp', s, prefix): the names a scope binds that start with prefix (sorted)
READ_ITEM_BINDS = "ib"  # ('ib', s, name): a scope's item bindings of a name (``x[k] = v``, ``x.append(v)``)
READ_PARAMS = "pm"  # ('pm', s): a function's parameters
READ_RETURNS = "r"  # ('r', s): a function's returns, return annotation and yields
READ_BASES = "bs"  # ('bs', s): a class's bases and metaclass
READ_INST_ATTRS = "ia"  # ('ia', s, name): a class's instance attributes of a name (``self.name = v``)
READ_INST_ITEMS = "ii"  # ('ii', s, name): items stored into a class's instance attribute of a name
READ_STUB = "st"  # ('st', s): ``stub_body`` of a function
READ_SITES = "cs"  # ('cs', name): a file's call sites by callee name
READ_ATTR_STORES = "AS"  # ('AS', name, attr): a file's ``name.attr = value`` stores
READ_OBJ_STORES = "OS"  # ('OS', attr): a file's stores onto an object's attribute (``ParsedFile.obj_stores``)
READ_DECOS = "D"  # ('D', name): a file's decorator sites by decorator name
READ_ALIASES = "AL"  # ('AL', k): the names bound to a name or a lambda's scope
READ_PARAM_CALLS = "PC"  # ('PC',): the names of parameters called in their function
READ_PASSED = "PA"  # ('PA', k): whether a name or a lambda's scope is passed as an argument
READ_STORED_PARAMS = "SP"  # ('SP',): the names of parameters stored through an attribute by their function
READ_SUB_SITES = "SB"  # ('SB', name): a file's classes with a base of a name
# ('MB', name): a file's classes whose body binds the name or assigns ``self.name`` (the override search)
READ_MEMBER_CLASSES = "MB"
READ_CALLED_CLASSES = "CC"  # ('CC',): a file's classes that its call sites call by their name (name -> scopes)
READ_STARS = "si"  # ('si',): a file's star imports
READ_ALL = "A"  # ('A',): a file's ``__all__``
READ_PARTIALS = "PT"  # ('PT', name): the names bound to ``partial(name, ...)``: (name, arguments bound, scope)
STABLE_LAMBDA = "λ"  # ('λ', scope key): a lambda's scope in a stable key (``AL`` / ``PA``)

SCOPED = frozenset({  # key[1] is a scope
    READ_HEADER, READ_GLOBALS, READ_BINDS, READ_PREFIXED, READ_ITEM_BINDS, READ_PARAMS, READ_RETURNS, READ_BASES,
    READ_INST_ATTRS, READ_INST_ITEMS, READ_STUB,
})
LAMBDA_KEYED = frozenset({READ_ALIASES, READ_PASSED})  # key[1] is a name, or a lambda's scope index
_MISSING = ("<missing>",)
# reads whose answer is a list of (scope index, expression)
_SCOPED_PAIRS = frozenset({  # the answer of a read whose scope no longer exists
    READ_INST_ATTRS, READ_INST_ITEMS, READ_SITES, READ_ATTR_STORES, READ_OBJ_STORES,
})


def scope_keys(pf: ParsedFile) -> tuple[tuple[tuple[str, int], ...], dict[tuple[str, int], int]]:
    """(scope index -> (qual, ordinal among the scopes with that qual), and its inverse),
    computed once per parse result."""
    r = pf.scope_keys
    if r is None:
        seen: dict[str, int] = {}
        keys = []
        for s in pf.scopes:
            n = seen.get(s.qual, 0)
            seen[s.qual] = n + 1
            keys.append((s.qual, n))
        t = tuple(keys)
        r = pf.scope_keys = (t, {k: i for i, k in enumerate(t)})
    return r


def stable_keys(pf: ParsedFile, keys: Iterable[tuple]) -> frozenset[tuple]:
    """Recorded keys (scope indices of ``pf``) in stable form (scope keys)."""
    sk = scope_keys(pf)[0]
    out = set()
    for key in keys:
        k = key[0]
        if k in SCOPED:
            out.add((k, sk[key[1]], *key[2:]))
        elif k in LAMBDA_KEYED and type(key[1]) is int:
            out.add((k, (STABLE_LAMBDA, sk[key[1]])))
        else:
            out.add(key)
    return frozenset(out)


def _index_key(pf: ParsedFile, key: tuple) -> tuple | None:
    """A stable key as the raw key it is on ``pf`` (None: its scope is gone)."""
    k = key[0]
    if k in SCOPED:
        i = scope_keys(pf)[1].get(key[1])
        return None if i is None else (k, i, *key[2:])
    if k in LAMBDA_KEYED and type(key[1]) is tuple:
        i = scope_keys(pf)[1].get(key[1][1])
        return None if i is None else (k, i)
    return key


STUB_RAISE = "raise"  # ``stub_body``: the function only raises ``NotImplementedError``
STUB_EMPTY = "empty"  # ``stub_body``: the function's body does nothing (``...``, ``pass``)


def stub_body(s: Any) -> str:
    """What a function's body says about it being a placeholder for overrides: ``"raise"`` when
    all it does is ``raise NotImplementedError`` (any call sites on that statement's lines, a
    docstring, and no return or yield), ``"empty"`` when its body is one statement that does
    nothing (``...``, ``pass``; after a docstring), else ``""``."""
    if s.kind != SCOPE_FUNCTION or s.returns or s.yields:
        return ""
    nie_lines = set()
    for e, line, _flag, _sc in s.calls:
        fn = e[1]
        if (fn[0] == T_NAME and fn[1] == "NotImplementedError") or (fn[0] == T_ATTR and fn[2] == "NotImplementedError"):
            nie_lines.add(line)
    if nie_lines:
        return STUB_RAISE if all(line in nie_lines for _e, line, _f, _sc in s.calls) else ""
    if (
        not s.calls and not s.loads and not s.iters and not s.withs and not s.attr_stores
        and not s.attr_item_stores and not s.bindings.keys() - {p[0] for p in s.params}
        and s.line_end - s.line_start <= 1 + (s.docstring.count("\n") + 1 if s.docstring else 0)
    ):
        return STUB_EMPTY
    return ""


def prefixed_names(s: Any, prefix: str) -> tuple[str, ...]:
    """The names scope ``s`` binds that start with ``prefix``, sorted (``READ_PREFIXED``)."""
    return tuple(sorted(n for n in s.bindings if n.startswith(prefix)))


def raw_read(pf: ParsedFile, key: tuple) -> Any:
    """What a raw key (scope indices) reads from ``pf``, as stored there."""
    k = key[0]
    if k == READ_SITES:
        v: Any = pf.sites_by_name.get(key[1])
    elif k == READ_DECOS:
        v = pf.decos_by_name.get(key[1])
    elif k == READ_STARS:
        v = pf.star_imports
    elif k == READ_ALL:
        v = pf.all_names
    elif k == READ_ALIASES:
        v = file_aliases(pf).get(key[1])
    elif k == READ_SUB_SITES:
        v = file_subclasses(pf).get(key[1])
    elif k == READ_MEMBER_CLASSES:
        v = file_member_classes(pf).get(key[1])
    elif k == READ_CALLED_CLASSES:
        v = file_called_classes(pf)
    elif k == READ_PARAM_CALLS:
        v = file_param_calls(pf)[0]
    elif k == READ_PASSED:
        return key[1] in file_param_calls(pf)[1]
    elif k == READ_STORED_PARAMS:
        return file_stored_params(pf)
    elif k == READ_ATTR_STORES:
        v = file_attr_stores(pf).get((key[1], key[2]))
    elif k == READ_PARTIALS:
        v = file_partials(pf).get(key[1])
    elif k == READ_OBJ_STORES:
        v = pf.obj_stores.get(key[1])
    else:
        if key[1] >= len(pf.scopes):
            return None
        s = pf.scopes[key[1]]
        if k == READ_HEADER:
            v = (s.kind, s.name, s.qual, s.parent, s.decorators, s.is_generator)
        elif k == READ_BINDS:
            v = s.bindings.get(key[2])
        elif k == READ_ITEM_BINDS:
            v = s.item_bindings.get(key[2])
        elif k == READ_PREFIXED:
            return prefixed_names(s, key[2])
        elif k == READ_GLOBALS:
            return (frozenset(s.globals), frozenset(s.nonlocals))
        elif k == READ_PARAMS:
            v = s.params
        elif k == READ_RETURNS:
            v = (s.returns, s.return_ann, s.yields)
        elif k == READ_BASES:
            v = (s.bases, s.metaclass)
        elif k == READ_INST_ATTRS:
            v = s.inst_attrs.get(key[2])
        elif k == READ_INST_ITEMS:
            v = s.inst_items.get(key[2])
        elif k == READ_STUB:
            return stub_body(s)
        else:  # pragma: no cover - an unknown key never compares equal
            return object()
    return v


def _nz(x: Any, lam: dict[int, int], sk: tuple) -> Any:
    """An expression with lambdas (``('L', ordinal)``) replaced by their scope keys."""
    if type(x) is tuple:
        if len(x) == 2 and x[0] == T_LAMBDA and type(x[1]) is int:
            i = lam.get(x[1])
            return (T_LAMBDA, None if i is None else sk[i])
        return tuple([_nz(y, lam, sk) for y in x])
    if type(x) is list:
        return tuple([_nz(y, lam, sk) for y in x])
    return x


def answer(pf: ParsedFile, key: tuple) -> Any:
    """What a stable key reads from ``pf``, normalised: equal answers mean the read answers the
    same whatever the scopes' numbering."""
    raw = _index_key(pf, key)
    if raw is None:
        return _MISSING
    v = raw_read(pf, raw)
    if v is None or type(v) is bool:
        return v
    sk = scope_keys(pf)[0]
    lam = pf.lambdas
    k = key[0]
    if k == READ_HEADER:
        return (v[0], v[1], v[2], sk[v[3]] if v[3] >= 0 else None, _nz(v[4], lam, sk), v[5])
    if k == READ_BINDS:
        out: list[tuple[Any, ...]] = []
        for b in v:
            if b[0] == T_DEF:
                out.append((T_DEF, sk[b[1]]))
            elif b[0] == T_PARAM:
                out.append((T_PARAM, sk[b[1]], b[2]))
            else:
                out.append(_nz(b, lam, sk))
        return tuple(out)
    if k in _SCOPED_PAIRS:
        return tuple([(sk[i], _nz(e, lam, sk)) for i, e in v])
    if k == READ_DECOS:
        return tuple([(_nz(e, lam, sk), sk[i]) for e, i in v])
    if k == READ_SUB_SITES or k == READ_MEMBER_CLASSES:
        return tuple([sk[i] for i in v])
    if k == READ_PARTIALS:
        return tuple([(n, nb, sk[i]) for n, nb, i in v])
    if k == READ_CALLED_CLASSES:
        return tuple(sorted((n, tuple([sk[i] for i in idxs])) for n, idxs in v.items()))
    return _nz(v, lam, sk)


def same_numbering(old: ParsedFile, new: ParsedFile) -> bool:
    """Both versions name every scope and lambda by the same index: raw values then compare
    exactly as normalised ones do, without the normalising copies."""
    return old.lambdas == new.lambdas and scope_keys(old)[0] == scope_keys(new)[0]


def _same_order(old: ParsedFile, new: ParsedFile, keys: Iterable[tuple]) -> bool:
    """The scopes ``keys`` name are in the same ``repr`` order (indices as text) on both."""
    oi, ni = scope_keys(old)[1], scope_keys(new)[1]
    used = {key[1] for key in keys if key[0] in SCOPED}
    used |= {key[1][1] for key in keys if key[0] in LAMBDA_KEYED and type(key[1]) is tuple}
    if any(s not in ni or s not in oi for s in used):
        return False
    return sorted(used, key=lambda s: str(oi[s])) == sorted(used, key=lambda s: str(ni[s]))


def reads_differ(old: ParsedFile, new: ParsedFile, keys: Iterable[tuple], numbered_alike: bool | None = None) -> bool:
    """Whether any key (raw, recorded on ``old``) reads differently from ``new`` than from
    ``old`` (``numbered_alike``: ``same_numbering(old, new)``, when the caller knows it)."""
    if numbered_alike is None:
        numbered_alike = same_numbering(old, new)
    if numbered_alike:
        return any(raw_read(old, k) != raw_read(new, k) for k in keys)
    stable = stable_keys(old, keys)
    if not _same_order(old, new, stable):
        return True
    return any(answer(old, k) != answer(new, k) for k in stable)


def rebase_keys(old: ParsedFile, new: ParsedFile, keys: AbstractSet[tuple], numbered_alike: bool | None = None) -> AbstractSet[tuple]:
    """Raw keys recorded on ``old`` as the raw keys they are on ``new``, for keys that answer the
    same on both (``reads_differ`` was False)."""
    if numbered_alike if numbered_alike is not None else same_numbering(old, new):
        return keys
    out = set()
    for k in stable_keys(old, keys):
        raw = _index_key(new, k)
        if raw is not None:
            out.add(raw)
    return frozenset(out)
