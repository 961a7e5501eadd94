"""docs/architecture.md's module map names every module of the package, and names none that is gone.

A module ``mnemosyne/pkg/mod.py`` counts as named when the map's text holds its path
(``mnemosyne/pkg/mod.py``, ``pkg/mod.py``) or when the row of its package (the row whose first cell
is ``mnemosyne/pkg/``) names it (``mod.py`` or `` `mod` ``); a package's ``__init__`` and
``__main__`` are named by their package. Paths of the form ``mnemosyne/...`` the map cites must exist.
"""

from __future__ import annotations

import re
from pathlib import Path

import mnemosyne

PACKAGE = Path(mnemosyne.__file__).parent
ROOT = PACKAGE.parent
DOC = ROOT / "docs" / "architecture.md"


def _map() -> str:
    text = DOC.read_text()
    start = text.index("## Module map")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def _rows(text: str) -> dict[str, str]:
    """First cell (a path ending in ``/``) -> the whole row."""
    rows: dict[str, str] = {}
    for line in text.splitlines():
        m = re.match(r"\|\s*`([^`]+/)`", line)
        if m:
            rows[m.group(1)] = rows.get(m.group(1), "") + line
    return rows


def test_every_module_is_in_the_module_map() -> None:
    text = _map()
    rows = _rows(text)
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()  # mnemosyne/pkg/mod.py
        if path.name in ("__init__.py", "__main__.py") and path.parent != PACKAGE:
            continue
        if rel in text or rel.removeprefix("mnemosyne/") in text:
            continue
        row = rows.get(path.parent.relative_to(ROOT).as_posix() + "/", "")
        if path.name in row or f"`{path.stem}`" in row:
            continue
        missing.append(rel)
    assert not missing, "docs/architecture.md's module map does not name: " + ", ".join(missing)


def test_every_path_the_module_map_cites_exists() -> None:
    cited = set(re.findall(r"`(mnemosyne/[\w/]+(?:\.py)?)`", _map()))
    gone = sorted(p for p in cited if not (ROOT / p).exists())
    assert not gone, "docs/architecture.md's module map cites paths that do not exist: " + ", ".join(gone)
