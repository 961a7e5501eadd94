"""The impact tool: what changing a symbol, files or the working tree affects (``impact``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import BaseModel, Field

from mnemosyne import limits as L
from mnemosyne import query as Q
from mnemosyne.errors import ConfigError
from mnemosyne.extract import Extractor
from mnemosyne.mcp import models as M
from mnemosyne.mcp.tools.base import RO, At, Cursor, Depth, Limit, Tool, Workspace
from mnemosyne.mcp.tools.common import code, constraint_line, decode_cursor, inside_repo, lock_line, page_of
from mnemosyne.query import coordination as C
from mnemosyne.query.core import git
from mnemosyne.query.models import AtCommit
from mnemosyne.query.worktree import working_tree_changes

if TYPE_CHECKING:
    from mnemosyne.mcp.service import McpService
    from mnemosyne.store.connection import Database
    from mnemosyne.store.registry import WorkspaceInfo


class ImpactInput(BaseModel):
    target: Annotated[str | list[str],
                      Field(description="a symbol FQN, a list of repository-relative files, or the literal "
                                        "'working-tree' (files changed per git status)")]
    depth: Depth = 2
    at: At = None
    limit: Limit = 100
    cursor: Cursor = None
    workspace: Workspace = None


class Impact(Tool[ImpactInput, M.ImpactAnswer]):
    name = "impact"
    description = """What is affected by changing the target: transitive callers of its symbols and importers
        of its files, grouped by distance (1 = direct), with the constraints and locks that apply."""
    input_model = ImpactInput
    output_model = M.ImpactAnswer
    annotations = RO

    def apply(self, svc: McpService, args: ImpactInput) -> tuple[M.ImpactAnswer, str]:
        target, depth, at, limit, cursor, workspace = (
            args.target, args.depth, args.at, args.limit, args.cursor, args.workspace)
        offset = decode_cursor(cursor)
        info, atc, ref, fr = svc.resolve(workspace, at)
        fqns: list[str] = []
        files: list[str] = []
        note = ""
        if isinstance(target, str):
            if not target.strip():
                raise ConfigError("target must be a symbol FQN, a list of files, or 'working-tree'")
            if target.strip() == "working-tree":
                if atc.from_source:  # no ranges in the graph at that commit: the changed files
                    files = working_tree_files(info)
                    note = f"{len(files)} file(s) changed in the working tree"
                else:
                    ch = working_tree_changes(svc.db.graph(info.name), info, atc, owns=Extractor().owns)
                    fqns, files = ch.fqns, ch.new_files
                    note = (f"{ch.hunks} change(s) in the working tree touch {len(fqns)} symbol(s)"
                            + (f"; {len(files)} new file(s)" if files else ""))
                    if not fqns and not files:
                        note += " (no source change)"
            else:
                fqns = [L.check_key(target.strip(), "target") or ""]
        else:
            if not target:
                raise ConfigError("target list must not be empty")
            L.check_items(target, "target list")
            files = [inside_repo(info, L.check_key(f, "a target file") or "") for f in target]
        if not fqns and not files:
            res = None
        else:
            res = Q.impact(svc.db, info, fqns=fqns or None, files=files or None, depth=depth,
                           at=atc)  # fmt: skip
        items: list[M.ImpactEntry] = []
        by_distance: dict[str, int] = {}
        targets: list[str] = []
        missing: list[str] = []
        present_files: list[str] = []
        if res is not None:
            targets, missing, present_files = res.targets, res.missing, res.files
            if fqns and not targets:
                raise Q.UnknownSymbol(*_unknown_symbol_args(svc.db, info, fqns[0], atc))
            for lvl in res.levels:
                by_distance[str(lvl.distance)] = len(lvl.items)
                for it in lvl.items:
                    items.append(M.ImpactEntry(distance=lvl.distance, kind=it.kind, name=it.name, file=it.file,
                                               via=it.via[:10]))  # fmt: skip
        names = list(dict.fromkeys([*targets, *present_files, *(i.name for i in items)]))
        constraints = C.constraints_for(svc.db, info, names)[:50] if names else []
        locks = C.locks_for(svc.db, info, names)[:50] if names else []
        kept, page = page_of(items, offset, limit)
        out = M.ImpactAnswer(workspace=info.name, at=ref, freshness=fr, target=target, targets=targets[:100],
                             targets_total=len(targets), files=present_files[:200], missing=missing[:100], depth=depth,
                             by_distance=by_distance, items=kept, constraints=constraints, locks=locks, page=page)  # fmt: skip
        md = [svc.header(info.name, ref, fr)]
        if note:
            shown = [*fqns, *files]
            md.append(note + (": " + ", ".join(code(x) for x in shown[:20]) if shown else ""))
        md.append(f"Impact of {len(targets)} symbol(s)" + (f" in {len(present_files)} file(s)" if present_files else "")
                  + f", depth {depth}: " + (", ".join(f"distance {k}: {v}" for k, v in by_distance.items()) or "nothing depends on it")
                  + (" — more: pass `cursor`" if page.next_cursor else ""))  # fmt: skip
        if missing:
            md.append(f"not found at this commit: {', '.join(code(m) for m in missing[:20])}")
        for now_name, then in list((res.names_then if res is not None else {}).items())[:20]:
            md.append(f"{code(now_name)} was named {code(then)} at this commit (renamed or moved since)")
        for it in kept:
            md.append(f"- d{it.distance} {it.kind} {code(it.name)} via {', '.join(code(v) for v in it.via[:3])}")
        for c in constraints:
            md.append(constraint_line(c))
        for lk in locks:
            md.append(lock_line(lk))
        return out, "\n".join(md) + "\n"


def working_tree_files(info: WorkspaceInfo) -> list[str]:
    out = git(info.path, "status", "--porcelain", "--untracked-files=all", check=False)
    files = []
    for line in out.splitlines():
        if len(line) < 4:
            continue
        path = line[3:]
        if " -> " in path:
            path = path.split(" -> ", 1)[1]
        files.append(path.strip().strip('"'))
    return sorted(dict.fromkeys(files))


def _unknown_symbol_args(db: Database, info: WorkspaceInfo, fqn: str, atc: AtCommit) -> tuple[str, list[str]]:
    cands = [c.fqn for c in Q.find_symbols(db, info, fqn, _atc=atc).candidates]
    hint = f"; did you mean {', '.join(cands[:5])}?" if cands else ""
    return f"unknown symbol {fqn!r} at {atc.short} in workspace {info.name!r}{hint}", cands
