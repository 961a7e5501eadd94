"""Manifests -> Package / Dependency facts (mnemosyne.deps), with realistic inline fixtures."""

from __future__ import annotations

from mnemosyne.deps import extract_packages, is_manifest
from mnemosyne.facts import Dependency, PackageFact


def deps_of(facts, package="", ecosystem=None):
    return {
        (d.name, d.spec, d.scope)
        for d in facts.dependencies
        if d.package == package and (ecosystem is None or d.ecosystem == ecosystem)
    }


def b(text: str) -> bytes:
    return text.encode()


def test_is_manifest():
    yes = [
        "pyproject.toml", "svc/api/pyproject.toml", "requirements.txt", "requirements-dev.txt",
        "requirements_test.txt", "requirements/base.txt", "deploy/requirements/prod.txt", "setup.cfg",
        "package.json", "apps/web/package.json", "uv.lock", "poetry.lock", "package-lock.json",
        "pnpm-lock.yaml", "yarn.lock", "a/b/c/yarn.lock",
    ]
    no = [
        "node_modules/react/package.json", "apps/web/node_modules/@x/y/package.json",
        "node_modules/pkg/requirements.txt", "setup.py", "README.md", "requirements.in",
        "docs/requirements.md", "src/package.json5", "tsconfig.json", "notes.txt", "Pipfile",
        "mypyproject.toml", "pyproject.toml.bak",
    ]
    for p in yes:
        assert is_manifest(p), p
    for p in no:
        assert not is_manifest(p), p


PEP621 = """\
[build-system]
requires = ["setuptools>=68", "wheel"]
build-backend = "setuptools.build_meta"

[project]
name = "Shop_Core"
version = "1.4.0"
requires-python = ">=3.11"
dependencies = [
    "requests[socks]>=2.31,<3 ; python_version >= '3.8'",
    "Pydantic ~= 2.7",
    "typing_extensions",
    "attrs (>=23.1)",
    "mylib @ https://example.com/mylib-1.0.tar.gz",
]

[project.optional-dependencies]
postgres = ["psycopg[binary]>=3.1"]
all = ["shop-core[postgres]"]

[dependency-groups]
dev = ["pytest>=8", "ruff==0.5.0", {include-group = "typing"}]
typing = ["mypy>=1.10"]

[tool.uv]
dev-dependencies = ["pre_commit>=3"]

[tool.ruff]
line-length = 100
"""


def test_pyproject_pep621_all_sections():
    facts = extract_packages({"pyproject.toml": b(PEP621)})
    assert facts.packages == [PackageFact("", "Shop_Core", "pypi", "pyproject.toml")]
    assert deps_of(facts) == {
        ("requests", ">=2.31,<3", "runtime"),
        ("pydantic", "~=2.7", "runtime"),
        ("typing-extensions", "", "runtime"),
        ("attrs", ">=23.1", "runtime"),
        ("mylib", "@ https://example.com/mylib-1.0.tar.gz", "runtime"),
        ("psycopg", ">=3.1", "optional"),
        ("pytest", ">=8", "dev"),
        ("ruff", "==0.5.0", "dev"),
        ("mypy", ">=1.10", "dev"),
        ("pre-commit", ">=3", "dev"),
        ("setuptools", ">=68", "build"),
        ("wheel", "", "build"),
    }
    assert facts.warnings == []
    assert all(d.source == "pyproject.toml" and d.ecosystem == "pypi" for d in facts.dependencies)


POETRY = """\
[tool.poetry]
name = "billing"
version = "0.3.0"
description = "Billing service"

[tool.poetry.dependencies]
python = "^3.11"
Flask = "^3.0"
sqlalchemy = {version = "^2.0", extras = ["asyncio"]}
boto3 = {version = "^1.34", optional = true}
internal-utils = {path = "../utils", develop = true}
numpy = [
    {version = "^1.26", python = "<3.13"},
    {version = "^2.0", python = ">=3.13"},
]

[tool.poetry.group.dev.dependencies]
pytest = "^8.2"
Black = "24.4.2"

[tool.poetry.group.docs.dependencies]
mkdocs = "*"

[tool.poetry.extras]
aws = ["boto3"]

[build-system]
requires = ["poetry-core>=1.0.0"]
build-backend = "poetry.core.masonry.api"
"""


def test_pyproject_poetry():
    facts = extract_packages({"services/billing/pyproject.toml": b(POETRY)})
    assert facts.packages == [PackageFact("services/billing", "billing", "pypi", "services/billing/pyproject.toml")]
    assert deps_of(facts, "services/billing") == {
        ("flask", "^3.0", "runtime"),
        ("sqlalchemy", "^2.0", "runtime"),
        ("boto3", "^1.34", "optional"),
        ("internal-utils", "path+../utils", "runtime"),
        ("numpy", "^1.26 || ^2.0", "runtime"),
        ("pytest", "^8.2", "dev"),
        ("black", "24.4.2", "dev"),
        ("mkdocs", "*", "dev"),
        ("poetry-core", ">=1.0.0", "build"),
    }
    assert facts.warnings == []


