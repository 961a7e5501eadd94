"""Attribute stores onto objects other than a method's own first parameter (``Stores``):
``self.state.cb = f``, ``reg = self.registry; reg.hooks.append(f)``, ``def install(conn):
conn.on_close = f``, ``p = Pipeline(); p.stages.append(f)``. The parser lists them by attribute name
(``ParsedFile.obj_stores``: object expression, value, item?); a store whose object evaluates to an
instance of a class of the program makes its value a value (an item) of that attribute on that
class's instances, read by any ``x.attr`` whose x is such an instance (flow-insensitive, like the
``self.attr = v`` stores of the class's own methods). Only those instances: an instance of another
class with an attribute of that name holds none of it, and a store through an object evaluating to
nothing stores nothing.

Which files store onto an attribute of a given name is a name search (``PythonIndex.store_files``,
``<os>ATTR``), what each stores a recorded read (``('OS', attr)``): a store appearing in or
disappearing from any file re-resolves the files that read the attribute on some instance.

What a store's object evaluates to is the same for every file reading the attribute: it is a
shared answer (``hierarchy.py``, ``SHARED_STORE_OBJECTS``: the instances each object of a scope's
stores holds), computed once per index state instead of in every reader (Django's ``self.index`` in
``AddIndex.reduce``, an instance attribute fed by every ``AddIndex(...)`` site, was evaluated again in
each of the ~2,800 files reading ``.name`` on some instance); the asker takes over its reads. The
parser keeps only objects traced without a local's flow through calls' results or loops
(``build.traced``), the rest being as costly to evaluate in every reader."""

from __future__ import annotations

from typing import Any

from mnemosyne.parse.python import ParsedFile
from mnemosyne.parse.python.tags import T_KEYED
from mnemosyne.resolve.python.fixpoint import Fixpoint
from mnemosyne.resolve.python.hierarchy import SHARED_PATH, SHARED_STORE_OBJECTS
from mnemosyne.resolve.python.values import VAL_INST


class Stores(Fixpoint):
    """Values stored onto instances' attributes through other objects."""

    __slots__ = ()

    def object_stores(self, b: Any, attr: str, item: bool, keys: Any = None) -> set:
        """What the program's object stores of ``attr`` give instance ``b`` (a ``VAL_INST``): the
        values of ``obj.attr = v`` (``item``: the items of ``obj.attr.append(v)``, ``obj.attr[k] = v``,
        ...; with ``keys``, literals, not an item stored under another literal key) whose ``obj``
        may be ``b``."""
        out: set = set()
        files = self.os_reads.get(attr)
        if files is None:
            files = self.store_files(attr)
        for p in files:
            for j, (obj, v, it) in self.ostores(p, attr):
                if it is not item:
                    continue
                if v[0] == T_KEYED:  # (stored under a literal key: read by it or an unknown one)
                    if keys is not None and v[1] not in keys:
                        continue
                    v = v[2]
                held = None
                # (the file's own: evaluated by its own resolution anyway; in a shared computation,
                # itself: the objects' values nest, and a nested shared answer under way would fail it)
                if p != self.path and self.path != SHARED_PATH:
                    k = (p, j)
                    if k in self.objs_memo:
                        shared = self.objs_memo[k]
                    else:
                        shared = self.ix.hierarchy.answer(self, SHARED_STORE_OBJECTS, p, j, _shared_objects)
                        if shared is not None or self.depth == 0:  # (a failure deeper may succeed higher up)
                            self.objs_memo[k] = shared
                    if shared is not None:
                        held = shared.get(obj)
                if held is None:
                    held = self.eval(p, j, obj)
                if b in held:
                    out |= self.eval_binding(p, j, v)
        return out


def scope_store_objects(pf: ParsedFile, j: int) -> list[Any]:
    """The objects of scope ``j``'s object stores, in the order of ``pf.obj_stores``."""
    return [obj for stores in pf.obj_stores.values() for sc, (obj, _v, _it) in stores if sc == j]


def _shared_objects(r: Stores, path: str, j: int) -> dict[Any, frozenset]:
    """``SHARED_STORE_OBJECTS``: the instances each object of scope ``j``'s stores evaluates to.
    (Which objects scope ``j`` stores through is not a recorded read: an asker looks up only an
    object its own recorded ``('OS', attr)`` read gave it, and evaluates one missing itself.)"""
    out: dict[Any, frozenset] = {}
    for obj in scope_store_objects(r.ix._parsed[path], j):
        if obj not in out:
            out[obj] = frozenset(x for x in r.eval(path, j, obj) if x[0] == VAL_INST)
    return out
