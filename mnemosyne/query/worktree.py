"""The symbols a working-tree change touches, per change (hunk) rather than per file.

``git diff -U0 <commit>`` gives each hunk's lines in the commit's version of a file; a hunk touches
the innermost symbols (functions, methods, classes) whose line range at that commit contains one
of its lines, and the module when it touches none (an import added at the top, a comment between
two functions). A line inserted between two lines belongs to what contains both. So a comment
added above a file's first function is a change of the module, not of the file's 36 symbols.
Ranges at the ingested head come from the nodes; at another commit from the source
(query/positions.py). Files git does not track yet are new files: every symbol in them is new, so
they are returned as files (``impact`` then follows their importers).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mnemosyne import vocabulary as V
from mnemosyne.query.core import git
from mnemosyne.query.models import AtCommit
from mnemosyne.query.positions import symbol_span
from mnemosyne.temporal import holds_at

if TYPE_CHECKING:
    from mnemosyne.store.graph import Graph
    from mnemosyne.store.registry import WorkspaceInfo

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@")


@dataclass
class WorkingTreeChanges:
    """What the working tree changes against a commit: symbols touched, per file; new files."""

    symbols: dict[str, list[str]] = field(default_factory=dict)  # file -> FQNs touched, in file order
    new_files: list[str] = field(default_factory=list)  # untracked (or added) source files
    hunks: int = 0

    @property
    def fqns(self) -> list[str]:
        return list(dict.fromkeys(f for fs in self.symbols.values() for f in fs))


def _hunks(diff: str) -> tuple[dict[str, list[tuple[float, float]]], list[str]]:
    """file -> spans of the commit's lines each hunk touches (an insertion after line a is the span
    (a + 0.5, a + 0.5): between a and a + 1), and the files the diff adds."""
    out: dict[str, list[tuple[float, float]]] = {}
    added: list[str] = []
    path: str | None = None
    new_file = False
    for line in diff.splitlines():
        if line.startswith("--- "):
            old = line[4:].strip()
            new_file = old == "/dev/null"
            path = old[2:] if old.startswith("a/") else None
        elif line.startswith("+++ "):
            if new_file and line[4:].strip().startswith("b/"):
                added.append(line[4:].strip()[2:])
                path = None
        elif path is not None:
            m = _HUNK.match(line)
            if m:
                a, b = int(m.group(1)), int(m.group(2) if m.group(2) is not None else 1)
                out.setdefault(path, []).append((a + 0.5, a + 0.5) if b == 0 else (float(a), float(a + b - 1)))
    return out, added


def _ranges(g: Graph, info: WorkspaceInfo, atc: AtCommit, file: str) -> list[tuple[str, str, int, int]]:
    """(fqn, kind, line_start, line_end) of the symbols defined in ``file`` at ``atc``."""
    rows = g.ro_query(
        f"MATCH ()-[e:{V.DEFINES}]->(n) WHERE {holds_at('e', '$s')} AND e.file = $f "
        f"RETURN n.fully_qualified_name, CASE WHEN n:{V.CLASS} THEN 'class' ELSE coalesce(e.kind, n.kind) END, "
        "n.line_start, n.line_end",
        {"s": atc.seq, "f": file},
    )
    out = []
    for fqn, kind, ls, le in rows:
        if kind == "module":
            out.append((fqn, kind, 1, 10**9))
            continue
        if not atc.at_head:
            ls, le = symbol_span(info.path, atc.hash, file, fqn) or (None, None)
        if ls is not None and le is not None:
            out.append((fqn, kind, int(ls), int(le)))
    return out


def _touched(spans: list[tuple[float, float]], symbols: list[tuple[str, str, int, int]]) -> list[str]:
    """The innermost symbols each span touches (the module when it touches nothing else)."""
    hit: dict[str, int] = {}
    for lo, hi in spans:
        over = [s for s in symbols if s[1] != "module" and s[2] <= hi and s[3] >= lo]
        # innermost: no other touched symbol lies inside it
        inner = [s for s in over if not any(o is not s and s[2] <= o[2] and o[3] <= s[3] for o in over)]
        if not inner:
            inner = [s for s in symbols if s[1] == "module"]
        for s in inner:
            hit.setdefault(s[0], s[2])
    return sorted(hit, key=lambda f: (hit[f], f))


def working_tree_changes(g: Graph, info: WorkspaceInfo, atc: AtCommit, owns: Any = None) -> WorkingTreeChanges:
    """The working tree of ``info`` against commit ``atc`` (see the module doc). ``owns``: which
    paths are source files (the extractor's rule); others are skipped."""
    out = WorkingTreeChanges()
    diff = git(info.path, "diff", "-U0", "--no-color", "--no-ext-diff", atc.hash, "--", check=False)
    spans_of, added = _hunks(diff)
    out.new_files.extend(f for f in added if owns is None or owns(f))
    for file, spans in sorted(spans_of.items()):
        if owns is not None and not owns(file):
            continue
        out.hunks += len(spans)
        touched = _touched(spans, _ranges(g, info, atc, file))
        if touched:
            out.symbols[file] = touched
        else:
            out.new_files.append(file)  # not in the graph at that commit
    for line in git(info.path, "ls-files", "--others", "--exclude-standard", check=False).splitlines():
        if line and (owns is None or owns(line)):
            out.new_files.append(line)
    out.new_files = sorted(dict.fromkeys(out.new_files))
    return out
