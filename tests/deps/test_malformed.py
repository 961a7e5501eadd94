"""Malformed manifests and lockfiles: a warning naming the file and the problem, never an exception."""

from __future__ import annotations

import pytest

from mnemosyne.deps import extract_packages

CASES = {
    "pyproject.toml": (b'[project]\nname = "x"\ndependencies = ["ok",\n', "invalid TOML"),
    "setup.cfg": (b"install_requires = a\n[metadata\nname = y\n", "invalid setup.cfg"),
    "package.json": (b'{"name": "web", "dependencies": {"react": "^18",}}', "invalid JSON"),
    "uv.lock": (b"[[package]\nname = 'x'\n", "invalid TOML"),
    "poetry.lock": (b'[[package]]\nname = "flask"\n', "without a name or version"),
    "package-lock.json": (b'{"lockfileVersion": 3, "packages": ', "invalid JSON"),
    "pnpm-lock.yaml": (b"just some text\nthat is not yaml: [\n", "not a pnpm lockfile"),
    "yarn.lock": (b"lodash@^4\n  version 4\ngarbage line here\n", "unreadable entry header"),
    "requirements.txt": (b"flask\n==1.0\n<<<>>>\n", "unparseable requirement on line(s) 2, 3"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_malformed_file_warns(name):
    data, problem = CASES[name]
    path = f"svc/{name}"
    facts = extract_packages({path: data})
    assert any(w.startswith(f"{path}: ") and problem in w for w in facts.warnings), facts.warnings


def test_wrong_types_warn_and_keep_the_rest():
    facts = extract_packages({
        "pyproject.toml": b'[project]\nname = "x"\ndependencies = "requests"\n[project.optional-dependencies]\nfast = ["orjson", 3]\n',
        "web/package.json": b'{"name": "web", "dependencies": ["react"], "devDependencies": {"vite": 5, "vitest": "^1"}}',
        "lib/package.json": b'["not", "an", "object"]',
    })
    w = "\n".join(facts.warnings)
    assert "pyproject.toml: [project].dependencies should be a list" in w
    assert "non-string entry 3" in w
    assert 'web/package.json: "dependencies" should be an object' in w
    assert 'web/package.json: "devDependencies".vite should be a version string' in w
    assert "lib/package.json: top level should be a JSON object" in w
    names = {(d.package, d.name) for d in facts.dependencies}
    assert ("", "orjson") in names and ("web", "vitest") in names and ("web", "vite") in names


def test_binary_and_empty_content():
    facts = extract_packages({
        "requirements.txt": b"\xff\xfe\x00garbage",
        "package.json": b"",
        "yarn.lock": b"",
        "pnpm-lock.yaml": b"",
    })
    w = "\n".join(facts.warnings)
    assert "requirements.txt: not valid UTF-8" in w
    assert "package.json: invalid JSON" in w
    assert facts.locks == []


def test_non_manifest_paths_are_ignored():
    facts = extract_packages({"README.md": b"# hi", "node_modules/x/package.json": b'{"name": "x"}'})
    assert facts.packages == [] and facts.warnings == []


MANIFEST_NAMES = ["pyproject.toml", "setup.cfg", "package.json", "requirements.txt", "uv.lock", "poetry.lock",
                  "package-lock.json", "pnpm-lock.yaml", "yarn.lock"]


@pytest.mark.slow
def test_random_garbage_never_raises():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=150, deadline=None)
    @given(st.sampled_from(MANIFEST_NAMES), st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode)))
    def check(name, data):
        facts = extract_packages({name: data})
        assert facts == extract_packages({name: data})

    check()
