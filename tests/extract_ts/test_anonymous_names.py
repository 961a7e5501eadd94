"""TypeScript arrows, function expressions and class expressions are named from their context
(mnemosyne/parse/anon.py), so adding one renames no other; the PyCG export numbers them."""

from __future__ import annotations

from mnemosyne.callgraph import to_pycg
from mnemosyne.facts import FileFacts
from mnemosyne.resolve.typescript import TypeScriptIndex

from .ts_helpers import ts_snapshot

SRC = """\
import ky from "ky";
describe("retry", () => {
  test("retries on 500", async () => { await ky.get("x"); });
  test("retries on 500", () => 1);
  it(`works ${name}`, function () {});
});
app.get("/users.json", (req, res) => res.send());
xs.map((x) => x * 2).filter((x) => x > 1);
fetch(u).then((r) => r.json());
new Promise((resolve) => setTimeout(() => resolve(1), 100));
st["throws"](() => run(), "throws a RangeError when the depth is exceeded");
export const View = () => <button onClick={() => go()} onBlur={(e) => e}>hi</button>;
configure({ onDone: () => 1, "a.b": () => 2 });
window.onload = function () {};
export const make = () => class { m() { return () => 1; } };
const [one, two] = [() => 1, () => 2];
"""


def _facts(src: str, path: str = "a.tsx") -> FileFacts:
    return ts_snapshot({path: src.encode()}).files[path]


def _anon(ff: FileFacts) -> list[str]:
    return [s.fqn for s in ff.symbols if s.ordinal]


def test_names_come_from_the_context() -> None:
    ff = _facts(SRC)
    assert _anon(ff) == [
        "a.<arrow:describe('retry')>",  # callee and its first string literal
        "a.<arrow:describe('retry')>.<arrow:test('retries on 500')>",
        "a.<arrow:describe('retry')>.<arrow:test('retries on 500')#2>",  # same context: an ordinal
        "a.<arrow:describe('retry')>.<function:it>",  # a template with a substitution is no literal
        "a.<arrow:app:get('/users·json')>",  # '.' is written '·': names never contain dots
        "a.<arrow:xs:map>",
        "a.<arrow:map():filter>",  # a call in the callee chain keeps its ()
        "a.<arrow:fetch():then>",
        "a.<arrow:Promise>",  # new Promise(...)
        "a.<arrow:Promise>.<arrow:setTimeout>",
        "a.<arrow:st:throws('throws a RangeError when the depth is ex…')>",  # a literal key; cut
        "a.View.<arrow:onClick>",  # a JSX attribute
        "a.View.<arrow:onBlur>",
        "a.<arrow:onDone>",  # a property of an object literal without a name
        "a.<arrow:'a·b'>",
        "a.<function:onload>",  # assigned to a member
        "a.make.<class:return>",  # a class expression, returned
        "a.make.<class:return>.m.<arrow:return>",
        "a.<arrow>",  # no context: an ordinal among the siblings without one
        "a.<arrow#2>",
    ]
    calls = {(c.caller, c.callee) for c in ff.calls}
    assert ("a.<arrow:describe('retry')>.<arrow:test('retries on 500')>", "ky.get") in calls


def test_adding_an_arrow_renames_no_other() -> None:
    before = _facts(SRC)
    edited = SRC.replace('import ky from "ky";\n', 'import ky from "ky";\nbeforeAll(() => setup());\n').replace(
        '  test("retries on 500", () => 1);\n',
        '  test("retries on 500", () => 1);\n  test("retries on 500", () => 2);\n',
    ).replace("xs.map(", "ys.forEach((y) => y);\nxs.map(")
    after = _facts(edited)
    old, new = set(_anon(before)), set(_anon(after))
    assert old <= new
    assert new - old == {
        "a.<arrow:beforeAll>",
        "a.<arrow:describe('retry')>.<arrow:test('retries on 500')#3>",
        "a.<arrow:ys:forEach>",
    }
    assert {(c.caller, c.callee) for c in before.calls} <= {(c.caller, c.callee) for c in after.calls}


def test_pycg_export_numbers_them_in_source_order() -> None:
    g = to_pycg(ts_snapshot({"a.tsx": SRC.encode()}))
    assert g["a.<arrow1>.<arrow1>"] == ["ky.get"]  # the first test(...) arrow in describe's
    assert "a.<arrow1>.<arrow2>" in g and "a.<arrow1>.<function1>" in g
    assert g["a.<arrow6>"] == ["<builtin>.setTimeout", "a.<arrow6>.<arrow1>"]  # new Promise(...)'s
    assert "a.View.<arrow1>" in g and "a.View.<arrow2>" in g
    assert "a.make.<class1>.m.<arrow1>" in g  # a class expression is numbered too
    assert "a.<arrow11>" in g and "a.<function1>" in g and "a.<arrow12>" not in g
    assert not any(":" in k for k in g) and not any(":" in c for cs in g.values() for c in cs)


def test_incremental_agrees_with_fresh_after_an_arrow_is_added() -> None:
    """b.ts calls what a.ts binds to an arrow in an object; an arrow added above changes no fact of
    b.ts and the incremental facts equal a fresh index's."""
    a1 = b"export const api = { run: () => work() };\nexport function work() { return [1].map((x) => x); }\n"
    a2 = b"register(() => 0);\n" + a1
    b = b'import { api } from "./a";\nexport function go() { return api.run(); }\n'
    ix = TypeScriptIndex()
    ix.update({"a.ts": a1, "b.ts": b})
    ix.update({"a.ts": a2})
    fresh = TypeScriptIndex()
    fresh.update({"a.ts": a2, "b.ts": b})
    assert ix.facts("a.ts") == fresh.facts("a.ts") and ix.facts("b.ts") == fresh.facts("b.ts")
    a = fresh.facts("a.ts")
    assert a is not None
    assert {s.fqn: s.ordinal for s in a.symbols if s.ordinal} == {"a.<arrow:register>": 1, "a.work.<arrow:map>": 1}
