"""tsconfig.json / jsconfig.json / package.json reading for TypeScript module resolution.

Pure: the config files' bytes in, a ``ConfigModel`` out. tsconfig files are JSONC (comments,
trailing commas); ``extends`` with a relative path is followed (cycles and missing files are
ignored); ``baseUrl`` is relative to the config that declares it; ``paths`` are relative to
``baseUrl`` when set, else to the config that declares them (TypeScript 4.1+ semantics).
"""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass, field


def dirname(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else ""


def join(*parts: str) -> str:
    """``posixpath.normpath(posixpath.join(...))`` of the non-empty parts, '' for '.'."""
    p = posixpath.normpath(posixpath.join(*[x for x in parts if x]))
    return "" if p == "." else p


def loads_jsonc(data: bytes) -> object:
    """JSON with // and /* */ comments and trailing commas (what tsconfig allows)."""
    text = data.decode("utf-8", "replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        return json.loads(text)
    except ValueError:
        pass
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        else:
            out.append(c)
            i += 1
    cleaned = re.sub(r",(\s*[}\]])", r"\1", "".join(out))
    return json.loads(cleaned)


@dataclass
class TsOptions:
    base_url: str | None = None  # repo-relative dir
    paths: list[tuple[str, list[str], str]] = field(default_factory=list)  # (pattern, targets, base dir)


@dataclass
class Package:
    name: str
    dir: str
    data: dict


@dataclass
class ConfigModel:
    ts: dict[str, TsOptions] = field(default_factory=dict)  # config dir -> options
    packages: dict[str, Package] = field(default_factory=dict)  # npm name -> package
    warnings: list[str] = field(default_factory=list)

    def options_for(self, path: str) -> TsOptions | None:
        d = dirname(path)
        while True:
            o = self.ts.get(d)
            if o is not None:
                return o
            if not d:
                return None
            d = dirname(d)


PACKAGE_RESOLUTION_KEYS = ("source", "exports", "types", "typings", "module", "main")


def resolution_view(model: ConfigModel) -> tuple:
    """What module resolution reads from a config model (``package_entries``, ``package_subpath``,
    ``options_for``): equal views resolve every specifier alike, so a ``package.json`` edit that
    only bumps its version or dependencies re-resolves nothing."""
    return (
        sorted(model.ts.items()),
        sorted(
            (name, p.dir, repr([p.data.get(k) for k in PACKAGE_RESOLUTION_KEYS]))
            for name, p in model.packages.items()
        ),
    )


def build_config(files: dict[str, bytes]) -> ConfigModel:
    model = ConfigModel()
    parsed: dict[str, dict] = {}
    for path, data in files.items():
        try:
            obj = loads_jsonc(data)
        except (ValueError, RecursionError) as exc:
            model.warnings.append(f"{path}: unreadable JSON ({exc.__class__.__name__}); ignored")
            continue
        if isinstance(obj, dict):
            parsed[path] = obj
    for path, obj in sorted(parsed.items()):
        base = path.rsplit("/", 1)[-1]
        if base == "package.json":
            name = obj.get("name")
            if isinstance(name, str) and name and name not in model.packages:
                model.packages[name] = Package(name=name, dir=dirname(path), data=obj)
    ts_by_dir: dict[str, str] = {}
    for path in sorted(parsed):
        base = path.rsplit("/", 1)[-1]
        if base == "tsconfig.json" or (base == "jsconfig.json" and dirname(path) not in ts_by_dir):
            ts_by_dir[dirname(path)] = path
    for d, path in ts_by_dir.items():
        model.ts[d] = _effective(path, parsed, set())
    return model


def _effective(path: str, parsed: dict[str, dict], seen: set[str]) -> TsOptions:
    seen.add(path)
    obj = parsed.get(path, {})
    opts = TsOptions()
    ext = obj.get("extends")
    exts = ext if isinstance(ext, list) else [ext] if isinstance(ext, str) else []
    for e in exts:
        if not isinstance(e, str) or not e.startswith("."):
            continue  # package-based extends (node_modules) are not in the repository
        target = join(dirname(path), e)
        if not target.endswith(".json"):
            target = target + ".json" if target + ".json" in parsed else join(target, "tsconfig.json")
        if target in parsed and target not in seen:
            parent = _effective(target, parsed, seen)
            if parent.base_url is not None:
                opts.base_url = parent.base_url
            if parent.paths:
                opts.paths = parent.paths
    co = obj.get("compilerOptions")
    if isinstance(co, dict):
        bu = co.get("baseUrl")
        if isinstance(bu, str):
            opts.base_url = join(dirname(path), bu)
        paths = co.get("paths")
        if isinstance(paths, dict):
            base = opts.base_url if opts.base_url is not None else dirname(path)
            opts.paths = [
                (k, [t for t in v if isinstance(t, str)], base)
                for k, v in paths.items()
                if isinstance(k, str) and isinstance(v, list)
            ]
        elif opts.paths and isinstance(bu, str):
            # inherited paths resolve against the (new) baseUrl
            opts.paths = [(k, v, opts.base_url or b) for k, v, b in opts.paths]
    return opts


def package_entries(pkg: Package) -> list[str]:
    """Candidate entry files (repo-relative, maybe without extension) of an in-repo package."""
    d = pkg.data
    out: list[str] = []

    def add(v: object) -> None:
        if isinstance(v, str) and v:
            out.append(join(pkg.dir, v))

    add(d.get("source"))
    exp = d.get("exports")
    if isinstance(exp, dict) and "." in exp:
        exp = exp["."]
    _add_condition(exp, add)
    add(d.get("types"))
    add(d.get("typings"))
    add(d.get("module"))
    add(d.get("main"))
    out.append(join(pkg.dir, "src/index"))
    out.append(join(pkg.dir, "index"))
    return out


def package_subpath(pkg: Package, sub: str) -> list[str]:
    exp = pkg.data.get("exports")
    out: list[str] = []
    if isinstance(exp, dict):
        for key in ("./" + sub,):
            if key in exp:
                _add_condition(exp[key], lambda v: out.append(join(pkg.dir, v)) if isinstance(v, str) else None)
        for key, val in exp.items():
            if isinstance(key, str) and key.endswith("/*") and ("./" + sub).startswith(key[:-1]):
                rest = ("./" + sub)[len(key) - 1 :]

                def add(v: object, rest: str = rest) -> None:
                    if isinstance(v, str) and "*" in v:
                        out.append(join(pkg.dir, v.replace("*", rest)))

                _add_condition(val, add)
    out.append(join(pkg.dir, sub))
    out.append(join(pkg.dir, "src", sub))
    return out


def _add_condition(v: object, add, depth: int = 0) -> None:
    if depth > 8:
        return
    if isinstance(v, str):
        add(v)
    elif isinstance(v, dict):
        for k in ("source", "types", "import", "module", "default", "require", "node"):
            if k in v:
                _add_condition(v[k], add, depth + 1)
    elif isinstance(v, list):
        for x in v:
            _add_condition(x, add, depth + 1)
