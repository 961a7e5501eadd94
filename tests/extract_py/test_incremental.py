"""Incremental contract: after any sequence of updates, facts equal a fresh index's facts, and
update() reports every path whose facts changed."""

from __future__ import annotations

import random

import pytest

from mnemosyne.facts import FileFacts
from mnemosyne.resolve.python import PythonIndex, bounds

MODS = ["m0", "m1", "m2", "m3", "sub/__init__", "sub/s1", "sub/s2", "sub"]  # pkg/sub.py competes with pkg/sub/__init__.py


def _modname(m: str) -> str:
    return m.replace("/__init__", "").replace("/", ".")


def _random_module(rng: random.Random, me: str) -> str:
    others = [m for m in MODS if m != me]
    lines: list[str] = []
    for _ in range(rng.randint(0, 7)):
        o = rng.choice(others)
        on = _modname(o)
        leaf = on.rsplit(".", 1)[-1]
        k = rng.randint(0, 33)
        if k == 0:
            lines.append(f"from pkg.{on} import f, C")
        elif k == 1:
            lines.append(f"import pkg.{on}")
        elif k == 2:
            lines.append(f"from pkg.{on} import *")
        elif k == 3:
            lines.append(f"from pkg import {leaf}" if "." not in on else f"from pkg.sub import {leaf}")
        elif k == 4:
            lines.append(f"__all__ = {rng.sample(['f', 'C', 'g', 'D'], rng.randint(0, 3))!r}")
        elif k == 5:
            lines.append("def f():\n    return C().m()")
        elif k == 6:
            lines.append(f"class C({rng.choice(['object', 'D', 'C2'])}):\n    def m(self):\n        return self.n()")
        elif k == 7:
            lines.append("class D:\n    def n(self):\n        return f()\n    def m(self):\n        return g()")
        elif k == 8:
            lines.append(f"def g():\n    return pkg.{on}.f() if False else {leaf}.C().m()")
        elif k == 9:
            lines.append(f"from .{leaf} import C as C2" if me.count("/") == on.count(".") else "C2 = D")
        elif k == 10:
            lines.append("def make() -> 'C':\n    return C()\n\nmake().n()")
        elif k == 11:
            lines.append(f"x = f()\ny = C()\ny.m()\nz = {leaf}.make().m()")
        elif k == 12:
            lines.append("def apply(fn, obj=None):\n    obj.m()\n    return fn()")
        elif k == 13:
            lines.append(f"from pkg.{on} import apply\n\napply(f, C())\n{leaf}.apply(g, obj=D())\napply(D().m, obj=C())")
        elif k == 15:  # a wrapping decorator (calls by a decorated name reach its wrapper)
            lines.append("def wrap(fn):\n    def inner():\n        return fn()\n    return inner")
        elif k == 16:
            lines.append(f"from pkg.{on} import wrap\n\n@wrap\ndef f():\n    return g()\n\n@{leaf}.wrap\ndef g():\n    return 1")
        elif k == 17:  # an inherited classmethod factory returning cls(): an instance of the subclass
            lines.append(
                f"class G({rng.choice(['C', 'D', 'C2'])}):\n    @classmethod\n    def new(cls):\n        return cls()\n\n"
                "class H(G):\n    def m(self):\n        return f()\n\nH.new().m()"
            )
        elif k == 18:  # a method that only raises NotImplementedError, or a concrete one (abstract dispatch)
            body = rng.choice(["raise NotImplementedError", "return 1", "..."])
            lines.append(f"class K:\n    def n(self):\n        {body}")
        elif k == 19:
            lines.append(
                f"from pkg.{on} import K\n\nclass K2(K):\n    def n(self):\n        return f()\n\n"
                "def use(k: K):\n    return k.n()"
            )
        elif k == 20:  # an attribute stored on a module-level object from outside its class
            lines.append(f"app = {rng.choice(['C', 'D'])}()\napp.h = {rng.choice(['f', 'g', 'lambda: f()'])}")
        elif k == 21:
            lines.append(f"from pkg.{on} import app\n\ndef use_app():\n    return app.h()")
        elif k == 22:  # operators and property setters call methods of the operand's class
            methods = rng.sample(["__add__", "__getitem__", "__setitem__", "__len__", "__contains__", "__iadd__",
                                  "__getattr__", "__init_subclass__", "__set_name__", "__bool__"], 3)
            body = "".join(f"    def {m}(self, *a):\n        return f()\n" for m in methods)
            setter = "    @property\n    def p(self):\n        return 1\n    @p.setter\n    def p(self, v):\n        g()\n"
            lines.append(f"class V({rng.choice(['object', 'D', 'C'])}):\n{body}" + (setter if rng.random() < 0.5 else ""))
        elif k == 23:
            lines.append(
                f"from pkg.{on} import V\n\ndef ops(v: V):\n    w = v + v\n    v[0] = v[1]\n    v += w\n    v.p = 2\n"
                "    if v and not w:\n        pass\n"
                "    v.other()\n    return len(v), 1 in v, v.p\n\nclass W(V):\n    field = V()"
            )
        elif k == 24:  # a metaclass: creating a class runs __new__ / __init__, calling it __call__
            methods = rng.sample(["__new__", "__init__", "__call__"], rng.randint(1, 3))
            body = "".join(f"    def {m}(cls, *a):\n        return f()\n" for m in methods)
            lines.append(f"class Meta({rng.choice(['type', 'Meta2'])}):\n{body}\n\nclass Meta2(type):\n    def __call__(cls):\n        return g()")
        elif k == 25:
            lines.append(
                f"from pkg.{on} import Meta\n\nclass M1(metaclass={rng.choice(['Meta', 'type', 'D'])}):\n    pass\n\n"
                f"class M2(M1{rng.choice(['', ', metaclass=Meta'])}):\n    pass\n\nM2()"
            )
        elif k == 26:  # isinstance narrows x to the other module's classes (which gain / lose m, n)
            test = rng.choice([
                "    if isinstance(x, C):\n        return x.m()\n    return None",
                "    assert isinstance(x, (C, D))\n    return x.n()",
                "    if not isinstance(x, D):\n        return None\n    return x.m()",
                "    return isinstance(x, C) and x.n()",
                "    return x.m() if isinstance(x, D) else None",
            ])
            lines.append(f"from pkg.{on} import C, D\n\ndef narrow(x):\n{test}\n\nnarrow({rng.choice(['C', 'D', 'E'])}())")
        elif k == 27:  # a type alias of the other module's classes
            alias = rng.choice(["Optional[C]", "Union[C, D]", "List[D]"])
            use = "x[0].m()" if alias.startswith("List") else "x.m()"
            lines.append(f"from typing import List, Optional, Union\nfrom pkg.{on} import C, D\n\nAlias = {alias}\n\n"
                         f"def use(x: Alias):\n    return {use}")
        elif k == 28:  # a classmethod making cls(), called through a subclass in another module
            if rng.random() < 0.5:
                lines.append("class C:\n    def m(self):\n        return f()\n\n    @classmethod\n    def make(cls):\n        return cls()")
            else:
                lines.append(f"from pkg.{on} import C\n\nclass E(C):\n    def __init__(self):\n        pass\n\nE.make().m()")
        elif k == 29:  # a __getattr__ forwarding to what __init__ stores, wrapped here and elsewhere
            if rng.random() < 0.5:
                lines.append("import sys\n\nclass W:\n    def __init__(self, out):\n        self._out = out\n\n"
                             "    def __getattr__(self, name):\n        return getattr(self._out, name)\n\nW(sys.stdout).flush()")
            else:
                lines.append(f"from io import StringIO\nfrom pkg.{on} import W\n\nW(StringIO()).getvalue()")
        elif k == 30:  # items stored under literal keys, read by key here and elsewhere
            if rng.random() < 0.5:
                key = rng.choice(["'b'", "k"])
                lines.append(f"H = {{'a': f, **{{'c': g}}}}\n\ndef reg(k):\n    H[{key}] = g\n\nH['a']()")
            else:
                lines.append(f"from pkg.{on} import H\n\nH['{rng.choice('abc')}']()\nH.get('c')()")
        elif k == 31:  # a method's parameter used as a call's object, fed by the modules importing it
            v = rng.random()
            if v < 0.2:  # a function bound as a class attribute; items stored on the instance by key
                lines.append("def helper(w, c):\n    return c.m()\n\nclass W:\n    hook = helper\n\n    def fire(self):\n"
                             "        self.keys = {}\n        self.keys['a'] = f\n        self.keys['b'] = g\n"
                             "        self.keys['a']()\n        return self.hook(C())\n\nW().fire()")
            elif v < 0.6:
                lines.append("class R:\n    def render(self, out, cb=None):\n        out.m()\n        return cb()\n\n"
                             "def export(r, out):\n    return r.render(out, g)")
            else:
                lines.append(f"from pkg.{on} import R, export\n\nR().render({rng.choice(['C', 'D'])}(), cb=f)\n"
                             f"export(R(), {rng.choice(['C', 'D'])}())")
        elif k == 32:  # a class reading callbacks and items stored on its instances (here or elsewhere)
            lines.append("class S:\n    def __init__(self):\n        self.cb = None\n        self.acts = []\n\n"
                         "    def go(self):\n        for a in self.acts:\n            a()\n        return self.cb()")
        elif k == 33:  # stores onto another module's S through an attribute chain, a parameter, an alias
            fn = rng.choice(["f", "g", "lambda: f()"])
            lines.append(f"from pkg.{on} import S\n\n" + rng.choice([
                f"class T:\n    def __init__(self):\n        self.s = S()\n\n    def set(self):\n        self.s.cb = {fn}\n"
                "        self.s.acts.append(g)",
                f"def install(s):\n    s.cb = {fn}\n\ninstall(S())",
                f"def fill():\n    s = S()\n    r = s\n    r.acts.append({fn})",
            ]))
        else:  # a subclass overriding what its base calls on self (subclass dispatch)
            lines.append(f"class {rng.choice(['E', 'D'])}({rng.choice(['C', 'D', 'C2'])}):\n    def n(self):\n        return f()")
    return "\n\n".join(lines) + "\n"


