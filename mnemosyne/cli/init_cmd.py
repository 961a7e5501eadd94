"""CLI: `mnemosyne init [PATH] [--agent AGENT] [--write] [--no-daemon]`: set a repository up in one go.

Registers the repository (once), ingests it when it has never been ingested (the branch head
only, unless ``--history``) and embeds it for semantic search (setting ``embed_on_ingest``),
starts the daemon that keeps it current (unless ``--no-daemon``) and prints the MCP client
configuration for the agent named, with the absolute path of the ``mnemosyne`` executable and
``MNEMOSYNE_HOME`` in ``env`` (``--write`` merges it into the client's configuration file instead).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from mnemosyne.errors import ConfigError

SERVER_NAME = "mnemosyne"
# agent -> (the key its file keeps servers under, whether an entry carries "type": "stdio")
AGENTS: dict[str, tuple[str, bool]] = {
    "claude-code": ("mcpServers", True),
    "cursor": ("mcpServers", False),
    "vscode": ("servers", True),
    "claude-desktop": ("mcpServers", False),
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "init",
        help="set a repository up: register, ingest, start the daemon, print the MCP config for your agent",
        description="Register the git repository at PATH (default: the current directory), ingest it if it "
        "never was (the branch head only, fast; --history for the whole history), start the daemon that keeps "
        "it current (unless --no-daemon) and print the MCP configuration for --agent (with --write: merge it "
        "into the agent's configuration file). Safe to run again.",
    )
    p.add_argument("path", nargs="?", default=".", metavar="PATH", help="the repository (any folder inside it)")
    p.add_argument("--agent", choices=sorted(AGENTS), default="claude-code",
                   help="the MCP client to configure (default claude-code)")  # fmt: skip
    p.add_argument("--write", action="store_true",
                   help="merge the configuration into the agent's file (claude-code: PATH/.mcp.json, cursor: "
                        "PATH/.cursor/mcp.json, vscode: PATH/.vscode/mcp.json, claude-desktop: its "
                        "claude_desktop_config.json) instead of printing it")  # fmt: skip
    p.add_argument("--no-daemon", action="store_true", help="do not start the background daemon")
    p.add_argument("--history", action="store_true", help="ingest the whole history, not only the branch head")
    p.add_argument("--name", help="workspace name (default: the repository folder's name)")
    p.add_argument("--branch", help="branch to track (default: the current branch)")
    p.set_defaults(func=run)


def mnemosyne_command() -> list[str]:
    """The absolute command that runs this installation's ``mnemosyne`` (an agent's PATH may differ)."""
    beside = Path(sys.executable).parent / "mnemosyne"
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside.absolute())]
    found = shutil.which("mnemosyne")
    if found:
        return [str(Path(found).absolute())]
    return [str(Path(sys.executable).absolute()), "-m", "mnemosyne.cli"]


def client_entry(agent: str, home: Path) -> dict[str, Any]:
    """One server entry in the agent's format."""
    _key, typed = AGENTS[agent]
    cmd = mnemosyne_command()
    entry: dict[str, Any] = {"type": "stdio"} if typed else {}
    entry.update({"command": cmd[0], "args": [*cmd[1:], "mcp"], "env": {"MNEMOSYNE_HOME": str(home)}})
    return entry


def client_config(agent: str, home: Path) -> dict[str, Any]:
    """The whole configuration file content for a client that has only Mnemosyne."""
    return {AGENTS[agent][0]: {SERVER_NAME: client_entry(agent, home)}}


def config_path(agent: str, repo: Path) -> Path:
    """Where ``agent`` reads its MCP servers: the project's file, or Claude Desktop's own."""
    if agent == "claude-code":
        return repo / ".mcp.json"
    if agent == "cursor":
        return repo / ".cursor" / "mcp.json"
    if agent == "vscode":
        return repo / ".vscode" / "mcp.json"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "Claude" / "claude_desktop_config.json"
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming")) / "Claude" / "claude_desktop_config.json"
    return Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config")) / "Claude" / "claude_desktop_config.json"


def write_config(path: Path, agent: str, home: Path) -> None:
    """Merge the Mnemosyne entry into ``path`` (other servers and keys are kept)."""
    data: dict[str, Any] = {}
    if path.exists() and path.read_text(encoding="utf-8").strip():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as err:
            raise ConfigError(f"{path} is not valid JSON ({err}); fix it or print the config without --write") from None
        if not isinstance(data, dict):
            raise ConfigError(f"{path} does not hold a JSON object; fix it or print the config without --write")
    key = AGENTS[agent][0]
    servers = data.get(key)
    if not isinstance(servers, dict):
        servers = data[key] = {}
    servers[SERVER_NAME] = client_entry(agent, home)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def run(args: argparse.Namespace) -> int:
    from mnemosyne.cli.ingest_cmd import _Printer
    from mnemosyne.cli.workspace import default_name
    from mnemosyne.config import get_settings
    from mnemosyne.git.locate import repo_root
    from mnemosyne.ingest import ingest_workspace
    from mnemosyne.store.connection import connect
    from mnemosyne.workspaces import add_workspace

    settings = get_settings()
    root = repo_root(args.path)
    out = sys.stderr  # progress and steps; stdout is the configuration when printed
    with connect(settings) as db:
        info = next((w for w in db.registry.list() if Path(w.path) == root
                     and (args.branch is None or w.branch == args.branch)
                     and (args.name is None or w.name == args.name)), None)  # fmt: skip
        if info is None:
            info = add_workspace(db.registry, args.name or default_name(root), root, branch=args.branch)
            print(f"registered workspace {info.name!r}: {info.path} (branch {info.branch})", file=out)
        else:
            print(f"workspace {info.name!r} is registered: {info.path} (branch {info.branch})", file=out)
        if info.last_ingested_commit is None:
            printer = _Printer(quiet=False)
            try:
                res = ingest_workspace(db, info, head_only=not args.history, progress=printer)
            finally:
                printer.end_line()
            print(f"ingested: {res.message}", file=out)
            if not args.history:
                print("  (the history before it: `mnemosyne ingest --workspace " + info.name + "`)", file=out)
            if settings.embed_on_ingest and not res.stopped:
                from mnemosyne.cli._embed import embed_after_ingest

                emb = embed_after_ingest(db, info.name)
                e = emb.get("embeddings")
                if isinstance(e, dict):
                    print(f"embedded for semantic search: {e['embedded']} texts ({e['reused']} from cache, "
                          f"{e['unchanged']} unchanged)", file=out)
                elif emb.get("embeddings_error"):
                    print(f"warning: embeddings not written ({emb['embeddings_error']}); keyword search works, "
                          "`mnemosyne embed` retries", file=out)
        else:
            print(f"already ingested up to {info.last_ingested_commit[:10]}", file=out)
    if not args.no_daemon:
        from mnemosyne.daemon import process

        pid = process.start(settings)
        print(f"daemon running (pid {pid}); it keeps {info.name!r} current as you commit", file=out)
    home = Path(settings.home).expanduser().absolute()
    target = config_path(args.agent, root)
    if args.write:
        write_config(target, args.agent, home)
        print(f"wrote the {args.agent} MCP configuration to {target}", file=out)
    else:
        print(f"MCP configuration for {args.agent} (put it in {target}, or run again with --write):", file=out)
        print(json.dumps(client_config(args.agent, home), indent=2))
    return 0
