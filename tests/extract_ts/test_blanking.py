"""``newer_syntax_blanked`` (fast) makes exactly the replacements of its defining patterns."""

from __future__ import annotations

import random

from mnemosyne.parse.typescript import newer_syntax_blanked, reference_blanked

_TOKENS = [
    b",", b"<", b">", b"/*", b"*/", b"//", b"/", b"*", b"\n", b" ", b"\t", b"\r\n", b"in", b"out", b"const",
    b"T", b"x", b"=", b"extends", b"(", b")", b";", b"{", b"a1", b"$", b"]", b"?", b"<A>", b"<B, C>(",
    b"in out", b"\n  <X>(", b", in ", b"/** c */", b"\n  <\n    A,\n  >(",
]


def test_examples() -> None:
    cases = [
        b"interface F<in out A, const B extends string> {}\n",
        b"type G<\n  // note\n  in T,\n  /* x */ out U> = T\n",
        b"f(a, /* x */ b); /* y */ const T = 1\n",
        b"export interface S {\n  f: A\n  <B>(b: B): C\n  /** doc */\n  <D>(d: D): E\n}\n",
        b"const a = 1 // c\n  <X>(y)\n",
        # comment and blank lines between the member and the signature
        b"export interface S {\n  f(): A\n  // ---\n\n  /**\n   * doc\n   */\n  <D>(d: D): E\n}\n",
        # a block comment ends at its first */: no match reaching through code to a later comment
        b"type A = B\n  /** a */ x(1)\n/** b */\n  <C>(c: C) => D\n",
    ]
    for data in cases:
        assert newer_syntax_blanked(data) == reference_blanked(data), data


def test_signature_after_comments_and_blank_lines_is_split() -> None:
    data = b"export interface S {\n  f(): A\n  // ---\n\n  /** doc */\n  <D>(d: D): E\n}\n"
    out = newer_syntax_blanked(data)
    assert out == data.replace(b"\n  <D>", b"\n ;<D>")


def test_signature_with_type_parameters_over_several_lines_is_split() -> None:
    """effect formats long type parameter lists one per line: `<` newline `A,` ... `>(`."""
    data = b"export const x: {\n  <A>(f: A): B\n  <\n    A,\n    B\n  >(self: A): A\n} = y\n"
    assert newer_syntax_blanked(data) == data.replace(b"B\n  <\n", b"B\n ;<\n")
    assert newer_syntax_blanked(data) == reference_blanked(data)


def test_keyword_names_are_renamed_in_the_copy() -> None:
    """Names and newer forms the grammar reads as keywords; declarations and members stay."""
    cases = {
        b"exports.using = using;\n": b"exports.using = usin$;\n",
        b"return using(make, run)\n": b"return usin$(make, run)\n",
        b"const using = (n) => n\n": b"const usin$ = (n) => n\n",
        b"using res = open();\nawait using r2 = open();\n": None,  # TS 5.2 declarations
        b"reusing(a); x.using(b); $using(c); using_x(d)\n": None,
        b"declare const h: { inject: (any) => void }\n": b"declare const h: { inject: (_ny) => void }\n",
        b"type F = ( string ) => void\n": b"type F = ( _tring ) => void\n",
        b"type G = (any: number) => void; type H = (anything) => void\n": None,
        b"export type * from './t';\nexport type * as T from './t';\n": b"export      * from './t';\nexport      * as T from './t';\n",
        b"export type { A } from './t';\n": None,
        b"import defer * as ns from 'x';\n": b"import       * as ns from 'x';\n",
        b"import defer from 'x';\n": None,
    }
    for data, want in cases.items():
        spans: list[tuple[int, int]] = []
        out = newer_syntax_blanked(data, spans)
        assert out == (data if want is None else want), data
        assert len(out) == len(data) and out.count(b"\n") == data.count(b"\n")
        assert [out[a:b] != data[a:b] for a, b in spans] == [True] * len(spans)
        assert bool(spans) == (want is not None)


def test_keyword_names_parse_and_keep_their_names() -> None:
    from mnemosyne.parse.typescript import parse_file

    data = (
        b"import { using } from './r';\n"
        b"export type * from './t';\n"
        b"declare const hook: { inject: (any) => void };\n"
        b"export function main() { return using(1); }\n"
    )
    pf = parse_file("src/main.ts", data)
    assert not [w for w in pf.warnings if "syntax" in w]
    assert "using" in repr(pf.bindings[0]) and "usin$" not in repr(pf)
    assert pf.stars == ["./t"]


def test_many_doc_comments_are_scanned_once() -> None:
    """A bundle with thousands of JSDoc blocks none of which precedes a signature: the lazy
    ``/\\*.*?\\*/`` retried every later ``*/`` at each of them (quadratic: Angular's 1.7 MB core.mjs
    took minutes; this input ~10 s). A hang guard with a wide margin, not a speed measurement
    (benchmarks/extract_speed.py is that)."""
    import time

    data = b"".join(
        b"export const f%d = (a: Array<number>) =>\n  /** doc %d */ a.map((x) => x + %d)\n" % (i, i, i)
        for i in range(6000)
    )
    start = time.thread_time()
    assert newer_syntax_blanked(data) == data
    assert time.thread_time() - start < 2.0


def test_random_token_soup() -> None:
    rng = random.Random(20261129)
    changed = 0
    for _ in range(20000):
        data = b"".join(rng.choice(_TOKENS) for _ in range(rng.randint(1, 60)))
        want = reference_blanked(data)
        assert newer_syntax_blanked(data) == want, data
        changed += want != data
    assert changed > 1000  # the soup exercises the rewrites


def _shape(node) -> list:
    out = []
    cur = node.walk()
    while True:
        n = cur.node
        out.append((n.kind_id, n.start_byte, n.end_byte, tuple(n.start_point), tuple(n.end_point), n.is_missing,
                    cur.field_id))
        if cur.goto_first_child():
            continue
        while not cur.goto_next_sibling():
            if not cur.goto_parent():
                return out


def test_retry_reuses_the_first_tree_and_gets_the_fresh_tree() -> None:
    from mnemosyne.parse.typescript.visit import _Builder, _edited_copy

    data = (
        b"export interface Variance<in out A, out B, in C> {\n  readonly _A: (_: A) => A\n}\n"
        b"export const make = <const T extends string>(t: T): T => t\n"
        b"export interface Sig {\n  f: A\n  <B>(b: B): C\n  /** doc */\n  <in D>(d: D): E\n}\n"
        b"class K<in out Z> { m(): void { go(1, 2) } }\n"
    )
    b = _Builder("a.ts", data, "typescript")
    tree = b.parser.parse(data)
    before = _shape(tree.root_node)
    assert tree.root_node.has_error
    spans: list[tuple[int, int]] = []
    patched = newer_syntax_blanked(data, spans)
    assert patched != data and spans
    old = _edited_copy(b, tree, spans)
    assert old is not None
    assert _shape(b.parser.parse(patched, old).root_node) == _shape(b.parser.parse(patched).root_node)
    assert _shape(tree.root_node) == before  # the first tree is intact
    # a replacement that blanks a newline moves the rows after it: no incremental parse
    data2 = b"type F<in\nout T> = T\n"
    b2 = _Builder("b.ts", data2, "typescript")
    spans2: list[tuple[int, int]] = []
    newer_syntax_blanked(data2, spans2)
    assert spans2 and _edited_copy(b2, b2.parser.parse(data2), spans2) is None