def _path(m: str) -> str:
    return f"pkg/{m}.py"


def _all_facts(ix: PythonIndex) -> dict[str, FileFacts]:
    return {p: ix.facts(p) for p in sorted(ix.paths())}  # type: ignore[misc]


@pytest.mark.parametrize("seed", range(40))
def test_random_edit_sequences_match_fresh_index(seed: int) -> None:
    rng = random.Random(seed)
    files: dict[str, bytes] = {"pkg/__init__.py": b""}
    ix = PythonIndex()
    ix.update(dict(files))
    prev = _all_facts(ix)
    unread: set[str] = set()  # paths reported by updates since the facts were last compared
    for _step in range(12):
        changed: dict[str, bytes | None] = {}
        for _ in range(rng.randint(1, 3)):
            m = rng.choice(MODS + ["__init__"])
            p = _path(m)
            if p in files and rng.random() < 0.25:
                changed[p] = None
            else:
                changed[p] = _random_module(rng, m).encode()
        for p, d in changed.items():
            if d is None:
                files.pop(p, None)
            else:
                files[p] = d
        unread |= ix.update(changed)
        # only sometimes read the facts between updates (lazy resolution must stay correct)
        if rng.random() < 0.7:
            got = _all_facts(ix)
            fresh = PythonIndex()
            fresh.update(dict(files))
            want = _all_facts(fresh)
            assert set(got) == set(want)
            for p in want:
                assert got[p] == want[p], f"seed {seed}: {p} differs after incremental updates"
            differ = {p for p in set(got) | set(prev) if got.get(p) != prev.get(p)}
            assert differ <= unread, f"seed {seed}: update() missed {sorted(differ - unread)}"
            prev = got
            unread = set()


