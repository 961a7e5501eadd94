"""Incremental contract: after any sequence of update() calls, facts equal a fresh index's, and
update() reports every path whose facts changed."""

from __future__ import annotations

import random

import pytest

from mnemosyne.resolve.typescript import TypeScriptIndex

VARIANTS: dict[str, list[bytes | None]] = {
    "src/a.ts": [
        b'import { helper } from "./b";\nexport class A { run() { return helper(); } }\n',
        b'import { helper, Base } from "./b";\nexport class A extends Base { run() { this.base(); return helper(); } }\n',
        b'import * as b from "./b";\nexport function a() { return b.helper(); }\nexport class A { run() { return a(); } }\n',
        b'export function a() {}\n',
        # subclass dispatch: Base.base calls this.hook(), overridden here
        b'import { Base } from "./b";\nexport class A extends Base { hook() { return 1; } }\nexport class A2 extends A { hook() {} }\n',
        # interfaces: implementations a call through Base may reach
        b'import { Base } from "./b";\nexport class A implements Base { base() {} hook() { return 1; } }\n'
        b'export function run(b: Base) { b.base(); b.hook(); }\n',
        None,
    ],
    "src/b.ts": [
        b"export function helper() { return 1; }\nexport class Base { base() {} constructor() {} }\n",
        b'export { helper } from "./c";\nexport class Base extends Root { base() {} }\nimport { Root } from "@lib/root";\n',
        b'export * from "./c";\nexport class Base {}\n',
        b"export function helper() { return 1; }\nexport class Base { base() { return this.hook(); } hook() {} }\n",
        b"export interface Base { base(): Base; hook(): void }\n"
        b"export class Impl implements Base { base() { return this; } hook() {} }\nexport function helper() {}\n",
        None,
    ],
    "src/c.ts": [
        b"export const helper = () => 2;\nexport function other() {}\n",
        b"export function other() {}\n",
        None,
    ],
    "src/c/index.ts": [b"export function helper() { return 3; }\n", None],
    "src/main.ts": [
        b'import { A } from "./a";\nimport { helper } from "./index";\nnew A().run();\nhelper();\n',
        b'import { A } from "./a.js";\nconst x: A = make();\nx.run();\nfunction make(): A { return new A(); }\n',
        b'import { helper, Base } from "@lib/b";\nclass M extends Base { go() { super.base(); this.base(); } }\nhelper();\nnew M().go();\n',
        b'import { Base } from "./b";\nclass M extends Base { hook() {} }\nnew M().base();\n',
        b'import { Base as B } from "./b";\nclass M extends B { hook() {} }\nnew M().base();\n',
        b'import { Base, helper } from "./b";\nclass M implements Base { base() { return this; } hook() {} }\n'
        b'export function go(x: Base) { x.base().hook(); helper(); }\n',
        b'import { Base } from "./b";\nimport { A } from "./a.js";\nexport function u(x: Base | A | null) { x?.base(); }\n',
        b'import { A } from "./a.js";\nasync function mk(): Promise<A> { return new A(); }\nmk().then((x) => x.run());\n',
        b'import { A } from "./a.js";\nimport { Base } from "./b";\nconst v = Date.now() > 0 ? new A() : new Base();\nv.base();\n',
        None,
    ],
    "src/index.ts": [b'export * from "./b";\nexport * from "./c";\n', b'export { helper } from "./c";\n', None],
    "lib/root.ts": [
        b"export class Root { constructor() {} base() {} }\n",
        b"export abstract class Root { abstract base(): void; static make() { return new this(); } }\n",
        None,
    ],
    "lib/use_root.ts": [
        b'import { Root } from "./root";\nexport function use(r: Root) { r.base(); }\nclass Leaf extends Root { base() {} }\nLeaf.make().base();\n',
        None,
    ],
    "tsconfig.json": [
        b'{"compilerOptions": {"baseUrl": ".", "paths": {"@lib/*": ["lib/*", "src/*"]}}}',
        b'{"compilerOptions": {"paths": {"@lib/*": ["src/*"]}}}',
        None,
    ],
    "tsconfig.base.json": [b'{"compilerOptions": {"baseUrl": "src"}}', b"{,,}", None],
    "src/sub/tsconfig.json": [b'{"extends": "../../tsconfig.base.json"}', None],
    "src/sub/user.js": [
        b'const { helper } = require("b");\nconst ns = require("../ns");\nhelper();\nns.N.f();\n',
        b'import { A } from "a";\nexport default class U extends A { get x() { return this.run(); } }\nnew U().x;\n',
        None,
    ],
    "src/ns.ts": [
        b'export namespace N { export function f() { return g(); } }\nimport { helper as g } from "./c";\n',
        b"export namespace N { export const f = () => 1; }\nmodule.exports = N;\n",
        None,
    ],
    "packages/p/package.json": [
        b'{"name": "@lib/b", "source": "src/index.ts"}',
        b'{"name": "@lib/b", "version": "2.0.0", "source": "src/index.ts", "dependencies": {"x": "1"}}',
        b'{"name": "@lib/b", "main": "src/other.js"}',
        None,
    ],
    "packages/p/src/other.ts": [b"export function helper() {}\n", None],
    # parameter flow: run calls what its callers pass, in any file, under any imported name
    "src/cb.ts": [
        b"export function run(cb) { return cb(); }\nexport function go(h) { return run(h); }\n",
        b"export function run(cb, x) { return cb(x); }\nexport function go(h) { return h; }\n",
        b'import { helper } from "./b";\nexport function run(cb) { return cb(); }\nrun(helper);\n',
        b"export class Job { constructor(cb) { this.cb = cb; } go() { this.cb(); } }\nexport function run(cb) { return cb(); }\n",
        b"export function opt(o, { then }) { o.run(); then(); }\nexport function run(cb) { return cb(); }\n",
        b"export class Job { on(cb) { this.cbs.push(cb); } go() { for (const c of this.cbs) c(); } }\n",
        None,
    ],
    # JSX props: a component calls the callbacks its elements pass
    "src/ui.tsx": [
        b"export function Btn({ onPress }) { onPress(); return null; }\n",
        b"export function Btn(props) { props.onPress(); return null; }\nexport function Other() {}\n",
        b'import React from "react";\nexport class Btn extends React.Component { go() { this.props.onPress(); } render() { return null; } }\n',
        None,
    ],
    "src/page.tsx": [
        b'import { Btn } from "./ui";\nimport { helper } from "./b";\nexport const P = () => <Btn onPress={helper} />;\n',
        b'import { Btn } from "./ui";\nexport function t() {}\nexport const P = () => <Btn onPress={t} />;\n',
        b'import { Btn as B } from "./ui";\nexport function t() {}\nexport const P = () => <B onPress={() => t()} />;\n',
        None,
    ],
    "src/use_cb.ts": [
        b'import { run, go } from "./cb";\nexport function t() {}\nexport function u() {}\nrun(t);\ngo(() => t());\n',
        # only the arguments differ (the names read answer the same): the ('cs', name) read
        b'import { run, go } from "./cb";\nexport function t() {}\nexport function u() {}\nrun(u);\ngo(() => t());\n',
        b'import { run as r } from "./cb";\nimport { helper } from "./b";\nr(helper, 1);\n',
        b'import * as cb from "./cb";\nexport function t2() {}\ncb.run(t2);\n',
        b'import { go } from "./cb";\nimport { A } from "./a";\ngo(new A().run);\n',
        b'import { Job } from "./cb";\nexport function t() {}\nnew Job(t).go();\n',
        b'import { Job } from "./cb";\nexport function t() {}\nconst j = new Job(t);\nj.on(t);\nj.go();\n',
        b'import { opt } from "./cb";\nimport { A } from "./a";\nexport function t() {}\nopt({ run: t }, { then: t });\nopt(new A(), {});\n',
        None,
    ],
    # array literals by position, promises from async functions
    "src/pair.ts": [
        b"export function t() {}\nexport function u() {}\nexport function pair() { return [t, u]; }\nexport async function later() { return t; }\n",
        b"export function t() {}\nexport function u() {}\nexport function pair() { return [u, t] as const; }\n"
        b"export function later() { return t; }\n",
        b"export function t() {}\nexport const pair = () => [t];\nexport function later(): Promise<number> { return Promise.resolve(1); }\n",
        None,
    ],
    "src/use_pair.ts": [
        b'import { pair, later, t } from "./pair";\nconst [a, b] = pair();\na();\nb();\nlater().then(t);\n',
        b'import { pair } from "./pair";\npair()[1]();\nfor (const f of pair()) f();\nlet [x, y] = [1, 2];\n[x, y] = pair();\nx();\n',
        b'import { t, u } from "./pair";\nt.call(null);\nconst b = u.bind(null);\nb();\n',
        None,
    ],
    "packages/p/src/index.ts": [
        b"export function helper() {}\nexport class Base { base() {} }\n",
        b"export function helper() {}\nexport class Base { base() { this.hook(); } hook() {} }\n",
        None,
    ],
}


