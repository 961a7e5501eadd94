"""The tool registry and docs/mcp.md agree, and every tool class is complete.

docs/mcp.md's "Tools" table lists each tool with the module of ``mnemosyne/mcp/tools/`` that holds
its class and whether it writes; the registry (``mnemosyne.mcp.tools.registry.TOOLS``) is what the
server registers. A tool added, renamed or moved on one side only fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import BaseModel

from mnemosyne.mcp.tools import TOOLS, tool_named
from mnemosyne.mcp.tools.base import Tool

DOC = Path(__file__).resolve().parents[2] / "docs" / "mcp.md"
ROW = re.compile(r"^\| `(?P<name>[a-z_]+)` \| `(?P<module>[a-z_]+)\.py` \| (?P<writes>yes|no) \|$")


def documented() -> dict[str, tuple[str, bool]]:
    """Tool name -> (module, writes) from the rows of docs/mcp.md's tool table."""
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if m:
            assert m["name"] not in rows, f"{m['name']} is listed twice in docs/mcp.md"
            rows[m["name"]] = (m["module"], m["writes"] == "yes")
    return rows


def test_every_registered_tool_is_documented_and_every_documented_tool_registered():
    docs = documented()
    registered = [t.name for t in TOOLS]
    assert len(registered) == len(set(registered)), "a tool name is registered twice"
    assert sorted(set(registered) - set(docs)) == [], "registered but not in docs/mcp.md's tool table"
    assert sorted(set(docs) - set(registered)) == [], "in docs/mcp.md's tool table but not registered"


def test_docs_name_each_tool_module_and_whether_it_writes():
    docs = documented()
    for tool in TOOLS:
        module, writes = docs[tool.name]
        assert type(tool).__module__ == f"mnemosyne.mcp.tools.{module}", tool.name
        assert tool.annotations.read_only_hint is (not writes), tool.name


def test_each_tool_class_is_complete():
    for tool in TOOLS:
        assert isinstance(tool, Tool)
        assert re.fullmatch(r"[a-z][a-z_]*", tool.name), tool.name
        assert tool.description.strip(), f"{tool.name} has no description"
        assert issubclass(tool.input_model, BaseModel) and tool.input_model is not BaseModel, tool.name
        assert issubclass(tool.output_model, BaseModel) and tool.output_model is not BaseModel, tool.name
        assert type(tool).apply is not Tool.apply, f"{tool.name} does not implement apply"
        fields = list(tool.input_model.model_fields)
        if "workspace" in fields:
            assert fields[-1] == "workspace", f"{tool.name}: workspace is not the last argument"
        assert tool_named(tool.name) is tool
