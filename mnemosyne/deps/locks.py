"""Lockfiles -> (ecosystem, name, version) rows (pure; problems become warnings, never exceptions).

uv.lock and poetry.lock (TOML ``[[package]]``), package-lock.json (v1 ``dependencies``, v2/v3
``packages``), pnpm-lock.yaml (v5, v6, v9 ``packages:`` keys, read with a small line parser) and
yarn.lock (v1 and berry).
"""

from __future__ import annotations

import re
from typing import Any

from mnemosyne.deps.python import normalize
from mnemosyne.deps.reading import decode, load_json_object, load_toml

Row = tuple[str, str]  # (name, version)


def parse_toml_lock(path: str, data: bytes, warnings: list[str]) -> list[Row]:
    """uv.lock / poetry.lock: every ``[[package]]`` with a name and a version."""
    doc = load_toml(path, data, warnings)
    if doc is None:
        return []
    pkgs = doc.get("package", [])
    if not isinstance(pkgs, list):
        warnings.append(f"{path}: [[package]] should be an array of tables, ignored")
        return []
    rows: list[Row] = []
    bad = 0
    for p in pkgs:
        if not isinstance(p, dict):
            bad += 1
            continue
        source = p.get("source")
        if isinstance(source, dict):
            # the workspace's own projects: uv {editable|virtual|workspace = ...}, poetry directory
            if any(k in source for k in ("editable", "virtual", "workspace")) or source.get("type") == "directory":
                continue
        name, version = p.get("name"), p.get("version")
        if not isinstance(name, str) or not name:
            bad += 1
            continue
        if not isinstance(version, str) or not version:
            if isinstance(source, dict):  # a source without a version: nothing to lock
                continue
            bad += 1
            continue
        rows.append((normalize(name), version))
    if bad:
        warnings.append(f"{path}: {bad} [[package]] entr{'y' if bad == 1 else 'ies'} without a name or version")
    return rows


def _after_node_modules(key: str) -> str | None:
    i = key.rfind("node_modules/")
    if i < 0:
        return None
    return key[i + len("node_modules/"):] or None


def parse_package_lock(path: str, data: bytes, warnings: list[str]) -> list[Row]:
    doc = load_json_object(path, data, warnings)
    if doc is None:
        return []
    rows: list[Row] = []
    packages = doc.get("packages")
    if isinstance(packages, dict):  # lockfileVersion 2 and 3
        for key, entry in packages.items():
            name = _after_node_modules(key) if isinstance(key, str) else None
            if name is None or not isinstance(entry, dict) or entry.get("link"):
                continue  # "" is the root project, other non-node_modules keys are workspace folders
            version = entry.get("version")
            if isinstance(version, str) and version:
                rows.append((name, version))  # the name it is installed as (an alias keeps its alias)
        return rows
    deps = doc.get("dependencies")
    if isinstance(deps, dict):  # lockfileVersion 1: nested "dependencies"
        stack: list[dict[str, Any]] = [deps]
        while stack:
            level = stack.pop()
            for name, entry in level.items():
                if not isinstance(entry, dict):
                    continue
                version = entry.get("version")
                if isinstance(version, str) and version and not version.startswith("file:"):
                    rows.append((name, version))
                nested = entry.get("dependencies")
                if isinstance(nested, dict):
                    stack.append(nested)
        return rows
    if packages is not None or deps is not None:
        warnings.append(f"{path}: \"packages\"/\"dependencies\" should be objects, ignored")
    elif "lockfileVersion" not in doc:
        warnings.append(f"{path}: not an npm lockfile (no lockfileVersion), ignored")
    return rows


# pnpm keys: v6 "/name@1.2.3(peer@1)", v9 "name@1.2.3", "@scope/name@1.2.3"; v5 "/name/1.2.3_peer@1"
_PNPM_AT = re.compile(r"^(@[^/@]+/[^/@]+|[^/@]+)@([^(@/:][^(:]*)")
_PNPM_SLASH = re.compile(r"^(@[^/@]+/[^/@]+|[^/@]+)/(\d[^/_(]*)")


def pnpm_key(key: str) -> Row | None:
    k = key.strip().strip("'\"").strip()
    if k.startswith("/"):
        k = k[1:]
    m = _PNPM_AT.match(k) or _PNPM_SLASH.match(k)
    if m is None:
        return None
    version = m.group(2).strip()
    return (m.group(1), version) if version else None


def parse_pnpm_lock(path: str, data: bytes, warnings: list[str]) -> list[Row]:
    text = decode(path, data, warnings)
    if text is None:
        return []
    lines = text.splitlines()
    if not any(line.startswith("lockfileVersion") for line in lines[:20]):
        if text.strip():
            warnings.append(f"{path}: not a pnpm lockfile (no lockfileVersion), ignored")
        return []
    rows: list[Row] = []
    in_packages = False
    indent: int | None = None
    bad = 0
    for line in lines:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():  # a top-level key
            in_packages = line.rstrip() in ("packages:", "snapshots:")
            indent = None
            continue
        if not in_packages:
            continue
        stripped = line.lstrip(" ")
        depth = len(line) - len(stripped)
        if indent is None:
            indent = depth
        if depth != indent:
            continue  # a field of an entry
        key = stripped.rstrip()
        if not key.endswith(":") and ": " not in key:
            bad += 1
            continue
        key = key[:-1] if key.endswith(":") else key.split(": ", 1)[0]
        got = pnpm_key(key)
        if got is None:
            if not re.search(r"(?:link|file|github\.com|https?)[:/]", key):
                bad += 1
            continue
        rows.append(got)
    if bad:
        warnings.append(f"{path}: {bad} unreadable package key(s) in packages:")
    return rows


def _descriptor_name(desc: str) -> str | None:
    desc = desc.strip().strip('"').strip()
    at = desc.find("@", 1 if desc.startswith("@") else 0)
    if at <= 0:
        return None
    return desc[:at]


def parse_yarn_lock(path: str, data: bytes, warnings: list[str]) -> list[Row]:
    """yarn.lock v1 (``version "1.2.3"``) and berry (``version: 1.2.3``)."""
    text = decode(path, data, warnings)
    if text is None:
        return []
    rows: list[Row] = []
    current: str | None = None  # the entry being read
    skip = False
    headers = 0
    missing = 0
    bad = 0
    seen_version = False

    def close() -> None:
        nonlocal missing
        if current is not None and not seen_version and not skip:
            missing += 1

    for raw in text.splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if not raw[0].isspace():
            close()
            header = raw.rstrip()
            if not header.endswith(":"):
                bad += 1
                current, skip = None, True
                continue
            header = header[:-1]
            headers += 1
            seen_version = False
            if header.strip('"') == "__metadata":
                current, skip = "__metadata", True
                continue
            first = header.split(",")[0]
            name = _descriptor_name(first)
            skip = "@workspace:" in header or "@link:" in header or "@portal:" in header
            if name is None:
                bad += 1
                current, skip = None, True
                continue
            current = name
            continue
        if current is None or skip:
            continue
        line = raw.strip()
        if raw.startswith("  ") and not raw.startswith("   ") or raw.startswith("\t"):
            m = re.match(r'^version:?\s+"?([^"\s]+)"?\s*$', line)
            if m and not seen_version:
                rows.append((current, m.group(1)))
                seen_version = True
    close()
    if bad:
        warnings.append(f"{path}: {bad} unreadable entry header(s)")
    if missing:
        warnings.append(f"{path}: {missing} entr{'y' if missing == 1 else 'ies'} without a version")
    if headers == 0 and text.strip():
        warnings.append(f"{path}: no entries found, not a yarn lockfile?")
    return rows
