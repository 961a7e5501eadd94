"""What a run says: a skipped binary file or a syntax error is reported by the run that changed it,
not again by every later run; a branch that does not exist registers nothing."""

from __future__ import annotations

import pytest

from mnemosyne.errors import ConfigError
from mnemosyne.ingest import ingest_path, ingest_workspace


def test_skipped_and_broken_files_are_reported_once_per_change(db, make_repo, ws):
    repo = make_repo()
    repo.write("app.py", "def main():\n    return 1\n")
    repo.write("blob.py", b"\x00\x01binary\x00")
    repo.write("broken.py", "class Kept:\n    pass\n\nclass Lost(:\n    pass\n")
    repo.commit("first")
    info = ws(repo.path)
    res = ingest_workspace(db, info)
    assert any("blob.py: skipped, binary content" in w for w in res.warnings), res.warnings
    assert any("broken.py: syntax error near line 4" in w for w in res.warnings), res.warnings

    repo.write("app.py", "def main():\n    return 2\n")
    repo.commit("unrelated")
    res = ingest_workspace(db, info)
    assert res.commits_ingested == 1
    assert not [w for w in res.warnings if "blob.py" in w or "broken.py" in w], res.warnings

    repo.write("blob.py", b"\x00\x02still binary\x00")
    repo.write("broken.py", "class Kept:\n    pass\n\n\nclass Lost(:\n    pass\n")
    repo.commit("both changed")
    res = ingest_workspace(db, info)
    assert any("blob.py: skipped" in w for w in res.warnings)
    assert any("broken.py: syntax error near line 5" in w for w in res.warnings)


def test_ingest_path_with_a_missing_branch_registers_nothing(db, make_repo, registry):
    repo = make_repo()
    repo.write("app.py", "x = 1\n")
    repo.commit("first")
    before = {w.name for w in registry.list()}
    with pytest.raises(ConfigError, match="nosuch"):
        ingest_path(db, repo.path, name="h_nobranch", branch="nosuch")
    assert {w.name for w in registry.list()} == before
