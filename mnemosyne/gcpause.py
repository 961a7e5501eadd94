"""``gc_paused()``: the cyclic garbage collector off for one batch of parsing or resolution.

Parsing and resolution allocate millions of small, long-lived, acyclic objects (parse results,
facts); the cyclic GC would rescan them over and over, which cost more than the extraction
itself. So the collector is paused for the duration of one batch and put back in its previous
state afterwards: no permanent effect on the process (no ``gc.freeze`` left behind), so a
long-running daemon's memory stays bounded. Re-entrant (nested pauses restore correctly).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            if gc.get_freeze_count() == 0:
                # what the batch allocated joins the oldest generation (freeze then unfreeze: a
                # list splice, nothing stays frozen) instead of being rescanned by the young
                # collections right away; a later full collection still sees all of it
                gc.freeze()
                gc.unfreeze()
            gc.enable()
