"""Settings: an unknown config.toml key is an error naming the close known ones; an unknown
``MNEMOSYNE_*`` environment variable is a warning, except the project's own non-setting ones."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from mnemosyne import config
from mnemosyne.config import OTHER_ENV, Settings
from mnemosyne.errors import ConfigError
from tests.store.helpers import run_cli


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """No MNEMOSYNE_* variable but a private home; the warned-once memory is reset."""
    import os

    for name in list(os.environ):
        if name.upper().startswith("MNEMOSYNE_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("MNEMOSYNE_HOME", str(tmp_path))
    monkeypatch.setattr(config, "_warned_env", set())
    yield tmp_path


def test_a_known_key_is_read(clean_env: Path) -> None:
    (clean_env / "config.toml").write_text("parse_workers = 3\nembeddings_provider = 'none'\n")
    s = Settings()
    assert (s.parse_workers, s.embeddings_provider) == (3, "none")


def test_an_unknown_key_names_the_close_settings(clean_env: Path) -> None:
    path = clean_env / "config.toml"
    path.write_text("parse_workrs = 3\n")
    with pytest.raises(ConfigError) as err:
        Settings()
    message = str(err.value)
    assert "'parse_workrs'" in message and str(path) in message
    assert "did you mean parse_workers" in message
    assert "\n" not in message


def test_an_unknown_key_far_from_all_lists_them(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = clean_env / "elsewhere.toml"
    other.write_text("zzz = 1\n")
    monkeypatch.setenv("MNEMOSYNE_CONFIG", str(other))
    with pytest.raises(ConfigError, match=r"unknown setting 'zzz' in .*elsewhere\.toml: known settings: .*"
                                          r"\bparse_workers\b.*\bwrite_batch_size\b"):  # fmt: skip
        Settings()


def test_the_cli_prints_one_line(clean_env: Path) -> None:
    (clean_env / "config.toml").write_text("readonly_timout_ms = 10\n")
    done = run_cli("workspace", "list")
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(
        f"mnemosyne: unknown setting 'readonly_timout_ms' in {clean_env / 'config.toml'}: did you mean "
        "readonly_timeout_ms or "
    )


def test_an_unknown_env_variable_is_a_warning_once(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("MNEMOSYNE_PARSE_WORKRS", "4")
    monkeypatch.setenv("MNEMOSYNE_WRITE_BATCH_SIZE", "7")
    with caplog.at_level(logging.WARNING, logger="mnemosyne.config"):
        s = Settings()
        Settings()
    assert s.write_batch_size == 7 and s.parse_workers == 1
    warned = [r.getMessage() for r in caplog.records if r.name == "mnemosyne.config"]
    assert len(warned) == 1, warned
    assert "MNEMOSYNE_PARSE_WORKRS" in warned[0] and "did you mean MNEMOSYNE_PARSE_WORKERS" in warned[0]


def test_the_projects_own_variables_are_not_warned_about(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    for name in OTHER_ENV - {"MNEMOSYNE_CONFIG"}:
        monkeypatch.setenv(name, "x")
    monkeypatch.setenv("MNEMOSYNE_CONFIG", str(clean_env / "none.toml"))
    monkeypatch.setenv("MNEMOSYNE_LOG_LEVEL", "DEBUG")
    with caplog.at_level(logging.WARNING, logger="mnemosyne.config"):
        Settings()
    assert [r.getMessage() for r in caplog.records if r.name == "mnemosyne.config"] == []


def test_other_env_names_what_the_project_reads() -> None:
    """Each exempted variable is read somewhere else in the repository (else it is no exemption to keep)."""
    root = Path(__file__).resolve().parents[1]
    files = [p for d in ("mnemosyne", "tests", "benchmarks") for p in (root / d).rglob("*.py")] + [root / ".ci" / "run"]
    skip = {Path(__file__).resolve(), (root / "mnemosyne" / "config.py").resolve()}
    sources = [p.read_text(encoding="utf-8") for p in files if p.resolve() not in skip]
    for name in OTHER_ENV:
        assert any(name in text for text in sources), name
