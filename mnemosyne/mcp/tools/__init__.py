"""The MCP tools, one class each (``base.Tool``), grouped by family in the modules of this package;
``registry.TOOLS`` lists them for the server."""

from mnemosyne.mcp.tools.base import Tool, run_tool
from mnemosyne.mcp.tools.registry import TOOLS, tool_named

__all__ = ["TOOLS", "Tool", "run_tool", "tool_named"]