def test_dependency_through_base_class_module() -> None:
    """c.py calls B().m() where m is inherited from A in a.py: editing a.py re-resolves c.py."""
    files = {
        "a.py": b"class A:\n    def m(self):\n        return 1\n",
        "b.py": b"from a import A\n\nclass B(A):\n    pass\n",
        "c.py": b"from b import B\n\ndef run():\n    B().m()\n",
    }
    ix = PythonIndex()
    ix.update(files)
    assert [c.callee for c in ix.facts("c.py").calls] == ["a.A.m"]  # type: ignore[union-attr]
    affected = ix.update({"a.py": b"class A:\n    def other(self):\n        return 1\n"})
    assert "c.py" in affected
    assert ix.facts("c.py").calls == []  # type: ignore[union-attr]
    affected = ix.update({"a.py": None})
    assert {"a.py", "b.py", "c.py"} <= affected
    # a module appearing later triggers re-resolution of the files that looked for it
    ix.update({"b.py": b"from a import A\nfrom d import helper\n\nclass B(A):\n    pass\n",
               "c.py": b"from b import B, helper\n\ndef run():\n    helper()\n"})
    # d is not in the repository yet: an external callee named by its import path
    assert [(c.callee, c.external) for c in ix.facts("c.py").calls] == [("d.helper", True)]  # type: ignore[union-attr]
    affected = ix.update({"d.py": b"def helper():\n    return 2\n"})
    assert "c.py" in affected
    assert [(c.callee, c.external) for c in ix.facts("c.py").calls] == [("d.helper", False)]  # type: ignore[union-attr]


def test_src_layout_switch_renames_modules() -> None:
    ix = PythonIndex()
    ix.update({"src/pkg/__init__.py": b"", "src/pkg/a.py": b"def f():\n    pass\n"})
    assert ix.facts("src/pkg/a.py").module == "pkg.a"  # type: ignore[union-attr]
    affected = ix.update({"src/__init__.py": b""})
    assert "src/pkg/a.py" in affected
    assert ix.facts("src/pkg/a.py").module == "src.pkg.a"  # type: ignore[union-attr]
    fresh = PythonIndex()
    fresh.update({"src/__init__.py": b"", "src/pkg/__init__.py": b"", "src/pkg/a.py": b"def f():\n    pass\n"})
    assert fresh.facts("src/pkg/a.py") == ix.facts("src/pkg/a.py")


def test_parse_cache_reuses_identical_content() -> None:
    ix = PythonIndex()
    body = b"def f():\n    return len([])\n"
    ix.update({"a.py": body, "b.py": body})
    assert ix._parsed["a.py"] is ix._parsed["b.py"]
    ix.facts("a.py"), ix.facts("b.py")
    assert ix.update({"a.py": body}) == set()  # unchanged content: nothing to redo
    # files never resolved since the last update are reported (their facts were never read)
    ix.update({"c.py": b"x = 1\n"})
    assert ix.update({"a.py": body}) == {"c.py"}


def test_callback_passed_from_another_module() -> None:
    """run(cb) calls cb: its edges come from other modules' call sites, so a new caller anywhere
    re-resolves the callee's file."""
    ix = PythonIndex()
    ix.update({
        "pkg/__init__.py": b"",
        "pkg/runner.py": b"def run(cb):\n    return cb()\n",
        "pkg/a.py": b"from .runner import run\n\ndef job():\n    return 1\n\nrun(job)\n",
    })
    assert [c.callee for c in ix.facts("pkg/runner.py").calls] == ["pkg.a.job"]  # type: ignore[union-attr]
    affected = ix.update({"pkg/b.py": b"from pkg import runner\n\ndef other():\n    return 2\n\nrunner.run(other)\n"})
    assert "pkg/runner.py" in affected
    assert [c.callee for c in ix.facts("pkg/runner.py").calls] == ["pkg.a.job", "pkg.b.other"]  # type: ignore[union-attr]
    affected = ix.update({"pkg/a.py": b"def job():\n    return 1\n"})
    assert "pkg/runner.py" in affected
    assert [c.callee for c in ix.facts("pkg/runner.py").calls] == ["pkg.b.other"]  # type: ignore[union-attr]



def _edit_of_y_reaches_x(y0: bytes, y1: bytes, x: bytes, before: list[str], after: list[str]) -> None:
    """pkg/x.py calls ``before``; editing pkg/y.py from ``y0`` to ``y1`` must re-resolve x, which
    then calls ``after``, equal to a fresh index's facts."""
    files = {"pkg/__init__.py": b"", "pkg/y.py": y0, "pkg/x.py": x}
    ix = PythonIndex()
    ix.update(dict(files))
    _all_facts(ix)
    assert [c.callee for c in ix.facts("pkg/x.py").calls] == before  # type: ignore[union-attr]
    affected = ix.update({"pkg/y.py": y1})
    assert "pkg/x.py" in affected
    assert [c.callee for c in ix.facts("pkg/x.py").calls] == after  # type: ignore[union-attr]
    files["pkg/y.py"] = y1
    _check_fresh(ix, files, 0)


