"""Interface pruning: an edit that leaves a file's interface alone re-resolves only that file.

Each file is a template with body slots ({b0}, {b1}, ...) and interface slots ({i0}, ...). Body
variants never change what another file can read (exports, classes, members, return values,
object members); interface variants do. Random edit sequences check the incremental contract
(facts equal a fresh index's; every changed fact is reported) and, for body-only steps, that
``update`` reports exactly the changed files.
"""

from __future__ import annotations

import random

import pytest

from mnemosyne.resolve.typescript import TypeScriptIndex

BODIES = [
    "",
    "util(1);",
    "const t = util(2);\n    if (t) { console.log(t); }",
    "for (const k of [1, 2]) { util(k); }",
    "try { util(3); } catch (e) { e.report(); }",
    "[1, 2].map((x) => x + 1).forEach(function each(y) { util(y); });",
    "let z = 0; while (z < 3) { z++; { const inner = z; util(inner); } }",
    "/* a comment that moves every byte after it */ util(4); util(5);",
]

TEMPLATES: dict[str, str] = {
    "src/util.ts": (
        "{b0}\n"
        "export function util(x: number): number {{ {b1} return x; }}\n"
        "export const obj = {{ a() {{ {b2} return 1; }}, b: () => util(2), {i0} }};\n"
        "export class Db {{ query(): Row {{ {b3} return new Row(); }} }}\n"
        "export class Row {{ name() {{ {b4} }} get size() {{ {b5} return 1; }} }}\n"
        "function privateHelper() {{ {b6} }}\n"
    ),
    "src/lib.ts": (
        'import {{ util, Db, Row }} from "./util";\n'
        "{b0}\n"
        "export class Repo {{\n"
        "  items: Row[] = [];\n"
        "  constructor(private db: Db) {{ {b1} }}\n"
        "  find(id: string): Row {{ {b2} return this.items[0]; }}\n"
        "  save() {{ {b3} this.db.query().name(); }}\n"
        "  {i0}\n"
        "}}\n"
        "export function make(): Repo {{ {b4} return new Repo(new Db()); }}\n"
        "export const helper = (x: number) => {{ {b5} return util(x); }};\n"
        "export default function main() {{ {b6} }}\n"
        "{i1}\n"
    ),
    "src/ns.ts": (
        "{b0}\n"
        "export namespace N {{ export function f() {{ {b1} }} export const g = () => {{ {b2} }}; }}\n"
        "export const factory = () => {{ {b3} return new Thing(); }};\n"
        "export class Thing {{ run() {{ {b4} }} {i0} }}\n"
    ),
    "src/app.ts": (
        'import main, {{ make, helper, Repo }} from "./lib";\n'
        'import {{ obj, Db, util }} from "./util";\n'
        'import {{ N, factory }} from "./ns";\n'
        "{b0}\n"
        "export function start() {{\n"
        "  {b1}\n"
        '  make().find("x").name();\n'
        "  new Repo(new Db()).save();\n"
        "  helper(2); main(); obj.a(); obj.b(); N.f(); N.g(); factory().run();\n"
        '  const r = make().find("y"); r.size;\n'
        "  {i0}\n"
        "}}\n"
    ),
    "src/sub.ts": (
        'import {{ Repo }} from "./lib";\n'
        "export class Sub extends Repo {{ go() {{ {b0} this.find('1').name(); super.save(); }} }}\n"
        "export const s = new Sub(null as any);\n"
        "{b1}\n"
    ),
    "src/cjs.js": (
        'const {{ util }} = require("./util");\n'
        "{b0}\n"
        "module.exports = {{ run() {{ {b1} util(1); }}, {i0} }};\n"
    ),
    "src/use_cjs.js": ('const c = require("./cjs");\nc.run();\n{b0}\nc.extra && c.extra();\n'),
}

# interface variants per slot: each one changes what another file can read
INTERFACES: dict[str, dict[str, list[str]]] = {
    "src/util.ts": {"i0": ["", "c: () => util(3)", "a: () => 2"]},
    "src/lib.ts": {
        "i0": ["", "name() { return 1; }", "find(id: string) { return new Repo(new Db()); }"],
        "i1": ["", "export function make2() {}", "export { util as helper2 };"],
    },
    "src/ns.ts": {"i0": ["", "name() {}", "static size = 1;"]},
    "src/app.ts": {"i0": ["", "util(9);"]},
    "src/cjs.js": {"i0": ["", "extra() {}", "run: () => 1"]},
}


def _slots(template: str) -> tuple[list[str], list[str]]:
    import string

    names = [f for _, f, _, _ in string.Formatter().parse(template) if f]
    return [n for n in names if n.startswith("b")], [n for n in names if n.startswith("i")]


