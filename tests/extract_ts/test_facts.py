"""FileFacts details: symbols, imports, inherits, languages, module names, depends_on."""

from __future__ import annotations

from mnemosyne.facts import Import, Inherit
from mnemosyne.parse.typescript import module_name
from mnemosyne.resolve.typescript import TypeScriptIndex, npm_package_name

from .ts_helpers import ts_snapshot


def test_module_names() -> None:
    assert module_name("src/api/client.ts") == "src/api/client"
    assert module_name("src/api/index.ts") == "src/api"
    assert module_name("src/api/index.jsx") == "src/api"
    assert module_name("index.ts") == "index"
    assert module_name("lib/foo.bar.mjs") == "lib/foo.bar"


def test_owns_sources_and_configs_not_declarations() -> None:
    ix = TypeScriptIndex()
    for p in ("a.ts", "b/c.tsx", "d.mts", "e.cts", "f.js", "g.jsx", "h.mjs", "i.cjs"):
        assert ix.owns(p), p
    for p in ("tsconfig.json", "pkg/jsconfig.json", "packages/x/package.json", "tsconfig.base.json"):
        assert ix.owns(p), p
    for p in ("types.d.ts", "x.py", "README.md", "node_modules/x/package.json", "data.json"):
        assert not ix.owns(p), p


def test_npm_package_names() -> None:
    assert npm_package_name("lodash/fp") == "lodash"
    assert npm_package_name("@scope/pkg/sub/path") == "@scope/pkg"
    assert npm_package_name("fs") is None
    assert npm_package_name("fs/promises") is None
    assert npm_package_name("node:path") is None


def test_symbols_imports_inherits_languages() -> None:
    snap = ts_snapshot(
        {
            "package.json": b'{"name": "app", "dependencies": {"react": "18"}}',
            "src/base.ts": b"/** The base. */\nexport class Base {\n  constructor() {}\n}\n",
            "src/view.tsx": (
                b'import React from "react";\n'
                b'import { Base } from "./base";\n'
                b'import { join } from "node:path";\n'
                b'import type { X } from "@types/thing";\n'
                b'import "./side-effect.js";\n'
                b"export class V extends Base implements X {}\n"
                b"export class W extends React.Component {}\n"
                b"export class E extends Error {}\n"
                b"export const f = () => <V />;\n"
            ),
            "src/side-effect.ts": b"console.log(1);\n",
            "src/legacy.js": b'const x = require("lodash");\nmodule.exports = { x };\n',
        }
    )
    view = snap.files["src/view.tsx"]
    assert view.language == "tsx" and view.module == "src/view"
    assert snap.files["src/legacy.js"].language == "javascript"
    assert snap.files["src/base.ts"].language == "typescript"
    assert set(view.imports) == {
        Import("src/view.tsx", "src/base.ts", "file"),
        Import("src/view.tsx", "src/side-effect.ts", "file"),
        Import("src/view.tsx", "react", "package", "npm"),
        Import("src/view.tsx", "@types/thing", "package", "npm"),
    }
    assert set(view.inherits) == {
        Inherit("src/view.V", "src/base.Base"),
        Inherit("src/view.W", "react.Component", external=True),
        Inherit("src/view.E", "<builtin>.Error", external=True),
    }
    assert snap.files["src/legacy.js"].imports == [Import("src/legacy.js", "lodash", "package", "npm")]
    base = {s.fqn: s for s in snap.files["src/base.ts"].symbols}
    assert base["src/base"].kind == "module" and base["src/base"].parent == "src/base.ts"
    assert base["src/base.Base"].kind == "class" and base["src/base.Base"].docstring == "The base."
    ctor = base["src/base.Base.constructor"]
    assert (ctor.kind, ctor.parent, ctor.line_start, ctor.line_end) == ("method", "src/base.Base", 3, 3)
    assert ctor.signature == "constructor()" and ctor.body_hash
    kinds = {s.fqn: s.kind for s in view.symbols}
    assert kinds["src/view.f"] == "function"
    assert "src/base" in view.depends_on


