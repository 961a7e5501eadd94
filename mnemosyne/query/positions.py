"""Positions at a commit, derived from the source: a symbol's line range and a call's call-site lines.

Positions are not versioned facts (docs/schema.md): an edit above a function moves it without
changing it, so the graph keeps no line range on a ``DEFINES`` version. The nodes carry the latest
(HEAD) values for display; at any other commit the query layer reads the file at that commit and
extracts it alone (one parse and a resolution of that file by itself, cached per blob), then:

- a symbol's range is the range of the symbol with the same qualified name in that file;
- a call's lines are the caller's first line at the commit plus the call-site offsets the
  ``CALLS`` version recorded (``rel_lines``), when the caller's body at the commit is the body they
  were measured on (``lines_hash``, the common case: most commits do not touch a given function).
  Otherwise the file's own resolution gives them: the sites calling that callee, else the sites
  calling a callee of the same last name; failing both (a call through another module's class,
  which the file alone cannot resolve), the lines of the caller's body that name the callee
  (``name(``, else the bare name: a property, a decorator).
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mnemosyne.facts import Call, Symbol
from mnemosyne.git.readers import read_object
from mnemosyne.timeline.read import CallSites

_CACHE_MAX = 64  # files at a commit never change; a calls tree at one commit reads a few dozen
_CONSTRUCTORS = ("__init__", "constructor", "__new__")


@dataclass(slots=True)
class FilePositions:
    """The symbols and call sites of one file at one commit, from the file alone."""

    by_fqn: dict[str, Symbol] = field(default_factory=dict)
    by_qual: dict[str, Symbol] = field(default_factory=dict)  # qualified name inside the module
    calls: dict[str, list[Call]] = field(default_factory=dict)  # caller FQN -> its calls
    text: list[str] = field(default_factory=list)  # the file's lines

    def find(self, fqn: str) -> Symbol | None:
        """The symbol named ``fqn`` in the graph: the same FQN, else the same name inside its
        module (the graph may name the module differently: a source root the file alone can't see)."""
        hit = self.by_fqn.get(fqn)
        if hit is not None:
            return hit
        parts = fqn.split(".")
        for k in range(1, len(parts)):
            hit = self.by_qual.get(".".join(parts[k:]))
            if hit is not None:
                return hit
        return None


_LOCK = threading.Lock()
_CACHE: OrderedDict[tuple[str, str, str], FilePositions | None] = OrderedDict()


def _extract(path: str, data: bytes) -> FilePositions | None:
    from mnemosyne.extract import Extractor

    ex = Extractor(parse_workers=1, resolve_workers=1)
    if not ex.owns(path):
        return None
    ex.update({path: data})
    ff = ex.facts(path)
    if ff is None:
        return None
    fp = FilePositions(text=data.decode("utf-8", errors="replace").splitlines())
    module = next((s.fqn for s in ff.symbols if s.kind == "module"), None)
    for s in ff.symbols:
        fp.by_fqn[s.fqn] = s
        if module and s.fqn.startswith(module + "."):
            fp.by_qual.setdefault(s.fqn[len(module) + 1 :], s)
    for c in ff.calls:
        fp.calls.setdefault(c.caller, []).append(c)
    return fp


def file_positions(repo: str | Path, commit: str, file: str) -> FilePositions | None:
    """Symbols and calls of ``file`` at ``commit`` (None: no such file, or not a source file)."""
    key = (str(repo), commit, file)
    with _LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    data = read_object(repo, f"{commit}:{file}") if file and "\n" not in file else None
    fp = _extract(file, data) if data is not None else None
    with _LOCK:
        _CACHE[key] = fp
        while len(_CACHE) > _CACHE_MAX:
            _CACHE.popitem(last=False)
    return fp


def symbol_span(repo: str | Path, commit: str, file: str | None, fqn: str) -> tuple[int, int] | None:
    """(line_start, line_end) of ``fqn`` in ``file`` at ``commit``, or None when not found there."""
    if not file:
        return None
    fp = file_positions(repo, commit, file)
    s = fp.find(fqn) if fp is not None else None
    return (s.line_start, s.line_end) if s is not None else None


def anonymous_ordinals(repo: str | Path, commit: str, files: dict[str, str]) -> dict[str, int]:
    """FQN -> ``Symbol.ordinal`` at ``commit`` of the anonymous functions (and class expressions)
    ``files`` maps to their file: their source order in their enclosing scope, which the PyCG
    export numbers them by (mnemosyne.callgraph.pycg_names) and which the graph does not keep."""
    out: dict[str, int] = {}
    for fqn, file in files.items():
        fp = file_positions(repo, commit, file)
        s = fp.find(fqn) if fp is not None else None
        if s is not None and s.ordinal:
            out[fqn] = s.ordinal
    return out


def _last(fqn: str) -> str:
    head, _, last = fqn.rpartition(".")
    if last in _CONSTRUCTORS and head:  # Cls(...) calls Cls.__init__: the site names the class
        return head.rpartition(".")[2]
    return last


def absolute_lines(first_line: int | None, rel: Sequence[int] | None) -> list[int]:
    """Call-site lines from the caller's first line and the recorded offsets."""
    if first_line is None or not rel:
        return []
    return [int(first_line) + int(r) for r in rel]


def site_lines(repo: str | Path, commit: str, at_head: bool, caller: str, callee: str, sites: CallSites) -> list[int]:
    """The lines of the calls from ``caller`` to ``callee`` at ``commit``: at the ingested head from
    the caller node's first line (when its body is the one the offsets were measured on), else from
    the source at ``commit`` (``call_lines``)."""
    if not sites.rel_lines:
        return []
    if at_head and sites.lines_hash == sites.caller_hash:
        return absolute_lines(sites.caller_line, sites.rel_lines)
    return call_lines(repo, commit, sites.caller_file, caller, callee, sites.rel_lines, sites.lines_hash)


def call_lines(repo: str | Path, commit: str, file: str | None, caller: str, callee: str,
               rel: Sequence[int] | None, lines_hash: str | None) -> list[int]:
    """Lines of the calls from ``caller`` to ``callee`` at ``commit`` (see the module doc)."""
    if not file:
        return []
    fp = file_positions(repo, commit, file)
    s = fp.find(caller) if fp is not None else None
    if fp is None or s is None:
        return []
    if rel and lines_hash and s.body_hash == lines_hash:
        return absolute_lines(s.line_start, rel)
    own = fp.calls.get(s.fqn, [])
    lines = {ln for c in own if c.callee == callee for ln in c.lines}
    name = _last(callee)
    if not lines:
        lines = {ln for c in own if _last(c.callee) == name for ln in c.lines}
    if not lines and name.isidentifier():
        lines = set(_naming_lines(fp.text, s.line_start, s.line_end, name))
    return sorted(lines)


def _naming_lines(text: list[str], start: int, end: int, name: str) -> list[int]:
    """Lines ``start..end`` that call ``name`` (``name(``), else that name it at all."""
    body = list(enumerate(text[max(start - 1, 0) : end], start=max(start, 1)))
    called = re.compile(rf"\b{re.escape(name)}\s*\(")
    hits = [n for n, line in body if called.search(line)]
    if hits:
        return hits
    named = re.compile(rf"\b{re.escape(name)}\b")
    return [n for n, line in body if named.search(line)]
