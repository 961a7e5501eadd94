"""A symbol at a commit (``get_symbol``: lines, source, counts, metrics) and the files present at a
commit (``list_files``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mnemosyne.query.calls import constructor
from mnemosyne.query.core import file_lines, records, snapshot
from mnemosyne.query.models import AtCommit, Candidates, CodeMetrics, FileRef, FilesResult, SymbolResult
from mnemosyne.query.names import also_named, not_defined, suffix_hits
from mnemosyne.query.positions import symbol_span
from mnemosyne.query.reading import At, Source, context, source_at
from mnemosyne.store.rows import Record

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database
    from mnemosyne.store.handles import WorkspaceRef
    from mnemosyne.store.registry import WorkspaceInfo


def _metrics(label: str, kind: str | None, complexity: Any, loc: Any, params: Any, nesting: Any) -> CodeMetrics | None:
    """A function's or method's metrics (None for classes, modules, lambdas and graphs built before
    metrics were stored)."""
    if label != "Function" or kind not in ("function", "method") or complexity is None:
        return None
    return CodeMetrics(complexity=int(complexity), loc=int(loc or 0), params=int(params or 0), nesting=int(nesting or 0))


def _symbol_from_row(info: WorkspaceInfo, atc: AtCommit, row: Record, with_source: bool) -> SymbolResult:
    fqn, label, kind, file, ls, le = row.fqn, row.label, row.kind, row.file, row.line_start, row.line_end
    if not atc.at_head:  # the node's range is the head's: derive the range at this commit
        ls, le = symbol_span(info.path, atc.hash, file, fqn) or (None, None)
    source = file_lines(info.path, atc.hash, file, ls, le) if with_source else None
    return SymbolResult(
        workspace=info.name, fqn=fqn, name=row.name, kind=kind, label=label, file=file, line_start=ls, line_end=le,
        signature=row.signature, docstring=row.docstring, body_hash=row.body_hash, parent=row.parent,
        callers_count=int(row.callers or 0), callees_count=int(row.callees or 0), since_seq=row.since_seq,
        source=source, at=atc, metrics=_metrics(label, kind, row.complexity, row.loc, row.params, row.nesting),
    )  # fmt: skip


def _symbol_from_source(info: WorkspaceInfo, atc: AtCommit, src: Source, fqn: str, with_source: bool) -> SymbolResult:
    s = src.symbols[fqn]
    source = file_lines(info.path, atc.hash, s.file, s.line_start, s.line_end) if with_source else None
    return SymbolResult(
        workspace=info.name, fqn=s.fqn, name=s.name, kind=s.kind, label="Class" if s.kind == "class" else "Function",
        file=s.file, line_start=s.line_start, line_end=s.line_end, signature=s.signature, docstring=s.docstring,
        body_hash=s.body_hash, parent=s.parent, callers_count=len(src.inc.get(fqn, [])),
        callees_count=len(src.out.get(fqn, [])), source=source, at=atc, from_source=True,
        metrics=_metrics("Function", s.kind, s.complexity, s.loc, s.params, s.nesting),
    )  # fmt: skip


def _with_constructor_callers(res: SymbolResult, q: At | None, src: Source | None) -> SymbolResult:
    """A class is called through its constructor (``callers`` answers so): its callers count is
    the constructor's, named in ``callers_of``."""
    if res.label != "Class" or res.callers_count:
        return res
    ctor = constructor(res.fqn, res.at, q, src)
    if ctor is None:
        return res
    if src is not None:
        n = len(src.inc.get(ctor, []))
    else:
        assert q is not None
        rows = q("symbol_at_commit", fqn=ctor, seq=res.at.seq)
        n = int(rows[0].callers or 0) if rows else 0
    return res.model_copy(update={"callers_count": n, "callers_of": ctor})


def _with_also_named(res: SymbolResult, q: At | None, src: Source | None) -> SymbolResult:
    """A top-level module asked for by its name (python-slugify's ``slugify``): the symbols named
    like it (``slugify.slugify.slugify``), which were likely meant."""
    named = also_named(res.fqn, res.at, q, src) if res.kind == "module" else []
    return res.model_copy(update={"also_named": named}) if named else res


def get_symbol(
    db: Database,
    ws: WorkspaceRef | None,
    name_or_fqn: str,
    at: str | AtCommit | None = None,
    as_of: int | str | None = None,
    with_source: bool = True,
    as_of_ingest: int | str | None = None,
) -> SymbolResult | Candidates:
    """A symbol at a commit (signature, docstring, file, lines, kind, caller/callee counts, source).

    ``name_or_fqn`` may be a fully qualified name or a short/suffix name (``checkout``,
    ``Cart.total``): one match gives the symbol, several give ``Candidates``, none raises
    ``UnknownSymbol`` (a ``SymbolNotFound``) with close matches. ``as_of_ingest``: as believed at
    that wall-clock time (transaction time).
    """
    info, g, atc = context(db, ws, at, as_of, as_of_ingest)
    if atc.from_source:
        src = source_at(info, atc, db)
        if name_or_fqn in src.symbols:
            res = _with_constructor_callers(_symbol_from_source(info, atc, src, name_or_fqn, with_source), None, src)
            return _with_also_named(res, None, src)
        refs = suffix_hits(None, src, name_or_fqn, atc)
        if len(refs) == 1:
            return _with_constructor_callers(_symbol_from_source(info, atc, src, refs[0].fqn, with_source), None, src)
        if refs:
            return Candidates(workspace=info.name, query=name_or_fqn, at=atc, candidates=refs)
        raise not_defined(db, info, g, name_or_fqn, atc)
    q = At(g, atc)
    rows = q("symbol_at_commit", fqn=name_or_fqn, seq=atc.seq)
    if rows:
        return _with_also_named(_with_constructor_callers(_symbol_from_row(info, atc, rows[0], with_source), q, None), q, None)
    refs = suffix_hits(q, None, name_or_fqn, atc)
    if len(refs) == 1:
        rows = q("symbol_at_commit", fqn=refs[0].fqn, seq=atc.seq)
        if rows:
            return _with_constructor_callers(_symbol_from_row(info, atc, rows[0], with_source), q, None)
    if refs:
        return Candidates(workspace=info.name, query=name_or_fqn, at=atc, candidates=refs)
    raise not_defined(db, info, g, name_or_fqn, atc)


def list_files(
    db: Database, ws: WorkspaceRef | None, at: str | AtCommit | None = None, as_of: int | str | None = None, path_prefix: str | None = None
) -> FilesResult:
    """Source files present at a commit (optionally under ``path_prefix``), with language and module."""
    info, g, atc = context(db, ws, at, as_of)
    prefix = path_prefix or ""
    if atc.from_source:
        snap = snapshot(info, atc.hash, db.settings.max_file_bytes, db.settings.parse_workers,
                     db.settings.resolve_workers)
        files = [FileRef(path=f.path, language=f.language, module=f.module)
                 for f in sorted(snap.files.values(), key=lambda f: f.path) if f.path.startswith(prefix)]  # fmt: skip
    else:
        files = [FileRef(path=r.path, language=r.language, module=r.module)
                 for r in records(g, "files_at_commit", seq=atc.seq, prefix=prefix)]  # fmt: skip
    return FilesResult(workspace=info.name, at=atc, path_prefix=path_prefix, files=files,
                       from_source=atc.from_source)  # fmt: skip


