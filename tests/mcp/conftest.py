"""Fixtures of the MCP tests: the python_shop sample built as a real git repository, ingested with
the real ingester into the session's embedded FalkorDB, and real MCP clients (no mocks)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from mnemosyne.config import Settings
from mnemosyne.store.connection import Database

from shop_fixture import Shop, ingested_python_shop


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def shop(db: Database) -> Iterator[Shop]:
    with ingested_python_shop(db, "mshop") as s:
        yield s


@pytest.fixture(scope="session")
def server(settings: Settings, shop: Shop):
    from mnemosyne.mcp.server import build_server

    srv = build_server(settings)
    yield srv
    srv.mnemosyne_service.close()
