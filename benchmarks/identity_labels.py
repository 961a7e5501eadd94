"""Fills in the change releases of benchmarks/data/identity_histories.json from its hand-written chains.

The hand-labelled part of each function is its ``chain``: the names it had, from which release on
(``[release, file, qualified name]``), read off the diffs between releases (a move across files, a
renamed class or method). This script then decides, release by release, whether the function's code
changed, with parsers independent of Mnemosyne's: Python's ``ast`` (a change of ``ast.dump`` of the
definition, decorators included, is a code change; a text change with the same dump is
formatting-only), and for JavaScript/TypeScript the leaf tokens of a tree-sitter parse with comments
left out. A release where the chain changes name or file is a change (the rename or move). It
writes ``changed``, ``formatting`` and ``renames`` (old -> new FQN) next to each chain.

    .venv/bin/python benchmarks/identity_labels.py        # after identity_history.py --build-only
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from identity_history import DATA, build  # noqa: E402


def show(repo: Path, rev: str, path: str) -> str | None:
    p = subprocess.run(["git", "-C", str(repo), "show", f"{rev}:{path}"], capture_output=True)
    return p.stdout.decode("utf-8", "replace") if p.returncode == 0 else None


def py_def(src: str, qual: str) -> tuple[str, str] | None:
    """(ast dump, source text) of the definition ``qual`` (dotted, nested) in ``src``."""
    node: ast.AST = ast.parse(src)
    for part in qual.split("."):
        found = None
        for ch in ast.iter_child_nodes(node):
            if isinstance(ch, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and ch.name == part:
                found = ch
        if found is None:
            return None
        node = found
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])  # type: ignore[attr-defined]
    text = "\n".join(src.splitlines()[first - 1 : node.end_lineno])  # type: ignore[attr-defined]
    dump = ast.dump(node).replace(f"name='{qual.rsplit('.', 1)[-1]}'", "name='<self>'", 1)
    return dump, text


_TS = None


def js_def(src: str, qual: str) -> tuple[str, str] | None:
    """(leaf tokens without comments, source text) of a class/method/function/const ``qual``."""
    global _TS
    if _TS is None:
        import tree_sitter_typescript as tst
        from tree_sitter import Language, Parser

        _TS = Parser(Language(tst.language_typescript()))
    data = src.encode()
    root = _TS.parse(data).root_node
    node = root
    for part in qual.split("."):
        found = None
        stack = list(node.named_children)
        while stack and found is None:
            ch = stack.pop(0)
            if ch.type in ("class_declaration", "function_declaration", "method_definition", "class"):
                name = ch.child_by_field_name("name")
                if name is not None and data[name.start_byte : name.end_byte].decode() == part:
                    found = ch
                    break
            if ch.type == "variable_declarator":
                name = ch.child_by_field_name("name")
                if name is not None and data[name.start_byte : name.end_byte].decode() == part:
                    found = ch
                    break
            if ch.type in ("export_statement", "lexical_declaration", "variable_declaration", "class_body",
                           "expression_statement", "assignment_expression"):
                stack = list(ch.named_children) + stack
        if found is None:
            return None
        node = found.child_by_field_name("body") if found.type in ("class_declaration", "class") and \
            part != qual.split(".")[-1] else found
        if node is None:
            return None
    leaves: list[str] = []

    def walk(n) -> None:
        if n.type == "comment":
            return
        if n.child_count == 0:
            leaves.append(data[n.start_byte : n.end_byte].decode())
        for c in n.children:
            walk(c)

    walk(node)
    # its JSDoc comment is its docstring (a change of it is a change, as in Python's ast)
    outer = node.parent if node.parent is not None and node.parent.type in ("export_statement",
                                                                            "lexical_declaration") else node
    doc = outer.prev_sibling
    if doc is not None and doc.type == "comment" and data[doc.start_byte : doc.end_byte].startswith(b"/**"):
        text = data[doc.start_byte : doc.end_byte].decode()
        leaves.insert(0, " ".join(ln.strip().lstrip("/*").strip() for ln in text.splitlines()))
    own = qual.rsplit(".", 1)[-1]
    leaves = ["<self>" if t == own else t for t in leaves]
    # layout the formatter decides: statement-ending semicolons, trailing commas, quote style
    toks = []
    for i, t in enumerate(leaves):
        if t == ";" or (t == "," and i + 1 < len(leaves) and leaves[i + 1] in ")]}"):
            continue
        if t in ("'", '"'):
            t = '"'
        toks.append(t)
    return " ".join(toks), data[node.start_byte : node.end_byte].decode()


def label(repo: Path, versions: list[str], chain: list[list[str]]) -> dict:
    revs = subprocess.run(["git", "-C", str(repo), "rev-list", "--reverse", "main"], capture_output=True, text=True,
                          check=True).stdout.split()  # fmt: skip
    changed: list[str] = []
    formatting: list[str] = []
    renames: list[dict] = []
    prev = None  # (fqn, dump, text, path)
    for v, rev in zip(versions, revs):
        spec = [c for c in chain if versions.index(c[0]) <= versions.index(v)]
        if not spec:
            continue
        _, path, qual = spec[-1]
        src = show(repo, rev, path)
        got = None
        if src is not None:
            got = py_def(src, qual) if path.endswith(".py") else js_def(src, qual)
        if got is None:
            raise SystemExit(f"{qual} not found in {path} at {v}")
        fqn = fqn_of(path, qual)
        if prev is None:
            changed.append(v)
        elif prev[0] != fqn:
            changed.append(v)
            renames.append({"release": v, "from": prev[0], "to": fqn})
        elif prev[3] != path:  # the same name in another file (a package moved under src/)
            changed.append(v)
        elif prev[1] != got[0]:
            changed.append(v)
        elif prev[2] != got[1]:
            formatting.append(v)
        prev = (fqn, got[0], got[1], path)
    return {"changed": changed, "formatting": formatting, "renames": renames, "fqn": prev[0] if prev else None}


def fqn_of(path: str, qual: str) -> str:
    """Mnemosyne's FQN: the module (Python: dotted path, a ``src/`` root dropped; JS/TS: the path
    without its suffix) and the qualified name."""
    if path.endswith(".py"):
        mod = path.removesuffix(".py").removesuffix("/__init__")
        mod = mod.removeprefix("src/").replace("/", ".")
    else:
        mod = path.rsplit(".", 1)[0]
    return f"{mod}.{qual}"


def main() -> int:
    data = json.loads(DATA.read_text())
    for name, spec in data["repositories"].items():
        repo = build(name, spec)
        for fn in spec["functions"]:
            out = label(repo, spec["versions"], fn["chain"])
            fn.update(out)
            print(f"{name}: {fn['fqn']}: changed {out['changed']} formatting {out['formatting']} "
                  f"renames {[r['release'] for r in out['renames']]}")
    DATA.write_text(json.dumps(data, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
