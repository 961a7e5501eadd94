"""The embedding step after an ingest, with a progress line (count, rate, ETA) on stderr."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database


def fmt_eta(s: float | None) -> str:
    if s is None:
        return "--:--"
    s = int(s)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


class EmbedPrinter:
    """``backfill(progress=...)`` callback: one rewritten line on a terminal, a line every 2 s else."""

    def __init__(self, quiet: bool = False) -> None:
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.last = 0.0
        self.dirty = False

    def __call__(self, p: Any) -> None:  # backfill.EmbedProgress
        if self.quiet:
            return
        now = time.monotonic()
        if p.done != p.total and now - self.last < (0.2 if self.tty else 2.0):
            return
        self.last = now
        line = f"[{p.workspace}] embedding {p.done}/{p.total} texts  {p.rate:.1f}/s  ETA {fmt_eta(p.eta_s)}"
        if self.tty:
            sys.stderr.write("\r\x1b[2K" + line)
            self.dirty = True
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def end_line(self) -> None:
        if self.dirty:
            sys.stderr.write("\n")
            self.dirty = False


def embed_after_ingest(db: Database, ws: str, *, quiet: bool = False) -> dict[str, Any]:
    """Embed what the ingest changed (unchanged bodies are never re-embedded). Never fails the
    ingest: an unavailable model or provider ``none`` is reported in the result."""
    from mnemosyne.search.backfill import backfill
    from mnemosyne.search.embedders import get_embedder

    try:
        embedder = get_embedder(db.settings)
    except Exception as err:  # noqa: BLE001 - keyword search still works; said once
        return {"embeddings_error": str(err)}
    if embedder is None:
        return {"embeddings": "disabled"}
    printer = EmbedPrinter(quiet)
    try:
        rep = backfill(db, ws, embedder, progress=printer)
    except Exception as err:  # noqa: BLE001 - the ingest is done; `mnemosyne embed` retries
        return {"embeddings_error": str(err)}
    finally:
        printer.end_line()
    return {"embeddings": rep.as_dict()}
