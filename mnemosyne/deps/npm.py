"""package.json (pure: bytes in, rows out; problems become warnings)."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

from mnemosyne.deps.reading import load_json_object

SECTIONS = (
    ("dependencies", "runtime"),
    ("devDependencies", "dev"),
    ("peerDependencies", "peer"),
    ("optionalDependencies", "optional"),
)


@dataclass(slots=True)
class NpmManifest:
    path: str
    folder: str
    name: str | None = None
    deps: list[tuple[str, str, str]] = field(default_factory=list)  # (name, spec, scope)
    workspaces: list[str] = field(default_factory=list)
    has_content: bool = False
    ok: bool = False


def parse_package_json(path: str, data: bytes, warnings: list[str]) -> NpmManifest:
    m = NpmManifest(path, posixpath.dirname(path))
    doc = load_json_object(path, data, warnings)
    if doc is None:
        return m
    m.ok = True
    name = doc.get("name")
    if name is not None and not isinstance(name, str):
        warnings.append(f"{path}: \"name\" should be a string")
        name = None
    m.name = name or None
    for key, scope in SECTIONS:
        section = doc.get(key)
        if section is None:
            continue
        if not isinstance(section, dict):
            warnings.append(f"{path}: \"{key}\" should be an object of name -> version")
            continue
        for dep, spec in section.items():
            if not isinstance(spec, str):
                warnings.append(f"{path}: \"{key}\".{dep} should be a version string")
                spec = ""
            m.deps.append((dep, spec, scope))
    ws = doc.get("workspaces")
    if isinstance(ws, dict):  # yarn classic {"packages": [...], "nohoist": [...]}
        ws = ws.get("packages")
    if isinstance(ws, list):
        m.workspaces = [w for w in ws if isinstance(w, str)]
    elif ws is not None:
        warnings.append(f"{path}: \"workspaces\" should be a list of folder globs")
    m.has_content = bool(m.name or m.deps or m.workspaces)
    return m
