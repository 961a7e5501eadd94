"""The metrics tool: complexity, size and coupling of functions at a commit (``code_metrics``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, Field

from mnemosyne import limits as L
from mnemosyne.errors import ConfigError
from mnemosyne.mcp import models as M
from mnemosyne.mcp.tools.base import RO, At, Limit, Tool, Workspace
from mnemosyne.mcp.tools.common import code

if TYPE_CHECKING:
    from mnemosyne.mcp.service import McpService


class CodeMetricsInput(BaseModel):
    view: Annotated[Literal["top", "growth", "hotspots"],
                    Field(description="top: highest metric; growth: complexity grown most since `since`; "
                                      "hotspots: complexity x definition changes")] = "top"
    order: Literal["complexity", "loc", "params", "nesting", "fan_in", "fan_out"] = "complexity"
    since: Annotated[str | None, Field(description="commit-ish: growth compares with it; hotspots count changes "
                                               "after it (default: the whole history)")] = None
    at: At = None
    limit: Limit = 20
    workspace: Workspace = None


class CodeMetrics(Tool[CodeMetricsInput, M.MetricsAnswer]):
    name = "code_metrics"
    description = """Code metrics of functions and methods at a commit (cyclomatic complexity, lines of code,
        parameters, nesting depth, fan-in/out): the most complex, complexity growth, hot spots."""
    input_model = CodeMetricsInput
    output_model = M.MetricsAnswer
    annotations = RO

    def apply(self, svc: McpService, args: CodeMetricsInput) -> tuple[M.MetricsAnswer, str]:
        from mnemosyne.query import metrics as QM

        view, order, since, at, limit, workspace = (
            args.view, args.order, args.since, args.at, args.limit, args.workspace)
        L.check_key(since, "since (commit-ish)")
        info, atc, ref, fr = svc.resolve(workspace, at)
        if view == "growth":
            if not since:
                raise ConfigError("view 'growth' needs `since` (the commit to compare with)")
            res = QM.complexity_growth(svc.db, info, since, at=at, limit=limit)
        elif view == "hotspots":
            res = QM.hot_spots(svc.db, info, since=since or None, at=at, limit=limit)
        elif view == "top":
            res = QM.top_functions(svc.db, info, at=at, order=order, limit=limit)
        else:
            raise ConfigError(f"unknown view {view!r}: use top, growth or hotspots")
        out = M.MetricsAnswer(workspace=info.name, at=ref, freshness=fr, view=res.view, order=res.order,
                              since=svc.commit_ref(res.since) if res.since else None, functions=res.functions,
                              total=res.total)  # fmt: skip
        md = [svc.header(info.name, ref, fr), f"{len(res.functions)} of {res.total} functions ({res.view}"
              + (f" by {res.order}" if res.view == "top" else "") + (f" since `{res.since.short}`" if res.since else "") + "):"]  # fmt: skip
        for f in res.functions:
            extra = (f", +{f.growth} (was {f.before})" if res.view == "growth" else
                     f", {f.changes} change(s), score {f.score:g}" if res.view == "hotspots" else "")
            md.append(f"- {code(f.fqn)} ({code(f.file)}): complexity {f.complexity}, loc {f.loc}, params {f.params}, "
                      f"nesting {f.nesting}, fan-in {f.fan_in}, fan-out {f.fan_out}{extra}")  # fmt: skip
        return out, "\n".join(md) + "\n"
