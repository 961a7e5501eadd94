"""Manifests and lockfiles -> Package, DEPENDS_ON and LOCKS_VERSION facts (docs/schema.md).

Pure: bytes in, facts out. No exception escapes for bad input; every malformed file becomes a
warning ``"<path>: <problem>"`` in ``PackageFacts.warnings``. Output is sorted and deduplicated,
so the same manifests always give equal facts.

Packages
  * Python: a pyproject.toml with ``[project].name`` or ``[tool.poetry].name``, or a setup.cfg with
    ``[metadata] name`` (pyproject wins when a folder has both). The Package name is kept as
    declared; dependency names are PEP 503-normalised.
  * npm: every package.json with a name (each workspace of a monorepo is its own Package, its
    path the workspace folder).
  * A manifest that declares dependencies but no name (a private monorepo root, a
    requirements-only project, a lockfile without its manifest) gets a Package named after its
    folder (``root`` for the repository root).
Which Package a file belongs to
  * pyproject.toml / setup.cfg / package.json: the package at its folder;
  * requirements*.txt: the Python package at its folder (``requirements/x.txt``: the parent folder
    of ``requirements/``); ``-r`` includes of files given here are followed, and an included file of
    another package adds its requirements to the including package too;
  * lockfiles: the package of the same ecosystem at its folder, else the nearest ancestor one.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping

from mnemosyne.deps.locks import parse_package_lock, parse_pnpm_lock, parse_toml_lock, parse_yarn_lock
from mnemosyne.deps.npm import parse_package_json
from mnemosyne.deps.python import (
    PyManifest,
    Req,
    ReqFile,
    normalize,
    parse_pyproject,
    parse_requirements,
    parse_setup_cfg,
    requirements_folder,
    requirements_scope,
    resolve_includes,
)
from mnemosyne.facts import Dependency, LockedVersion, PackageFact, PackageFacts

__all__ = ["is_manifest", "extract_packages"]

_MANIFEST_NAMES = frozenset({"pyproject.toml", "setup.cfg", "package.json"})
_PY_LOCKS = frozenset({"uv.lock", "poetry.lock"})
_NPM_LOCKS = frozenset({"package-lock.json", "pnpm-lock.yaml", "yarn.lock"})


def _is_requirements(path: str) -> bool:
    base = posixpath.basename(path)
    if not base.endswith(".txt"):
        return False
    return base.startswith("requirements") or posixpath.basename(posixpath.dirname(path)) == "requirements"


def is_manifest(path: str) -> bool:
    """True for the manifest and lockfile paths this module reads (anywhere but under node_modules/)."""
    path = path.replace("\\", "/")
    if "node_modules" in path.split("/"):
        return False
    base = posixpath.basename(path)
    return base in _MANIFEST_NAMES or base in _PY_LOCKS or base in _NPM_LOCKS or _is_requirements(path)


def _folder_name(folder: str) -> str:
    return posixpath.basename(folder) or "root"


def extract_packages(manifests: Mapping[str, bytes]) -> PackageFacts:
    """All Package, Dependency and LockedVersion facts of the given manifest files."""
    warnings: list[str] = []
    files = {p.replace("\\", "/"): d for p, d in manifests.items() if is_manifest(p) and d is not None}
    packages: dict[tuple[str, str], PackageFact] = {}  # (folder, ecosystem) -> fact
    deps: set[Dependency] = set()
    locks: set[LockedVersion] = set()

    def ensure(folder: str, eco: str, manifest: str, name: str | None = None) -> PackageFact:
        key = (folder, eco)
        if key not in packages:
            packages[key] = PackageFact(folder, name or _folder_name(folder), eco, manifest)  # type: ignore[arg-type]
        return packages[key]

    # --- Python: pyproject.toml first, then setup.cfg of folders without a named pyproject -----
    py: dict[str, list[PyManifest]] = {}
    for path in sorted(files):
        base = posixpath.basename(path)
        if base == "pyproject.toml":
            py.setdefault(posixpath.dirname(path), []).insert(0, parse_pyproject(path, files[path], warnings))
        elif base == "setup.cfg":
            py.setdefault(posixpath.dirname(path), []).append(parse_setup_cfg(path, files[path], warnings))
    for folder, ms in sorted(py.items()):
        named = [m for m in ms if m.name]
        if named:
            ensure(folder, "pypi", named[0].path, named[0].name)
        elif any(m.reqs for m in ms):
            ensure(folder, "pypi", ms[0].path)
        pkg = packages.get((folder, "pypi"))
        if pkg is None:
            continue
        own = normalize(pkg.name)
        for m in ms:
            for r in m.reqs:
                if r.name != own:
                    deps.add(Dependency(folder, "pypi", r.name, r.spec, r.scope, r.source))

    # --- npm: package.json -----------------------------------------------------------------------
    for path in sorted(p for p in files if posixpath.basename(p) == "package.json"):
        manifest = parse_package_json(path, files[path], warnings)
        if not manifest.has_content:
            continue
        pkg = ensure(manifest.folder, "npm", path, manifest.name)
        for name, spec, scope in manifest.deps:
            if name != pkg.name:
                deps.add(Dependency(manifest.folder, "npm", name, spec, scope, path))

    # --- requirements*.txt -----------------------------------------------------------------------
    reqfiles: dict[str, ReqFile] = {
        p: parse_requirements(p, files[p], warnings) for p in sorted(files) if _is_requirements(p)
    }
    for path, rf in reqfiles.items():
        folder = requirements_folder(path)
        pkg = ensure(folder, "pypi", path)
        own = normalize(pkg.name)
        rows = list(rf.reqs)
        scope = requirements_scope(path)
        for inc in resolve_includes(reqfiles, path, warnings):
            if requirements_folder(inc) != folder:  # same package: counted when that file is read
                rows.extend(Req(r.name, r.spec, scope, r.source) for r in reqfiles[inc].reqs)
        for r in rows:
            if r.name != own:
                deps.add(Dependency(folder, "pypi", r.name, r.spec, r.scope, r.source))

    # --- lockfiles -------------------------------------------------------------------------------
    for path in sorted(files):
        base = posixpath.basename(path)
        if base in _PY_LOCKS:
            eco, locked = "pypi", parse_toml_lock(path, files[path], warnings)
        elif base == "package-lock.json":
            eco, locked = "npm", parse_package_lock(path, files[path], warnings)
        elif base == "pnpm-lock.yaml":
            eco, locked = "npm", parse_pnpm_lock(path, files[path], warnings)
        elif base == "yarn.lock":
            eco, locked = "npm", parse_yarn_lock(path, files[path], warnings)
        else:
            continue
        owner = _owner_folder(posixpath.dirname(path), eco, packages)
        if owner is None:
            owner = posixpath.dirname(path)
            ensure(owner, eco, path)
        for name, version in locked:
            locks.add(LockedVersion(owner, eco, name, version, path))

    return PackageFacts(
        packages=sorted(packages.values(), key=lambda p: (p.path, p.ecosystem, p.name, p.manifest)),
        dependencies=sorted(deps, key=lambda d: (d.package, d.ecosystem, d.name, d.scope, d.spec, d.source)),
        locks=sorted(locks, key=lambda v: (v.package, v.ecosystem, v.name, v.version, v.source)),
        warnings=sorted(set(warnings)),
    )


def _owner_folder(folder: str, eco: str, packages: Mapping[tuple[str, str], PackageFact]) -> str | None:
    """The nearest folder at or above ``folder`` holding a package of ``eco``."""
    while True:
        if (folder, eco) in packages:
            return folder
        if not folder:
            return None
        folder = posixpath.dirname(folder)