def test_new_alias_call_site_reaches_another_modules_result() -> None:
    """A value passed through a new local alias (``a = ident; a(job)``) flows into ident's
    parameter: a file whose result depends on that parameter is re-resolved (read key "AL")."""
    # (``return [fn]``: a call of a function returning its parameter as it is gives that call's argument)
    y0 = b"def ident(fn):\n    return [fn]\n\n\ndef job():\n    return 1\n\n\ndef setup():\n    pass\n"
    y1 = b"def ident(fn):\n    return [fn]\n\n\ndef job():\n    return 1\n\n\ndef setup():\n    a = ident\n    a(job)\n"
    _edit_of_y_reaches_x(y0, y1, b"from pkg.y import ident\n\nident(None)[0]()\n", ["pkg.y.ident"], ["pkg.y.ident", "pkg.y.job"])



def test_callback_called_with_arguments_reaches_another_modules_result() -> None:
    """keep is passed to feed, which starts calling its parameter with job: keep's parameter now
    holds job, and a file whose result depends on it is re-resolved (read keys "PA", "PC")."""
    y0 = b"def keep(v):\n    return [v]\n\n\ndef job():\n    return 1\n\n\ndef feed(cb):\n    pass\n\n\nfeed(keep)\n"
    y1 = y0.replace(b"    pass\n", b"    cb(job)\n")
    _edit_of_y_reaches_x(y0, y1, b"from pkg.y import keep\n\nkeep(None)[0]()\n", ["pkg.y.keep"], ["pkg.y.job", "pkg.y.keep"])


def test_parameter_flow_reads_of_a_third_module_reach_the_asker() -> None:
    """x reads what y's own call of keep passes (``keep(pick)``, pick imported from z): the parameter
    flow's reads of z are x's, z re-binding pick (job -> other) re-resolves x, which never names z nor
    read other's definition (a shared parameter-flow answer whose reads x did not take over fails here)."""
    files = {
        "pkg/__init__.py": b"",
        "pkg/z.py": b"def job():\n    return 1\n\n\ndef other():\n    return 2\n\n\npick = job\n",
        "pkg/y.py": b"from pkg.z import pick\n\n\ndef keep(v):\n    return [v]\n\n\nkeep(pick)\n",
        "pkg/x.py": b"from pkg.y import keep\n\nkeep(None)[0]()\n",
    }
    z1 = files["pkg/z.py"].replace(b"pick = job", b"pick = other")
    _edit_of_z_reaches_x(files, z1, ["pkg.y.keep", "pkg.z.job"], ["pkg.y.keep", "pkg.z.other"])


_Z = b"def job():\n    return 1\n\n\ndef other():\n    return 2\n\n\npick = job\n"


def test_module_attribute_reads_of_a_third_module_reach_the_asker() -> None:
    """x calls y's ``run``, which y imports from z (``pick``, bound to job): the shared answers of
    y's ``run`` and z's ``pick`` (``hierarchy.SHARED_MODULE_ATTR``, the second used by the first)
    read z, so z re-binding pick (job -> other) re-resolves x, which never names z."""
    files = {
        "pkg/__init__.py": b"",
        "pkg/z.py": _Z,
        "pkg/y.py": b"from pkg.z import pick as run\n",
        "pkg/x.py": b"from pkg.y import run\n\nrun()\n",
    }
    _edit_of_z_reaches_x(files, _Z.replace(b"pick = job", b"pick = other"), ["pkg.z.job"], ["pkg.z.other"])


def test_returns_reads_of_a_third_module_reach_the_asker() -> None:
    """x calls what y's ``make`` returns, z's ``pick`` (a shared module attribute read inside make's
    returns, ``hierarchy.SHARED_MODULE_ATTR``): it read z, so z re-binding pick re-resolves x."""
    files = {
        "pkg/__init__.py": b"",
        "pkg/z.py": _Z,
        "pkg/y.py": b"from pkg.z import pick\n\n\ndef make():\n    return pick\n",
        "pkg/x.py": b"from pkg.y import make\n\nmake()()\n",
    }
    z1 = _Z.replace(b"pick = job", b"pick = other")
    _edit_of_z_reaches_x(files, z1, ["pkg.y.make", "pkg.z.job"], ["pkg.y.make", "pkg.z.other"])


