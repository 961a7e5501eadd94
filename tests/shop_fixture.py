"""The python_shop sample built as a real git repository and ingested with the real ingester into
the session's embedded FalkorDB (no mocks): shared by the query and the MCP tests, whose
conftest files choose the fixture scope. ``tests/`` is on ``sys.path`` (the root conftest)."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from mnemosyne.ingest import ingest_path
from mnemosyne.samples import SampleRepo, build_sample_repo
from mnemosyne.store.connection import Database
from mnemosyne.store.registry import WorkspaceInfo


@dataclass
class Shop:
    db: Database
    ws: WorkspaceInfo
    repo: SampleRepo
    facts: dict

    @property
    def name(self) -> str:
        return self.ws.name

    def step_hash(self, key_or_step: str | int) -> str:
        return self.repo.hash_at(self.step(key_or_step))

    def step(self, key_or_step: str | int) -> int:
        return key_or_step if isinstance(key_or_step, int) else self.facts["step_keys"][key_or_step]

    def seq(self, key_or_step: str | int) -> int:
        """Timeline position of a main-branch step (seq 0 = step 1)."""
        return self.repo.timeline_steps.index(self.step(key_or_step))

    @property
    def head(self) -> str:
        return self.repo.head


@contextmanager
def ingested_python_shop(db: Database, prefix: str) -> Iterator[Shop]:
    """A fresh workspace ``<prefix>_<random>`` of the python_shop sample, removed afterwards."""
    root = Path(tempfile.mkdtemp(prefix=f"{prefix}-", dir="/tmp"))
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    try:
        repo = build_sample_repo("python_shop", root / "python_shop")
        result = ingest_path(db, repo.path, name=name, branch="main")
        assert result.last_seq == len(repo.timeline_steps) - 1, result
        yield Shop(db=db, ws=db.registry.get(name), repo=repo, facts=repo.facts)
    finally:
        if db.registry.find(name) is not None:
            db.registry.remove(name, drop_graph=True)
        shutil.rmtree(root, ignore_errors=True)
