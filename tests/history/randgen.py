"""Random but valid code histories: Python and TypeScript modules whose functions, classes,
imports and calls are added, removed, renamed and moved from commit to commit (seeded)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class Fn:
    name: str
    calls: list[tuple[str, str]] = field(default_factory=list)  # (module path, function name)
    doc: str = ""
    pad: int = 0  # blank lines before it (moves line numbers)


@dataclass
class Cls:
    name: str
    base: tuple[str, str] | None = None  # (module path, class name)
    methods: list[Fn] = field(default_factory=list)


@dataclass
class Mod:
    path: str
    fns: list[Fn] = field(default_factory=list)
    classes: list[Cls] = field(default_factory=list)
    ext: list[str] = field(default_factory=list)  # external imports ('os', 'json', 'requests')

    @property
    def lang(self) -> str:
        return "py" if self.path.endswith(".py") else "ts"


def py_module_name(path: str) -> str:
    m = path[:-3].replace("/", ".")
    return m[: -len(".__init__")] if m.endswith(".__init__") else m


def ts_rel(frm: str, to: str) -> str:
    a, b = frm.split("/")[:-1], to[: -len(".ts")].split("/")
    i = 0
    while i < len(a) and i < len(b) - 1 and a[i] == b[i]:
        i += 1
    up = len(a) - i
    rel = ("../" * up if up else "./") + "/".join(b[i:])
    return rel


class History:
    def __init__(self, seed: int, ts: bool = True) -> None:
        self.rnd = random.Random(seed)
        self.mods: dict[str, Mod] = {}
        self.ts = ts
        self.counter = 0
        self.deleted: list[tuple[str, str]] = []  # dangling targets kept around on purpose
        self.py_deps: dict[str, str] = {}
        self.npm_deps: dict[str, str] = {}
        self.npm_locks: dict[str, str] = {}

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    # --- rendering ---------------------------------------------------------------------------
    def render(self) -> dict[str, str]:
        out: dict[str, str] = {}
        dirs = {p.rsplit("/", 1)[0] for p in self.mods if p.endswith(".py") and "/" in p}
        for d in dirs:
            parts = d.split("/")
            for i in range(1, len(parts) + 1):
                out.setdefault("/".join(parts[:i]) + "/__init__.py", "")
        for m in self.mods.values():
            out[m.path] = self._render_py(m) if m.lang == "py" else self._render_ts(m)
        if self.py_deps:
            deps = ", ".join(f'"{n}{v}"' for n, v in sorted(self.py_deps.items()))
            out["pyproject.toml"] = f'[project]\nname = "randpkg"\nversion = "0.1"\ndependencies = [{deps}]\n'
            out["requirements.txt"] = "".join(f"{n}{v}\n" for n, v in sorted(self.py_deps.items()))
        if self.npm_deps:
            import json

            out["web/package.json"] = json.dumps({"name": "randweb", "version": "1.0.0",
                                                  "dependencies": dict(sorted(self.npm_deps.items()))}, indent=2)
            out["web/package-lock.json"] = json.dumps({
                "name": "randweb", "lockfileVersion": 3,
                "packages": {"": {"name": "randweb", "dependencies": dict(sorted(self.npm_deps.items()))},
                             **{f"node_modules/{n}": {"version": v} for n, v in sorted(self.npm_locks.items())}},
            }, indent=2)
        return out

    def _targets(self, m: Mod) -> list[tuple[str, str]]:
        ts = []
        for f in m.fns:
            ts += f.calls
        for c in m.classes:
            for f in c.methods:
                ts += f.calls
            if c.base:
                ts.append(c.base)
        return ts

    def _render_py(self, m: Mod) -> str:
        lines: list[str] = []
        for e in sorted(set(m.ext)):
            lines.append(f"import {e}")
        imported: dict[str, set[str]] = {}
        for mp, name in self._targets(m):
            if mp != m.path and mp.endswith(".py"):
                imported.setdefault(mp, set()).add(name)
        for mp in sorted(imported):
            lines.append(f"from {py_module_name(mp)} import {', '.join(sorted(imported[mp]))}")
        lines.append("")
        for c in m.classes:
            base = f"({c.base[1]})" if c.base else ""
            lines += ["", f"class {c.name}{base}:"]
            if not c.methods:
                lines.append("    pass")
            # subclass dispatch: root classes call self.tick(), which subclasses (in this module
            # or others) define or not as their methods come and go
            if not c.base:
                lines += ["    def hook(self):", "        return self.tick()"]
            if len(c.methods) % 2 == 1:
                lines += ["    def tick(self):", "        return None"]
            for f in c.methods:
                lines += [f"    def {f.name}(self):"]
                if f.doc:
                    lines.append(f'        """{f.doc}"""')
                for _mp, name in f.calls:
                    lines.append(f"        {name}()")
                lines.append("        return self")
        for f in m.fns:
            lines += [""] * (1 + f.pad) + [f"def {f.name}(x=None):"]
            if f.doc:
                lines.append(f'    """{f.doc}"""')
            for mp, name in f.calls:
                lines.append(f"    {name}()" if mp.endswith(".py") or mp == m.path else "    pass")
            for e in m.ext[:1]:
                lines.append(f"    {e}.dumps(x)" if e == "json" else f"    {e}.getcwd()")
            lines.append("    return x")
        return "\n".join(lines) + "\n"

    def _render_ts(self, m: Mod) -> str:
        lines: list[str] = []
        imported: dict[str, set[str]] = {}
        for mp, name in self._targets(m):
            if mp != m.path and mp.endswith(".ts"):
                imported.setdefault(mp, set()).add(name)
        for mp in sorted(imported):
            lines.append(f"import {{ {', '.join(sorted(imported[mp]))} }} from '{ts_rel(m.path, mp)}';")
        for c in m.classes:
            ext = f" extends {c.base[1]}" if c.base and c.base[0].endswith(".ts") else ""
            lines.append(f"export class {c.name}{ext} {{")
            for f in c.methods:
                lines.append(f"  {f.name}(): number {{")
                for mp, name in f.calls:
                    if mp.endswith(".ts"):
                        lines.append(f"    {name}();")
                lines.append("    return 1;\n  }")
            lines.append("}")
        for f in m.fns:
            lines += [""] * f.pad
            if f.doc:
                lines.append(f"/** {f.doc} */")
            lines.append(f"export function {f.name}(x?: number): number {{")
            for mp, name in f.calls:
                if mp.endswith(".ts"):
                    lines.append(f"  {name}();")
            lines.append("  console.log(x);\n  return 0;\n}")
        return "\n".join(lines) + "\n"

    # --- random edits --------------------------------------------------------------------------
    def all_fns(self, lang: str | None = None) -> list[tuple[str, str]]:
        return [(m.path, f.name) for m in self.mods.values() for f in m.fns if lang is None or m.lang == lang]

    def all_classes(self, lang: str) -> list[tuple[str, str]]:
        return [(m.path, c.name) for m in self.mods.values() for c in m.classes if m.lang == lang]

    def _pick_mod(self, lang: str | None = None) -> Mod | None:
        ms = [m for m in self.mods.values() if lang is None or m.lang == lang]
        return self.rnd.choice(ms) if ms else None

    def _new_path(self, lang: str) -> str:
        d = self.rnd.choice(["pkg", "pkg/sub", "lib", "pkg/deep/er"] if lang == "py" else ["src", "src/util", "web"])
        return f"{d}/{self.fresh('m')}.{lang}"

    def step(self) -> str:
        """Apply one random edit; returns a description (the commit message)."""
        r = self.rnd
        if not self.mods or r.random() < 0.12:
            lang = "ts" if self.ts and r.random() < 0.35 else "py"
            path = self._new_path(lang)
            self.mods[path] = Mod(path, fns=[Fn(self.fresh("f"))])
            return f"add file {path}"
        m = self._pick_mod()
        assert m is not None
        op = r.choices(
            ["add_fn", "rm_fn", "rename_fn", "add_call", "rm_call", "add_class", "add_method", "rm_file",
             "mv_file", "doc", "pad", "ext", "rebase", "multi", "deps"],
            weights=[14, 7, 6, 16, 6, 10, 5, 3, 5, 4, 4, 3, 5, 3, 5],
        )[0]
        same = [t for t in self.all_fns(m.lang)] + [t for t in self.deleted if t[0].endswith("." + m.lang)]
        if op == "add_fn":
            m.fns.insert(r.randrange(len(m.fns) + 1), Fn(self.fresh("f"), calls=r.sample(same, min(len(same), r.randint(0, 2)))))
        elif op == "rm_fn" and m.fns:
            f = m.fns.pop(r.randrange(len(m.fns)))
            self.deleted.append((m.path, f.name))
        elif op == "rename_fn" and m.fns:
            f = r.choice(m.fns)
            old = f.name
            f.name = self.fresh("g")
            if r.random() < 0.5:  # callers follow the rename
                for mm in self.mods.values():
                    for ff in mm.fns + [x for c in mm.classes for x in c.methods]:
                        ff.calls = [(p, f.name if (p, n) == (m.path, old) else n) for p, n in ff.calls]
        elif op == "add_call" and same:
            hosts = m.fns + [x for c in m.classes for x in c.methods]
            if hosts:
                r.choice(hosts).calls.append(r.choice(same))
        elif op == "rm_call":
            hosts = [f for f in m.fns + [x for c in m.classes for x in c.methods] if f.calls]
            if hosts:
                h = r.choice(hosts)
                h.calls.pop(r.randrange(len(h.calls)))
        elif op == "add_class":
            bases = self.all_classes(m.lang)
            base = r.choice(bases) if bases and r.random() < 0.7 else None
            m.classes.append(Cls(self.fresh("C"), base=base, methods=[Fn(self.fresh("meth"))]))
        elif op == "add_method" and m.classes:
            r.choice(m.classes).methods.append(Fn(self.fresh("meth"), calls=r.sample(same, min(1, len(same)))))
        elif op == "rm_file" and len(self.mods) > 1:
            del self.mods[m.path]
            self.deleted += [(m.path, f.name) for f in m.fns]
        elif op == "mv_file":
            new = self._new_path(m.lang)
            del self.mods[m.path]
            old = m.path
            m.path = new
            self.mods[new] = m
            if r.random() < 0.7:  # importers follow the move
                for mm in self.mods.values():
                    for ff in mm.fns + [x for c in mm.classes for x in c.methods]:
                        ff.calls = [(new if p == old else p, n) for p, n in ff.calls]
                    for c in mm.classes:
                        if c.base and c.base[0] == old:
                            c.base = (new, c.base[1])
        elif op == "doc" and m.fns:
            r.choice(m.fns).doc = r.choice(["", "Compute it.", "Return the thing.", "Héllo wörld"])
        elif op == "pad" and m.fns:
            r.choice(m.fns).pad = r.randint(0, 3)
        elif op == "ext" and m.lang == "py":
            m.ext = [r.choice(["os", "json", "requests"])] if not m.ext else []
        elif op == "rebase":
            cls = [c for c in m.classes]
            bases = self.all_classes(m.lang)
            if cls and bases:
                r.choice(cls).base = r.choice(bases + [None])  # type: ignore[list-item]
        elif op == "deps":
            if r.random() < 0.6:
                name = r.choice(["requests", "attrs", "click", "rich"])
                if name in self.py_deps and r.random() < 0.4:
                    del self.py_deps[name]
                else:
                    self.py_deps[name] = r.choice([">=1.0", ">=2.0", "==2.31.0", ""])
            else:
                name = r.choice(["react", "dayjs", "lodash"])
                if name in self.npm_deps and r.random() < 0.4:
                    del self.npm_deps[name]
                    self.npm_locks.pop(name, None)
                else:
                    v = r.choice(["1.2.3", "2.0.0", "18.3.1"])
                    self.npm_deps[name] = "^" + v
                    self.npm_locks[name] = v
        elif op == "multi":
            for _ in range(r.randint(2, 4)):
                self.step()
        return op


class DocHistory:
    """Seeded documentation churn next to a History: README.md and docs/*.md|rst files get
    sections added, edited (citing the history's functions), renamed, deleted and re-added."""

    def __init__(self, seed: int) -> None:
        import random

        self.rnd = random.Random(seed * 7919 + 17)
        self.docs: dict[str, list[tuple[str, str]]] = {}  # path -> [(heading, text)]
        self.n = 0

    def _text(self, fns: list[tuple[str, str]]) -> str:
        self.n += 1
        words = " ".join(self.rnd.choice(["retry", "cart", "token", "delay", "loop", "cache", "user"]) for _ in range(8))
        cite = f" See `{self.rnd.choice(fns)[1]}`." if fns and self.rnd.random() < 0.6 else ""
        return f"Note {self.n}: {words}.{cite}"

    def step(self, fns: list[tuple[str, str]]) -> None:
        r = self.rnd
        if not self.docs:
            self.docs["README.md"] = [("Intro", self._text(fns))]
            return
        op = r.choice(["edit", "edit", "add_section", "add_doc", "rename", "delete", "none", "none"])
        path = r.choice(sorted(self.docs))
        secs = self.docs[path]
        if op == "edit":
            i = r.randrange(len(secs))
            secs[i] = (secs[i][0], self._text(fns))
        elif op == "add_section":
            secs.insert(r.randrange(len(secs) + 1), (f"Part {self.n}", self._text(fns)))
        elif op == "add_doc" or (op == "delete" and len(self.docs) == 1):
            new = r.choice(["README.md", "docs/guide.rst", "docs/api.md", f"docs/n{self.n}.rst"])
            if new not in self.docs:
                self.docs[new] = [("Overview", self._text(fns))]
        elif op == "rename":
            new = f"docs/moved{self.n}" + (".rst" if r.random() < 0.5 else ".md")
            self.n += 1
            if path.rsplit(".", 1)[-1] == new.rsplit(".", 1)[-1]:
                self.docs[new] = self.docs.pop(path)  # same format: a pure rename (git -M)
        elif op == "delete":
            del self.docs[path]

    def render(self) -> dict[str, str]:
        out = {}
        for path, secs in self.docs.items():
            title = path.rsplit("/", 1)[-1].split(".")[0].title()
            if path.endswith(".rst"):
                body = [f"{title}\n{'=' * len(title)}\n"] + [f"{h}\n{'-' * len(h)}\n\n{t}\n" for h, t in secs]
            else:
                body = [f"# {title}\n"] + [f"## {h}\n\n{t}\n" for h, t in secs]
            out[path] = "\n".join(body)
        return out
