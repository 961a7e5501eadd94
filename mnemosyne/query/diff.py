"""What changed between two commits (``diff_commits``): calls, imports, symbols (added, removed,
changed, renamed or moved) and dependencies, from the graph or, off the timeline, from parsed trees.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from mnemosyne.query.core import believed_params, records, resolve_at, snapshot, workspace_info
from mnemosyne.query.lineage import renamed_between, renamed_sig
from mnemosyne.query.models import (
    FORMATTING,
    AtCommit,
    CallChange,
    DependencyChange,
    DiffResult,
    FileChange,
    FileMove,
    ImportChange,
    RenameChange,
    SymbolChange,
    SymbolRename,
)
from mnemosyne.query.own_text import CONTAINER_KINDS, members_only
from mnemosyne.store.rows import Record

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database
    from mnemosyne.store.graph import Graph
    from mnemosyne.store.handles import WorkspaceRef
    from mnemosyne.store.registry import WorkspaceInfo


# the named queries of a diff: (calls, symbols, imports, dependencies), now / as believed at $t
_DIFF = ("diff_calls", "diff_symbols", "diff_imports", "diff_dependencies", "identity_links_between")
_DIFF_BELIEVED = ("diff_calls_believed", "diff_symbols_believed", "diff_imports_believed", "diff_dependencies_believed",
                  "identity_links_between_believed")


def diff_commits(
    db: Database, ws: WorkspaceRef | None, rev_a: str, rev_b: str, path_prefix: str | None = None, as_of_ingest: int | str | None = None
) -> DiffResult:
    """What changed between two commits: calls, imports, symbols and dependencies added/removed
    (symbols also changed: signature, file, body). ``path_prefix`` limits it to files under it.
    ``as_of_ingest`` (epoch seconds or ISO): as Mnemosyne believed it at that wall-clock time, on
    the timeline of then."""
    info = workspace_info(db, ws)
    g = db.graph(info.name)
    a = resolve_at(db, info, at=rev_a, as_of_ingest=as_of_ingest)
    b = resolve_at(db, info, at=rev_b, as_of_ingest=as_of_ingest)
    prefix = (path_prefix or "").lstrip("./") if path_prefix not in (None, "", ".") else ""
    res = DiffResult(workspace=info.name, a=a, b=b, path_prefix=path_prefix or None)
    fmt_only: set[str] = set()  # changed bodies that are formatting-only edits (timeline commits)
    if a.on_timeline and b.on_timeline:
        assert a.seq is not None and b.seq is not None  # a timeline commit has a position
        p = {"a": a.seq, "b": b.seq, "lo": min(a.seq, b.seq), "hi": max(a.seq, b.seq), "prefix": prefix}
        q = _DIFF
        if as_of_ingest is not None:
            p.update(believed_params(g, a))
            q = _DIFF_BELIEVED
        # the same shapes as _source_sets: calls (caller, callee, resolution, confidence, external),
        # symbols fqn -> (kind, file, signature, body_hash), imports and dependencies as tuples
        call_rows = records(g, q[0], **p)
        ca = {(r.caller, r.callee): _call_change_row(r) for r in call_rows if r.in_a}
        cb = {(r.caller, r.callee): _call_change_row(r) for r in call_rows if r.in_b}
        sym_rows = records(g, q[1], **p)
        sa = {r.fqn: (r.kind, r.file, r.signature, r.body_hash) for r in sym_rows if r.in_a}
        sb = {r.fqn: (r.kind, r.file, r.signature, r.body_hash) for r in sym_rows if r.in_b}
        imp_rows = records(g, q[2], **p)
        ia = {(r.file, r.target, r.target_kind) for r in imp_rows if r.in_a}
        ib = {(r.file, r.target, r.target_kind) for r in imp_rows if r.in_b}
        dep_rows = records(g, q[3], **p)
        da = {_dep_row(r) for r in dep_rows if r.in_a}
        db_ = {_dep_row(r) for r in dep_rows if r.in_b}
        links = records(g, q[4], lo=p["lo"], hi=p["hi"], **({"t": p["t"]} if "t" in p else {}))
        renamed = renamed_between(sa.keys() - sb.keys(), sb.keys() - sa.keys(), links, forward=a.seq <= b.seq)
        if as_of_ingest is None:  # (as believed at a past time: reported as body changes)
            fmt_only = _formatting_only(g, [f for f in sa.keys() & sb.keys() if (sa[f][3] or "") != (sb[f][3] or "")],
                                        min(a.seq, b.seq), max(a.seq, b.seq))  # fmt: skip
    else:
        res.from_source = True
        ca, sa, ia, da = _source_sets(info, a, db, prefix)
        cb, sb, ib, db_ = _source_sets(info, b, db, prefix)
        renamed = []  # renames are recorded for timeline commits only
    res.calls_added = [CallChange(caller=k[0], callee=k[1], resolution=cb[k][2], external=bool(cb[k][4]))
                       for k in sorted(cb.keys() - ca.keys())]  # fmt: skip
    res.calls_removed = [CallChange(caller=k[0], callee=k[1], resolution=ca[k][2], external=bool(ca[k][4]))
                         for k in sorted(ca.keys() - cb.keys())]  # fmt: skip
    olds, news = {o for o, _, _ in renamed}, {n for _, n, _ in renamed}
    res.symbols_added = [SymbolChange(fqn=f, kind=sb[f][0], file=sb[f][1], signature=sb[f][2])
                         for f in sorted(sb.keys() - sa.keys() - news)]  # fmt: skip
    res.symbols_removed = [SymbolChange(fqn=f, kind=sa[f][0], file=sa[f][1], signature=sa[f][2])
                           for f in sorted(sa.keys() - sb.keys() - olds)]  # fmt: skip
    res.symbols_renamed = [_renamed(o, n, sim, sa[o], sb[n]) for o, n, sim in renamed]
    for f in sorted(sa.keys() & sb.keys()):
        (_, fa, siga, ha), (kind, fb, sigb, hb) = sa[f], sb[f]
        changes = [n for n, x, y in (("signature", siga, sigb), ("file", fa, fb), ("body", ha, hb))
                   if (x or "") != (y or "")]  # fmt: skip
        if f in fmt_only:
            changes = [FORMATTING if c == "body" else c for c in changes]
        if changes:
            res.symbols_changed.append(SymbolChange(fqn=f, kind=kind, file=fb, signature=sigb, old_file=fa,
                                                    old_signature=siga, changes=changes))  # fmt: skip
    res.symbols_changed = _own_changes(info.path, a.hash, b.hash, res.symbols_changed)
    for side, lst in ((res.files_added, res.symbols_added), (res.files_removed, res.symbols_removed)):
        whole = {s.file for s in lst if s.kind == "module" and s.file}
        counts = Counter(s.file for s in lst if s.file in whole)
        side.extend(FileChange(file=f, symbols=n) for f, n in sorted(counts.items()) if f)
    moves = _file_moves(sa, sb, renamed)
    res.files_moved = [FileMove(old_file=fa, file=fb, symbols=n) for fa, (fb, n) in sorted(moves.items())]
    to_b = {fa: fb for fa, (fb, _) in moves.items()}

    def moved(k: tuple[str, str, str]) -> tuple[str, str, str]:  # an import of A under B's paths
        file, target, kind = k
        return to_b.get(file, file), to_b.get(target, target) if kind == "file" else target, kind

    ia_b = {moved(k) for k in ia}
    res.imports_added = [ImportChange(file=k[0], target=k[1], target_kind=k[2]) for k in sorted(ib - ia_b)]
    res.imports_removed = [ImportChange(file=k[0], target=k[1], target_kind=k[2])
                           for k in sorted(ia) if moved(k) not in ib]  # fmt: skip
    added = [_dep_change(k) for k in sorted(db_ - da, key=_dep_key)]
    removed = [_dep_change(k) for k in sorted(da - db_, key=_dep_key)]
    res.dependencies_added, res.dependencies_changed, res.dependencies_removed = _pair_dependencies(added, removed)
    return res


def _own_changes(repo: str, ca: str, cb: str, changed: list[SymbolChange]) -> list[SymbolChange]:
    """``changed`` without the body change of a module or class whose own code is the same at both
    commits (an edit inside one method changes its class's and module's body text: query.own_text)."""
    asked = [(c.fqn, ca, c.old_file or c.file or "", cb, c.file or "") for c in changed
             if c.kind in CONTAINER_KINDS and c.file and ("body" in c.changes or FORMATTING in c.changes)]  # fmt: skip
    same = members_only(repo, asked) if asked else set()
    out = []
    for c in changed:
        if c.fqn in same:
            c = c.model_copy(update={"changes": [x for x in c.changes if x not in ("body", FORMATTING)]})
        if c.changes:
            out.append(c)
    return out


def _file_moves(sa: dict, sb: dict, renamed: list[tuple[str, str, float | None]]) -> dict[str, tuple[str, int]]:
    """Files moved between the two sides (old path -> (new path, symbols that went with it)): a
    symbol keeps its name only when its module does, so a kept name in another file (``pkg/x.py``
    -> ``src/pkg/x.py``) is its file moving, and so is a renamed module; where one file's symbols
    went to several, the file is where most went."""
    pairs: dict[tuple[str, str], int] = {}
    for f in sa.keys() & sb.keys():
        fa, fb = sa[f][1], sb[f][1]
        if fa and fb and fa != fb:
            pairs[(fa, fb)] = pairs.get((fa, fb), 0) + 1
    for old, new, _ in renamed:
        fa, fb = sa[old][1], sb[new][1]
        if sb[new][0] == "module" and fa and fb and fa != fb:
            pairs[(fa, fb)] = pairs.get((fa, fb), 0) + 1
    best: dict[str, tuple[str, int]] = {}
    for (fa, fb), n in sorted(pairs.items()):
        if fa not in best or n > best[fa][1]:
            best[fa] = (fb, n)
    return best


def _pair_dependencies(
    added: list[DependencyChange], removed: list[DependencyChange]
) -> tuple[list[DependencyChange], list[DependencyChange], list[DependencyChange]]:
    """(added, changed, removed): a package both removed and added on one manifest (same relation
    and repository package) is one change, with the old spec, scope or version where they differ; of several lines
    for one package (``>=1; python_version<'3.8'`` and ``>=2; ...``), a removed one is paired with an
    added one of the same operator first."""

    def key(x: DependencyChange) -> tuple[str, str, str]:
        return x.relation, x.package, x.name

    def shape(x: DependencyChange) -> str:  # '>=' of '>=2.31', '==' of '==2.31.0': the same manifest line
        spec = x.spec or ""
        return spec[: len(spec) - len(spec.lstrip("<>=!~^ "))]

    gone: dict[tuple[str, str, str], list[DependencyChange]] = {}
    for x in removed:
        gone.setdefault(key(x), []).append(x)
    new, changed = [], []
    for x in added:
        olds = gone.get(key(x)) or []
        old = next((o for o in olds if shape(o) == shape(x)), olds[0] if olds else None)
        if old is None:
            new.append(x)
            continue
        olds.remove(old)
        changed.append(x.model_copy(update={f"old_{k}": getattr(old, k) for k in ("spec", "version", "scope")
                                            if getattr(old, k) != getattr(x, k)}))  # fmt: skip
    return new, changed, [x for olds in gone.values() for x in olds]


def _formatting_only(g: Graph, fqns: list[str], lo: int, hi: int) -> set[str]:
    """Of ``fqns`` (whose body text differs between the timeline positions ``lo`` and ``hi``), those
    whose every version started in between was a formatting-only edit (``REFORMATS``): the code is
    the same token for token (a blank line, a reflowed call, a comment)."""
    if not fqns:
        return set()
    fmt: dict[str, set[int]] = {}
    for r in records(g, "reformats", fqns=fqns):
        fmt.setdefault(r.fqn, set()).add(r.seq)
    if not fmt:
        return set()
    starts: dict[str, set[int]] = {}
    for r in records(g, "versions_started_between", fqns=list(fmt), lo=lo, hi=hi):
        starts.setdefault(r.fqn, set()).add(r.seq)
    return {f for f, seqs in starts.items() if seqs and seqs <= fmt[f]}


def _call_change_row(r: Record) -> tuple[str, str, str, float, bool]:
    return (r.caller, r.callee, r.resolution, r.confidence, r.external)


def _dep_row(r: Record) -> tuple[Any, ...]:
    return (r.relation, r.package, r.ecosystem, r.name, r.spec, r.scope, r.version)


def _renamed(old: str, new: str, sim: float | None, va: tuple, vb: tuple) -> SymbolRename:
    """A rename/move between the two commits of a diff (``va``/``vb``: kind, file, signature, body)."""
    (_, fa, siga, ha), (kind, fb, sigb, hb) = va, vb
    o_name, n_name = old.rsplit(".", 1)[-1], new.rsplit(".", 1)[-1]
    moved = fa != fb or old.rsplit(".", 1)[0] != new.rsplit(".", 1)[0]
    change: RenameChange = "move" if o_name == n_name else "rename_move" if moved else "rename"
    changes = [n for n, x, y in (("signature", renamed_sig(siga, o_name, n_name), sigb), ("body", ha, hb))
               if (x or "") != (y or "") and not (n == "body" and sim is not None and sim >= 1.0)]  # fmt: skip
    return SymbolRename(old_fqn=old, fqn=new, kind=kind, change=change, old_file=fa, file=fb, old_signature=siga,
                        signature=sigb, similarity=sim, changes=changes)  # fmt: skip


def _dep_key(k: tuple) -> tuple:
    return tuple("" if x is None else str(x) for x in k)


def _dep_change(k: tuple) -> DependencyChange:
    relation, package, ecosystem, name, spec, scope, version = k
    return DependencyChange(relation=relation, package=package or "", ecosystem=ecosystem, name=name, spec=spec,
                            scope=scope, version=version)  # fmt: skip


def _source_sets(info: WorkspaceInfo, atc: AtCommit, db: Database, prefix: str) -> tuple[dict, dict, set, set]:
    """The diff sets of one commit, computed from its parsed tree (same shapes as the graph's)."""
    snap = snapshot(info, atc.hash, db.settings.max_file_bytes, db.settings.parse_workers,
                     db.settings.resolve_workers)
    calls_: dict = {}
    syms: dict = {}
    imps: set = set()
    for f in snap.files.values():
        if not f.path.startswith(prefix):
            continue
        for c in f.calls:
            calls_[(c.caller, c.callee)] = (c.caller, c.callee, c.resolution, c.confidence, c.external)
        for s in f.symbols:
            syms[s.fqn] = (s.kind, s.file, s.signature, s.body_hash)
        for imp in f.imports:
            imps.add((f.path, imp.target, imp.target_kind))
    deps: set = set()
    for d in snap.packages.dependencies:
        if d.package.startswith(prefix):
            deps.add(("depends", d.package, d.ecosystem, d.name, d.spec, d.scope, None))
    for lk in snap.packages.locks:
        if lk.package.startswith(prefix):
            deps.add(("locks", lk.package, lk.ecosystem, lk.name, None, None, lk.version))
    return calls_, syms, imps, deps


