"""Python manifests: pyproject.toml, setup.cfg, requirements*.txt (pure: bytes in, rows out).

Each reader returns plain rows; ``mnemosyne.deps`` decides which Package they belong to.
A reader never raises on bad input: problems go to the ``warnings`` list as ``"<path>: <problem>"``.
"""

from __future__ import annotations

import configparser
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mnemosyne.deps.reading import decode, load_toml

_NORM_RE = re.compile(r"[-_.]+")
# PEP 508: a name, optional [extras], then version spec / url / markers
_REQ_RE = re.compile(
    r"""^\s*
    (?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)
    \s*(?:\[(?P<extras>[^\]]*)\])?
    \s*(?P<rest>.*)$""",
    re.X,
)
_EGG_RE = re.compile(r"#egg=([A-Za-z0-9][A-Za-z0-9._-]*)")
_COMMENT_RE = re.compile(r"(^|\s)#.*$")
_HASH_OPT_RE = re.compile(r"\s--?[A-Za-z][\w-]*(?:[=\s]\S+)?")

DEV_WORDS = frozenset({"dev", "develop", "development", "test", "tests", "testing", "lint", "linting",
                       "docs", "doc", "ci", "typing", "types", "mypy", "check", "qa", "bench"})


def normalize(name: str) -> str:
    """PEP 503 normalised distribution name."""
    return _NORM_RE.sub("-", name).lower()


@dataclass(slots=True)
class Req:
    name: str  # normalised
    spec: str
    scope: str
    source: str


@dataclass(slots=True)
class PyManifest:
    """What one pyproject.toml or setup.cfg says."""

    path: str
    folder: str
    name: str | None = None
    reqs: list[Req] = field(default_factory=list)
    has_content: bool = False  # declares a package or dependencies


def parse_pep508(text: str) -> tuple[str, str] | None:
    """'requests[socks]>=2 ; python_version<"3.12"' -> ('requests', '>=2'); None if not a requirement."""
    text = text.strip()
    if not text:
        return None
    text = text.split(";", 1)[0].strip()  # environment markers
    m = _REQ_RE.match(text)
    if m is None:
        return None
    rest = m.group("rest").strip()
    if rest.startswith("@"):
        spec = rest  # direct reference: keep "@ url"
    else:
        if rest.startswith("(") and rest.endswith(")"):
            rest = rest[1:-1].strip()
        if rest and not re.match(r"^(?:[<>=!~]=?|===?)\s*[\w.*+!-]", rest):
            return None
        spec = re.sub(r"\s+", "", rest)
    return normalize(m.group("name")), spec


def requirements_scope(path: str) -> str:
    """requirements-dev.txt / requirements/test.txt / docs/requirements.txt -> 'dev' (a folder
    named by one of ``DEV_WORDS`` on the path: what documentation or tests need, not the
    package); requirements.txt -> 'runtime'."""
    base = posixpath.basename(path)
    stem = base[:-4] if base.endswith(".txt") else base
    parent = posixpath.basename(posixpath.dirname(path))
    words = set(re.split(r"[-_.\s]+", stem.lower()))
    if parent == "requirements":
        words |= {stem.lower()}
    words.discard("requirements")
    folders = {d.lower().lstrip(".") for d in posixpath.dirname(path).split("/") if d}
    if words & DEV_WORDS or folders & DEV_WORDS:
        return "dev"
    if "build" in words:
        return "build"
    return "runtime"


def requirements_folder(path: str) -> str:
    """The folder whose Package a requirements file belongs to (``requirements/x.txt`` -> its parent)."""
    folder = posixpath.dirname(path)
    if posixpath.basename(folder) == "requirements":
        folder = posixpath.dirname(folder)
    return folder


@dataclass(slots=True)
class ReqFile:
    path: str
    reqs: list[Req] = field(default_factory=list)
    includes: list[str] = field(default_factory=list)  # repo-relative paths of -r targets