def test_a_shared_answers_reads_are_kept_once_for_its_askers() -> None:
    """a and b ask the same shared answer (y's ``pick``, z's ``job`` re-exported:
    ``hierarchy.SHARED_MODULE_ATTR``): their records reference one record of its reads
    (``incremental.SharedReads``) instead of a copy each, and z re-binding pick re-resolves both."""
    files = {
        "pkg/__init__.py": b"",
        "pkg/z.py": _Z,
        "pkg/y.py": b"from pkg.z import pick\n",
        "pkg/a.py": b"from pkg.y import pick\n\npick()\n",
        "pkg/b.py": b"from pkg.y import pick\n\n\ndef run():\n    pick()\n",
    }
    ix = _resolved_index(files)
    shared = ix._book.reads._shared
    assert set(shared.get("pkg/a.py", ())) & set(shared.get("pkg/b.py", ()))
    from mnemosyne.resolve.python.reads import READ_BINDS

    own = ix._book.reads._reads.get("pkg/a.py", {}).get("pkg/z.py")
    assert own is None or (READ_BINDS, 0, "pick") not in own[1]  # (the answer's read, not copied into a's)
    assert (READ_BINDS, 0, "pick") in ix._book.reads.of("pkg/a.py")["pkg/z.py"][1]
    z1 = _Z.replace(b"pick = job", b"pick = other")
    files["pkg/z.py"] = z1
    assert {"pkg/a.py", "pkg/b.py"} <= ix.update({"pkg/z.py": z1})
    assert [c.callee for c in ix.facts("pkg/a.py").calls] == ["pkg.z.other"]  # type: ignore[union-attr]
    _check_fresh(ix, files, 0)


def _edit_of_z_reaches_x(files: dict[str, bytes], z1: bytes, before: list[str], after: list[str]) -> None:
    """``pkg/x.py`` calls ``before``; after ``pkg/z.py`` becomes ``z1`` it is re-resolved and calls
    ``after``, as a fresh index says."""
    ix = PythonIndex()
    ix.update(dict(files))
    _all_facts(ix)
    assert [c.callee for c in ix.facts("pkg/x.py").calls] == before  # type: ignore[union-attr]
    files["pkg/z.py"] = z1
    affected = ix.update({"pkg/z.py": z1})
    assert "pkg/x.py" in affected
    assert [c.callee for c in ix.facts("pkg/x.py").calls] == after  # type: ignore[union-attr]
    _check_fresh(ix, files, 0)


_S = b"class S:\n    def __init__(self):\n        self.cb = None\n        self.acts = []\n\n    def go(self):\n" \
     b"        for a in self.acts:\n            a()\n        return self.cb()\n"
_T = b"from pkg.x import S\n\n\ndef job():\n    return 1\n\n\ndef other():\n    return 2\n\n\n" \
     b"class T:\n    def __init__(self):\n        self.s = S()\n\n    def set(self):\n"


def test_new_object_store_reaches_the_classs_readers() -> None:
    """A store onto another module's instance appears (``self.s.cb = job`` with ``self.s = S()``):
    S's own ``self.cb()`` now calls job, and S's module is re-resolved though it never read the
    storing file before (the ``<os>cb`` name search: the files storing onto ``cb``)."""
    y1 = _T + b"        self.s.cb = job\n        self.s.acts.append(other)\n"
    _edit_of_y_reaches_x(_T + b"        pass\n", y1, _S, [], ["pkg.y.job", "pkg.y.other"])


def test_changed_object_store_reaches_the_classs_readers() -> None:
    """The value a store onto another module's instance stores changes (job -> other), the files
    storing onto ``cb`` staying the same: S's module is re-resolved (read key "OS")."""
    y0 = _T + b"        self.s.cb = job\n"
    _edit_of_y_reaches_x(y0, _T + b"        self.s.cb = other\n", _S, ["pkg.y.job"], ["pkg.y.other"])


def test_store_object_rebound_in_a_third_module_reaches_the_classs_readers() -> None:
    """y stores onto z's HOLDER (``HOLDER.cb = job``), an S until z makes it a T: S's ``self.cb()``
    loses job. What y stores is the same, so one ``('OS', 'cb')`` read per attribute would leave x
    as it was (measured: x not re-resolved, job kept); the reads of the shared answer evaluating
    HOLDER (``hierarchy.SHARED_STORE_OBJECTS``) re-resolve x."""
    files = {
        "pkg/__init__.py": b"",
        "pkg/x.py": b"class S:\n    cb = None\n\n    def go(self):\n        return self.cb()\n",
        "pkg/y.py": b"from pkg.z import HOLDER\n\n\ndef job():\n    return 1\n\n\nHOLDER.cb = job\n",
        "pkg/z.py": b"from pkg.x import S\n\nHOLDER = S()\n",
    }
    _edit_of_z_reaches_x(files, b"class T:\n    pass\n\n\nHOLDER = T()\n", ["pkg.y.job"], [])


def test_method_argument_from_an_importer_reaches_the_method() -> None:
    """y imports x's Report and starts passing a Buffer to render(out), whose out.write() then
    calls Buffer.write: x is re-resolved (the importers' call sites of render, ``method_cross``)."""
    x = b"class Report:\n    def render(self, out):\n        return out.write()\n"
    y0 = b"from pkg.x import Report\n\n\nclass Buffer:\n    def write(self):\n        return 1\n\n\nReport().render(None)\n"
    y1 = y0.replace(b"render(None)", b"render(Buffer())")
    _edit_of_y_reaches_x(y0, y1, x, [], ["pkg.y.Buffer.write"])


def test_method_argument_sites_past_the_cap_then_under_it() -> None:
    """Past ``bounds.CROSS_MAX_SITES`` call sites of render nothing is looked up; removing one
    site brings the count under it: x is re-resolved and out.write() calls Buffer.write."""
    x = b"class Report:\n    def render(self, out):\n        return out.write()\n"
    head = b"from pkg.x import Report\n\n\nclass Buffer:\n    def write(self):\n        return 1\n\n\n"
    y0 = head + b"Report().render(Buffer())\n" * (bounds.CROSS_MAX_SITES + 1)
    y1 = head + b"Report().render(Buffer())\n" * bounds.CROSS_MAX_SITES
    _edit_of_y_reaches_x(y0, y1, x, [], ["pkg.y.Buffer.write"])


