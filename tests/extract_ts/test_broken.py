"""Broken and hostile input: never raises, extracts what parses, says what went wrong."""

from __future__ import annotations

import time

from mnemosyne.callgraph import to_pycg

from .ts_helpers import ts_snapshot


def _facts(files: dict[str, bytes], path: str):
    snap = ts_snapshot(files)
    return snap, snap.files.get(path)


def test_syntax_error_keeps_what_parses() -> None:
    src = b"""
export function good() { return helper(); }
function helper() { return 1; }
function broken( { return ;; }}}
export const after = () => good();
"""
    snap, f = _facts({"src/a.ts": src}, "src/a.ts")
    assert f is not None
    assert any("syntax error" in w for w in f.warnings)
    g = to_pycg(snap)
    assert g["src/a.good"] == ["src/a.helper"]
    assert "src/a" in g


def test_non_utf8_is_replaced_not_fatal() -> None:
    src = b"export function caf\xe9() { return 1; }\nexport function ok() { return 2; }\nok();\n"
    snap, f = _facts({"src/latin1.ts": src}, "src/latin1.ts")
    assert f is not None
    assert any("UTF-8" in w for w in f.warnings)
    assert "src/latin1.ok" in to_pycg(snap)["src/latin1"]


def test_binary_content_with_ts_extension_is_skipped() -> None:
    snap = ts_snapshot({"src/blob.ts": b"\x00\x01\x02\xff" * 100, "src/ok.ts": b"export const x = 1;\n"})
    assert "src/blob.ts" not in snap.files
    assert "src/ok.ts" in snap.files
    assert any("binary" in w for w in snap.warnings)


def test_empty_and_whitespace_files() -> None:
    snap = ts_snapshot({"src/empty.ts": b"", "src/ws.js": b"\n\n   \n", "src/index.tsx": b""})
    g = to_pycg(snap)
    assert g == {"src": [], "src/empty": [], "src/ws": []}


def test_deeply_nested_code_does_not_crash() -> None:
    depth = 3000
    nested_calls = b"f(" * depth + b"1" + b")" * depth
    nested_arrays = b"[" * depth + b"]" * depth
    nested_fns = b"".join(b"function f%d() {\n" % i for i in range(300)) + b"g();\n" + b"}\n" * 300
    chain = b"a" + b".b()" * depth
    files = {
        "src/calls.ts": b"function f(x: any) { return x; }\nconst v = " + nested_calls + b";\n",
        "src/arrays.ts": b"const v = " + nested_arrays + b";\n",
        "src/fns.ts": b"function g() {}\n" + nested_fns,
        "src/chain.ts": b"const a = { b() { return a; } };\n" + chain + b";\n",  # (a .js of one long line is minified: skipped)
        "src/objs.ts": b"export const o = " + b"{ k: " * 500 + b"1" + b" }" * 500 + b";\n",
    }
    snap = ts_snapshot(files)
    assert set(snap.files) == set(files)
    g = to_pycg(snap)
    assert g["src/calls"] == ["src/calls.f"]
    innermost = "src/fns." + ".".join(f"f{i}" for i in range(300))
    assert g[innermost] == ["src/fns.g"]


def test_long_lines_and_minified_code_are_fast() -> None:
    # (minified JavaScript is skipped, test_minified_javascript_skipped; the parser's speed on such
    # lines is checked on TypeScript, which is always parsed)
    body = b";".join(b"function f%d(a){return f%d(a)+g(a)}" % (i, max(i - 1, 0)) for i in range(3000))
    src = b"function g(x){return x}" + body + b";f2999(1)"
    t0 = time.perf_counter()
    snap = ts_snapshot({"dist/app.min.ts": src})
    assert time.perf_counter() - t0 < 10
    g = to_pycg(snap)
    assert g["dist/app.min.f10"] == ["dist/app.min.f9", "dist/app.min.g"]
    assert g["dist/app.min"] == ["dist/app.min.f2999"]


def test_wrong_grammar_content_and_garbage() -> None:
    files = {
        "src/jsx_in_ts.ts": b"export const A = () => <div>hi</div>;\nexport function b() { return A(); }\n",
        "src/garbage.ts": b"}}}{{{ ))) @@@ ### \n" * 50,
        "src/unterminated.js": b"const s = `never closed ${ x(\n",
    }
    snap = ts_snapshot(files)
    assert set(snap.files) == set(files)
    assert snap.files["src/garbage.ts"].warnings


def test_lfs_pointer_and_huge_file_skipped() -> None:
    from mnemosyne.extract import Extractor
    from mnemosyne.resolve.typescript import TypeScriptIndex

    ex = Extractor(indexes=[TypeScriptIndex()], max_file_bytes=1000)
    ex.update(
        {
            "src/big.ts": b"// x\n" * 1000,
            "src/lfs.ts": b"version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 1\n",
        }
    )
    assert ex.paths() == set()
    assert len(ex.snapshot().warnings) == 2