def _logical_lines(text: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    buf = ""
    start = 0
    for i, raw in enumerate(text.splitlines(), 1):
        if not buf:
            start = i
        line = raw.rstrip()
        if line.endswith("\\"):
            buf += line[:-1] + " "
            continue
        buf += line
        out.append((start, buf))
        buf = ""
    if buf:
        out.append((start, buf))
    return out


def parse_requirements(path: str, data: bytes, warnings: list[str]) -> ReqFile:
    out = ReqFile(path)
    text = decode(path, data, warnings)
    if text is None:
        return out
    scope = requirements_scope(path)
    folder = posixpath.dirname(path)
    bad: list[int] = []
    for lineno, line in _logical_lines(text):
        line = _COMMENT_RE.sub("", line).strip()
        if not line:
            continue
        if line.startswith("-"):
            m = re.match(r"^(?:-r|--requirement)(?:\s*=\s*|\s+|(?=\S))(\S+)", line)
            if m:
                out.includes.append(posixpath.normpath(posixpath.join(folder, m.group(1))))
            continue  # -e, -c, -i, --index-url, --hash, ... : options, not dependencies
        line = _HASH_OPT_RE.sub("", " " + line).strip()  # per-requirement options (--hash=...)
        if re.match(r"^(?:[a-z][a-z0-9+.-]*://|[a-z]+\+[a-z]+:|\.{0,2}/|[A-Za-z]:\\)", line):
            egg = _EGG_RE.search(line)  # a URL or a local path: only named through #egg=
            if egg:
                out.reqs.append(Req(normalize(egg.group(1)), line.split("#", 1)[0], scope, path))
            continue
        parsed = parse_pep508(line)
        if parsed is None:
            bad.append(lineno)
            continue
        out.reqs.append(Req(parsed[0], parsed[1], scope, path))
    if bad:
        shown = ", ".join(map(str, bad[:5])) + (" ..." if len(bad) > 5 else "")
        warnings.append(f"{path}: unparseable requirement on line(s) {shown}")
    return out


def _str_list(path: str, where: str, value: Any, warnings: list[str]) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list):
        warnings.append(f"{path}: {where} should be a list of requirement strings")
        return []
    items = []
    for v in value:
        if isinstance(v, str):
            items.append(v)
        elif isinstance(v, dict) and "include-group" in v:
            continue  # PEP 735 group include: its members are read with the group itself
        else:
            warnings.append(f"{path}: {where} has a non-string entry {v!r}")
    return items


def _add_pep508(m: PyManifest, strings: list[str], scope: str, where: str, warnings: list[str]) -> None:
    for s in strings:
        parsed = parse_pep508(s)
        if parsed is None:
            warnings.append(f"{m.path}: {where}: unparseable requirement {s!r}")
            continue
        m.reqs.append(Req(parsed[0], parsed[1], scope, m.path))
        m.has_content = True


def _group_scope(group: str) -> str:
    return "runtime" if group in ("main", "default") else "dev"


def _poetry_spec(value: Any) -> tuple[str, bool] | None:
    """Poetry dependency value -> (spec, optional)."""
    if isinstance(value, str):
        return value, False
    if isinstance(value, dict):
        optional = bool(value.get("optional", False))
        for key in ("version", "git", "path", "url"):
            if isinstance(value.get(key), str):
                spec = value[key] if key == "version" else f"{key}+{value[key]}"
                return spec, optional
        return "", optional
    if isinstance(value, list):  # multiple constraints by marker
        specs = [s for v in value if (s := _poetry_spec(v))]
        if specs:
            return " || ".join(sorted({s[0] for s in specs})), all(s[1] for s in specs)
        return "", False
    return None


def _add_poetry(m: PyManifest, table: Any, scope: str, where: str, warnings: list[str]) -> None:
    if table is None:
        return
    if not isinstance(table, dict):
        warnings.append(f"{m.path}: {where} should be a table")
        return
    for name, value in table.items():
        if name.lower() == "python":
            continue
        got = _poetry_spec(value)
        if got is None:
            warnings.append(f"{m.path}: {where}.{name} has an unreadable value")
            continue
        spec, optional = got
        m.reqs.append(Req(normalize(name), spec, "optional" if optional and scope == "runtime" else scope, m.path))
        m.has_content = True