def _render(path: str, choice: dict[str, str]) -> bytes:
    return TEMPLATES[path].format(**choice).encode()


def _random_choice(rng: random.Random, path: str, interface: bool, prev: dict[str, str] | None) -> dict[str, str]:
    bodies, ifaces = _slots(TEMPLATES[path])
    out = dict(prev) if prev else {}
    for b in bodies:
        if prev is None or rng.random() < 0.5:
            out[b] = rng.choice(BODIES)
    for i in ifaces:
        if prev is None:
            out[i] = INTERFACES[path][i][0]
        elif interface and rng.random() < 0.7:
            out[i] = rng.choice(INTERFACES[path][i])
    return out


def _all_facts(ix: TypeScriptIndex) -> dict:
    return {p: ix.facts(p) for p in sorted(ix.paths())}


def _fresh(files: dict[str, bytes]) -> dict:
    ix = TypeScriptIndex()
    ix.update(dict(files))
    return _all_facts(ix)


def _run(seed: int, interface_rate: float, steps: int = 20) -> None:
    rng = random.Random(seed)
    paths = sorted(TEMPLATES)
    choices = {p: _random_choice(rng, p, False, None) for p in paths}
    files = {p: _render(p, choices[p]) for p in paths}
    ix = TypeScriptIndex()
    ix.update(dict(files))
    assert _all_facts(ix) == _fresh(files)
    for step in range(steps):
        before = _all_facts(ix)
        interface = rng.random() < interface_rate
        batch: dict[str, bytes] = {}
        for p in rng.sample(paths, rng.randint(1, 3)):
            choices[p] = _random_choice(rng, p, interface, choices[p])
            batch[p] = _render(p, choices[p])
        changed_bytes = {p for p, d in batch.items() if files[p] != d}
        files.update(batch)
        affected = ix.update(batch)
        after = _all_facts(ix)
        fresh = _fresh(files)
        assert after.keys() == fresh.keys()
        for p in fresh:
            assert after[p] == fresh[p], f"seed {seed} step {step}: {p} differs from a fresh index"
        changed = {p for p in set(before) | set(after) if before.get(p) != after.get(p)}
        assert changed <= affected, f"seed {seed} step {step}: unreported changes {changed - affected}"
        if not interface:
            assert affected == changed_bytes, f"seed {seed} step {step}: body-only edit re-resolved {affected - changed_bytes}"


@pytest.mark.parametrize("seed", range(30))
def test_body_only_edits_reresolve_only_the_changed_files(seed: int) -> None:
    _run(seed, interface_rate=0.0)


@pytest.mark.parametrize("seed", range(30))
def test_mixed_body_and_interface_edits_match_fresh(seed: int) -> None:
    _run(1000 + seed, interface_rate=0.4)


def test_resolution_is_real() -> None:
    """The templates resolve across files (the pruning tests are not vacuous)."""
    rng = random.Random(0)
    files = {p: _render(p, _random_choice(rng, p, False, None)) for p in TEMPLATES}
    ix = TypeScriptIndex()
    ix.update(files)
    callees = {c.callee for c in ix.facts("src/app.ts").calls}
    assert {
        "src/lib.make",
        "src/lib.Repo.find",
        "src/util.Row.name",
        "src/lib.Repo.save",
        "src/lib.helper",
        "src/lib.main",
        "src/util.obj.a",
        "src/util.obj.b",
        "src/ns.N.f",
        "src/ns.N.g",
        "src/ns.factory",
        "src/ns.Thing.run",
        "src/util.Row.size",
        "src/lib.Repo.constructor",
    } <= callees, callees
    assert {c.callee for c in ix.facts("src/sub.ts").calls} >= {"src/lib.Repo.find", "src/lib.Repo.save"}
    assert "src/cjs.run" in {c.callee for c in ix.facts("src/use_cjs.js").calls}


def test_interface_edit_reresolves_dependents() -> None:
    rng = random.Random(1)
    choices = {p: _random_choice(rng, p, False, None) for p in TEMPLATES}
    files = {p: _render(p, choices[p]) for p in TEMPLATES}
    ix = TypeScriptIndex()
    ix.update(files)
    choices["src/lib.ts"]["i1"] = "export function make2() {}"
    # a new export nobody reads: still only the file itself
    assert ix.update({"src/lib.ts": _render("src/lib.ts", choices["src/lib.ts"])}) == {"src/lib.ts"}
    choices["src/lib.ts"]["i0"] = "find(id: string) { return new Repo(new Db()); }"
    affected = ix.update({"src/lib.ts": _render("src/lib.ts", choices["src/lib.ts"])})
    assert {"src/lib.ts", "src/app.ts", "src/sub.ts"} <= affected
