"""Fixtures of the insight and enrichment tests: a small real git repository ingested with the real
ingester into the session's embedded FalkorDB (its own workspace, so a test may commit to it), and
the MCP server over it."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from mnemosyne.config import Settings
from mnemosyne.ingest import ingest_path
from mnemosyne.store.connection import Database

GIT_ENV = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_AUTHOR_NAME": "T",
           "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com"}  # fmt: skip

PRICING = '''"""Prices."""


def net_price(amount, rate):
    """The price after discount."""
    if rate > 1:
        raise ValueError("rate")
    return amount * (1 - rate)


class Cart:
    def total(self, items):
        return sum(net_price(i, 0.1) for i in items)
'''


@dataclass
class Proj:
    db: Database
    name: str
    path: Path

    def git(self, *args: str) -> str:
        return subprocess.run(["git", *args], cwd=self.path, env={**os.environ, **GIT_ENV}, check=True,
                              capture_output=True, text=True).stdout  # fmt: skip

    def commit(self, rel: str, text: str, message: str) -> None:
        (self.path / rel).write_text(text)
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)

    def ingest(self) -> None:
        ingest_path(self.db, self.path, name=self.name, branch="main")


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def proj(db: Database) -> Iterator[Proj]:
    root = Path(tempfile.mkdtemp(prefix="ins-", dir="/tmp"))
    name = f"ins_{uuid.uuid4().hex[:8]}"
    p = Proj(db, name, root / "pricing")
    p.path.mkdir()
    p.git("init", "-q", "-b", "main", ".")
    p.commit("pricing.py", PRICING, "prices")
    p.ingest()
    try:
        yield p
    finally:
        if db.registry.find(name) is not None:
            db.registry.remove(name, drop_graph=True)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def server(settings: Settings, proj: Proj):
    from mnemosyne.mcp.server import build_server

    srv = build_server(settings)
    yield srv
    srv.mnemosyne_service.close()