def parse_pyproject(path: str, data: bytes, warnings: list[str]) -> PyManifest:
    m = PyManifest(path, posixpath.dirname(path))
    doc = load_toml(path, data, warnings)
    if doc is None:
        return m

    def table(d: Any, key: str) -> dict[str, Any]:
        v = d.get(key) if isinstance(d, dict) else None
        if v is None:
            return {}
        if not isinstance(v, dict):
            warnings.append(f"{path}: [{key}] should be a table")
            return {}
        return v

    project = table(doc, "project")
    tool = table(doc, "tool")
    poetry = table(tool, "poetry")
    name = project.get("name") or poetry.get("name")
    if name is not None and not isinstance(name, str):
        warnings.append(f"{path}: package name should be a string")
        name = None
    m.name = name
    m.has_content = bool(name)
    own = normalize(name) if name else None

    _add_pep508(m, _str_list(path, "[project].dependencies", project.get("dependencies"), warnings),
                "runtime", "[project].dependencies", warnings)
    extras = project.get("optional-dependencies") or {}
    if not isinstance(extras, dict):
        warnings.append(f"{path}: [project.optional-dependencies] should be a table")
        extras = {}
    for extra, reqs in sorted(extras.items()):
        where = f"[project.optional-dependencies].{extra}"
        strings = _str_list(path, where, reqs, warnings)
        # "mypkg[test]" self-references add nothing new
        strings = [s for s in strings if not (own and (p := parse_pep508(s)) and p[0] == own)]
        _add_pep508(m, strings, "optional", where, warnings)
    groups = table(doc, "dependency-groups")
    for group, reqs in sorted(groups.items()):
        where = f"[dependency-groups].{group}"
        _add_pep508(m, _str_list(path, where, reqs, warnings), _group_scope(group), where, warnings)
    uv = table(tool, "uv")
    _add_pep508(m, _str_list(path, "[tool.uv].dev-dependencies", uv.get("dev-dependencies"), warnings),
                "dev", "[tool.uv].dev-dependencies", warnings)
    pdm = table(tool, "pdm")
    for group, reqs in sorted(table(pdm, "dev-dependencies").items()):
        where = f"[tool.pdm.dev-dependencies].{group}"
        _add_pep508(m, _str_list(path, where, reqs, warnings), "dev", where, warnings)
    build = table(doc, "build-system")
    _add_pep508(m, _str_list(path, "[build-system].requires", build.get("requires"), warnings),
                "build", "[build-system].requires", warnings)

    _add_poetry(m, poetry.get("dependencies"), "runtime", "[tool.poetry.dependencies]", warnings)
    _add_poetry(m, poetry.get("dev-dependencies"), "dev", "[tool.poetry.dev-dependencies]", warnings)
    pgroups = poetry.get("group") or {}
    if not isinstance(pgroups, dict):
        warnings.append(f"{path}: [tool.poetry.group] should be a table")
        pgroups = {}
    for group, body in sorted(pgroups.items()):
        deps = body.get("dependencies") if isinstance(body, dict) else None
        _add_poetry(m, deps, _group_scope(group), f"[tool.poetry.group.{group}.dependencies]", warnings)
    return m


def _cfg_lines(value: str) -> list[str]:
    out = []
    for line in value.splitlines():
        line = _COMMENT_RE.sub("", line).strip()
        if line:
            out.append(line)
    return out


def parse_setup_cfg(path: str, data: bytes, warnings: list[str]) -> PyManifest:
    m = PyManifest(path, posixpath.dirname(path))
    cp = configparser.RawConfigParser(strict=False)
    text = decode(path, data, warnings)
    if text is None:
        return m
    try:
        cp.read_string(text, source=path)
    except configparser.Error as e:
        msg = str(e).splitlines()[0]
        warnings.append(f"{path}: invalid setup.cfg ({msg}), ignored")
        return m
    if cp.has_option("metadata", "name"):
        name = cp.get("metadata", "name").strip()
        if name:
            m.name = name
            m.has_content = True

    def add(section: str, option: str, scope: str) -> None:
        if not cp.has_option(section, option):
            return
        value = cp.get(section, option)
        lines = _cfg_lines(value)
        if len(lines) == 1 and ";" in lines[0] and not re.search(r";\s*\w+\s*[<>=!]", lines[0]):
            lines = [s.strip() for s in lines[0].split(";") if s.strip()]
        if lines and lines[0].startswith("file:"):
            warnings.append(f"{path}: [{section}] {option} reads {lines[0]!r}, not followed")
            return
        _add_pep508(m, lines, scope, f"[{section}] {option}", warnings)

    add("options", "install_requires", "runtime")
    add("options", "setup_requires", "build")
    add("options", "tests_require", "dev")
    if cp.has_section("options.extras_require"):
        for extra in sorted(cp.options("options.extras_require")):
            add("options.extras_require", extra, "optional")
    return m


def resolve_includes(
    files: Mapping[str, ReqFile], start: str, warnings: list[str]
) -> list[str]:
    """All files reachable from ``start`` through -r (cycle-safe), in visit order, excluding start."""
    seen = {start}
    order: list[str] = []
    stack = list(reversed(files[start].includes))
    while stack:
        target = stack.pop()
        if target in seen:
            continue
        seen.add(target)
        if target not in files:
            warnings.append(f"{start}: -r {target} is not among the manifests, not followed")
            continue
        order.append(target)
        stack.extend(reversed(files[target].includes))
    return order
