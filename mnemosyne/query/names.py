"""What a name means at a commit: a fully qualified name, a short or suffix name (``checkout``,
``Cart.total``), a name renamed or moved since; close matches for an unknown one; and the errors
``UnknownSymbol`` / ``AmbiguousSymbol`` that carry suggestions.
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from typing import TYPE_CHECKING

from mnemosyne.errors import SymbolNotFound
from mnemosyne.query.core import records, resolve_at, workspace_info
from mnemosyne.query.lineage import name_at
from mnemosyne.query.models import AtCommit, Candidates, SymbolRef
from mnemosyne.query.reading import At, Source, merge_spans, source_at

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database
    from mnemosyne.store.graph import Graph
    from mnemosyne.store.handles import WorkspaceRef
    from mnemosyne.store.registry import WorkspaceInfo

MAX_NAMES_FOR_FUZZY = 200_000


class UnknownSymbol(SymbolNotFound):
    """A symbol is not defined at the commit asked for; ``suggestions`` lists close matches."""

    def __init__(self, message: str, suggestions: list[str] | None = None) -> None:
        super().__init__(message)
        self.suggestions = suggestions or []


class AmbiguousSymbol(UnknownSymbol):
    """A short or suffix name matches several symbols; ``suggestions`` lists them."""


def ambiguous(info: WorkspaceInfo, name: str, fqns: list[str], where: str) -> AmbiguousSymbol:
    shown = ", ".join(fqns[:10]) + (f" and {len(fqns) - 10} more" if len(fqns) > 10 else "")
    return AmbiguousSymbol(f"{name!r} matches {len(fqns)} symbols {where} in workspace {info.name!r}: {shown}; "
                           "give one fully qualified name", fqns)  # fmt: skip


def not_defined(db: Database, info: WorkspaceInfo, g: Graph, fqn: str, atc: AtCommit) -> UnknownSymbol:
    """The error for a symbol not defined at ``atc``: its lifetime if it ever existed, else close matches."""
    where = f"commit {atc.short}" + (f" (seq {atc.seq})" if atc.seq is not None else " (from source)")
    versions = records(g, "symbol_history", fqn=fqn)
    if versions:
        spans = merge_spans(sorted((r.from_seq, r.to_seq) for r in versions))
        text = ", ".join(f"seq {a}..{'HEAD' if b is None else b - 1}" for a, b in spans)
        return UnknownSymbol(
            f"{fqn} is not defined at {where} in workspace {info.name!r}; it was defined at {text} "
            f"(see `mnemosyne history {fqn}`)",
            [fqn],
        )
    cands = find_symbols(db, info, fqn, at=atc.hash if atc.from_source else None, _atc=atc).candidates
    names = [c.fqn for c in cands]
    hint = f"; did you mean {', '.join(names[:5])}?" if names else "; try `mnemosyne search NAME`"
    return UnknownSymbol(f"unknown symbol {fqn!r} at {where} in workspace {info.name!r}{hint}", names)


def suffix_hits(q: At | None, src: Source | None, name: str, atc: AtCommit, alive_only: bool = True) -> list[SymbolRef]:
    """Symbols whose FQN ends with ``.name`` (``checkout``, ``Cart.total``), sorted: from the parsed
    tree (``src``) or the graph (``q``; defined at ``atc`` unless ``alive_only`` is False)."""
    suffix = "." + name
    if src is not None:
        return [SymbolRef(fqn=f, kind=src.symbols[f].kind, file=src.symbols[f].file, alive=True)
                for f in sorted(src.symbols) if f.endswith(suffix)]  # fmt: skip
    assert q is not None
    rows = q("symbols_by_name", name=name.rsplit(".", 1)[-1], seq=atc.seq)
    return [SymbolRef(fqn=r.fqn, kind=r.kind, file=r.file, alive=bool(r.alive))
            for r in sorted(rows, key=lambda r: r.fqn) if (r.alive or not alive_only) and r.fqn.endswith(suffix)]  # fmt: skip


def also_named(fqn: str, atc: AtCommit, q: At | None, src: Source | None) -> list[str]:
    """For a top-level name (python-slugify's package module ``slugify``): the symbols whose FQN
    ends with it (``slugify.slugify.slugify``), likely the one meant; [] for a dotted or path name."""
    if "." in fqn or "/" in fqn:
        return []
    return [h.fqn for h in suffix_hits(q, src, fqn, atc)]


def resolve_name(db: Database, info: WorkspaceInfo, g: Graph, name: str, atc: AtCommit, q: At | None = None,
                  src: Source | None = None) -> str:  # fmt: skip
    """The FQN ``name`` means at ``atc``: itself when defined there (or an external callee), else
    the one symbol defined there whose FQN ends with ``.name`` (the same lookup as ``get_symbol``).
    ``AmbiguousSymbol`` for several, ``UnknownSymbol`` for none."""
    if src is not None:
        if name in src.symbols or name in src.out or name in src.inc:
            return name
    else:
        q = q or At(g, atc)
        if q("symbol_at_commit", fqn=name, seq=atc.seq):
            return name
        node = records(g, "symbol_node", fqn=name)
        if node and node[0].external:  # an external (library/builtin) callee: it has callers, never a definition
            return name
    hits = suffix_hits(q, src, name, atc)
    if len(hits) == 1:
        return hits[0].fqn
    if hits:
        raise ambiguous(info, name, [h.fqn for h in hits], f"at {atc.short}")
    raise not_defined(db, info, g, name, atc)


def name_then(g: Graph, atc: AtCommit, fqn: str, q: At) -> str | None:
    """The name ``fqn`` had at timeline commit ``atc`` when it was renamed or moved since (the
    recorded links followed back), or None (not renamed since, or defined under ``fqn`` there)."""
    if atc.seq is None or q("symbol_at_commit", fqn=fqn, seq=atc.seq):
        return None
    believed = {"t": q.extra["t"]} if q.extra else {}
    then = name_at(fqn, int(atc.seq), lambda f: records(g, "identity_links_believed" if believed else "identity_links",
                                                         fqns=[f], **believed))  # fmt: skip
    if then is None or not q("symbol_at_commit", fqn=then, seq=atc.seq):
        return None
    return then


def find_symbols(
    db: Database, ws: WorkspaceRef | None, name: str, at: str | AtCommit | None = None, limit: int = 10, *, _atc: AtCommit | None = None
) -> Candidates:
    """Close matches for a (possibly unknown or misspelt) name: same short name first (those
    defined at the commit before others), then fuzzy matches on full and short names."""
    info = workspace_info(db, ws)
    g = db.graph(info.name)
    atc = _atc or resolve_at(db, info, at=at)
    short = name.rsplit(".", 1)[-1]
    found: dict[str, SymbolRef] = {}
    if atc.from_source:
        src = source_at(info, atc, db)
        pool = {f: (s.kind, s.file) for f, s in src.symbols.items()}
        for f, (kind, file) in pool.items():
            if f.rsplit(".", 1)[-1] == short:
                found.setdefault(f, SymbolRef(fqn=f, kind=kind, file=file, alive=True))
        names = list(pool)
    else:
        rows = At(g, atc)("symbols_by_name", name=short, seq=atc.seq)
        rows.sort(key=lambda r: (not r.alive, not r.fqn.endswith("." + name), r.fqn))
        for r in rows:
            found.setdefault(r.fqn, SymbolRef(fqn=r.fqn, kind=r.kind, file=r.file, alive=bool(r.alive)))
        names = [r.fqn for r in records(g, "symbol_names", limit=MAX_NAMES_FOR_FUZZY)]
        pool = {}
    if len(found) < limit and names:
        for f in difflib.get_close_matches(name, names, n=limit, cutoff=0.6):
            found.setdefault(f, SymbolRef(fqn=f, kind=pool.get(f, (None, None))[0], file=pool.get(f, (None, None))[1]))
        by_short: dict[str, list[str]] = defaultdict(list)
        for f in names:
            by_short[f.rsplit(".", 1)[-1]].append(f)
        for s in difflib.get_close_matches(short, list(by_short), n=limit, cutoff=0.75):
            for f in sorted(by_short[s]):
                found.setdefault(f, SymbolRef(fqn=f, kind=pool.get(f, (None, None))[0], file=pool.get(f, (None, None))[1]))
    return Candidates(workspace=info.name, query=name, at=atc, candidates=list(found.values())[:limit])