def _all_facts(ix: TypeScriptIndex) -> dict:
    return {p: ix.facts(p) for p in sorted(ix.paths())}


def _fresh(files: dict[str, bytes]) -> dict:
    ix = TypeScriptIndex()
    ix.update(dict(files))
    return _all_facts(ix)


@pytest.mark.parametrize("seed", range(100))
def test_random_edit_sequences_match_fresh(seed: int) -> None:
    rng = random.Random(seed)
    paths = sorted(VARIANTS)
    files: dict[str, bytes] = {}
    for p in paths:
        v = rng.choice(VARIANTS[p])
        if v is not None:
            files[p] = v
    ix = TypeScriptIndex()
    ix.update(dict(files))
    assert _all_facts(ix) == _fresh(files)
    for step in range(25):
        before = _all_facts(ix)
        batch: dict[str, bytes | None] = {}
        for p in rng.sample(paths, rng.randint(1, 3)):
            v = rng.choice(VARIANTS[p])
            batch[p] = v
            if v is None:
                files.pop(p, None)
            else:
                files[p] = v
        affected = ix.update(batch)
        after = _all_facts(ix)
        fresh = _fresh(files)
        assert after.keys() == fresh.keys(), f"seed {seed} step {step}: paths differ"
        for p in fresh:
            assert after[p] == fresh[p], f"seed {seed} step {step}: {p} differs from a fresh index after {batch}"
        changed = {p for p in set(before) | set(after) if before.get(p) != after.get(p)}
        assert changed <= affected, f"seed {seed} step {step}: unreported changes {changed - affected}"


