"""The symbol tool: a function, method or class as it was at a commit (``get_symbol``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import BaseModel, Field

from mnemosyne import limits as L
from mnemosyne import query as Q
from mnemosyne.errors import ConfigError
from mnemosyne.limits import MAX_DOC_CHARS, MAX_SNIPPET_CHARS, MAX_SOURCE_CHARS, MAX_SOURCE_LINES
from mnemosyne.mcp import models as M
from mnemosyne.mcp.tools.base import RO, AsOfIngest, At, Tool, Workspace
from mnemosyne.mcp.tools.common import code, constraint_line, fence, insight_line, lock_line, untrusted
from mnemosyne.query import coordination as C
from mnemosyne.query import insights as I

if TYPE_CHECKING:
    from mnemosyne.mcp.service import McpService


class GetSymbolInput(BaseModel):
    name_or_fqn: Annotated[str, Field(min_length=1, description="FQN, or a short name like `checkout` or `Cart.total`")]
    at: At = None
    include_source: bool = True
    as_of_ingest: AsOfIngest = None
    workspace: Workspace = None


class GetSymbol(Tool[GetSymbolInput, M.SymbolAnswer]):
    name = "get_symbol"
    description = """A function/method/class as it was at a commit: signature, docstring, file and lines, its
        source text then, caller/callee counts, constraints and locks on it. A short name matching
        several symbols returns the candidates."""
    input_model = GetSymbolInput
    output_model = M.SymbolAnswer
    annotations = RO

    def apply(self, svc: McpService, args: GetSymbolInput) -> tuple[M.SymbolAnswer, str]:
        name = args.name_or_fqn.strip()
        if not name:
            raise ConfigError("name_or_fqn must not be empty")
        L.check_key(name, "name_or_fqn")
        info, atc, ref, fr = svc.resolve(args.workspace, args.at, args.as_of_ingest)
        res = Q.get_symbol(svc.db, info, name, at=atc, with_source=args.include_source)
        head = svc.header(info.name, ref, fr)
        if isinstance(res, Q.Candidates):
            cands = [M.SymbolCandidate(**c.model_dump()) for c in res.candidates[:50]]
            out = M.SymbolAnswer(workspace=info.name, at=ref, freshness=fr, query=name, status="ambiguous",
                                 candidates=cands)  # fmt: skip
            md = [head, f"{len(res.candidates)} symbols match {code(name)}; call again with one fully qualified name:"]
            md += [f"- {code(c.fqn)} ({c.kind}, {code(c.file)})" for c in cands]
            return out, "\n".join(md) + "\n"
        s = res
        targets = [s.fqn] + ([s.file] if s.file else [])
        detail = M.SymbolDetail(
            fqn=s.fqn, name=s.name, kind=s.kind, label=s.label, file=s.file, line_start=s.line_start,
            line_end=s.line_end, signature=s.signature, parent=s.parent, callers_count=s.callers_count,
            callers_of=s.callers_of, also_named=s.also_named,
            callees_count=s.callees_count, since_seq=s.since_seq, metrics=s.metrics,
            docstring=untrusted(s.docstring, f"docstring of {s.fqn}", MAX_DOC_CHARS),
            source=untrusted(s.source, f"source of {s.fqn} at {atc.short}", MAX_SOURCE_CHARS, MAX_SOURCE_LINES),
            constraints=C.constraints_for(svc.db, info, [s.fqn]), locks=C.locks_for(svc.db, info, targets),
            insights=I.insights_for(svc.db, info, s.fqn, s.body_hash or ""),
        )  # fmt: skip
        out = M.SymbolAnswer(workspace=info.name, at=ref, freshness=fr, query=name, status="found", symbol=detail)
        md = [head, f"### {code(s.fqn)} ({s.kind})",
              f"{code(s.file)}:{s.line_start}-{s.line_end} · defined by {code(s.parent)} · {s.callers_count} caller(s)"
              + (f" (of its constructor {code(s.callers_of)})" if s.callers_of else "") + ", "
              f"{s.callees_count} callee(s) at this commit"
              + (f" · unchanged since seq {s.since_seq}" if s.since_seq is not None else "")]  # fmt: skip
        if s.signature:
            md.append(f"signature: {code(s.signature, MAX_SNIPPET_CHARS)}")
        if s.also_named:
            md.append(f"(a module; also named so: {', '.join(code(x) for x in s.also_named)})")
        if s.metrics:
            md.append(f"metrics: complexity {s.metrics.complexity}, {s.metrics.loc} lines of code, "
                      f"{s.metrics.params} parameter(s), nesting {s.metrics.nesting}")
        for c in detail.constraints:
            md.append(constraint_line(c))
        for lk in detail.locks:
            md.append(lock_line(lk))
        for ins in detail.insights:
            md.append(insight_line(ins))
        if detail.docstring:
            md.append("\n" + fence(detail.docstring))
        if detail.source:
            lang = "python" if (s.file or "").endswith(".py") else "typescript" if (s.file or "").endswith((".ts", ".tsx")) else ""
            md.append(fence(detail.source, lang))
        return out, "\n".join(md) + "\n"
