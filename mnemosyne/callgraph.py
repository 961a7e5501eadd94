"""Call graph in PyCG format (graph-model §7): ``{caller: sorted([callee, ...])}``.

Every module, function, method and lambda defined in the snapshot's files is a key (classes are
not), mapped to the sorted, unique list of what it calls: internal FQNs, ``<builtin>.x`` and
external import paths. Only edges with ``confidence >= min_confidence`` are kept: the default
(0.9) keeps the certain edges (1.0) and drops the ones a resolver marked as uncertain.
Shared by the Python and TypeScript extractors and by ``mnemosyne callgraph --format pycg``.
"""

from __future__ import annotations

from collections.abc import Iterable

from mnemosyne.facts import FileFacts, Snapshot

DEFAULT_MIN_CONFIDENCE = 0.9
CALLABLE_KINDS = frozenset({"module", "function", "method", "lambda"})


def to_pycg(snapshot: Snapshot | Iterable[FileFacts], min_confidence: float = DEFAULT_MIN_CONFIDENCE) -> dict[str, list[str]]:
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
