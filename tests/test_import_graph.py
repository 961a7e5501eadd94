"""The ``mnemosyne`` package has no import cycles.

The graph is read from the source with ``ast`` (no module is imported): an edge ``a -> b`` for every
``import`` / ``from ... import`` of a ``mnemosyne`` module in ``a``, wherever the statement stands
(module level, inside a function or a method, under ``try``): a function-level (lazy) import is a
dependency too, it only runs later. The exception is an import under ``if TYPE_CHECKING:``, which
never runs and exists for annotations only. ``from pkg import name`` counts as an edge to
``pkg.name`` when that is a module, else to ``pkg``; a package's ``__init__`` is the module ``pkg``.
A module importing a package (``from mnemosyne import vocabulary``) therefore depends on the
package's ``__init__`` only when the name is not a submodule.

A cycle is a strongly connected component of two or more modules (or a module importing itself);
the failure names its modules and the import lines that close it.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import mnemosyne

PACKAGE_DIR = Path(mnemosyne.__file__).parent

# Cycles known and accepted, each with why breaking it would take a larger move than it is worth:
# a frozenset of module names -> the reason. Empty: the package has none.
KNOWN_CYCLES: dict[frozenset[str], str] = {}

Edge = tuple[str, str, int]  # (importer, imported, line)


def _modules() -> dict[str, tuple[Path, bool]]:
    """Module name -> (file, is a package ``__init__``)."""
    out: dict[str, tuple[Path, bool]] = {}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts.pop()
        out[".".join(parts)] = (path, is_pkg)
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement except those in the body of an ``if TYPE_CHECKING:``."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for stmt in node.body:
                skipped.update(id(n) for n in ast.walk(stmt))
    return [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom) and id(n) not in skipped]


@cache
def import_edges() -> tuple[Edge, ...]:
    """Runtime import edges of the package (read once per session: the files do not change)."""
    modules = _modules()

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    edges: list[Edge] = []
    for name, (path, is_pkg) in modules.items():
        package = name if is_pkg else name.rpartition(".")[0]
        for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    full = ".".join(base + ([node.module] if node.module else []))
                else:
                    full = node.module or ""
                targets = [f"{full}.{a.name}" for a in node.names]
            for target in targets:
                if target == "mnemosyne" or target.startswith("mnemosyne."):
                    dep = known(target)
                    if dep is not None and dep != name:
                        edges.append((name, dep, node.lineno))
    return tuple(edges)


def cycles(edges: tuple[Edge, ...] | list[Edge]) -> list[set[str]]:
    """Strongly connected components of two or more modules (Tarjan, iterative)."""
    graph: dict[str, set[str]] = {}
    for a, b, _ in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component: set[str] = set()
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    component.add(m)
                    if m == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def describe(component: set[str], edges: tuple[Edge, ...] | list[Edge]) -> str:
    lines = [f"import cycle between {', '.join(sorted(component))}:"]
    for a, b, line in sorted(set(edges)):
        if a in component and b in component:
            lines.append(f"  {a} -> {b}  ({a.replace('.', '/')}.py line {line})")
    return "\n".join(lines)


def test_the_graph_is_read() -> None:
    """The walk sees the package: module-level, lazy and relative imports alike."""
    edges = import_edges()
    pairs = {(a, b) for a, b, _ in edges}
    assert ("mnemosyne.store.connection", "mnemosyne.store.embedded") in pairs  # module level
    assert ("mnemosyne.store.connection", "mnemosyne.store.registry") in pairs  # inside a method
    assert ("mnemosyne.extract", "mnemosyne.resolve.python") in pairs  # inside a function
    assert len({a for a, _, _ in edges}) > 50


def test_type_checking_imports_are_not_edges() -> None:
    tree = ast.parse(
        "import typing\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from mnemosyne.a import A\n"
        "if typing.TYPE_CHECKING:\n    import mnemosyne.b\n"
        "else:\n    import mnemosyne.c\n"
        "def f():\n    from mnemosyne.d import D\n"
    )
    names = [n.module if isinstance(n, ast.ImportFrom) else n.names[0].name for n in _runtime_imports(tree)]
    assert sorted(names) == ["mnemosyne.c", "mnemosyne.d", "typing", "typing"]


def test_cycle_detection_names_the_modules() -> None:
    edges = [("p.a", "p.b", 1), ("p.b", "p.c", 2), ("p.c", "p.a", 3), ("p.c", "p.d", 4)]
    assert cycles(edges) == [{"p.a", "p.b", "p.c"}]
    text = describe({"p.a", "p.b", "p.c"}, edges)
    assert "p.c -> p.a  (p/c.py line 3)" in text and "p.d" not in text
    assert cycles([("p.a", "p.b", 1), ("p.b", "p.c", 1)]) == []


def test_no_import_cycles() -> None:
    edges = import_edges()
    found = [c for c in cycles(edges) if frozenset(c) not in KNOWN_CYCLES]
    assert not found, "\n\n".join(describe(c, edges) for c in found)


def test_known_cycles_still_exist() -> None:
    """An accepted cycle that is gone is removed from ``KNOWN_CYCLES`` (so it cannot come back unseen)."""
    present = {frozenset(c) for c in cycles(import_edges())}
    assert not [sorted(c) for c in KNOWN_CYCLES if c not in present]
