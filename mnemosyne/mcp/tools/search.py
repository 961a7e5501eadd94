"""Search tools: code, docs and commits by keyword or meaning (``search_code``), commits by message,
author, time and path (``search_commits``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, Field

from mnemosyne import limits as L
from mnemosyne.errors import ConfigError, RevisionNotFound
from mnemosyne.limits import MAX_MESSAGE_CHARS, MAX_SNIPPET_CHARS
from mnemosyne.mcp import models as M
from mnemosyne.mcp.tools.base import RO, At, Cursor, Limit, Tool, Workspace
from mnemosyne.mcp.tools.common import (
    code,
    decode_cursor,
    encode_cursor,
    inside_repo,
    messages_block,
    page_of,
    untrusted,
)

if TYPE_CHECKING:
    from mnemosyne.mcp.service import McpService


class SearchCodeInput(BaseModel):
    query: Annotated[str, Field(min_length=1, description="words, an identifier or a question")]
    mode: Literal["hybrid", "keyword", "semantic"] = "hybrid"
    kind: Annotated[Literal["function", "class", "doc", "commit", "all"] | None,
                    Field(description="restrict to one kind (default: function, class, doc)")] = None
    path_prefix: Annotated[str | None, Field(description="only files under this repository-relative folder")] = None
    at: At = None
    limit: Limit = 10
    cursor: Cursor = None
    workspace: Workspace = None


class SearchCode(Tool[SearchCodeInput, M.SearchCodeResult]):
    name = "search_code"
    description = """Search functions, classes, docs (and commits with kind='commit') by keyword, meaning, or
        both (hybrid: fused and re-ranked with the call graph), as of a commit."""
    input_model = SearchCodeInput
    output_model = M.SearchCodeResult
    annotations = RO

    def apply(self, svc: McpService, args: SearchCodeInput) -> tuple[M.SearchCodeResult, str]:
        from mnemosyne.search.hybrid import search

        query = args.query
        if not query or not query.strip():
            raise ConfigError("query must not be empty")
        L.check_text(query, "query", L.MAX_QUERY_CHARS)
        offset = decode_cursor(args.cursor)
        info, atc, ref, fr = svc.resolve(args.workspace, args.at)
        if not atc.on_timeline:
            raise RevisionNotFound(
                f"search answers at timeline commits only; {atc.short} is not on the timeline of {info.branch!r} "
                "(use get_symbol / get_calls with `at` for commits off the timeline)"
            )
        prefix = inside_repo(info, args.path_prefix) if args.path_prefix else None
        res = search(svc.db, info.name, query, mode=args.mode, kind=args.kind, at=atc.seq, limit=args.limit,
                     path_prefix=prefix or None, offset=offset)  # fmt: skip
        hits = [M.SearchHit(kind=r.kind, key=r.key, symbol_kind=r.symbol_kind, name=r.name, file=r.file, line=r.line,
                            line_end=r.line_end, signature=r.signature, score=round(r.score, 6), also_in=r.also_in,
                            snippet=untrusted(r.snippet, f"{r.kind} text of {r.key}", MAX_SNIPPET_CHARS))
                for r in res.results]  # fmt: skip
        kept, _ = page_of(hits, 0, len(hits) or 1)
        end = offset + len(kept)
        more = res.next_offset is not None or len(kept) < len(hits)
        page = M.Page(total=max(res.total_candidates, end), offset=offset, returned=len(kept),
                      next_cursor=encode_cursor(end) if more and kept else None,
                      truncated=len(kept) < len(hits))  # fmt: skip
        out = M.SearchCodeResult(workspace=info.name, at=ref, freshness=fr, query=query, mode=res.mode, hits=kept,
                                 page=page, warnings=res.warnings)  # fmt: skip
        md = [svc.header(info.name, ref, fr), f"{len(kept)} result(s) for {code(query)} ({res.mode}), from #{offset + 1}"
              f" of ~{page.total} candidates" + (" — more: pass `cursor`" if page.next_cursor else "") + "\n"]  # fmt: skip
        for i, h in enumerate(kept, start=offset + 1):
            loc = f" ({code(h.file)}:{h.line})" if h.file else ""
            also = f", also in {', '.join(code(a) for a in h.also_in)}" if h.also_in else ""
            md.append(f"{i}. [{h.symbol_kind or h.kind}] {code(h.key)}{loc} score {h.score:.3f}{also}")
        for w in res.warnings:
            md.append(f"\nnote: {code(w)}")
        # a doc section's heading path says what it is about (its key is a hash): repository text, so
        # inside the marked block with its matched text
        snips = [(h.key, (f"{h.name} — " if h.kind == "doc" and h.name else "") + h.snippet.text.replace("\n", " "))
                 for h in kept if h.snippet]  # fmt: skip
        if snips:
            md.append("\n" + messages_block(snips, "matched text (signatures, docstrings, doc sections, messages)"))
        return out, "\n".join(md)


class SearchCommitsInput(BaseModel):
    query: Annotated[str, Field(min_length=1)]
    author: Annotated[str | None, Field(description="substring of author name or email")] = None
    since: Annotated[str | None, Field(description="ISO date/time or epoch seconds")] = None
    until: Annotated[str | None, Field(description="ISO date/time or epoch seconds")] = None
    path: Annotated[str | None, Field(description="only commits changing files under this path")] = None
    limit: Limit = 10
    cursor: Cursor = None
    workspace: Workspace = None


class SearchCommits(Tool[SearchCommitsInput, M.CommitSearchAnswer]):
    name = "search_commits"
    description = """Timeline commits whose message (or addressed ticket) matches, filtered by author, time and path."""
    input_model = SearchCommitsInput
    output_model = M.CommitSearchAnswer
    annotations = RO

    def apply(self, svc: McpService, args: SearchCommitsInput) -> tuple[M.CommitSearchAnswer, str]:
        from mnemosyne.search.commits import search_commits

        query, author = args.query, args.author
        if not query or not query.strip():
            raise ConfigError("query must not be empty")
        L.check_text(query, "query", L.MAX_QUERY_CHARS)
        L.check_text(author, "author", L.MAX_QUERY_CHARS)
        offset = decode_cursor(args.cursor)
        info, atc, ref, fr = svc.resolve(args.workspace)
        p = inside_repo(info, args.path) if args.path else None
        want = min(200, offset + args.limit + 1)
        hits = search_commits(svc.db, info.name, query, author=author or None, since=args.since or None,
                              until=args.until or None, path=p or None, limit=want)  # fmt: skip
        items = [M.CommitHitOut(hash=h.hash, short=h.hash[:10], seq=h.seq, author=h.author, timestamp=h.timestamp,
                                message=untrusted(h.message, f"commit message of {h.hash[:10]}", MAX_MESSAGE_CHARS)
                                or M.UntrustedText(text="", source=f"commit message of {h.hash[:10]}"),
                                tickets=h.tickets, score=round(h.score, 6)) for h in hits]  # fmt: skip
        kept, page = page_of(items, offset, args.limit)
        out = M.CommitSearchAnswer(workspace=info.name, at=ref, freshness=fr, query=query, commits=kept, page=page)
        md = [svc.header(info.name, ref, fr), f"{len(kept)} commit(s) for {code(query)}"
              + (" — more: pass `cursor`" if page.next_cursor else "")]  # fmt: skip
        for c in kept:
            md.append(f"- `{c.short}` seq {c.seq} by {code(c.author)}" + (f" tickets {', '.join(code(t) for t in c.tickets)}" if c.tickets else ""))
        md.append("\n" + messages_block([(c.short, c.message.text) for c in kept]))
        return out, "\n".join(md) + "\n"
