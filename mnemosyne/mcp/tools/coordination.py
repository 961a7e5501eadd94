"""Coordination tools: locks agents take on symbols or files (``lock_symbol``, ``unlock_symbol``,
``list_locks``) and the rules they must respect (``add_constraint``, ``list_constraints``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, Field

from mnemosyne.mcp import models as M
from mnemosyne.mcp.tools.base import RO, WRITE, Cursor, Limit, Tool, Workspace
from mnemosyne.mcp.tools.common import code, constraint_line, decode_cursor, lock_line, page_of
from mnemosyne.query import coordination as C

if TYPE_CHECKING:
    from mnemosyne.mcp.service import McpService


class LockSymbolInput(BaseModel):
    fqn: Annotated[str, Field(min_length=1, description="symbol FQN (defined at the ingested head) or file path")]
    agent_id: Annotated[str, Field(min_length=1, description="who you are (stable per agent)")]
    task_id: str | None = None
    ttl_s: Annotated[float, Field(ge=1, le=604800, description="seconds until the lock expires")] = 900
    lock_type: Literal["exclusive", "shared"] = "exclusive"
    workspace: Workspace = None


class LockSymbol(Tool[LockSymbolInput, M.LockAnswer]):
    name = "lock_symbol"
    description = """Tell other agents you are working on a symbol or file. Fails (listing the holder) when
        another agent holds a conflicting lock; locking again refreshes yours. Locks expire."""
    input_model = LockSymbolInput
    output_model = M.LockAnswer
    annotations = WRITE

    def apply(self, svc: McpService, args: LockSymbolInput) -> tuple[M.LockAnswer, str]:
        fqn, agent_id, task_id, ttl_s, lock_type, workspace = (
            args.fqn, args.agent_id, args.task_id, args.ttl_s, args.lock_type, args.workspace)
        info, atc, ref, fr = svc.resolve(workspace)
        lk = C.lock_symbol(svc.db, info, fqn.strip(), agent_id.strip(), task_id, ttl_s, lock_type)
        out = M.LockAnswer(workspace=info.name, at=ref, freshness=fr, lock=lk)
        return out, (svc.header(info.name, ref, fr) + f"Locked {code(lk.target)} for agent {code(lk.agent_id)} "
                     f"({lk.lock_type}, lock {code(lk.id)}, expires in {lk.expires_in_s:.0f}s).\n")  # fmt: skip


class UnlockSymbolInput(BaseModel):
    fqn: Annotated[str, Field(min_length=1)]
    agent_id: Annotated[str, Field(min_length=1)]
    lock_id: str | None = None
    workspace: Workspace = None


class UnlockSymbol(Tool[UnlockSymbolInput, M.UnlockAnswer]):
    name = "unlock_symbol"
    description = """Release your lock(s) on a symbol or file."""
    input_model = UnlockSymbolInput
    output_model = M.UnlockAnswer
    annotations = WRITE

    def apply(self, svc: McpService, args: UnlockSymbolInput) -> tuple[M.UnlockAnswer, str]:
        fqn, agent_id, lock_id, workspace = args.fqn, args.agent_id, args.lock_id, args.workspace
        info, atc, ref, fr = svc.resolve(workspace)
        n = C.unlock_symbol(svc.db, info, fqn.strip(), agent_id.strip(), lock_id or None)
        out = M.UnlockAnswer(workspace=info.name, at=ref, freshness=fr, target=fqn, agent_id=agent_id, released=n)
        return out, svc.header(info.name, ref, fr) + f"Released {n} lock(s) of {code(agent_id)} on {code(fqn)}.\n"


class ListLocksInput(BaseModel):
    target: Annotated[str | None, Field(description="only locks on this FQN or file")] = None
    agent_id: str | None = None
    limit: Limit = 50
    cursor: Cursor = None
    workspace: Workspace = None


class ListLocks(Tool[ListLocksInput, M.LocksAnswer]):
    name = "list_locks"
    description = """Active (unexpired) locks: who works on what."""
    input_model = ListLocksInput
    output_model = M.LocksAnswer
    annotations = RO

    def apply(self, svc: McpService, args: ListLocksInput) -> tuple[M.LocksAnswer, str]:
        target, agent_id, limit, cursor, workspace = args.target, args.agent_id, args.limit, args.cursor, args.workspace
        offset = decode_cursor(cursor)
        info, atc, ref, fr = svc.resolve(workspace)
        locks = C.list_locks(svc.db, info, target or None, agent_id or None)
        kept, page = page_of(locks, offset, limit)
        out = M.LocksAnswer(workspace=info.name, at=ref, freshness=fr, locks=kept, page=page)
        md = [svc.header(info.name, ref, fr), f"{page.total} active lock(s)" + (" — more: pass `cursor`" if page.next_cursor else "")]
        md += [lock_line(lk) for lk in kept]
        return out, "\n".join(md) + "\n"


class AddConstraintInput(BaseModel):
    target: Annotated[str, Field(min_length=1, description="symbol FQN or file path")]
    type: Annotated[str, Field(min_length=1, description="e.g. no_signature_change, do_not_modify, needs_review")]
    reason: Annotated[str, Field(min_length=1)]
    severity: Literal["info", "warning", "error"] = "warning"
    owner: str | None = None
    params: dict[str, Any] | None = None
    workspace: Workspace = None


class AddConstraint(Tool[AddConstraintInput, M.ConstraintAnswer]):
    name = "add_constraint"
    description = """Record a rule agents must respect on a symbol or file (shown by get_symbol and impact)."""
    input_model = AddConstraintInput
    output_model = M.ConstraintAnswer
    annotations = WRITE

    def apply(self, svc: McpService, args: AddConstraintInput) -> tuple[M.ConstraintAnswer, str]:
        target, type, reason, severity, owner, params, workspace = (
            args.target, args.type, args.reason, args.severity, args.owner, args.params, args.workspace)
        info, atc, ref, fr = svc.resolve(workspace)
        c = C.add_constraint(svc.db, info, target.strip(), type, reason, severity, owner, params)
        out = M.ConstraintAnswer(workspace=info.name, at=ref, freshness=fr, constraint=c)
        return out, svc.header(info.name, ref, fr) + "Constraint added:\n" + constraint_line(c) + "\n"


class ListConstraintsInput(BaseModel):
    target: Annotated[str | None, Field(description="FQN or file; for a symbol also its file's constraints")] = None
    limit: Limit = 50
    cursor: Cursor = None
    workspace: Workspace = None


class ListConstraints(Tool[ListConstraintsInput, M.ConstraintsAnswer]):
    name = "list_constraints"
    description = """Constraints (rules) on a symbol or file, or all of them."""
    input_model = ListConstraintsInput
    output_model = M.ConstraintsAnswer
    annotations = RO

    def apply(self, svc: McpService, args: ListConstraintsInput) -> tuple[M.ConstraintsAnswer, str]:
        target, limit, cursor, workspace = args.target, args.limit, args.cursor, args.workspace
        offset = decode_cursor(cursor)
        info, atc, ref, fr = svc.resolve(workspace)
        cons = C.list_constraints(svc.db, info, target or None)
        kept, page = page_of(cons, offset, limit)
        out = M.ConstraintsAnswer(workspace=info.name, at=ref, freshness=fr, target=target, constraints=kept, page=page)
        md = [svc.header(info.name, ref, fr), f"{page.total} constraint(s)" + (f" on {code(target)}" if target else "")
              + (" — more: pass `cursor`" if page.next_cursor else "")]  # fmt: skip
        md += [constraint_line(c) for c in kept]
        return out, "\n".join(md) + "\n"