# ---------------------------------------------------------------------------- interface pruning
def test_subclass_called_in_its_module_reaches_another_modules_instance() -> None:
    """Child inherits Base.__init__(self, cb); a new ``Child(job)`` in their module passes job to
    cb, which another module's ``Child(None).cb()`` then calls: that module is re-resolved (read
    key "CC": the classes a module calls by their name, which the parameter flow checks instead of
    searching every subclass)."""
    y0 = b"class Base:\n    def __init__(self, cb):\n        self.cb = cb\n\n\nclass Child(Base):\n    pass\n\n\ndef job():\n    return 1\n"
    y1 = y0 + b"\n\nChild(job)\n"
    _edit_of_y_reaches_x(y0, y1, b"from pkg.y import Child\n\nChild(None).cb()\n", ["pkg.y.Base.__init__"], ["pkg.y.Base.__init__", "pkg.y.job"])


def _with_body_noise(src: str, rng: random.Random) -> str:
    """The same module with different statements inside every function body but placeholders
    (and shifted lines): a body-only edit, which changes no read another file's resolution can make."""
    out: list[str] = ["# " + "x" * rng.randint(0, 9)] + [""] * rng.randint(0, 2)
    lines = src.split("\n")
    for i, line in enumerate(lines):
        out.append(line)
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if nxt in ("raise NotImplementedError", "..."):
            continue  # a placeholder body is part of the interface (abstract dispatch): keep it
        if line.lstrip().startswith("def ") and line.rstrip().endswith(":"):
            ind = " " * (len(line) - len(line.lstrip()) + 4)
            for _ in range(rng.randint(0, 3)):
                k = rng.randint(0, 3)
                if k == 0:
                    out.append(f"{ind}_k = {rng.randint(0, 99)}")
                elif k == 1:
                    out.append(f"{ind}len([{rng.randint(0, 99)}])")
                elif k == 2:
                    out.append(f"{ind}# note {rng.randint(0, 99)}")
                else:
                    out.append(f"{ind}for _j in range({rng.randint(1, 9)}):\n{ind}    _k = _j")
    return "\n".join(out)


def _with_layout_noise(src: str, rng: random.Random) -> str:
    """The same module with unrelated top-level scopes (functions, classes, lambdas) added at
    random places: every scope after them is renumbered, which readers must not mistake for a
    change of what they read (and must not miss when it is one)."""
    chunks = src.split("\n\n")
    for _ in range(rng.randint(0, 3)):
        n = rng.randint(0, 99)
        pad = rng.choice([
            f"def _pad{n}():\n    return {n}",
            f"class _Pad{n}:\n    def m(self):\n        return (lambda: {n})()",
            f"_pad{n} = lambda: {n}",
        ])
        chunks.insert(rng.randint(0, len(chunks)), pad)
    return "\n\n".join(chunks)


@pytest.mark.parametrize("seed", range(60))
def test_renumbered_scopes_match_fresh_index(seed: int) -> None:
    """Layout edits (scopes added/removed above others) mixed with interface edits: facts stay
    equal to a fresh index's, and update() reports every file whose facts changed."""
    rng = random.Random(5000 + seed)
    base, files = _random_tree(rng, _with_layout_noise)
    ix = PythonIndex()
    ix.update(dict(files))
    prev = _check_fresh(ix, files, seed)
    for _step in range(10):
        changed: dict[str, bytes | None] = {}
        for _ in range(rng.randint(1, 2)):
            if base and rng.random() < 0.6:
                p = rng.choice(sorted(base))
            else:
                p = _path(rng.choice(MODS))
                base[p] = _random_module(rng, p[4:-3])
            changed[p] = _with_layout_noise(base[p], rng).encode()
        files.update({p: d for p, d in changed.items() if d is not None})
        affected = ix.update(changed)
        got = _check_fresh(ix, files, seed)
        differ = {p for p in set(got) | set(prev) if got.get(p) != prev.get(p)}
        assert differ <= affected, f"seed {seed}: update() missed {sorted(differ - affected)}"
        prev = got


def _random_tree(rng: random.Random, noise) -> tuple[dict[str, str], dict[str, bytes]]:
    """(path -> random module text, path -> that text with ``noise``) for most of MODS."""
    base: dict[str, str] = {}
    files: dict[str, bytes] = {"pkg/__init__.py": b""}
    for m in MODS:
        if rng.random() < 0.8:
            base[_path(m)] = _random_module(rng, m)
            files[_path(m)] = noise(base[_path(m)], rng).encode()
    return base, files


def _check_fresh(ix: PythonIndex, files: dict[str, bytes], seed: int) -> dict[str, FileFacts]:
    got = _all_facts(ix)
    fresh = PythonIndex()
    fresh.update(dict(files))
    want = _all_facts(fresh)
    assert set(got) == set(want)
    for p in want:
        assert got[p] == want[p], f"seed {seed}: {p} differs after incremental updates"
    return got