def test_minified_javascript_skipped() -> None:
    from mnemosyne.extract import Extractor
    from mnemosyne.resolve.typescript import TypeScriptIndex

    body = b"function add(a, b) { return a + b; }\nexport function twice(x) { return add(x, x); }\n"
    packed = b"!function(e,t){" + b"var n=function(r){return r+1};" * 60 + b"}(this);\n//# sourceMappingURL=app.js.map\n"
    ex = Extractor(indexes=[TypeScriptIndex()])
    ex.update(
        {
            "src/util.js": body,
            "static/js/jquery-3.7.1.min.js": body,  # named so: skipped whatever it holds
            "dist/app.js": packed,  # one long line: minified by its shape
            "src/long.mjs": b"export const table = [" + b"1, " * 30 + b"];\n" + body,  # long lines but a few
        }
    )
    assert ex.paths() == {"src/util.js", "src/long.mjs"}
    warnings = ex.snapshot().warnings
    assert sorted(w.split(":")[0] for w in warnings) == ["dist/app.js", "static/js/jquery-3.7.1.min.js"]
    assert all("minified JavaScript" in w for w in warnings)
    # the same name with TypeScript is a source
    ex.update({"src/x.min.ts": body.replace(b"(a, b)", b"(a: number, b: number)")})
    assert "src/x.min.ts" in ex.paths()


def test_truncated_and_shuffled_corpus_files_never_raise() -> None:
    """Every corpus program cut at random points or with lines shuffled: facts, no exceptions."""
    import random

    from .ts_helpers import CORPUS, read_case

    rng = random.Random(7)
    for case in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        files = read_case(case)
        for _ in range(3):
            mutated = {}
            for path, data in files.items():
                if path.endswith(".json") or rng.random() < 0.3:
                    mutated[path] = data
                elif rng.random() < 0.5:
                    mutated[path] = data[: rng.randint(0, len(data))]
                else:
                    lines = data.split(b"\n")
                    rng.shuffle(lines)
                    mutated[path] = b"\n".join(lines)
            snap = ts_snapshot(mutated)
            to_pycg(snap)


def test_self_referential_definitions_terminate() -> None:
    src = (
        b"const a = { b: a.b, c: a.d, d: a.c };\na.b();\na.c();\n"
        b"class K extends K { x = this.y; y = this.x; m() { this.x(); super.m(); } }\n"
        b"function f() { return f(); }\nf()();\nlet v = v;\nv();\n"
        b'export * from "./a";\nexport { q as r, r as q } from "./a";\n'
    )
    snap = ts_snapshot({"a.ts": src, "b.ts": b'import { q } from "./a";\nq();\n'})
    assert snap.files["a.ts"].warnings == []
    assert to_pycg(snap)["a"] == ["a.f"]


# Syntax newer than the grammar (tree-sitter-typescript 0.23): variance and const modifiers on
# type parameters, and generic call signatures starting a line after another type member.
NEWER_SYNTAX = b"""export interface Box<in out A, out B = string> {
  readonly value: A
  <C>(f: (a: A) => C): Box<C, B>
  /** both forms of the dual API */
  <C>(self: Box<A, B>, f: (a: A) => C): Box<C, B>
}

export function first<const T extends readonly unknown[]>(items: T): T[0] {
  return pick(items, 0);
}

function pick<out T>(xs: readonly T[], i: number): T {
  return xs[i];
}

export const map: {
  <A, B>(f: (a: A) => B): (self: A[]) => B[]
  <A, B>(self: A[], f: (a: A) => B): B[]
} = (self: any, f?: any) => self.map(f);

export function useIt() {
  const s = "comma, in Rome, x";
  return first([1, 2] as const) + s.length;
}
"""


def test_newer_type_syntax_parses_without_error_and_keeps_positions() -> None:
    import tree_sitter_typescript as tst
    from tree_sitter import Language, Parser

    assert Parser(Language(tst.language_typescript())).parse(NEWER_SYNTAX).root_node.has_error, (
        "the grammar learnt this syntax: the rewrite in parse/typescript/shims.py may no longer be needed"
    )
    snap, f = _facts({"src/newer.ts": NEWER_SYNTAX}, "src/newer.ts")
    assert f is not None and not f.warnings, f.warnings
    g = to_pycg(snap)
    assert g["src/newer.first"] == ["src/newer.pick"]
    assert g["src/newer.useIt"] == ["src/newer.first"]
    lines = {s.fqn: (s.line_start, s.line_end) for s in f.symbols}
    assert lines["src/newer.first"] == (8, 10)
    assert lines["src/newer.pick"] == (12, 14)
    assert lines["src/newer.useIt"] == (21, 24)
    sig = next(s.signature for s in f.symbols if s.fqn == "src/newer.first")
    assert "const T" in sig  # facts come from the original bytes


def test_a_real_syntax_error_next_to_newer_syntax_still_warns() -> None:
    src = NEWER_SYNTAX + b"\nfunction broken( { return ;; }}}\n"
    snap, f = _facts({"src/newer.ts": src}, "src/newer.ts")
    assert f is not None
    assert any("syntax error" in w for w in f.warnings)
    assert "src/newer.pick" in to_pycg(snap)["src/newer.first"]
