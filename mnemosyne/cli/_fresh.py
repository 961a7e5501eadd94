"""The freshness line every CLI query prints on stderr (stdout stays the answer, JSON with --json):
whether the index is behind the tracked branch and whether the working tree differs, computed as
the MCP answers compute it (``mnemosyne.query.freshness``)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from mnemosyne.query.freshness import compute_freshness, freshness_notes

if TYPE_CHECKING:
    from mnemosyne.store.registry import WorkspaceInfo


def freshness_line(info: WorkspaceInfo) -> str:
    """``[workspace] index up to date with main; working tree clean`` (or the warnings)."""
    fr = compute_freshness(info, info.last_ingested_commit, info.last_ingested_seq)
    if fr.ingested_commit is None:
        return f"[{info.name}] not ingested yet: run `mnemosyne ingest --workspace {info.name}`"
    return f"[{info.name}] " + "; ".join(freshness_notes(fr))


def print_freshness(info: WorkspaceInfo) -> None:
    print(freshness_line(info), file=sys.stderr)
