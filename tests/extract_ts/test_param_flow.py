"""Limits of TypeScript parameter flow (what a parameter called gets from the callers)."""

from __future__ import annotations

from mnemosyne.resolve.typescript import MAX_PARAM_HOPS, MAX_PARAM_SITES, TypeScriptIndex


def _calls(files: dict[str, bytes], path: str) -> set[tuple[str, str]]:
    ix = TypeScriptIndex()
    ix.update(files)
    return {(c.caller, c.callee) for c in ix.facts(path).calls}


def test_a_name_called_from_everywhere_is_not_searched() -> None:
    """Past MAX_PARAM_SITES call sites by the function's name, each needing its receiver's
    type, the parameter gets nothing (three.js's `set`/`copy` made the search quadratic)."""
    lib = b"export function run(cb) { return cb(); }\n"

    def user(n: int) -> bytes:
        return b'import { run } from "./lib";\nexport function t() {}\n' + b"run(t);\n" * n

    few = _calls({"src/lib.ts": lib, "src/use.ts": user(3)}, "src/lib.ts")
    assert ("src/lib.run", "src/use.t") in few
    many = _calls({"src/lib.ts": lib, "src/use.ts": user(MAX_PARAM_SITES + 1)}, "src/lib.ts")
    assert ("src/lib.run", "src/use.t") not in many


def test_primitive_parameters_hold_no_function() -> None:
    src = (
        b"export function f() {}\n"
        b"export function num(n: number, s: 'a' | 'b') { n(); s(); }\n"
        b"export function any_(x: any) { x(); }\n"
        b"num(f, f);\nany_(f);\n"
    )
    calls = _calls({"src/a.ts": src}, "src/a.ts")
    assert ("src/a.any_", "src/a.f") in calls
    assert not {c for c in calls if c[0] == "src/a.num"}


def test_forwarding_is_followed_a_bounded_number_of_steps() -> None:
    """``function fK(g) { f(K-1)(g) }``: a callback passed to the outermost reaches the innermost
    only through MAX_PARAM_HOPS forwarding steps."""
    def chain(n: int) -> bytes:
        lines = [b"export function f0(cb) { cb(); }"]
        for k in range(1, n + 1):
            lines.append(b"export function f%d(g) { f%d(g); }" % (k, k - 1))
        lines.append(b"export function task() {}\nf%d(task);\n" % n)
        return b"\n".join(lines)

    assert ("src/c.f0", "src/c.task") in _calls({"src/c.ts": chain(MAX_PARAM_HOPS)}, "src/c.ts")
    assert ("src/c.f0", "src/c.task") not in _calls({"src/c.ts": chain(MAX_PARAM_HOPS + 1)}, "src/c.ts")