def test_dependents_are_reported() -> None:
    ix = TypeScriptIndex()
    ix.update(
        {
            "src/a.ts": b"export function f() {}\n",
            "src/b.ts": b'import { f } from "./a";\nf();\n',
            "src/c.ts": b"export const unrelated = 1;\n",
        }
    )
    assert [c.callee for c in ix.facts("src/b.ts").calls] == ["src/a.f"]
    affected = ix.update({"src/a.ts": b"export function g() {}\n"})
    assert affected == {"src/a.ts", "src/b.ts"}
    assert ix.facts("src/b.ts").calls == []
    # a file that appears later satisfies a previously missing specifier
    ix.update({"src/d.ts": b'import { h } from "./e";\nh();\n'})
    assert ix.facts("src/d.ts").calls == []
    affected = ix.update({"src/e/index.ts": b"export function h() {}\n"})
    assert "src/d.ts" in affected
    assert [c.callee for c in ix.facts("src/d.ts").calls] == ["src/e.h"]
    assert "src/e" in ix.facts("src/d.ts").depends_on


def test_a_keyed_function_starting_to_call_its_parameter_re_resolves_who_reads_it() -> None:
    """An unnamed literal's function is searched for by its key only for a parameter it calls
    (``ParsedFile.keyed``, ``called_params``); a file reaching it through a hop (``run(f)`` passes
    the keyed function's own parameter on) reads that in READ_THIS's answer, so an edit adding or
    removing the call re-resolves that file (left out of the answer, the edge below stays stale)."""
    run = b"export function run(cb: () => void) { cb(); }\n"
    calls = (b'import { run } from "./run";\nexport function makeApi() { return { relay: (f: () => void) => { f(); run(f); } }; }\n'
             b"export const api = makeApi();\n")
    passes = calls.replace(b"f(); run(f);", b"run(f);")
    user = b'import { api } from "./api";\nfunction handler() {}\nexport function go() { api.relay(handler); }\n'
    files = {"src/run.ts": run, "src/api.ts": calls, "src/user.ts": user}
    ix = TypeScriptIndex()
    ix.update(dict(files))
    assert "src/user.handler" in {c.callee for c in ix.facts("src/run.ts").calls}
    for body in (passes, calls, passes):
        files["src/api.ts"] = body
        ix.update({"src/api.ts": body})
        assert _all_facts(ix) == _fresh(files)
    assert "src/user.handler" not in {c.callee for c in ix.facts("src/run.ts").calls}


