"""``newer_syntax_blanked`` (fast) makes exactly the replacements of its defining patterns."""

from __future__ import annotations

import random

from mnemosyne.parse.typescript import newer_syntax_blanked, reference_blanked

_TOKENS = [
    b",", b"<", b">", b"/*", b"*/", b"//", b"/", b"*", b"\n", b" ", b"\t", b"\r\n", b"in", b"out", b"const",
    b"T", b"x", b"=", b"extends", b"(", b")", b";", b"{", b"a1", b"$", b"]", b"?", b"<A>", b"<B, C>(",
    b"in out", b"\n  <X>(", b", in ", b"/** c */",
]


def test_examples() -> None:
    cases = [
        b"interface F<in out A, const B extends string> {}\n",
        b"type G<\n  // note\n  in T,\n  /* x */ out U> = T\n",
        b"f(a, /* x */ b); /* y */ const T = 1\n",
        b"export interface S {\n  f: A\n  <B>(b: B): C\n  /** doc */\n  <D>(d: D): E\n}\n",
        b"const a = 1 // c\n  <X>(y)\n",
    ]
    for data in cases:
        assert newer_syntax_blanked(data) == reference_blanked(data), data


def test_random_token_soup() -> None:
    rng = random.Random(20261129)
    changed = 0
    for _ in range(20000):
        data = b"".join(rng.choice(_TOKENS) for _ in range(rng.randint(1, 60)))
        want = reference_blanked(data)
        assert newer_syntax_blanked(data) == want, data
        changed += want != data
    assert changed > 1000  # the soup exercises the rewrites