@pytest.mark.parametrize("seed", range(120))
def test_body_only_and_interface_edits_match_fresh_index(seed: int) -> None:
    """Mixed body-only edits (must re-resolve exactly the changed files) and interface edits."""
    rng = random.Random(1000 + seed)
    base, files = _random_tree(rng, _with_body_noise)  # base: path -> module text without the noise
    ix = PythonIndex()
    ix.update(dict(files))
    prev = _check_fresh(ix, files, seed)
    for _step in range(10):
        body_only = rng.random() < 0.6
        changed: dict[str, bytes | None] = {}
        for _ in range(rng.randint(1, 2)):
            if body_only:
                p = rng.choice(sorted(base))
                changed[p] = _with_body_noise(base[p], rng).encode()
            else:
                m = rng.choice(MODS)
                p = _path(m)
                if p in base and rng.random() < 0.2:
                    changed[p] = None
                else:
                    base[p] = _random_module(rng, m)
                    changed[p] = _with_body_noise(base[p], rng).encode()
        for p, d in changed.items():
            if d is None:
                files.pop(p, None)
                base.pop(p, None)
            else:
                files[p] = d
        affected = ix.update(changed)
        if body_only:
            assert affected <= set(changed), (
                f"seed {seed}: body-only edit of {sorted(changed)} re-resolves {sorted(affected - set(changed))}"
            )
        got = _check_fresh(ix, files, seed)
        differ = {p for p in set(got) | set(prev) if got.get(p) != prev.get(p)}
        assert differ <= affected, f"seed {seed}: update() missed {sorted(differ - affected)}"
        prev = got


def _resolved_index(files: dict[str, bytes]) -> PythonIndex:
    """An index of ``files`` with every file's facts computed (so later updates prune)."""
    ix = PythonIndex()
    ix.update(files)
    for p in sorted(ix.paths()):
        ix.facts(p)
    return ix


def test_body_edit_of_heavily_imported_module_affects_only_it() -> None:
    core = (
        "class Base:\n    def m(self):\n        return helper()\n\n"
        "def helper():\n    x = 1\n    return Base()\n\n"
        "def run(cb):\n    return cb()\n"
    )
    files = {"pkg/__init__.py": b"", "pkg/core.py": core.encode()}
    for i in range(6):
        files[f"pkg/u{i}.py"] = (
            f"from pkg.core import Base, helper, run\n\nclass U{i}(Base):\n    pass\n\n"
            f"def go{i}():\n    helper().m()\n    U{i}().m()\n    run(go{i})\n"
        ).encode()
    ix = _resolved_index(files)
    edited = core.replace("x = 1", "x = 2\n    y = [x, len('abc')]  # more body")
    assert ix.update({"pkg/core.py": edited.encode()}) == {"pkg/core.py"}
    files["pkg/core.py"] = edited.encode()
    _check_fresh(ix, files, 0)
    # interface edits: a return value, a new base, a removed method
    for new in (
        edited.replace("return Base()", "return None"),
        edited.replace("class Base:", "class Base(dict):"),
        edited.replace("def m(self)", "def mm(self)"),
    ):
        affected = ix.update({"pkg/core.py": new.encode()})
        assert len(affected) > 1
        files["pkg/core.py"] = new.encode()
        _check_fresh(ix, files, 0)


def test_update_leaves_the_garbage_collector_as_it_was() -> None:
    """No gc.freeze() (it would pin garbage forever in the daemon) and the GC state is restored."""
    import gc

    frozen = gc.get_freeze_count()
    ix = PythonIndex()
    for enabled in (True, False):
        (gc.enable if enabled else gc.disable)()
        try:
            ix.update({"a.py": f"def f{enabled}():\n    return 1\n".encode() * 2000, "b.py": b"import a\n"})
            ix.facts("a.py")
            assert gc.isenabled() is enabled
        finally:
            gc.enable()
    assert gc.get_freeze_count() == frozen


def test_code_added_above_what_readers_use_does_not_re_resolve_them() -> None:
    """Reads name scopes by qualified name, not index: a function, class or lambda added (or
    removed) above the scopes an importer read leaves the importer alone, and facts stay fresh."""
    core = "class Base:\n    def m(self):\n        return helper()\n\ndef helper():\n    return Base()\n"
    files = {"pkg/__init__.py": b"", "pkg/core.py": core.encode()}
    for i in range(4):
        files[f"pkg/u{i}.py"] = (
            f"from pkg.core import Base, helper\n\nclass U{i}(Base):\n    def m(self):\n        return super().m()\n\n"
            f"def go{i}():\n    helper().m()\n    U{i}().m()\n"
        ).encode()
    ix = _resolved_index(files)
    for added in (
        "def unrelated():\n    return [lambda: 1, lambda: 2]\n\n",
        "class Other:\n    def m(self):\n        return 1\n\nother = lambda x: x\n\n",
        "",  # and removed again
    ):
        new = (added + core).encode()
        assert ix.update({"pkg/core.py": new}) == {"pkg/core.py"}, added
        files["pkg/core.py"] = new
        _check_fresh(ix, files, 0)
    # a renamed scope the importers read is a change they see
    renamed = core.replace("def helper", "def helper2").replace("return helper()", "return helper2()")
    assert len(ix.update({"pkg/core.py": renamed.encode()})) > 1
    files["pkg/core.py"] = renamed.encode()
    _check_fresh(ix, files, 0)


