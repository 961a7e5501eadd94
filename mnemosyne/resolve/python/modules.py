"""Module names of the Python resolver: a file's module, ``from . import`` made absolute, and the
``depends_on`` entries that are not module names."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from mnemosyne.sources import PY_SUFFIXES as SUFFIXES

STDLIB = frozenset(sys.stdlib_module_names) | {"__future__", "__main__", "builtins"}
CALLS_PREFIX = "<calls>"  # depends_on entry: "the files with a call or decorator named X"
SUB_PREFIX = "<sub>"  # depends_on entry: "the files with a class whose base is named X"
STORES_PREFIX = "<os>"  # depends_on entry: "the files storing onto attribute X of an object" (``ParsedFile.obj_stores``)
ROOT_PREFIX = "<root>"  # depends_on entry: "the modules whose name ends with .X" (a deeper import root)
ROOT_DEPTH = 3  # an import's first segments (at most this many) that find its deeper import root


def _strip_suffix(path: str) -> str:
    for s in SUFFIXES:
        if path.endswith(s):
            return path[: -len(s)]
    return path


def module_name(path: str, present: set[str] | Mapping[str, Any]) -> str:
    """docs/schema.md (qualified names): dotted path relative to the source root: the repository root, or the
    first ``src/`` directory on the path that is not itself a package (``src/pkg/a.py`` ->
    ``pkg.a``; also ``packages/x/src/x/a.py`` -> ``x.a`` in a monorepo); ``pkg/__init__.py``
    is ``pkg``. Adding or removing a ``src/__init__.py`` renames modules: ``update`` then
    re-resolves everything."""
    parts = _strip_suffix(path).split("/")
    start = 0
    for i, seg in enumerate(parts[:-1]):
        if seg == "src":
            prefix = "/".join(parts[: i + 1])
            if f"{prefix}/__init__.py" not in present and f"{prefix}/__init__.pyi" not in present:
                start = i + 1
                break
    parts = parts[start:]
    if parts and parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


def _absolute(mod: str, is_pkg: bool, module: str, level: int) -> str | None:
    """The absolute module of ``from <level dots><module> import ...`` in module ``mod``."""
    if level == 0:
        return module
    parts = mod.split(".") if mod else []
    if not is_pkg:
        parts = parts[:-1]
    up = level - 1
    if up > len(parts):
        return None
    base = parts[: len(parts) - up] if up else parts
    if module:
        base = base + module.split(".")
    return ".".join(base) if base else None


def name_suffixes(key: str) -> list[str]:
    """The proper suffixes of a dotted name, of 1..``ROOT_DEPTH`` segments (``a.b.c.d``: ``d``,
    ``c.d``, ``b.c.d``): the keys under which ``import_root`` finds ``key``."""
    parts = key.split(".")
    return [".".join(parts[-i:]) for i in range(1, min(ROOT_DEPTH, len(parts) - 1) + 1)]


def root_key(mod: str) -> str:
    """The first ``ROOT_DEPTH`` segments of an absolute import: what ``import_root`` looks up."""
    return ".".join(mod.split(".")[:ROOT_DEPTH])


def pick_root(importer: str, roots: list[str]) -> str | None:
    """docs/resolve-python.md (deeper import roots): of the roots under which the program has the
    module an absolute import names, the one the import in module ``importer`` means: the only
    one, else the one sharing the most leading name segments with ``importer`` (a tie: none)."""
    if not roots:
        return None
    if len(roots) == 1:
        return roots[0]
    mine = importer.split(".")

    def shared(root: str) -> int:
        n = 0
        for a, b in zip(root.split("."), mine):
            if a != b:
                break
            n += 1
        return n

    scored = sorted(((shared(r), r) for r in roots), reverse=True)
    if scored[0][0] == scored[1][0]:
        return None
    return scored[0][1]
