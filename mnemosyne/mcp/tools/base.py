"""One MCP tool = one ``Tool`` subclass: its name, description, input model (the arguments, their
JSON schema), output model (the structured content), annotations, and ``apply``, which answers
over the read API (``mnemosyne.query``, ``mnemosyne.search``) with ``(result model, Markdown)``.

``run_tool`` is what the server does around every call: an execution slot, the generic argument
bounds, errors mapped to tool errors, the server-side timing, the Markdown capped. The server
registers the tools of ``mnemosyne/mcp/tools/registry.py`` with the MCP SDK (``server.py``).

Descriptions are sent verbatim: their continuation lines keep the 8-space indentation the tools'
former function docstrings had, so clients see the same text.
"""

from __future__ import annotations

import logging
import time
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Annotated, Any, Generic, TypeVar

from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from mnemosyne import limits as L
from mnemosyne.errors import MnemosyneError
from mnemosyne.mcp.tools.common import cap_markdown, tool_error

if TYPE_CHECKING:
    from mnemosyne.mcp.service import McpService

log = logging.getLogger(__name__)

RO = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)

# the arguments several tools share (their descriptions are part of the input schemas)
Workspace = Annotated[str | None, Field(description="workspace name; default: the one containing the current "
                                        "directory, else the only one registered")]  # fmt: skip
At = Annotated[str | None, Field(description="commit-ish (hash, short hash, branch, tag, HEAD~N); default: the ingested head")]
AsOfIngest = Annotated[str | None, Field(description="transaction time (epoch seconds or ISO 8601): answer as Mnemosyne "
                                         "believed it at that wall-clock time, e.g. before a force-push was ingested; "
                                         "a commit superseded since is still on that timeline. Default: now")]
Cursor = Annotated[str | None, Field(description="`next_cursor` of the previous page")]
Fqn = Annotated[str, Field(min_length=1, description="fully qualified name, e.g. shop.checkout.checkout")]
# a name the tool resolves as the CLI does: an FQN, or a short name that names one symbol (else the
# answer lists the candidates)
SymbolRef = Annotated[str, Field(min_length=1, description=(
    "fully qualified name (shop.checkout.checkout), or a short name (`checkout`, `Cart.total`) naming one symbol"))]
Limit = Annotated[int, Field(ge=1, le=100, description="page size (1..100)")]
Depth = Annotated[int, Field(ge=1, le=5, description="levels (1..5)")]

InT = TypeVar("InT", bound=BaseModel)
OutT = TypeVar("OutT", bound=BaseModel)


class NoArguments(BaseModel):
    """The input of a tool without arguments."""


class Tool(Generic[InT, OutT]):
    """An MCP tool. Subclasses set the attributes and implement ``apply``; the fields of
    ``input_model``, in order, are the tool's arguments (``workspace`` last where there is one)."""

    name: str
    description: str
    input_model: type[InT]
    output_model: type[OutT]
    annotations: ToolAnnotations = RO

    def apply(self, svc: McpService, args: InT) -> tuple[OutT, str]:
        """The answer: its structured content and a short Markdown text."""
        raise NotImplementedError

    def variant(self, args: InT) -> str | None:
        """A second name the call's time is also recorded under (e.g. per depth), or None."""
        return None

    def queue(self, svc: McpService) -> AbstractContextManager[Any]:
        """Taken before the execution slot: tools that must queue among themselves override it."""
        return nullcontext()

    def __call__(self, svc: McpService, **arguments: Any) -> tuple[OutT, str]:
        """In process, without the transport: ``GetSymbol()(svc, name_or_fqn="f")``."""
        return self.apply(svc, self.input_model(**arguments))


def run_tool(svc: McpService, tool: Tool[Any, Any], args: BaseModel) -> CallToolResult:
    """One tool call as the server answers it, timed under the tool's name (and its variant)."""
    with tool.queue(svc):
        t0 = time.perf_counter()
        with svc.slots:  # a few tools at a time: the rest queue (FIFO) instead of sharing the GIL
            t1 = time.perf_counter()
            failed = True
            try:
                result = _answer(svc, tool, args)
                failed = False
                return result
            finally:
                ms, wait = (time.perf_counter() - t1) * 1000, (t1 - t0) * 1000
                svc.stats.record(tool.name, ms, error=failed, wait_ms=wait)
                variant = tool.variant(args)
                if variant:
                    svc.stats.record(variant, ms, error=failed, wait_ms=wait)


def _answer(svc: McpService, tool: Tool[Any, Any], args: BaseModel) -> CallToolResult:
    named = {k: v for k, v in args if not (k == "workspace" and v is None)}
    workspace = getattr(args, "workspace", None)
    try:
        L.check_arguments(named)
        model, md = tool.apply(svc, args)
    except MnemosyneError as err:
        raise tool_error(err, svc, workspace) from None
    except ToolError:
        raise
    except Exception as err:  # noqa: BLE001 - a bug must still answer with something useful
        log.exception("tool failed")
        raise ToolError(f"internal error ({type(err).__name__}: {str(err)[:300]})") from None
    return CallToolResult(content=[TextContent(type="text", text=cap_markdown(md))],
                          structured_content=model.model_dump(mode="json", by_alias=True))  # fmt: skip
