"""Call graph in PyCG format (docs/schema.md): ``{caller: sorted([callee, ...])}``.

Every module, function, method and lambda defined in the snapshot's files is a key (classes are
not), mapped to the sorted, unique list of what it calls: internal FQNs, ``<builtin>.x`` and
external import paths. Only edges with ``confidence >= min_confidence`` are kept: the default
(0.9) keeps the certain edges (1.0) and drops the ones a resolver marked as uncertain.
Shared by the Python and TypeScript extractors and by ``mnemosyne callgraph --format pycg``.

Anonymous functions are named from their context in the facts and the graph
(``m.f.<lambda:sorted(key=)>``, mnemosyne/parse/anon.py); the PyCG format numbers them in source
order within their enclosing scope (``m.f.<lambda1>``), and so does this export (``pycg_names``).
"""

from __future__ import annotations

from collections.abc import Iterable

from mnemosyne.facts import FileFacts, Snapshot, Symbol
from mnemosyne.parse.anon import pycg_fqn

DEFAULT_MIN_CONFIDENCE = 0.9
CALLABLE_KINDS = frozenset({"module", "function", "method", "lambda"})


def to_pycg(snapshot: Snapshot | Iterable[FileFacts], min_confidence: float = DEFAULT_MIN_CONFIDENCE) -> dict[str, list[str]]:
    files = list(snapshot.files.values()) if isinstance(snapshot, Snapshot) else list(snapshot)
    return pycg_names(call_graph(files, min_confidence), ordinals(s for f in files for s in f.symbols))


def call_graph(snapshot: Snapshot | Iterable[FileFacts], min_confidence: float = DEFAULT_MIN_CONFIDENCE) -> dict[str, list[str]]:
    """``to_pycg`` with the names the facts and the graph have (anonymous functions by context)."""
    files = list(snapshot.files.values()) if isinstance(snapshot, Snapshot) else list(snapshot)
    graph: dict[str, set[str]] = {}
    for f in files:
        for s in f.symbols:
            if s.kind in CALLABLE_KINDS:
                graph.setdefault(s.fqn, set())
    for f in files:
        for c in f.calls:
            if c.confidence >= min_confidence:
                graph.setdefault(c.caller, set()).add(c.callee)
    return {k: sorted(v) for k, v in sorted(graph.items())}


def ordinals(symbols: Iterable[Symbol]) -> dict[str, int]:
    """FQN -> PyCG ordinal of the anonymous symbols among ``symbols``."""
    return {s.fqn: s.ordinal for s in symbols if s.ordinal}


def pycg_names(graph: dict[str, set[str]] | dict[str, list[str]], ordinal: dict[str, int]) -> dict[str, list[str]]:
    """A call graph keyed and valued by context names, in PyCG names (``<lambda1>``, ``<arrow2>``),
    sorted as the PyCG format is."""
    out: dict[str, set[str]] = {}
    for k, v in graph.items():
        out.setdefault(pycg_fqn(k, ordinal), set()).update(pycg_fqn(c, ordinal) for c in v)
    return {k: sorted(v) for k, v in sorted(out.items())}