def test_call_details_lines_and_resolution() -> None:
    snap = ts_snapshot(
        {
            "src/a.ts": b'import { g } from "./b";\nexport function f() {\n  g();\n  g();\n  console.log(1);\n}\n',
            "src/b.ts": b"export function g() {}\n",
        }
    )
    calls = {c.callee: c for c in snap.files["src/a.ts"].calls}
    assert calls["src/b.g"].lines == (3, 4) and calls["src/b.g"].resolution == "import"
    assert calls["<builtin>.console.log"].external and calls["<builtin>.console.log"].resolution == "builtin"
    assert not calls["src/b.g"].external


def test_config_change_reresolves_the_files_that_read_it() -> None:
    ix = TypeScriptIndex()
    ix.update(
        {
            "src/a.ts": b'import { g } from "@/b";\ng();\n',
            "src/b.ts": b"export function g() {}\n",
            "tsconfig.json": b'{"compilerOptions": {"paths": {"@/*": ["src/*"]}}}',
        }
    )
    assert [c.callee for c in ix.facts("src/a.ts").calls] == ["src/b.g"]
    affected = ix.update({"tsconfig.json": b"{}"})
    assert affected == {"src/a.ts"}  # b.ts resolves no non-relative specifier: the configs cannot change it
    assert ix.facts("src/a.ts").calls == []


def test_package_json_edit_reresolves_only_when_resolution_reads_it() -> None:
    ix = TypeScriptIndex()
    pkg = b'{"name": "@acme/lib", "version": "1.0.0", "main": "dist/index.js", "dependencies": {"a": "1"}}'
    ix.update(
        {
            "app/src/a.ts": b'import { g } from "@acme/lib";\ng();\n',
            "lib/src/index.ts": b"export function g() {}\n",
            "lib/src/other.ts": b"export function g() {}\n",
            "lib/package.json": pkg,
        }
    )
    assert [c.callee for c in ix.facts("app/src/a.ts").calls] == ["lib/src.g"]
    # a release: version and dependencies change, nothing module resolution reads
    bumped = pkg.replace(b"1.0.0", b"1.1.0").replace(b'"a": "1"', b'"a": "2", "b": "3"')
    assert ix.update({"lib/package.json": bumped}) == set()
    # a new entry point: the files with non-relative specifiers are resolved again
    moved = bumped.replace(b'"main": "dist/index.js"', b'"source": "src/other.ts"')
    assert ix.update({"lib/package.json": moved}) == {"app/src/a.ts"}
    assert [c.callee for c in ix.facts("app/src/a.ts").calls] == ["lib/src/other.g"]


def test_parse_result_is_picklable_plain_data() -> None:
    import pickle

    from mnemosyne.parse.typescript import parse_file

    pf = parse_file(
        "src/app.tsx",
        b'import { f } from "./f";\nexport class A extends B { get x() { return f(); } }\nexport default () => <A />;\n',
    )
    again = pickle.loads(pickle.dumps(pf))
    assert again == pf
    assert again.sites and again.symbols and again.classes


def test_files_sharing_a_module_name_are_reported() -> None:
    ix = TypeScriptIndex()
    ix.update({"src/a.ts": b"export const x = 1;\n", "src/b.ts": b"export const y = 2;\n"})
    assert ix.facts("src/a.ts").warnings == []
    affected = ix.update({"src/a/index.ts": b"export const z = 3;\n"})
    assert {"src/a.ts", "src/a/index.ts"} <= affected
    assert any("shared with src/a/index.ts" in w for w in ix.facts("src/a.ts").warnings)
    assert any("shared with src/a.ts" in w for w in ix.facts("src/a/index.ts").warnings)
    ix.update({"src/a/index.ts": None})
    assert ix.facts("src/a.ts").warnings == []


def test_a_signature_broken_over_lines_reads_as_on_one_line() -> None:
    """Prettier breaking a parameter list over lines (with its trailing comma) changes no signature."""
    sigs = []
    for src in ("export function f(a: string, b: Map<string, number>): void {}\n",
                "export function f(\n  a: string,\n  b: Map<string, number>,\n): void {}\n"):  # fmt: skip
        ix = TypeScriptIndex()
        ix.update({"src/m.ts": src.encode()})
        f = ix.facts("src/m.ts")
        assert f is not None
        sigs.append({s.fqn: s.signature for s in f.symbols}["src/m.f"])
    assert sigs[0] == sigs[1] == "function f(a: string, b: Map<string, number>): void"
