"""What an ingestion run reports: progress events, the result, its warnings (mnemosyne.ingest)."""

from __future__ import annotations

import logging

from pydantic import BaseModel, Field

log = logging.getLogger(__name__)

MODE_FULL = "full"
MODE_HEAD_ONLY = "head_only"
MAX_WARNINGS = 500


class IngestProgress(BaseModel):
    workspace: str
    phase: str  # preparing | rollback | superseding | loading | ingesting | done
    done: int = 0  # commits applied in this run
    total: int = 0  # commits to apply in this run
    seq: int | None = None
    commit: str | None = None
    files_parsed: int = 0
    elapsed_s: float = 0.0
    rate: float = 0.0  # commits per second
    eta_s: float | None = None
    stage: str = ""  # HEAD first: "history" while the history is built behind the answering head


class IngestResult(BaseModel):
    workspace: str
    branch: str
    mode: str = MODE_FULL
    commits_ingested: int = 0
    files_parsed: int = 0
    seconds: float = 0.0
    warnings: list[str] = Field(default_factory=list)
    superseded: int = 0  # commits + versions superseded by a history rewrite
    rolled_back: int = 0  # versions of a half-written commit removed before resuming
    head: str | None = None
    last_seq: int | None = None
    stopped: bool = False  # the stop event interrupted the run (safe; run again to continue)
    message: str = ""
    since: str | None = Field(default=None, description="first commit of the history window (None: the root)")
    head_ready_s: float | None = Field(default=None, description="HEAD first: seconds until the head snapshot "
                                       "answered, while the history was built behind it")
    state_reused: bool = False  # the previous run's in-memory state was reused (no tree re-parse)
    timings: dict[str, float] = Field(
        default_factory=dict,
        description="seconds spent per phase: git (blob reads), parse (Extractor.update), resolve "
        "(Extractor.facts), diff (fact keys and node rows), write (graph queries), docs (documentation "
        "parse and writes)",
    )


# In-memory state kept between runs in one process (the daemon ingests one commit at a time):
# the extractor and fact state at the last ingested commit, so the next run need not re-parse the
# whole tree. Reused only when the graph's Meta still points at that exact commit and seq.

class _Warnings:
    def __init__(self) -> None:
        self.items: list[str] = []
        self._seen: set[str] = set()

    def add(self, msg: str) -> None:
        if msg not in self._seen:
            self._seen.add(msg)
            if len(self.items) < MAX_WARNINGS:
                self.items.append(msg)
            log.info("ingest warning: %s", msg)
