"""Result models of the read API (``mnemosyne.query``): what the CLI prints and the MCP tools return.

Every result that is "at a commit" carries an ``AtCommit`` saying which commit answered, whether
it is on the timeline (answered from the graph) or not (answered by parsing its tree:
``from_source=True``), and how far it is behind the ingested head.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

# Which way a call question goes: what a function calls, or what calls it.
Direction = Literal["callees", "callers"]
# What happened to a symbol at a commit (``symbol_history``'s events).
EventKind = Literal[
    "appeared",
    "removed",
    "re-added",
    "signature_changed",
    "renamed",
    "moved",
    "body_changed",
    "formatting_only",
    "docstring_changed",
    "calls_gained",
    "calls_lost",
    "callers_gained",
    "callers_lost",
]
# How a symbol changed its identity between two commits.
RenameChange = Literal["rename", "move", "rename_move"]

__all__ = [  # re-exported by mnemosyne.query
    "AtCommit", "CallChange", "CallEdge", "CallTreeNode", "CallTreeResult", "CallsResult", "Candidates",
    "CommitPosition", "DependencyChange", "DependencyEvent", "DependencyHistoryResult", "DependencyState",
    "DiffResult", "Event", "FileChange", "FileMove", "FileRef", "FilesResult", "HistoryResult", "ImpactItem", "ImpactLevel",
    "ImpactResult", "ImportChange", "LagCommit", "LagResult", "SymbolChange", "SymbolRef", "SymbolResult",
    "WorkspaceState", "WorkspaceStatus",
]  # fmt: skip


class CommitPosition(BaseModel):
    """Which commit answered, where it is on the timeline, and at which transaction time
    (shared by ``AtCommit`` and the MCP layer's ``CommitRef``)."""

    requested: str | None = Field(default=None, description="what the caller asked for (REV, time, or None = HEAD)")
    hash: str
    short: str
    seq: int | None = Field(default=None, description="timeline position; None when not on the timeline")
    timestamp: int | None = Field(default=None, description="committer time, epoch seconds")
    on_timeline: bool = True
    from_source: bool = Field(default=False, description="answered by parsing the commit's tree, not from the graph")
    as_of_ingest: int | None = Field(default=None, description="transaction time: answered as Mnemosyne believed "
                                     "it at this wall-clock time (epoch seconds); None = what it believes now")
    superseded_at: int | None = Field(default=None, description="when this commit left the timeline (history "
                                      "rewritten); set only for transaction-time answers about such a commit")
    note: str | None = Field(default=None, description="why a commit was answered from the source (its history "
                             "not built yet, before the history window)")


class AtCommit(CommitPosition):
    """The commit a question was answered at."""

    author: str | None = None
    message: str | None = Field(default=None, description="first line of the commit message")
    head_seq: int | None = Field(default=None, description="last ingested timeline position")
    head_hash: str | None = None
    behind_head: int | None = Field(default=None, description="ingested timeline commits after this one")

    @property
    def at_head(self) -> bool:
        """The ingested head itself (now, not as believed earlier): the nodes' latest values, line
        ranges included, are this commit's."""
        return self.as_of_ingest is None and self.seq is not None and self.seq == self.head_seq

    def describe(self) -> str:
        from datetime import UTC, datetime

        when = ""
        if self.timestamp is not None:
            when = datetime.fromtimestamp(self.timestamp, tz=UTC).strftime("%Y-%m-%d %H:%M UTC")
        if self.on_timeline:
            where = f"seq {self.seq}"
            if self.behind_head:
                where += f", {self.behind_head} commit(s) behind the ingested head"
            else:
                where += ", the ingested head"
        else:
            where = self.note or "not on the timeline: answered from source"
        if self.as_of_ingest is not None:
            believed = datetime.fromtimestamp(self.as_of_ingest, tz=UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
            where += f", as believed at {believed}"
            if self.superseded_at is not None:
                where += " (superseded since)"
        return f"{self.short} ({when}{', ' if when else ''}{where})"


class CallEdge(BaseModel):
    caller: str
    callee: str
    resolution: str | None = None
    confidence: float | None = None
    lines: list[int] = Field(default_factory=list, description="call-site lines in the caller's file")
    external: bool = Field(default=False, description="the other end is a library or builtin function")
    since_seq: int | None = Field(default=None, description="seq since which this edge version holds")


class CallsResult(BaseModel):
    workspace: str
    fqn: str
    direction: Direction
    at: AtCommit
    edges: list[CallEdge]
    from_source: bool = False
    asked_fqn: str | None = Field(default=None, description="the name asked for, when the symbol had another name "
                                                            "at that commit (fqn): renamed or moved since")
    class_fqn: str | None = Field(default=None, description="the class asked for, when the answer is its "
                                                            "constructor's (fqn): a class is called through it")
    also_named: list[str] = Field(default_factory=list, description="when a top-level name (a package's module, "
                                  "`slugify`) has no edge: the symbols named like it (`slugify.slugify.slugify`)")


class CallTreeNode(BaseModel):
    fqn: str
    resolution: str | None = None
    confidence: float | None = None
    external: bool = False
    repeated: bool = Field(default=False, description="already shown higher in the tree (or a cycle): not expanded")
    children: list[CallTreeNode] = Field(default_factory=list)


class CallTreeResult(BaseModel):
    workspace: str
    root: CallTreeNode
    direction: Direction
    depth: int
    at: AtCommit
    truncated: bool = Field(default=False, description="the node limit was reached")
    from_source: bool = False
    asked_fqn: str | None = Field(default=None, description="the name asked for, when the root had another name "
                                                            "at that commit: renamed or moved since")
    class_fqn: str | None = Field(default=None, description="the class asked for, when the root is its "
                                                            "constructor: a class is called through it")
    also_named: list[str] = Field(default_factory=list, description="when a top-level name (a package's module, "
                                  "`slugify`) has no edge: the symbols named like it (`slugify.slugify.slugify`)")


class SymbolRef(BaseModel):
    fqn: str
    kind: str | None = None
    file: str | None = None
    alive: bool | None = Field(default=None, description="defined at the commit asked for")


class CodeMetrics(BaseModel):
    """Metrics of a function's body at a commit (mnemosyne/parse/metrics.py); fan-in and fan-out
    are the symbol's ``callers_count`` / ``callees_count`` at the same commit."""

    complexity: int = Field(description="cyclomatic complexity: 1 + decision points")
    loc: int = Field(description="non-blank, non-comment lines")
    params: int = Field(description="declared parameters")
    nesting: int = Field(description="deepest block nesting")


class SymbolResult(BaseModel):
    workspace: str
    fqn: str
    name: str | None = None
    kind: str | None = None
    label: Literal["Function", "Class"] = "Function"
    file: str | None = None
    line_start: int | None = None
    line_end: int | None = None
    signature: str | None = None
    docstring: str | None = None
    body_hash: str | None = None
    parent: str | None = Field(default=None, description="what defines it: a file path or an enclosing FQN")
    callers_count: int = 0
    callees_count: int = 0
    callers_of: str | None = Field(default=None, description="a class: the constructor whose callers callers_count "
                                                             "counts (a class is called through it)")
    also_named: list[str] = Field(default_factory=list, description="a top-level module asked for by its name "
                                  "(`slugify`): the symbols named like it (`slugify.slugify.slugify`)")
    since_seq: int | None = Field(default=None, description="seq since which this definition is unchanged")
    metrics: CodeMetrics | None = Field(default=None, description="functions and methods: complexity, loc, params, nesting")
    source: str | None = Field(default=None, description="source text at that commit (file + line range, from git)")
    at: AtCommit
    from_source: bool = False


class Candidates(BaseModel):
    """Several symbols match a short name, or none matched exactly: choose one of these."""

    workspace: str
    query: str
    at: AtCommit | None = None
    candidates: list[SymbolRef]


class Event(BaseModel):
    kind: EventKind
    seq: int
    commit: str | None = None
    author: str | None = None
    timestamp: int | None = None
    message: str | None = None
    details: dict = Field(default_factory=dict)


class HistoryResult(BaseModel):
    workspace: str
    fqn: str
    kind: str | None = None
    exists_at_head: bool
    events: list[Event]
    head_seq: int | None = None
    as_of_ingest: int | None = None  # transaction time the history was asked at (None: now)


class CallChange(BaseModel):
    caller: str
    callee: str
    resolution: str | None = None
    external: bool = False


#: a changed symbol's ``changes`` entry for a body whose text changed but not its code (every
#: commit between the two changed it by formatting only: blank lines, line breaks, comments)
FORMATTING = "formatting"


class SymbolChange(BaseModel):
    fqn: str
    kind: str | None = None
    file: str | None = None
    signature: str | None = None
    old_file: str | None = None
    old_signature: str | None = None
    changes: list[str] = Field(default_factory=list, description="for changed symbols: signature, file, body, or "
                               "formatting (the body's text changed, not its code)")


class SymbolRename(BaseModel):
    """A symbol renamed or moved between two commits (the recorded renames and moves, chained)."""

    old_fqn: str
    fqn: str
    kind: str | None = None
    change: RenameChange = Field(
        description="rename: another name; move: another file or class; rename_move: both")
    old_file: str | None = None
    file: str | None = None
    old_signature: str | None = None
    signature: str | None = None
    similarity: float | None = Field(default=None, description="body similarity (lowest over chained renames)")
    changes: list[str] = Field(default_factory=list, description="also changed: signature, body")


class ImportChange(BaseModel):
    file: str
    target: str
    target_kind: Literal["file", "package"]


class DependencyChange(BaseModel):
    relation: Literal["depends", "locks"]
    package: str = Field(description="the repository package (its folder, '' = root)")
    ecosystem: str | None = None
    name: str
    spec: str | None = None
    scope: str | None = None
    version: str | None = None
    old_spec: str | None = Field(default=None, description="a changed dependency: the spec before, if another")
    old_scope: str | None = Field(default=None, description="a changed dependency: the scope before, if another")
    old_version: str | None = Field(default=None, description="a changed lock: the version before")


class FileChange(BaseModel):
    """A file added or removed between two commits, with the symbols it defines."""

    file: str
    symbols: int = Field(description="symbols defined in it, its module included")


class FileMove(BaseModel):
    """A file renamed or moved between two commits, seen from its symbols (their names kept, or its
    module renamed); its imports are compared under the new path, so moving adds and removes none."""

    old_file: str
    file: str
    symbols: int = Field(description="symbols that moved with it")


class DiffResult(BaseModel):
    workspace: str
    a: AtCommit
    b: AtCommit
    path_prefix: str | None = None
    from_source: bool = False
    calls_added: list[CallChange] = Field(default_factory=list)
    calls_removed: list[CallChange] = Field(default_factory=list)
    symbols_added: list[SymbolChange] = Field(default_factory=list)
    symbols_removed: list[SymbolChange] = Field(default_factory=list)
    symbols_changed: list[SymbolChange] = Field(default_factory=list)
    symbols_renamed: list[SymbolRename] = Field(default_factory=list)
    files_moved: list[FileMove] = Field(default_factory=list)
    files_added: list[FileChange] = Field(default_factory=list, description="files whose module symbol was added")
    files_removed: list[FileChange] = Field(default_factory=list, description="files whose module symbol was removed")
    imports_added: list[ImportChange] = Field(default_factory=list)
    imports_removed: list[ImportChange] = Field(default_factory=list)
    dependencies_added: list[DependencyChange] = Field(default_factory=list)
    dependencies_removed: list[DependencyChange] = Field(default_factory=list)
    dependencies_changed: list[DependencyChange] = Field(
        default_factory=list, description="a package with another spec, scope or locked version (old_* say what it was)")

    def moved_with_file(self) -> set[str]:
        """The changed symbols whose only change is moving with their file (one of ``files_moved``)."""
        moves = {(m.old_file, m.file) for m in self.files_moved}
        return {s.fqn for s in self.symbols_changed if s.changes == ["file"] and (s.old_file, s.file) in moves}

    def in_whole_files(self) -> set[str]:
        """The symbols added or removed with their whole file (one of ``files_added`` / ``files_removed``)."""
        added, removed = {f.file for f in self.files_added}, {f.file for f in self.files_removed}
        return ({s.fqn for s in self.symbols_added if s.file in added}
                | {s.fqn for s in self.symbols_removed if s.file in removed})  # fmt: skip


class DependencyEvent(BaseModel):
    kind: Literal["added", "removed", "spec_changed", "version_changed"]
    relation: Literal["depends", "locks"]
    name: str
    ecosystem: str | None = None
    package: str = Field(description="the repository package (its folder, '' = root)")
    spec: str | None = None
    old_spec: str | None = None
    scope: str | None = None
    version: str | None = None
    old_version: str | None = None
    source: str | None = None
    seq: int
    commit: str | None = None
    author: str | None = None
    timestamp: int | None = None
    message: str | None = None


class DependencyState(BaseModel):
    name: str
    ecosystem: str | None = None
    package: str
    spec: str | None = None
    scope: str | None = None
    version: str | None = None
    source: str | None = Field(default=None, description="the manifest or lockfile that declares it")


class DependencyHistoryResult(BaseModel):
    workspace: str
    package: str | None = None
    events: list[DependencyEvent]
    current: list[DependencyState] = Field(default_factory=list, description="declared/locked at the ingested head")


class LagCommit(BaseModel):
    hash: str
    seq: int
    timestamp: int
    ingested_at: int
    lag_s: int
    author: str | None = None
    message: str | None = None


class LagResult(BaseModel):
    workspace: str
    minutes: float
    commits: list[LagCommit]
    count: int
    max_lag_s: int | None = None
    mean_lag_s: float | None = None
    backfilled: int = Field(default=0, description="late commits left out: history committed before the first ingest")


class ImpactItem(BaseModel):
    kind: Literal["symbol", "file"]
    name: str = Field(description="FQN for a symbol, path for a file")
    file: str | None = None
    via: list[str] = Field(default_factory=list, description="what it calls / imports one step closer")


class ImpactLevel(BaseModel):
    distance: int
    items: list[ImpactItem]


class ImpactResult(BaseModel):
    workspace: str
    at: AtCommit
    targets: list[str] = Field(description="the symbols analysed (given, or defined in the given files)")
    files: list[str] = Field(default_factory=list)
    depth: int
    levels: list[ImpactLevel]
    missing: list[str] = Field(default_factory=list, description="given names/files not found at that commit")
    from_source: bool = False
    names_then: dict[str, str] = Field(default_factory=dict, description="a symbol asked by today's name -> its "
                                                                        "name at that commit (renamed or moved since)")


class FileRef(BaseModel):
    path: str
    language: str | None = None
    module: str | None = None


class FilesResult(BaseModel):
    workspace: str
    at: AtCommit
    path_prefix: str | None = None
    files: list[FileRef]
    from_source: bool = False


class WorkspaceState(BaseModel):
    """A registered workspace and how its index compares with the repository (shared by
    ``WorkspaceStatus`` and the MCP layer's ``WorkspaceEntry``)."""

    name: str
    path: str
    branch: str
    state: str
    ingested_commit: str | None = None
    ingested_seq: int | None = None
    branch_head: str | None = None
    commits_behind: int | None = None
    path_exists: bool = True
    error: str | None = None
    history: str | None = Field(default=None, description="a history build behind the answering head: how far")


class WorkspaceStatus(WorkspaceState):
    changed_files: list[str] = Field(default_factory=list)


CallTreeNode.model_rebuild()