SETUP_CFG = """\
[metadata]
name = legacy-tool
version = 2.1

[options]
packages = find:
install_requires =
    click>=8.0
    # a comment inside the list
    colorama; platform_system == "Windows"
    PyYAML>=6
setup_requires = setuptools_scm
tests_require =
    pytest

[options.extras_require]
yaml =
    ruamel.yaml>=0.17
docs = sphinx
"""


def test_setup_cfg():
    facts = extract_packages({"tools/legacy/setup.cfg": b(SETUP_CFG)})
    assert facts.packages == [PackageFact("tools/legacy", "legacy-tool", "pypi", "tools/legacy/setup.cfg")]
    assert deps_of(facts, "tools/legacy") == {
        ("click", ">=8.0", "runtime"),
        ("colorama", "", "runtime"),
        ("pyyaml", ">=6", "runtime"),
        ("setuptools-scm", "", "build"),
        ("pytest", "", "dev"),
        ("ruamel-yaml", ">=0.17", "optional"),
        ("sphinx", "", "optional"),
    }
    assert facts.warnings == []


def test_pyproject_name_wins_over_setup_cfg_and_both_contribute():
    pyproject = '[build-system]\nrequires = ["setuptools>=61"]\n[project]\nname = "combo"\ndependencies = ["rich"]\n'
    facts = extract_packages({"pyproject.toml": b(pyproject), "setup.cfg": b(SETUP_CFG)})
    assert [p.name for p in facts.packages] == ["combo"]
    assert ("rich", "", "runtime") in deps_of(facts)
    assert ("click", ">=8.0", "runtime") in deps_of(facts)


REQS = """\
# Runtime requirements, pinned by pip-compile
--index-url https://pypi.org/simple
--extra-index-url https://mirror.example.com/simple

Django==5.0.6 \\
    --hash=sha256:aaaa \\
    --hash=sha256:bbbb
celery[redis]>=5.3 ; python_version >= "3.9"   # task queue
-e ./libs/shared
-e git+https://github.com/acme/tool.git#egg=acme-tool
git+https://github.com/acme/other.git@v1#egg=Acme_Other
./vendor/localpkg
gunicorn
zope.interface>=6
-c constraints.txt
"""

REQS_DEV = """\
-r requirements.txt
--requirement=requirements/lint.txt
pytest==8.2.0
pytest-django>=4.8
"""

LINT = """\
ruff==0.4.8
"""


def test_requirements_files_attach_to_folder_package():
    facts = extract_packages({
        "requirements.txt": b(REQS),
        "requirements-dev.txt": b(REQS_DEV),
        "requirements/lint.txt": b(LINT),
    })
    # no pyproject: a Package named after the folder ('root' for the repository root)
    assert facts.packages == [PackageFact("", "root", "pypi", "requirements-dev.txt")]
    assert deps_of(facts) == {
        ("django", "==5.0.6", "runtime"),
        ("celery", ">=5.3", "runtime"),
        ("acme-other", "git+https://github.com/acme/other.git@v1", "runtime"),
        ("gunicorn", "", "runtime"),
        ("zope-interface", ">=6", "runtime"),
        ("pytest", "==8.2.0", "dev"),
        ("pytest-django", ">=4.8", "dev"),
        ("ruff", "==0.4.8", "dev"),
    }
    assert facts.warnings == []
    sources = {d.name: d.source for d in facts.dependencies}
    assert sources["django"] == "requirements.txt"
    assert sources["ruff"] == "requirements/lint.txt"


def test_requirements_in_subfolder_and_cross_package_include():
    facts = extract_packages({
        "requirements-base.txt": b("requests>=2\n"),
        "services/worker/requirements.txt": b("-r ../../requirements-base.txt\nredis==5.0.4\n"),
        "services/api/pyproject.toml": b('[project]\nname = "api"\ndependencies = ["fastapi"]\n'),
        "services/api/requirements-test.txt": b("httpx\n-r missing.txt\n"),
    })
    assert [(p.path, p.name) for p in facts.packages] == [
        ("", "root"), ("services/api", "api"), ("services/worker", "worker"),
    ]
    assert deps_of(facts, "services/worker") == {("redis", "==5.0.4", "runtime"), ("requests", ">=2", "runtime")}
    assert deps_of(facts, "services/api") == {("fastapi", "", "runtime"), ("httpx", "", "dev")}
    assert deps_of(facts, "") == {("requests", ">=2", "runtime")}
    assert any("services/api/requirements-test.txt" in w and "missing.txt" in w for w in facts.warnings)


