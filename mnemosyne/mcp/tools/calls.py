"""The call-graph tool: what a function calls or who calls it at a commit, as a tree (``get_calls``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from mnemosyne import limits as L
from mnemosyne import query as Q
from mnemosyne.errors import ConfigError
from mnemosyne.mcp import models as M
from mnemosyne.mcp.tools.base import RO, AsOfIngest, At, Cursor, Depth, Limit, SymbolRef, Tool, Workspace
from mnemosyne.mcp.tools.common import code, decode_cursor, page_of

if TYPE_CHECKING:
    from mnemosyne.mcp.service import McpService


class GetCallsInput(BaseModel):
    fqn: SymbolRef
    direction: Literal["callees", "callers"] = "callees"
    at: At = None
    depth: Depth = 1
    limit: Limit = 100
    cursor: Cursor = None
    as_of_ingest: AsOfIngest = None
    workspace: Workspace = None


class GetCalls(Tool[GetCallsInput, M.CallsAnswer]):
    name = "get_calls"
    description = """What a function calls (callees) or who calls it (callers) at a commit, expanded up to
        `depth` levels: a tree (depth-first edges with their depth), each edge with how it was
        resolved and a confidence. External (library/builtin) callees are included."""
    input_model = GetCallsInput
    output_model = M.CallsAnswer
    annotations = RO

    def variant(self, args: GetCallsInput) -> str:
        return f"get_calls depth {args.depth}"

    def apply(self, svc: McpService, args: GetCallsInput) -> tuple[M.CallsAnswer, str]:
        direction, depth = args.direction, args.depth
        fqn = args.fqn.strip()
        if not fqn:
            raise ConfigError("fqn must not be empty")
        L.check_key(fqn, "fqn")
        offset = decode_cursor(args.cursor)
        info, atc, ref, fr = svc.resolve(args.workspace, args.at, args.as_of_ingest)
        tree = Q.call_tree(svc.db, info, fqn, direction=direction, depth=depth, at=atc)
        edges: list[M.CallTreeEdge] = []

        def walk(node: Any, d: int) -> None:
            for ch in node.children:
                caller, callee = (node.fqn, ch.fqn) if direction == "callees" else (ch.fqn, node.fqn)
                edges.append(M.CallTreeEdge(depth=d, caller=caller, callee=callee, resolution=ch.resolution,
                                            confidence=ch.confidence, external=ch.external, repeated=ch.repeated))  # fmt: skip
                walk(ch, d + 1)

        walk(tree.root, 1)
        kept, page = page_of(edges, offset, args.limit)
        out = M.CallsAnswer(workspace=info.name, at=ref, freshness=fr, fqn=fqn, direction=direction, depth=depth,
                            edges=kept, page=page, tree_truncated=tree.truncated,
                            name_at_commit=tree.root.fqn if tree.asked_fqn else None,
                            constructor=tree.root.fqn if tree.class_fqn else None, also_named=tree.also_named)  # fmt: skip
        verb = "calls" if direction == "callees" else "is called by"
        md = [svc.header(info.name, ref, fr),
              f"{code(fqn)} {verb} ({page.total} edge(s), depth {depth}"
              + (f", showing {page.offset + 1}-{page.offset + page.returned}; more: pass `cursor`" if page.next_cursor else "") + "):"]  # fmt: skip
        if tree.asked_fqn:
            md.append(f"(at {atc.short} it was named {code(tree.root.fqn)}: renamed or moved since)")
        if tree.class_fqn:
            md.append(f"(a class: the edges of its constructor {code(tree.root.fqn)})")
        for e in kept:
            other = e.callee if direction == "callees" else e.caller
            conf = f"{e.confidence:.2f}" if e.confidence is not None else "?"
            flags = (" external" if e.external else "") + (" (seen above)" if e.repeated else "")
            md.append(f"{'  ' * (e.depth - 1)}- {code(other)} [{e.resolution or '?'}, {conf}]{flags}")
        if not edges:
            md.append(f"(none at {atc.short})")
        if tree.also_named:
            md.append(f"({code(fqn)} is itself a symbol; also named so: {', '.join(code(x) for x in tree.also_named)})")
        return out, "\n".join(md) + "\n"
