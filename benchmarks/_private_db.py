"""A throwaway Mnemosyne home with its own embedded FalkorDB, for benchmarks that ingest."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


@contextmanager
def private_database(prefix: str = "mnbench-") -> Iterator[tuple[Path, Any, Any]]:
    """Yields ``(home, settings, db)``: a temp MNEMOSYNE_HOME (embeddings off), its embedded
    server started, a connection; the server is stopped and the home removed afterwards."""
    home = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    os.environ["MNEMOSYNE_HOME"] = str(home)
    os.environ.pop("MNEMOSYNE_FALKORDB_URL", None)
    os.environ["MNEMOSYNE_EMBEDDINGS_PROVIDER"] = "none"
    from mnemosyne.config import get_settings
    from mnemosyne.store.connection import connect
    from mnemosyne.store.embedded import EmbeddedFalkorDB

    settings = get_settings(fresh=True)
    server = EmbeddedFalkorDB(settings)
    server.start()
    try:
        yield home, settings, connect(settings)
    finally:
        server.stop()
        shutil.rmtree(home, ignore_errors=True)
