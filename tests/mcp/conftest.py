"""Fixtures of the MCP tests: the python_shop sample built as a real git repository, ingested with
the real ingester into the session's embedded FalkorDB, and real MCP clients (no mocks)."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from mnemosyne.config import Settings
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

    def step_hash(self, step: int) -> str:
        return self.repo.hash_at(step)

    def seq(self, step: int) -> int:
        return self.repo.timeline_steps.index(step)


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def shop(db: Database) -> Iterator[Shop]:
    root = Path(tempfile.mkdtemp(prefix="mcp-", dir="/tmp"))
    name = f"mshop_{uuid.uuid4().hex[:8]}"
    try:
        repo = build_sample_repo("python_shop", root / "python_shop")
        result = ingest_path(db, repo.path, name=name, branch="main")
        assert result.last_seq == len(repo.timeline_steps) - 1, result
        yield Shop(db=db, ws=db.registry.get(name), repo=repo, facts=repo.facts)
    finally:
        if db.registry.find(name) is not None:
            db.registry.remove(name, drop_graph=True)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def server(settings: Settings, shop: Shop):
    from mnemosyne.mcp.server import build_server

    srv = build_server(settings)
    yield srv
    srv.mnemosyne_service.close()
