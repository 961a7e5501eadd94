"""Shared fixtures: one real embedded FalkorDB per test session (no mocks).

- ``settings`` (session): a temporary ``MNEMOSYNE_HOME`` in a short /tmp folder (the socket
  ``<home>/falkordb.sock`` must stay under 107 bytes), exported in ``os.environ`` so subprocesses (CLI tests) use the same
  server; the embedded server is started once and stopped at the end.
- ``db`` (session): a ``Database`` connected to it.
- ``graph`` (function): a fresh, uniquely named workspace graph with the schema applied,
  deleted afterwards. ``graph.workspace`` is its workspace name.
- ``registry`` (function): ``db.registry``; workspaces the test adds are removed afterwards.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from mnemosyne.config import Settings, get_settings
from mnemosyne.store.connection import Database, connect
from mnemosyne.store.embedded import EmbeddedFalkorDB
from mnemosyne.store.graph import Graph
from mnemosyne.store.registry import WorkspaceRegistry

# Source corpora that tests parse (not tests to run), wherever an area keeps them.
collect_ignore_glob = ["*/corpus/*", "*/fixtures/repos/*"]

_ENV_KEYS = ("MNEMOSYNE_HOME", "MNEMOSYNE_FALKORDB_URL", "MNEMOSYNE_FALKORDB_SOCKET", "MNEMOSYNE_CONFIG")


@pytest.fixture(scope="session")
def settings() -> Iterator[Settings]:
    saved = {k: os.environ.get(k) for k in _ENV_KEYS}
    home = Path(tempfile.mkdtemp(prefix="mnt-", dir="/tmp"))
    for key in ("MNEMOSYNE_FALKORDB_URL", "MNEMOSYNE_FALKORDB_SOCKET", "MNEMOSYNE_CONFIG"):
        os.environ.pop(key, None)
    # The home is short, so the socket is <home>/falkordb.sock (well under the 107-byte limit).
    os.environ["MNEMOSYNE_HOME"] = str(home)
    s = get_settings(fresh=True)
    server = EmbeddedFalkorDB(s)
    server.start()
    try:
        yield s
    finally:
        server.stop()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        get_settings(fresh=True)
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session")
def db(settings: Settings) -> Iterator[Database]:
    database = connect(settings)
    try:
        yield database
    finally:
        database.close()


@pytest.fixture
def graph(db: Database) -> Iterator[Graph]:
    g = db.graph(f"t_{uuid.uuid4().hex[:12]}")
    g.ensure_schema()
    try:
        yield g
    finally:
        g.delete()


@pytest.fixture
def registry(db: Database) -> Iterator[WorkspaceRegistry]:
    reg = db.registry
    before = {w.name for w in reg.list()}
    try:
        yield reg
    finally:
        for w in reg.list():
            if w.name not in before:
                reg.remove(w.name, drop_graph=True)
