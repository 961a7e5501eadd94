"""Python lambdas are named from their context (mnemosyne/parse/anon.py), so adding one renames no
other; the PyCG export numbers them in source order within their enclosing scope."""

from __future__ import annotations

from mnemosyne.callgraph import to_pycg
from mnemosyne.extract import extract_tree
from mnemosyne.facts import FileFacts
from mnemosyne.resolve.python import PythonIndex

SRC = '''\
import requests


def handlers(app, xs, test):
    xs.sort(key=lambda x: x.rank)
    pick = lambda: 1
    app.cb = lambda: 2
    table = {"a.b": lambda: 3, "plain": lambda: 4}
    app.get("/users.json", lambda r: r)
    app.get("/users.json", lambda r: requests.get(r))
    test("retries on 500 when the server is down for a while", lambda: 0)
    requests.get(u).then(lambda r: r)
    app.handlers["on.save"](lambda: 5)
    return lambda: (lambda: 0)


def defaults(cb=lambda: None):
    return cb()


later = lambda: helper()


def helper():
    return later()
'''


def _facts(src: str) -> FileFacts:
    ff = extract_tree([("m.py", src.encode())]).files["m.py"]
    return ff


def _lambdas(ff: FileFacts) -> list[str]:
    return [s.fqn for s in ff.symbols if s.kind == "lambda"]


def test_names_come_from_the_context() -> None:
    ff = _facts(SRC)
    assert _lambdas(ff) == [
        "m.handlers.<lambda:xs:sort(key=)>",  # a keyword argument: callee(keyword=)
        "m.handlers.<lambda:pick>",  # bound to a name
        "m.handlers.<lambda:cb>",  # bound to an attribute
        "m.handlers.<lambda:'a·b'>",  # a dict key; '.' is written '·'
        "m.handlers.<lambda:'plain'>",
        "m.handlers.<lambda:app:get('/users·json')>",  # callee and its first string literal
        "m.handlers.<lambda:app:get('/users·json')#2>",  # same context: an ordinal among siblings
        "m.handlers.<lambda:test('retries on 500 when the server is down f…')>",  # long literals are cut
        "m.handlers.<lambda:get():then>",  # a call in the callee chain keeps its ()
        "m.handlers.<lambda:handlers:on·save>",  # a member read by a literal key
        "m.handlers.<lambda:return>",
        "m.handlers.<lambda:return>.<lambda:return>",  # a lambda's body
        "m.<lambda:cb>",  # a parameter's default (evaluated in the enclosing scope)
        "m.<lambda:later>",
    ]
    by = {s.fqn: s for s in ff.symbols}
    for fqn in _lambdas(ff):
        parent, _, last = fqn.rpartition(".")
        assert "." not in last and last.startswith("<lambda")
        assert by[fqn].parent == (parent if parent != "m" else "m.py")
    # calls keep the names: from a lambda, and to one
    calls = {(c.caller, c.callee) for c in ff.calls}
    assert ("m.handlers.<lambda:app:get('/users·json')#2>", "requests.get") in calls
    assert ("m.helper", "m.<lambda:later>") in calls and ("m.<lambda:later>", "m.helper") in calls


def test_adding_a_lambda_renames_no_other() -> None:
    before = _facts(SRC)
    # a new lambda above all the others, in the function and at the top of the module, and a new
    # sibling of an existing context after its siblings
    edited = SRC.replace("import requests\n", "import requests\n\nfirst = lambda: 'new'\n").replace(
        "def handlers(app, xs, test):\n", "def handlers(app, xs, test):\n    app.on('start', lambda: None)\n"
    ).replace("    return lambda: (lambda: 0)\n", "    app.get('/users.json', lambda: 9)\n    return lambda: (lambda: 0)\n")
    after = _facts(edited)
    old, new = set(_lambdas(before)), set(_lambdas(after))
    assert old <= new
    assert new - old == {"m.<lambda:first>", "m.handlers.<lambda:app:on('start')>", "m.handlers.<lambda:app:get('/users·json')#3>"}
    # the calls of the lambdas that were there are unchanged
    assert {(c.caller, c.callee) for c in before.calls} <= {(c.caller, c.callee) for c in after.calls}


def test_pycg_export_numbers_lambdas_in_source_order() -> None:
    snap = extract_tree([("m.py", SRC.encode())])
    g = to_pycg(snap)
    anon = sorted(k for k in g if "<" in k)
    assert anon == sorted(
        [f"m.handlers.<lambda{n}>" for n in range(1, 12)] + ["m.handlers.<lambda11>.<lambda1>", "m.<lambda1>", "m.<lambda2>"]
    )
    assert g["m.handlers.<lambda7>"] == ["requests.get"]  # the second app.get('/users.json', ...) lambda
    assert g["m.helper"] == ["m.<lambda2>"] and g["m.<lambda2>"] == ["m.helper"]  # callees mapped too
    assert not any("<lambda:" in c for cs in g.values() for c in cs)


def test_a_caller_in_another_file_follows_incrementally() -> None:
    """b.py calls a.py's lambda by name; a lambda added above it in a.py changes no fact of b.py,
    and an incremental index agrees with a fresh one."""
    a1 = b"handler = lambda: work()\n\ndef work():\n    return 1\n"
    a2 = b"other = lambda: 0\nhandler = lambda: work()\n\ndef work():\n    return 1\n"
    b = b"from a import handler\n\ndef run():\n    return handler()\n"
    ix = PythonIndex()
    ix.update({"a.py": a1, "b.py": b})
    b_before = ix.facts("b.py")
    assert b_before is not None and [(c.caller, c.callee) for c in b_before.calls] == [("b.run", "a.<lambda:handler>")]
    changed = ix.update({"a.py": a2})
    assert "b.py" not in changed
    fresh = PythonIndex()
    fresh.update({"a.py": a2, "b.py": b})
    assert ix.facts("a.py") == fresh.facts("a.py") and ix.facts("b.py") == fresh.facts("b.py") == b_before
    # the ordinal (not the name) of the lambda moved: the PyCG export follows it
    assert {s.fqn: s.ordinal for s in fresh.facts("a.py").symbols if s.kind == "lambda"} == {  # type: ignore[union-attr]
        "a.<lambda:other>": 1, "a.<lambda:handler>": 2,
    }
