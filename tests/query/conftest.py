"""Fixtures of the query tests: the python_shop sample built as a real git repository and
ingested with the real ingester into the session's embedded FalkorDB (no mocks)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from mnemosyne.store.connection import Database

from shop_fixture import Shop, ingested_python_shop


@pytest.fixture(scope="module")
def shop(db: Database) -> Iterator[Shop]:
    with ingested_python_shop(db, "qshop") as s:
        yield s
