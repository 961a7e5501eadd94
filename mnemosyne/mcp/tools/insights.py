"""Insight tools: what agents record about symbols (``annotate_symbol``, ``remove_insight``,
``list_insights``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, Field

from mnemosyne.mcp import models as M
from mnemosyne.mcp.tools.base import RO, WRITE, Cursor, Fqn, Limit, Tool, Workspace
from mnemosyne.mcp.tools.common import code, decode_cursor, insight_line, page_of
from mnemosyne.query import insights as I

if TYPE_CHECKING:
    from mnemosyne.mcp.service import McpService


class AnnotateSymbolInput(BaseModel):
    fqn: Annotated[str, Field(min_length=1, description="function or class defined at the ingested head")]
    agent_id: Annotated[str, Field(min_length=1, description="who you are (stable per agent)")]
    insights: Annotated[dict[str, Any],
                        Field(description="key -> value: keys are names ([A-Za-z_][A-Za-z0-9_.-]*, at most 64 chars), "
                                          "values a string, number, boolean or a list of those (at most 4,000 chars "
                                          "as JSON)")]
    workspace: Workspace = None


class AnnotateSymbol(Tool[AnnotateSymbolInput, M.AnnotateAnswer]):
    name = "annotate_symbol"
    description = """Attach insights (summary, risk, complexity score, refactoring ideas...) to a symbol, about its
        current body. Writing a key again makes a new version (the old one stays in the history)."""
    input_model = AnnotateSymbolInput
    output_model = M.AnnotateAnswer
    annotations = WRITE

    def apply(self, svc: McpService, args: AnnotateSymbolInput) -> tuple[M.AnnotateAnswer, str]:
        fqn, agent_id, insights, workspace = args.fqn, args.agent_id, args.insights, args.workspace
        info, atc, ref, fr = svc.resolve(workspace)
        got = I.annotate(svc.db, info, fqn, agent_id, insights)
        target = got[0].target if got else fqn
        out = M.AnnotateAnswer(workspace=info.name, at=ref, freshness=fr, target=target, insights=got)
        md = [svc.header(info.name, ref, fr), f"{len(got)} insight(s) on {code(target)} as {code(agent_id)}:"]
        return out, "\n".join(md + [insight_line(i) for i in got]) + "\n"


class RemoveInsightInput(BaseModel):
    fqn: Fqn
    key: Annotated[str, Field(min_length=1)]
    agent_id: Annotated[str, Field(min_length=1, description="the author: only it can remove its insight")]
    workspace: Workspace = None


class RemoveInsight(Tool[RemoveInsightInput, M.RemoveInsightAnswer]):
    name = "remove_insight"
    description = """Remove your insight `key` from a symbol (kept in the history as removed)."""
    input_model = RemoveInsightInput
    output_model = M.RemoveInsightAnswer
    annotations = WRITE

    def apply(self, svc: McpService, args: RemoveInsightInput) -> tuple[M.RemoveInsightAnswer, str]:
        fqn, key, agent_id, workspace = args.fqn, args.key, args.agent_id, args.workspace
        info, atc, ref, fr = svc.resolve(workspace)
        gone = I.remove_insight(svc.db, info, fqn.strip(), key, agent_id)
        out = M.RemoveInsightAnswer(workspace=info.name, at=ref, freshness=fr, insight=gone)
        return out, svc.header(info.name, ref, fr) + f"Removed (kept in the history):\n{insight_line(gone)}\n"


class ListInsightsInput(BaseModel):
    fqn: Annotated[str | None, Field(description="only insights on this symbol")] = None
    key: str | None = None
    agent_id: str | None = None
    query: Annotated[str | None, Field(description="keyword search over keys and values")] = None
    history: Annotated[bool, Field(description="with fqn: every version, superseded and removed ones too")] = False
    limit: Limit = 50
    cursor: Cursor = None
    workspace: Workspace = None


class ListInsights(Tool[ListInsightsInput, M.InsightsAnswer]):
    name = "list_insights"
    description = """Insights agents attached to symbols: on one symbol (optionally its full history), by key or
        author, or matching keywords."""
    input_model = ListInsightsInput
    output_model = M.InsightsAnswer
    annotations = RO

    def apply(self, svc: McpService, args: ListInsightsInput) -> tuple[M.InsightsAnswer, str]:
        fqn, key, agent_id, query, history, limit, cursor, workspace = (
            args.fqn, args.key, args.agent_id, args.query, args.history, args.limit, args.cursor, args.workspace)
        offset = decode_cursor(cursor)
        info, atc, ref, fr = svc.resolve(workspace)
        scores: list[float] = []
        if query:
            found = I.search_insights(svc.db, info, query, limit=offset + limit + 1)
            items = [i for i, _ in found if (not fqn or i.target == fqn) and (not key or i.key == key)
                     and (not agent_id or i.agent_id == agent_id)]  # fmt: skip
            score_of = {i.id: sc for i, sc in found}
        elif fqn:
            items = I.insights_for(svc.db, info, fqn.strip(), history=history, key=key or None)
            items = [i for i in items if not agent_id or i.agent_id == agent_id]
            score_of = {}
        else:
            items = I.list_insights(svc.db, info, agent_id=agent_id or None, key=key or None)
            score_of = {}
        kept, page = page_of(items, offset, limit)
        scores = [round(score_of[i.id], 6) for i in kept] if score_of else []
        out = M.InsightsAnswer(workspace=info.name, at=ref, freshness=fr, target=fqn, query=query, history=history,
                               insights=kept, scores=scores, page=page)  # fmt: skip
        what = f" matching {code(query)}" if query else ""
        md = [svc.header(info.name, ref, fr), f"{page.total} insight(s){what}" + (f" on {code(fqn)}" if fqn else "")
              + (" (every version)" if history else "") + (" — more: pass `cursor`" if page.next_cursor else "")]  # fmt: skip
        md += [insight_line(i) for i in kept]
        return out, "\n".join(md) + "\n"