def test_requirements_include_cycle_terminates():
    facts = extract_packages({
        "requirements.txt": b("-r requirements-dev.txt\nflask\n"),
        "requirements-dev.txt": b("-r requirements.txt\npytest\n"),
    })
    assert deps_of(facts) == {("flask", "", "runtime"), ("pytest", "", "dev")}


PKG_ROOT = """\
{
  "name": "notes-monorepo",
  "private": true,
  "workspaces": ["packages/*", "apps/*"],
  "devDependencies": {"typescript": "^5.4.5", "turbo": "^2.0.0"}
}
"""
PKG_UI = """\
{
  "name": "@notes/ui",
  "version": "0.1.0",
  "dependencies": {"clsx": "^2.1.1", "@notes/core": "workspace:*"},
  "peerDependencies": {"react": ">=18"},
  "devDependencies": {"react": "^18.3.1", "@types/react": "^18.3.3"}
}
"""
PKG_CORE = """\
{"name": "@notes/core", "version": "0.1.0", "dependencies": {"zod": "3.23.8"},
 "optionalDependencies": {"fsevents": "^2.3.3"}}
"""
PKG_WEB = """\
{"name": "web", "scripts": {"start": "vite"}, "dependencies": {"@notes/ui": "workspace:^", "react-dom": "^18.3.1"}}
"""


def test_package_json_monorepo_workspaces():
    facts = extract_packages({
        "package.json": b(PKG_ROOT),
        "packages/ui/package.json": b(PKG_UI),
        "packages/core/package.json": b(PKG_CORE),
        "apps/web/package.json": b(PKG_WEB),
        "packages/ui/node_modules/clsx/package.json": b('{"name": "clsx"}'),
    })
    assert facts.packages == [
        PackageFact("", "notes-monorepo", "npm", "package.json"),
        PackageFact("apps/web", "web", "npm", "apps/web/package.json"),
        PackageFact("packages/core", "@notes/core", "npm", "packages/core/package.json"),
        PackageFact("packages/ui", "@notes/ui", "npm", "packages/ui/package.json"),
    ]
    assert deps_of(facts, "") == {("typescript", "^5.4.5", "dev"), ("turbo", "^2.0.0", "dev")}
    assert deps_of(facts, "packages/ui") == {
        ("clsx", "^2.1.1", "runtime"),
        ("@notes/core", "workspace:*", "runtime"),
        ("react", ">=18", "peer"),
        ("react", "^18.3.1", "dev"),
        ("@types/react", "^18.3.3", "dev"),
    }
    assert deps_of(facts, "packages/core") == {("zod", "3.23.8", "runtime"), ("fsevents", "^2.3.3", "optional")}
    assert deps_of(facts, "apps/web") == {("@notes/ui", "workspace:^", "runtime"), ("react-dom", "^18.3.1", "runtime")}
    assert facts.warnings == []


def test_unnamed_package_json_without_deps_is_not_a_package():
    facts = extract_packages({"src/esm/package.json": b('{"type": "module"}')})
    assert facts.packages == [] and facts.dependencies == []


def test_python_and_npm_in_one_repo_keep_ecosystems_apart():
    facts = extract_packages({
        "pyproject.toml": b('[project]\nname = "fullstack"\ndependencies = ["flask>=3"]\n'),
        "frontend/package.json": b('{"name": "frontend", "dependencies": {"react": "^18"}}'),
    })
    assert {(p.path, p.ecosystem) for p in facts.packages} == {("", "pypi"), ("frontend", "npm")}
    assert deps_of(facts, "", "pypi") == {("flask", ">=3", "runtime")}
    assert deps_of(facts, "frontend", "npm") == {("react", "^18", "runtime")}


def test_output_is_sorted_and_deterministic():
    files = {
        "package.json": b(PKG_ROOT), "packages/ui/package.json": b(PKG_UI),
        "pyproject.toml": b(PEP621), "requirements.txt": b(REQS),
    }
    a = extract_packages(files)
    b2 = extract_packages(dict(reversed(list(files.items()))))
    assert a == b2
    key = lambda d: (d.package, d.ecosystem, d.name, d.scope, d.spec, d.source)  # noqa: E731
    assert a.dependencies == sorted(a.dependencies, key=key)
    assert len(set(a.dependencies)) == len(a.dependencies)
    assert isinstance(a.dependencies[0], Dependency)


def test_requirements_under_a_docs_or_tests_folder_are_dev():
    # humanize's docs/requirements.txt lists what building its documentation needs (mkdocs ...)
    facts = extract_packages({
        "requirements.txt": b("flask\n"),
        "docs/requirements.txt": b("mkdocs==1.6.1\n"),
        "tests/requirements.txt": b("pytest\n"),
        ".ci/requirements.txt": b("tox\n"),
        "services/api/requirements.txt": b("django\n"),
    })
    assert {(d.name, d.scope) for d in facts.dependencies} == {
        ("flask", "runtime"), ("mkdocs", "dev"), ("pytest", "dev"), ("tox", "dev"), ("django", "runtime"),
    }
