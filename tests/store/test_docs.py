"""docs/operations.md documents every setting; README keeps its two commands."""

from __future__ import annotations

from pathlib import Path

from mnemosyne.config import Settings

ROOT = Path(__file__).resolve().parents[2]


def test_operations_lists_every_setting() -> None:
    text = (ROOT / "docs" / "operations.md").read_text()
    missing = [
        name for name in Settings.model_fields
        if f"`{name}`" not in text or f"`MNEMOSYNE_{name.upper()}`" not in text
    ]  # fmt: skip
    assert not missing, f"settings missing from docs/operations.md: {missing}"


def test_readme_commands() -> None:
    text = (ROOT / "README.md").read_text()
    assert "mnemosyne demo" in text and "bash .ci/run" in text
    assert "python -m pytest -q" in (ROOT / ".ci" / "run").read_text()