def test_an_inline_callbacks_parameter_follows_what_the_callee_calls_it_with() -> None:
    """A function written as an argument (``createStore((set) => ...)``) gets as parameter what
    the callee calls its parameter with (``createState(setState)``, in another file): an edit of
    that call, of the callee's parameters, or of the argument re-resolves the callback's file."""
    store = (b"export function createStore(createState) {\n  const setState = (v) => v;\n"
             b"  const reset = () => 0;\n  return createState(setState);\n}\n")
    user = b'import { createStore } from "./store";\nexport const s = createStore((set) => set(1));\n'
    _edits_match_fresh({"src/store.js": store, "src/user.js": user}, [
        ("src/store.js", store.replace(b"createState(setState)", b"createState(reset)")),
        ("src/store.js", store.replace(b"(createState)", b"(first, createState)")),
        ("src/user.js", user.replace(b"createStore((set)", b"createStore(0, (set)")),
        ("src/store.js", store),
        ("src/user.js", user),
    ], "src/user.js", "src/store.createStore.setState")


def _edits_match_fresh(files: dict[str, bytes], edits: list[tuple[str, bytes]], reader: str, callee: str) -> None:
    """``reader`` calls ``callee`` before and after ``edits`` (which end where they began), and after
    each edit the index's facts are a fresh index's."""
    ix = TypeScriptIndex()
    ix.update(dict(files))
    assert callee in {c.callee for c in ix.facts(reader).calls}
    for path, body in edits:
        files[path] = body
        ix.update({path: body})
        assert _all_facts(ix) == _fresh(files)
    assert callee in {c.callee for c in ix.facts(reader).calls}


def test_a_registry_lookup_follows_the_keys_its_callers_pass() -> None:
    """``getPlugin("Patches")`` returns ``plugins[name]`` (``name: string``): the values stored under
    keys we cannot read (``plugins[name] = impl``, from another file). Which keys the callers pass,
    and what is registered, are read from other files: editing either re-resolves the reader."""
    registry = (b"const plugins: Record<string, any> = {};\n"
                b"export function loadPlugin(name: string, impl: any) { plugins[name] = impl; }\n"
                b"export function getPlugin(name: string): any { return plugins[name]; }\n")
    patches = (b'import { loadPlugin } from "./registry";\nfunction applyPatches() {}\nfunction other() {}\n'
               b'export function enable() { loadPlugin("Patches", { apply_: applyPatches }); }\n')
    core = b'import { getPlugin } from "./registry";\nexport function run() { getPlugin("Patches").apply_(); }\n'
    _edits_match_fresh({"src/registry.ts": registry, "src/patches.ts": patches, "src/core.ts": core}, [
        ("src/patches.ts", patches.replace(b"apply_: applyPatches", b"apply_: other")),
        ("src/core.ts", core.replace(b'getPlugin("Patches")', b"getPlugin(String(1))")),
        ("src/registry.ts", registry.replace(b"plugins[name] = impl", b"plugins.fixed = impl")),
        ("src/registry.ts", registry),
        ("src/core.ts", core),
        ("src/patches.ts", patches),
    ], "src/core.ts", "src/patches.applyPatches")


def test_a_binding_shared_by_two_parameter_questions_carries_its_reads() -> None:
    """What a parameter-flow probe computes of a name's bindings is shared with the later probes
    (``CtxState.shared_memo``) with the reads it made: the callers of ``go`` and ``run`` pass the
    same ``h``, whose value is read from a third file; editing that file re-resolves both askers
    (with the shared entry's reads left out, the second asker's edge stays stale)."""
    dep = b"export function handler() {}\nexport function other() {}\n"
    user = (b'import { run } from "./run";\nimport { go } from "./go";\nimport { handler } from "./dep";\n'
            b"const h = handler;\nrun(h);\ngo(h);\n")
    files = {"src/dep.ts": dep, "src/go.ts": b"export function go(cb2) { cb2(); }\n",
             "src/run.ts": b"export function run(cb) { cb(); }\n", "src/user.ts": user}
    _edits_match_fresh(files, [
        ("src/dep.ts", b"export function other() {}\nexport const handler = other;\n"),
        ("src/dep.ts", dep),
    ], "src/run.ts", "src/dep.handler")