def test_new_submodule_re_resolves_only_who_can_see_it() -> None:
    """A module appearing changes the answers for its own name and for the package prefixes that
    appear with it; readers of a package that stays, which never named the new module, keep
    their facts and are not re-resolved (a typeshed stub added under mypy/ re-resolved every file
    importing from mypy)."""
    files = {
        "app/__init__.py": b"",
        "app/core.py": b"def f():\n    return 1\n",
        "app/user.py": b"from app import core\n\ndef use():\n    return core.f()\n",
        "app/later.py": b"import app.extra.deep.mod\n\ndef use():\n    return app.extra.deep.mod.g()\n",
        "app/direct.py": b"from app import other\n\ndef use():\n    return other.h()\n",
    }
    ix = PythonIndex()
    ix.update(dict(files))
    _all_facts(ix)
    # a namespace package chain appears under app/: its readers are re-resolved, app's others not
    added = {"app/extra/deep/mod.py": b"def g():\n    return 2\n"}
    affected = ix.update(added)
    files.update(added)
    assert "app/later.py" in affected
    assert "app/user.py" not in affected
    assert "app/direct.py" not in affected
    # a plain submodule appears: who imports that name from the package sees it
    added = {"app/other.py": b"def h():\n    return 3\n"}
    affected = ix.update(added)
    files.update(added)
    assert "app/direct.py" in affected and "app/user.py" not in affected
    fresh = PythonIndex()
    fresh.update(dict(files))
    assert _all_facts(ix) == _all_facts(fresh)
    calls = {c.callee for c in ix.facts("app/later.py").calls}
    assert "app.extra.deep.mod.g" in calls
    assert "app.other.h" in {c.callee for c in ix.facts("app/direct.py").calls}
    # and the namespace chain disappearing again
    affected = ix.update({"app/extra/deep/mod.py": None})
    files.pop("app/extra/deep/mod.py")
    assert "app/later.py" in affected and "app/user.py" not in affected
    fresh = PythonIndex()
    fresh.update(dict(files))
    assert _all_facts(ix) == _all_facts(fresh)


# deeper import roots (docs/resolve-python.md): ``app`` is imported from inside ``backend/`` or
# ``worker/``; files appearing and disappearing change which ``X.app`` an import means
ROOTED = ["backend/app/__init__.py", "backend/app/models.py", "backend/app/main.py", "worker/app/models.py",
          "worker/app/jobs.py", "worker/deep/app/models.py", "tool.py", "app/__init__.py", "app/models.py",
          "Pkg-1.0/app/models/__init__.py", "backend/app/models/__init__.py", "backend/app/app/models.py"]


def _rooted_module(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(1, 4)):
        lines.append(rng.choice([
            "from app.models import make\n\ndef use():\n    return make().save()",
            "import app.models\n\ndef use2():\n    return app.models.make()",
            "import app.models as am\n\ndef use3():\n    return am.Model().save()",
            "from app import models\n\ndef use4():\n    return models.make()",
            "def make():\n    return Model()",
            "class Model:\n    def save(self):\n        return make()",
            "def make(fn=None):\n    return fn()",
            "from app.models import make\n\ndef cb():\n    pass\n\nmake(cb)",
            # a name the rooted module may lack: then the import stays external
            "from app.models import helper\n\ndef use5():\n    return helper()",
            "def helper():\n    return make()",
        ]))
    return "\n\n".join(lines) + "\n"


def _assert_incremental(ix: PythonIndex, files: dict[str, bytes], prev: dict[str, FileFacts], unread: set[str],
                        seed: int) -> dict[str, FileFacts]:
    got = _check_fresh(ix, files, seed)
    differ = {p for p in set(got) | set(prev) if got.get(p) != prev.get(p)}
    assert differ <= unread, f"seed {seed}: update() missed {sorted(differ - unread)}"
    return got


@pytest.mark.parametrize("seed", range(30))
def test_import_roots_appearing_and_disappearing_match_fresh_index(seed: int) -> None:
    rng = random.Random(seed)
    files: dict[str, bytes] = {}
    ix = PythonIndex()
    prev = _all_facts(ix)
    unread: set[str] = set()
    for _step in range(12):
        changed: dict[str, bytes | None] = {}
        for _ in range(rng.randint(1, 3)):
            p = rng.choice(ROOTED)
            changed[p] = None if p in files and rng.random() < 0.4 else _rooted_module(rng).encode()
        for p, d in changed.items():
            if d is None:
                files.pop(p, None)
            else:
                files[p] = d
        unread |= ix.update(changed)
        if rng.random() < 0.7:
            prev = _assert_incremental(ix, files, prev, unread, seed)
            unread = set()


def _callees(ix: PythonIndex, path: str) -> set[str]:
    return {c.callee for c in ix.facts(path).calls}  # type: ignore[union-attr]


def test_import_root_unique_then_ambiguous() -> None:
    """A file appearing becomes the unique module an import means; a second candidate no closer
    to the importer makes it ambiguous (external again); its root folder becoming a package makes
    it no root; each step equals a fresh index."""
    files = {"tool.py": b"from app.models import make\n\ndef run():\n    return make()\n",
             "backend/app/__init__.py": b"", "worker/app/__init__.py": b""}
    ix = PythonIndex()
    ix.update(dict(files))
    prev = _all_facts(ix)
    assert "app.models.make" in _callees(ix, "tool.py")
    steps = [("backend/app/models.py", "backend.app.models.make"), ("worker/app/models.py", "app.models.make")]
    for path, callee in steps:
        files[path] = b"def make():\n    return 1\n"
        unread = ix.update({path: files[path]})
        assert "tool.py" in unread
        prev = _assert_incremental(ix, files, prev, unread, 0)
        assert callee in _callees(ix, "tool.py")
    del files["worker/app/models.py"]
    unread = ix.update({"worker/app/models.py": None})
    prev = _assert_incremental(ix, files, prev, unread, 0)
    assert "backend.app.models.make" in _callees(ix, "tool.py")
    # backend/ becoming a package: it is no import root any more
    files["backend/__init__.py"] = b""
    unread = ix.update({"backend/__init__.py": b""})
    _assert_incremental(ix, files, prev, unread, 0)
    assert "app.models.make" in _callees(ix, "tool.py")
