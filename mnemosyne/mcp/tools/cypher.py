"""Tools for writing your own queries: read-only Cypher (``run_cypher``) and the graph's schema and
time model (``get_schema``)."""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Annotated, Any, cast

from pydantic import BaseModel, Field

from mnemosyne import limits as L
from mnemosyne import query as Q
from mnemosyne.errors import ConfigError
from mnemosyne.limits import ITEMS_BUDGET, MAX_CELL_CHARS
from mnemosyne.mcp import models as M
from mnemosyne.mcp.tools.base import RO, Tool, Workspace
from mnemosyne.mcp.tools.common import fence

if TYPE_CHECKING:
    from mnemosyne.mcp.service import McpService


class RunCypherInput(BaseModel):
    query: Annotated[str, Field(min_length=1, description="read-only Cypher (FalkorDB dialect)")]
    params: Annotated[dict[str, Any] | None, Field(description="$parameters")] = None
    max_rows: Annotated[int, Field(ge=1, le=L.MAX_CYPHER_ROWS, description=f"row cap (1..{L.MAX_CYPHER_ROWS})")] = 100
    workspace: Workspace = None


class RunCypher(Tool[RunCypherInput, M.CypherAnswer]):
    name = "run_cypher"
    description = """Run read-only Cypher on a workspace graph (writes refused, short timeout, row cap). Read
        get_schema first: versioned edges need the time predicate or they mix all of history."""
    input_model = RunCypherInput
    output_model = M.CypherAnswer
    annotations = RO

    def queue(self, svc: McpService) -> AbstractContextManager[Any]:
        """One slot of ``mcp_cypher_slots``, taken before a tool slot: agents' heavy queries queue among
        themselves and never hold every slot (nor every FalkorDB thread) against the other tools."""
        return svc.cypher_slots

    def apply(self, svc: McpService, args: RunCypherInput) -> tuple[M.CypherAnswer, str]:
        from mnemosyne.store.readonly import run_readonly

        query, params, max_rows, workspace = args.query, args.params, args.max_rows, args.workspace
        if not query or not query.strip():
            raise ConfigError("query must not be empty")
        L.check_text(query, "query", L.MAX_CYPHER_CHARS)
        L.check_text(json.dumps(params or {}, default=str), "params (as JSON)", L.MAX_CYPHER_PARAMS_JSON)
        if not 1 <= max_rows <= L.MAX_CYPHER_ROWS:
            raise ConfigError(f"max_rows must be between 1 and {L.MAX_CYPHER_ROWS}, not {max_rows}")
        info, atc, ref, fr = svc.resolve(workspace)
        res = run_readonly(svc.db.graph(info.name), query, params or {},
                           timeout_ms=svc.settings.readonly_timeout_ms, max_rows=max_rows)  # fmt: skip
        rows = [[_cap_cell(v) for v in row] for row in res.rows]
        size, kept = 0, cast("list[list[Any]]", [])
        for r in rows:
            s = len(json.dumps(r, default=str))
            if kept and size + s > ITEMS_BUDGET:
                break
            kept.append(r)
            size += s
        truncated = res.truncated or len(kept) < len(rows)
        out = M.CypherAnswer(workspace=info.name, at=ref, freshness=fr, columns=res.columns, rows=kept,
                             row_count=len(kept), truncated=truncated)  # fmt: skip
        table = "\t".join(res.columns) + "\n" + "\n".join("\t".join(json.dumps(v, ensure_ascii=False, default=str) for v in r) for r in kept[:50])
        md = [svc.header(info.name, ref, fr), f"{len(kept)} row(s)" + (" (truncated: add LIMIT/SKIP to page)" if truncated else "")
              + (", first 50 below" if len(kept) > 50 else ""), "", fence(M.UntrustedText(text=table, source="query result rows"))]  # fmt: skip
        return out, "\n".join(md)


class GetSchemaInput(BaseModel):
    workspace: Workspace = None


class GetSchema(Tool[GetSchemaInput, M.SchemaAnswer]):
    name = "get_schema"
    description = """Labels, edge types and properties (with counts), the named queries and their parameters,
        and how time works, so you can write correct historical Cypher."""
    input_model = GetSchemaInput
    output_model = M.SchemaAnswer
    annotations = RO

    def apply(self, svc: McpService, args: GetSchemaInput) -> tuple[M.SchemaAnswer, str]:
        from mnemosyne.query.schema_info import describe_schema

        workspace = args.workspace
        info = svc.info(workspace)
        try:
            atc = svc.head(info)
            ref, fr = svc.commit_ref(atc), svc.freshness(info, atc)
        except Q.WorkspaceNotIngested:
            ref, fr = None, svc.freshness(info)
        sch = describe_schema(svc.db, info)
        out = M.SchemaAnswer(workspace=info.name, at=ref, freshness=fr, schema=sch)
        md = [svc.header(info.name, ref, fr), f"Graph `{sch.graph}`.", "", "**Labels** (key; count): "
              + ", ".join(f"{lb.label}({lb.key}; {lb.count})" for lb in sch.labels),
              "", "**Edges** (versioned ones need the time predicate): "
              + ", ".join(f"{e.type}{'*' if e.versioned else ''} {e.endpoints}" for e in sch.edges),
              "", "**How time works**", sch.time_model, "",
              "**Named queries**: " + ", ".join(f"{q.name}({', '.join('$' + p for p in q.params)})" for q in sch.named_queries),
              "", "Example:", "```cypher", sch.examples[0], "```"]  # fmt: skip
        return out, "\n".join(md) + "\n"


def _cap_cell(v: Any) -> Any:
    if isinstance(v, str) and len(v) > MAX_CELL_CHARS:
        return v[:MAX_CELL_CHARS] + "…"
    if isinstance(v, list):
        return [_cap_cell(x) for x in v[:200]]
    if isinstance(v, dict):
        return {k: _cap_cell(x) for k, x in v.items()}
    return v
