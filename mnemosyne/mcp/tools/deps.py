"""The dependency tool: when a third-party package was declared, locked, bumped and removed
(``dependency_history``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import BaseModel, Field

from mnemosyne import limits as L
from mnemosyne import query as Q
from mnemosyne.errors import ConfigError
from mnemosyne.limits import MAX_MESSAGE_CHARS
from mnemosyne.mcp import models as M
from mnemosyne.mcp.tools.base import RO, Cursor, Limit, Tool, Workspace
from mnemosyne.mcp.tools.common import code, decode_cursor, messages_block, page_of, untrusted

if TYPE_CHECKING:
    from mnemosyne.mcp.service import McpService


class DependencyHistoryInput(BaseModel):
    package: Annotated[str, Field(min_length=1, description="third-party package name, e.g. requests")]
    limit: Limit = 50
    cursor: Cursor = None
    workspace: Workspace = None


class DependencyHistory(Tool[DependencyHistoryInput, M.DependencyAnswer]):
    name = "dependency_history"
    description = """When a third-party package was declared (spec), locked (version), bumped and removed, per
        manifest, with commits; and what is declared at the ingested head."""
    input_model = DependencyHistoryInput
    output_model = M.DependencyAnswer
    annotations = RO

    def apply(self, svc: McpService, args: DependencyHistoryInput) -> tuple[M.DependencyAnswer, str]:
        package, limit, cursor, workspace = args.package, args.limit, args.cursor, args.workspace
        if not package or not package.strip():
            raise ConfigError("package must not be empty")
        L.check_key(package, "package")
        offset = decode_cursor(cursor)
        info, atc, ref, fr = svc.resolve(workspace)
        d = Q.dependency_history(svc.db, info, package.strip())
        events = [M.DependencyEventOut(**e.model_dump(exclude={"message"}),
                                       message=untrusted(e.message, f"commit message of {(e.commit or '')[:10]}", MAX_MESSAGE_CHARS))
                  for e in d.events]  # fmt: skip
        current = [M.DependencyStateOut(**s.model_dump()) for s in d.current][:100]
        kept, page = page_of(events, offset, limit)
        out = M.DependencyAnswer(workspace=info.name, at=ref, freshness=fr, package=package, events=kept,
                                 current=current, page=page)  # fmt: skip
        md = [svc.header(info.name, ref, fr), f"Dependency history of {code(package)}: {page.total} event(s)"
              + (" — more: pass `cursor`" if page.next_cursor else "")]  # fmt: skip
        if not d.events:
            md.append("(never declared or locked in this workspace)")
        msgs: dict[str, str] = {}
        for e in kept:
            what = e.spec or e.version or ""
            old = e.old_spec or e.old_version
            md.append(f"- seq {e.seq} `{(e.commit or '')[:10]}` {e.kind} {e.relation} {code(e.name)} {code(what)}"
                      + (f" (was {code(old)})" if old else "") + (f" in {code(e.source)}" if e.source else ""))  # fmt: skip
            if e.message and e.commit:
                msgs.setdefault(e.commit[:10], e.message.text)
        if current:
            md.append("\nAt the ingested head: "
                      + "; ".join(f"{code(s.name)} {code(s.spec or s.version or '')} ({code(s.source)})" for s in current[:20]))
        if msgs:
            md.append("\n" + messages_block(list(msgs.items())))
        return out, "\n".join(md) + "\n"
