"""docs/parse-typescript.md lists every name of ``mnemosyne/parse/typescript/tags.py``, and no other,
each with its value."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import mnemosyne.parse.typescript.tags as tags

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "parse-typescript.md"
# a table row naming a constant: | `NAME` | `value` | ...
ROW = re.compile(r"^\| `([A-Za-z_]\w*)` \| `([^`]*)` \|", re.M)


def _names_in_module() -> list[str]:
    """The public names ``tags.py`` assigns at module level (constants and type aliases)."""
    tree = ast.parse(Path(tags.__file__).read_text(encoding="utf-8"))
    out = []
    for node in tree.body:
        if isinstance(node, ast.Assign):
            out.extend(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out.append(node.target.id)
    return [n for n in out if not n.startswith("_")]


def _rows() -> list[tuple[str, str]]:
    return ROW.findall(DOC.read_text(encoding="utf-8"))


def test_the_doc_lists_every_tag_and_no_other() -> None:
    names = _names_in_module()
    assert len(names) > 60 and len(set(names)) == len(names)
    documented = [n for n, _v in _rows()]
    repeated = sorted({n for n in documented if documented.count(n) > 1})
    assert not repeated, f"listed twice in {DOC.name}: {repeated}"
    missing = sorted(set(names) - set(documented))
    assert not missing, f"in tags.py but not in {DOC.name}: {missing}"
    unknown = sorted(set(documented) - set(names))
    assert not unknown, f"in {DOC.name} but not in tags.py: {unknown}"


def test_the_doc_gives_each_constant_its_value() -> None:
    wrong = []
    for name, cell in _rows():
        value = getattr(tags, name, None)  # a name tags.py lacks: the test above
        if isinstance(value, str | tuple) and ast.literal_eval(cell) != value:
            wrong.append((name, cell, value))
    assert not wrong, wrong


def _aliases(tree: ast.Module) -> dict[str, str]:
    """name -> the constant it is written as (``ALIAS = NAME``), followed to the end of the chain."""
    direct = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name):
            direct.update({t.id: node.value.id for t in node.targets if isinstance(t, ast.Name)})
    out = {}
    for name, target in direct.items():
        seen = {name}
        while target in direct and target not in seen:
            seen.add(target)
            target = direct[target]
        out[name] = target
    return out


def shared_values(source: str, values: dict[str, object]) -> list[list[str]]:
    """The groups of constants (tags and codes: ``str``, ``int`` or tuples of them) of the module
    ``source`` whose ``values`` are equal, where not all of them are one constant under aliases."""
    tree = ast.parse(source)
    aliases = _aliases(tree)
    groups: dict[tuple[type, object], list[str]] = {}
    for name, value in values.items():
        if name.startswith("_") or isinstance(value, bool) or not isinstance(value, str | int | tuple):
            continue
        groups.setdefault((type(value), value), []).append(name)
    return sorted(sorted(names) for names in groups.values() if len({aliases.get(n, n) for n in names}) > 1)


def test_no_two_constants_share_a_value_unless_one_is_an_alias() -> None:
    values = {n: getattr(tags, n) for n in _names_in_module()}
    shared = shared_values(Path(tags.__file__).read_text(encoding="utf-8"), values)
    assert not shared, f"constants of tags.py with one value (give each its own, or write one as the other): {shared}"
    # an alias is written as the other name and marked in the doc
    rows = dict(_rows())
    for alias, name in _aliases(ast.parse(Path(tags.__file__).read_text(encoding="utf-8"))).items():
        line = next(ln for ln in DOC.read_text(encoding="utf-8").splitlines() if ln.startswith(f"| `{alias}` |"))
        assert alias in rows and f"alias of `{name}`" in line, f"{alias} = {name}: say so in {DOC.name}"


def test_the_shared_value_check_can_fail() -> None:
    source = 'A = "x"\nB = "x"\nC = A\nD = 1\nE = 1\nF = ("x",)\nG = (A,)\nH = "y"\n'
    values: dict[str, object] = {}
    exec(compile(source, "<tags>", "exec"), values)  # the module's values, as import would give them
    values = {k: v for k, v in values.items() if k.isupper()}
    assert shared_values(source, values) == [["A", "B", "C"], ["D", "E"], ["F", "G"]]
    assert shared_values('A = "x"\nC = A\n', {"A": "x", "C": "x"}) == []  # an alias alone: fine
