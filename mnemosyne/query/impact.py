"""What changing symbols or files affects (``impact``): their callers and the files importing them,
transitively, grouped by distance. A class stands for its methods (their callers are reached at
the first step) and reaches its subclasses, which stand for theirs in turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal

from mnemosyne.errors import ConfigError
from mnemosyne.query.core import records
from mnemosyne.query.models import AtCommit, ImpactItem, ImpactLevel, ImpactResult
from mnemosyne.query.names import AmbiguousSymbol, UnknownSymbol, name_then, resolve_name
from mnemosyne.query.reading import At, context, source_at

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database
    from mnemosyne.store.handles import WorkspaceRef


def _reach(items: dict[tuple[str, str], ImpactItem], kind: Literal["symbol", "file"],
           edges: Iterable[tuple[str, str, str | None]], seen: set[str], nxt: list[str]) -> None:  # fmt: skip
    """One impact step: each ``(who, via, file)`` edge makes ``who`` (a caller or an importer) an
    item reached through ``via``; ``who`` not seen before joins the next frontier."""
    for who, via, file in edges:
        if who in seen and (kind, who) not in items:
            continue
        item = items.setdefault((kind, who), ImpactItem(kind=kind, name=who, file=file))
        if via not in item.via:
            item.via.append(via)
        if who not in seen:
            nxt.append(who)
            seen.add(who)


def impact(
    db: Database,
    ws: WorkspaceRef | None,
    fqns: list[str] | None = None,
    files: list[str] | None = None,
    depth: int = 3,
    at: str | AtCommit | None = None,
    as_of: int | str | None = None,
) -> ImpactResult:
    """What is affected by changing ``fqns`` (or the symbols defined in ``files``): everything
    that calls them transitively, and the files that import ``files`` transitively, grouped by
    distance (1 = direct), up to ``depth`` (1..10)."""
    if not fqns and not files:
        raise ConfigError("impact needs symbols (fqns) or files")
    if not 1 <= int(depth) <= 10:
        raise ConfigError(f"depth must be between 1 and 10, not {depth}")
    info, g, atc = context(db, ws, at, as_of)
    files = [f.lstrip("./") if f.startswith("./") else f for f in (files or [])]
    missing: list[str] = []
    targets: list[str] = []
    src = source_at(info, atc, db) if atc.from_source else None
    names_then: dict[str, str] = {}
    q = At(g, atc) if src is None else None
    for fqn in fqns or []:
        then = name_then(g, atc, fqn, q) if q is not None else None
        if then is not None:  # today's name, renamed or moved since that commit
            names_then[fqn] = then
            targets.append(then)
            continue
        try:  # a short or suffix name as get_symbol takes it; several matches raise AmbiguousSymbol
            targets.append(resolve_name(db, info, g, fqn, atc, src=src))
        except AmbiguousSymbol:
            raise
        except UnknownSymbol:
            missing.append(fqn)
    present_files: list[str] = []
    if files:
        if src is not None:
            for f in files:
                syms = [s.fqn for s in src.snap.files[f].symbols] if f in src.snap.files else []
                if syms:
                    present_files.append(f)
                    targets.extend(syms)
                else:
                    missing.append(f)
        else:
            existing = {r.path for f in files for r in records(g, "files_at_commit", seq=atc.seq, prefix=f)}
            present_files = [f for f in files if f in existing]
            missing.extend(f for f in files if f not in existing)
            if present_files:
                rows = records(g, "symbols_in_files", paths=present_files, seq=atc.seq)
                targets.extend(sorted({r.fqn for r in rows}))
    targets = list(dict.fromkeys(targets))

    def callers_of(names: list[str]) -> list[tuple[str, str, str | None]]:
        if src is not None:
            return [(c.caller, c.callee, src.file_of_caller.get(c.caller)) for n in names for c in src.inc.get(n, [])]
        return [(r.caller, r.callee, r.file) for r in records(g, "impact", fqns=names, seq=atc.seq)]

    def classes_of(names: list[str]) -> tuple[dict[str, list[str]], list[tuple[str, str, str | None]]]:
        """The methods of the classes among ``names`` and their (sub, base, file) subclass edges."""
        if src is not None:
            want = {n for n in names if getattr(src.symbols.get(n), "kind", None) == "class"}
            members: dict[str, list[str]] = {}
            if not want:  # (no class in this step: no scan of every symbol)
                return members, []
            for fqn, sym in src.symbols.items():
                if sym.kind == "class":
                    continue
                parent = sym.parent
                while parent in src.symbols:  # the classes it is a method of, or nested in through one
                    if parent in want:
                        members.setdefault(parent, []).append(fqn)
                    parent = src.symbols[parent].parent
            subs = [(i.child, i.parent, getattr(src.symbols.get(i.child), "file", None))
                    for f in src.snap.files.values() for i in f.inherits if i.parent in want]  # fmt: skip
            return members, subs
        members = {}
        for r in records(g, "class_members_at_commit", fqns=names, seq=atc.seq):
            members.setdefault(r.cls, []).append(r.member)
        subs = [(r.sub, r.base, r.file) for r in records(g, "subclasses_at_commit", fqns=names, seq=atc.seq)]
        return members, subs

    def importers_of(paths: list[str]) -> list[tuple[str, str]]:
        if src is not None:
            wanted = set(paths)
            return [(f, t) for f, t, kind in src.imports if kind == "file" and t in wanted]
        return [(r.importer, r.imported) for r in records(g, "importers_at_commit", paths=paths, seq=atc.seq)]

    seen_syms = set(targets)
    seen_files = set(present_files)
    sym_frontier = list(targets)
    file_frontier = list(present_files)
    levels: list[ImpactLevel] = []
    for d in range(1, int(depth) + 1):
        items: dict[tuple[str, str], ImpactItem] = {}
        nxt_syms: list[str] = []
        nxt_files: list[str] = []
        if sym_frontier:
            members, subs = classes_of(sym_frontier)
            for ms in members.values():  # a class's methods are part of it: their callers are its callers
                fresh = [m for m in ms if m not in seen_syms]
                seen_syms.update(fresh)
                sym_frontier.extend(fresh)
            _reach(items, "symbol", callers_of(sym_frontier), seen_syms, nxt_syms)
            _reach(items, "symbol", subs, seen_syms, nxt_syms)
        if file_frontier:
            _reach(items, "file", ((imp, target, imp) for imp, target in importers_of(file_frontier)), seen_files,
                   nxt_files)  # fmt: skip
        if not items:
            break
        for item in items.values():
            item.via.sort()
        levels.append(ImpactLevel(distance=d, items=sorted(items.values(), key=lambda i: (i.kind, i.name))))
        sym_frontier, file_frontier = nxt_syms, nxt_files
    return ImpactResult(workspace=info.name, at=atc, targets=targets, files=present_files, depth=int(depth),
                        levels=levels, missing=missing, from_source=atc.from_source,
                        names_then=names_then)  # fmt: skip

