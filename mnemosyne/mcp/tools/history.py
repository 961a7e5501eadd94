"""History tools: a symbol's life on the timeline (``symbol_history``) and the structural diff
between two commits (``diff_commits``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, Field

from mnemosyne import limits as L
from mnemosyne import query as Q
from mnemosyne.errors import ConfigError
from mnemosyne.limits import MAX_DOC_CHARS, MAX_MESSAGE_CHARS, MAX_SNIPPET_CHARS
from mnemosyne.mcp import models as M
from mnemosyne.mcp.tools.base import RO, AsOfIngest, Cursor, Limit, SymbolRef, Tool, Workspace
from mnemosyne.mcp.tools.common import code, decode_cursor, inside_repo, messages_block, page_of, untrusted

if TYPE_CHECKING:
    from mnemosyne.mcp.service import McpService


class SymbolHistoryInput(BaseModel):
    fqn: SymbolRef
    limit: Limit = 50
    cursor: Cursor = None
    as_of_ingest: AsOfIngest = None
    workspace: Workspace = None


class SymbolHistory(Tool[SymbolHistoryInput, M.HistoryAnswer]):
    name = "symbol_history"
    description = """A symbol's life on the timeline: appeared, signature/body/docstring changed, moved or
        renamed, removed, re-added, calls and callers gained and lost, each with its commit
        (`as_of_ingest`: as Mnemosyne believed it at that wall-clock time)."""
    input_model = SymbolHistoryInput
    output_model = M.HistoryAnswer
    annotations = RO

    def apply(self, svc: McpService, args: SymbolHistoryInput) -> tuple[M.HistoryAnswer, str]:
        fqn, limit, cursor, as_of_ingest, workspace = (
            args.fqn, args.limit, args.cursor, args.as_of_ingest, args.workspace)
        fqn = fqn.strip()
        if not fqn:
            raise ConfigError("fqn must not be empty")
        L.check_key(fqn, "fqn")
        offset = decode_cursor(cursor)
        if as_of_ingest is not None and not str(as_of_ingest).strip():
            as_of_ingest = None
        info, atc, ref, fr = svc.resolve(workspace, None, as_of_ingest)
        h = Q.symbol_history(svc.db, info, fqn, as_of_ingest=as_of_ingest)
        events = []
        for e in h.events:
            details = dict(e.details)
            if e.kind == "docstring_changed":
                for k in ("old", "new"):
                    u = untrusted(details.get(k), f"{k} docstring of {fqn}", MAX_DOC_CHARS)
                    details[k] = u.model_dump() if u else None
            events.append(M.HistoryEvent(kind=e.kind, seq=e.seq, commit=e.commit, author=e.author, timestamp=e.timestamp,
                                         message=untrusted(e.message, f"commit message of {(e.commit or '')[:10]}", MAX_MESSAGE_CHARS),
                                         details=details))  # fmt: skip
        kept, page = page_of(events, offset, limit)
        out = M.HistoryAnswer(workspace=info.name, at=ref, freshness=fr, fqn=fqn, kind=h.kind,
                              exists_at_head=h.exists_at_head, events=kept, page=page)  # fmt: skip
        md = [svc.header(info.name, ref, fr),
              f"History of {code(fqn)} ({h.kind}; {'exists' if h.exists_at_head else 'does not exist'} at the ingested head): "
              f"{page.total} event(s)" + (" — more: pass `cursor`" if page.next_cursor else "")]  # fmt: skip
        msgs: dict[str, str] = {}
        for e in kept:
            d = {k: v for k, v in e.details.items() if e.kind != "docstring_changed"}
            det = ", ".join(f"{k}={v}" for k, v in d.items()) if d else ""
            md.append(f"- seq {e.seq} `{(e.commit or '')[:10]}` {e.kind}" + (f": {code(det, MAX_SNIPPET_CHARS)}" if det else ""))
            if e.message and e.commit:
                msgs.setdefault(e.commit[:10], e.message.text)
        if msgs:
            md.append("\n" + messages_block(list(msgs.items())))
        return out, "\n".join(md) + "\n"


class DiffCommitsInput(BaseModel):
    rev_a: Annotated[str, Field(min_length=1, description="older commit-ish")]
    rev_b: Annotated[str, Field(min_length=1, description="newer commit-ish")]
    path_prefix: Annotated[str | None, Field(description="only files under this repository-relative folder")] = None
    limit: Limit = 100
    cursor: Cursor = None
    as_of_ingest: AsOfIngest = None
    workspace: Workspace = None


class DiffCommits(Tool[DiffCommitsInput, M.DiffAnswer]):
    name = "diff_commits"
    description = """Structural diff between two commits: calls, symbols (added/removed/changed signature,
        file or body), imports and dependencies added and removed (`as_of_ingest`: as Mnemosyne
        believed it at that wall-clock time)."""
    input_model = DiffCommitsInput
    output_model = M.DiffAnswer
    annotations = RO

    def apply(self, svc: McpService, args: DiffCommitsInput) -> tuple[M.DiffAnswer, str]:
        rev_a, rev_b, path_prefix, limit, cursor, as_of_ingest, workspace = (
            args.rev_a, args.rev_b, args.path_prefix, args.limit, args.cursor, args.as_of_ingest, args.workspace)
        offset = decode_cursor(cursor)
        info = svc.info(workspace)
        prefix = inside_repo(info, path_prefix) if path_prefix else None
        if as_of_ingest is not None and not str(as_of_ingest).strip():
            as_of_ingest = None
        d = Q.diff_commits(svc.db, info, rev_a, rev_b, path_prefix=prefix or None, as_of_ingest=as_of_ingest)
        fr = svc.freshness(info, d.b)
        changes: list[M.DiffChange] = []
        calls: tuple[tuple[M.DiffChangeKind, list[Q.CallChange]], ...] = (("added", d.calls_added),
                                                                          ("removed", d.calls_removed))
        for action, lst in calls:
            changes += [M.DiffChange(category="call", change=action, name=f"{c.caller} -> {c.callee}",
                                     details={"caller": c.caller, "callee": c.callee, "resolution": c.resolution,
                                              "external": c.external}) for c in lst]  # fmt: skip
        moved, whole = d.moved_with_file(), d.in_whole_files()  # listed once, as their files
        symbols: tuple[tuple[M.DiffChangeKind, list[Q.SymbolChange]], ...] = (
            ("added", [s for s in d.symbols_added if s.fqn not in whole]),
            ("removed", [s for s in d.symbols_removed if s.fqn not in whole]),
            ("changed", [s for s in d.symbols_changed if s.fqn not in moved]))
        for action, syms in symbols:
            changes += [M.DiffChange(category="symbol", change=action, name=s.fqn, file=s.file,
                                     details={k: v for k, v in (("kind", s.kind), ("signature", s.signature),
                                                                ("old_file", s.old_file), ("old_signature", s.old_signature),
                                                                ("changes", s.changes or None)) if v})  # fmt: skip
                        for s in syms]
        changes += [M.DiffChange(category="symbol", change="renamed", name=s.fqn, file=s.file,
                                 details={k: v for k, v in (("old_fqn", s.old_fqn), ("old_file", s.old_file),
                                                            ("kind", s.kind), ("rename", s.change),
                                                            ("similarity", s.similarity),
                                                            ("changes", s.changes or None)) if v is not None})  # fmt: skip
                    for s in d.symbols_renamed]
        files: tuple[tuple[M.DiffChangeKind, list[Q.FileChange]], ...] = (("added", d.files_added),
                                                                          ("removed", d.files_removed))
        for action, fs in files:
            changes += [M.DiffChange(category="file", change=action, name=f.file, file=f.file,
                                     details={"symbols": f.symbols}) for f in fs]  # fmt: skip
        changes += [M.DiffChange(category="file", change="moved", name=m.file, file=m.file,
                                 details={"old_file": m.old_file, "symbols": m.symbols}) for m in d.files_moved]
        imports: tuple[tuple[M.DiffChangeKind, list[Q.ImportChange]], ...] = (("added", d.imports_added),
                                                                              ("removed", d.imports_removed))
        for action, imps in imports:
            changes += [M.DiffChange(category="import", change=action, name=f"{i.file} -> {i.target}", file=i.file,
                                     details={"target_kind": i.target_kind}) for i in imps]  # fmt: skip
        changes += dependency_changes(d)
        totals: dict[str, int] = {}
        for c in changes:
            key = f"{PLURAL[c.category]}_{c.change}"
            totals[key] = totals.get(key, 0) + 1
        if moved:
            totals["symbols_moved_with_file"] = len(moved)
        if whole:
            totals["symbols_with_whole_file"] = len(whole)
        kept, page = page_of(changes, offset, limit)
        a, b = svc.commit_ref(d.a), svc.commit_ref(d.b)
        out = M.DiffAnswer(workspace=info.name, at=b, freshness=fr, a=a, b=b, path_prefix=prefix or None,
                           from_source=d.from_source, totals=totals, changes=kept, page=page)  # fmt: skip
        md = [svc.header(info.name, b, fr),
              f"Diff `{a.short}` (seq {a.seq}) → `{b.short}` (seq {b.seq})" + (f" under {code(prefix)}" if prefix else "")
              + ": " + (", ".join(f"{k} {v}" for k, v in sorted(totals.items())) or "no changes")
              + (" — more: pass `cursor`" if page.next_cursor else "")]  # fmt: skip
        for c in kept:
            sign = {"added": "+", "removed": "-", "changed": "~", "renamed": ">", "moved": ">"}[c.change]
            if c.category == "dependency":
                extra = " " + code(dependency_text(c))
            elif c.category == "file" and c.change == "moved":
                extra = f" (from {code(c.details['old_file'])}, {c.details['symbols']} symbols with it)"
            elif c.category == "file":
                extra = f" ({c.details['symbols']} symbols)"
            elif c.change == "renamed":
                extra = f" (from {code(c.details.get('old_fqn', ''))}, {c.details.get('rename')})"
            else:
                extra = f" ({', '.join(map(str, c.details.get('changes') or []))})" if c.change == "changed" else ""
            md.append(f"{sign} {c.category} {code(c.name)}{extra}")
        return out, "\n".join(md) + "\n"


PLURAL = {"call": "calls", "symbol": "symbols", "file": "files", "import": "imports", "dependency": "dependencies"}


def dependency_changes(d: Q.DiffResult) -> list[M.DiffChange]:
    """Dependency changes of a diff: added, ``changed`` (another spec, scope or locked version; the
    old ones in ``old_*``) and removed."""

    def details(x: Q.DependencyChange) -> dict[str, Any]:
        return {k: v for k, v in x.model_dump().items() if v not in (None, "") and k != "name"}

    groups: tuple[tuple[M.DiffChangeKind, list[Q.DependencyChange]], ...] = (
        ("added", d.dependencies_added), ("changed", d.dependencies_changed), ("removed", d.dependencies_removed))
    return [M.DiffChange(category="dependency", change=kind, name=x.name, details=details(x))
            for kind, lst in groups for x in lst]  # fmt: skip


def dependency_text(c: M.DiffChange) -> str:
    """``>=2.31 -> >=2.32 (runtime)``, ``locked 2.32.3``: the spec or version part of a dependency change."""
    d = c.details
    field = "version" if d.get("relation") == "locks" else "spec"
    new = d.get(field) or "(none)"
    what = f"{d['old_' + field]} -> {new}" if f"old_{field}" in d else new
    where = f" in {d['package']}" if d.get("package") not in (None, "", ".") else ""
    if field == "version":
        return f"locked {what}{where}"
    return f"{what} ({d.get('scope') or 'runtime'}{where})"
