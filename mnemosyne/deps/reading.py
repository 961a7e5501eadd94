"""Decoding manifests and lockfiles: one place that turns bytes into text, JSON or TOML, and a
malformed file into a warning naming it (never an exception)."""

from __future__ import annotations

import json
import tomllib
from typing import Any


def decode(path: str, data: bytes, warnings: list[str]) -> str | None:
    """UTF-8 text (a BOM is dropped), or None with a warning."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        warnings.append(f"{path}: not valid UTF-8, ignored")
        return None


def load_json_object(path: str, data: bytes, warnings: list[str]) -> dict[str, Any] | None:
    """The file's top-level JSON object, or None with a warning."""
    text = decode(path, data, warnings)
    if text is None:
        return None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        warnings.append(f"{path}: invalid JSON ({e.msg} at line {e.lineno} column {e.colno}), ignored")
        return None
    if not isinstance(doc, dict):
        warnings.append(f"{path}: top level should be a JSON object, ignored")
        return None
    return doc


def load_toml(path: str, data: bytes, warnings: list[str]) -> dict[str, Any] | None:
    """The parsed TOML document, or None with a warning."""
    text = decode(path, data, warnings)
    if text is None:
        return None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        warnings.append(f"{path}: invalid TOML ({e}), ignored")
        return None
