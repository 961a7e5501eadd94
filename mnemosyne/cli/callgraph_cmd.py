"""CLI: `mnemosyne callgraph PATH_OR_WORKSPACE [--at REV] [--from-source] [--format pycg|json]`.

The help text (HELP) is plain text: argparse prints it as it is written."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from mnemosyne.cli._args import add_workspace_arg
from mnemosyne.errors import WorkspaceNotFound

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database
    from mnemosyne.store.handles import GraphHandle
    from mnemosyne.store.registry import WorkspaceInfo

HELP = """\
Prints the call graph at a commit as a JSON object.

--format pycg (the PyCG format): every module, function, method and lambda defined at REV, mapped
to the sorted list of what it calls (calls resolved with confidence 0.9 or more). Anonymous
functions have PyCG's names there: <lambdaN>, <arrowN>, <functionN>, numbered from 1 in source
order within their enclosing scope (the graph names them from their context: docs/schema.md).
--format json: the same names mapped to call objects with callee, resolution, confidence and
call-site lines (all confidences), wrapped with the commit and where the answer came from.

Where the answer comes from: an ingested workspace whose timeline holds REV is read from the graph
(the calls that held at that commit); otherwise (--from-source, a path not ingested, a commit off
the timeline or beyond the ingested head) the tree at REV is read with git and parsed. A folder
that is not a git repository is parsed from disk.
"""

_SKIP_DIRS = {".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", "dist", "build", ".mypy_cache"}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "callgraph",
        help="print the call graph at a commit (pycg JSON)",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("target", nargs="?", metavar="PATH_OR_WORKSPACE", help="a repository path or a workspace name (default: .)")
    add_workspace_arg(p, "workspace name")
    p.add_argument("--at", default=None, metavar="REV", help="commit-ish (default: HEAD of the tracked branch)")
    p.add_argument("--from-source", action="store_true", help="parse the tree at REV, do not use the database")
    p.add_argument("--format", choices=("pycg", "json"), default="pycg")
    p.add_argument("--output", "-o", help="write to this file instead of stdout")
    p.set_defaults(func=run)


def source_snapshot(path: Path, rev: str | None, max_file_bytes: int, parse_workers: int = 1, resolve_workers: int = 1):
    """(commit or None, Snapshot) of the tree at ``rev`` (git) or of the folder on disk."""
    from mnemosyne.extract import Extractor, extract_tree
    from mnemosyne.git.repo import GitRepo, NotAGitRepository

    try:
        repo = GitRepo(path)
    except NotAGitRepository:
        if rev:
            raise
        files = _disk_files(path, Extractor(max_file_bytes=max_file_bytes).owns)
        return None, extract_tree(files, max_file_bytes, parse_workers, resolve_workers)
    with repo:
        commit = repo.rev_parse(rev or "HEAD")
        owns = Extractor(max_file_bytes=max_file_bytes).owns
        files, _subs = repo.read_tree_files(commit, wanted=owns)
    return commit, extract_tree(files.items(), max_file_bytes, parse_workers, resolve_workers)


def _disk_files(root: Path, owns):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in _SKIP_DIRS]
        for fn in filenames:
            full = Path(dirpath) / fn
            rel = full.relative_to(root).as_posix()
            if owns(rel) and full.is_file():
                yield rel, full.read_bytes()


def json_from_snapshot(snapshot) -> dict[str, list[dict[str, Any]]]:
    from mnemosyne.callgraph import CALLABLE_KINDS

    out: dict[str, list[dict[str, Any]]] = {}
    for f in snapshot.files.values():
        for s in f.symbols:
            if s.kind in CALLABLE_KINDS:
                out.setdefault(s.fqn, [])
    for f in snapshot.files.values():
        for c in f.calls:
            out.setdefault(c.caller, []).append(
                {"callee": c.callee, "resolution": c.resolution, "confidence": c.confidence, "lines": list(c.lines)}
            )
    return {k: sorted(v, key=lambda x: (x["callee"], x["resolution"])) for k, v in sorted(out.items())}


def json_from_graph(graph: GraphHandle, seq: int, repo: str, commit: str, at_head: bool) -> dict[str, list[dict[str, Any]]]:
    """The graph's calls at ``seq``, with call-site lines derived at ``commit`` (positions are not
    versioned: at the head from the callers' latest first lines, elsewhere from the source)."""
    from mnemosyne.query.positions import site_lines
    from mnemosyne.timeline.read import callables_at, calls_at

    out: dict[str, list[dict[str, Any]]] = {f: [] for f in callables_at(graph, seq)}
    for caller, callee, res, conf, st in calls_at(graph, seq):
        lines = site_lines(repo, commit, at_head, caller, callee, st)
        out.setdefault(caller, []).append({"callee": callee, "resolution": res, "confidence": conf, "lines": lines})
    return {k: sorted(v, key=lambda x: (x["callee"], x["resolution"])) for k, v in sorted(out.items())}


def _workspace_for(db, target: str | None, workspace: str | None):
    """(WorkspaceInfo or None, path) for the argument."""
    if workspace:
        info = db.registry.get(workspace)
        return info, Path(info.path)
    if target and not ("/" in target or target in (".", "..")):
        info = db.registry.find(target)
        if info is not None:
            return info, Path(info.path)
    path = Path(target or ".").expanduser().resolve()
    if not path.exists():
        raise WorkspaceNotFound(f"{target!r} is neither a registered workspace nor an existing path")
    for w in db.registry.list():
        if Path(w.path) == path or Path(w.path) in path.parents:
            return w, Path(w.path)
    return None, path


def compute(args: argparse.Namespace) -> dict[str, Any]:
    from mnemosyne.callgraph import to_pycg
    from mnemosyne.config import get_settings

    settings = get_settings()
    info = None
    path = Path(args.target or ".").expanduser()
    graph_answer = None
    if not args.from_source:
        from mnemosyne.errors import DatabaseUnavailable
        from mnemosyne.store.connection import connect

        try:
            # never start a server just for this: no database means nothing is ingested
            db = connect(settings, start=bool(args.workspace))
        except DatabaseUnavailable:
            if args.workspace:
                raise
            db = None
        if db is not None:
            with db:
                info, path = _workspace_for(db, args.target, args.workspace)
                if info is not None:
                    graph_answer = _from_graph(db, info, args.at, args.format)
    if graph_answer is not None:
        return graph_answer
    if info is None and args.workspace:
        raise WorkspaceNotFound(f"no workspace {args.workspace!r}")
    commit, snap = source_snapshot(path, args.at or (info.branch if info and info.branch else None), settings.max_file_bytes,
                                  settings.parse_workers, settings.resolve_workers)
    if args.format == "pycg":
        return to_pycg(snap)
    return {"commit": commit, "seq": None, "source": "source", "calls": json_from_snapshot(snap)}


def _from_graph(db: Database, info: WorkspaceInfo, at: str | None, fmt: str) -> dict[str, Any] | None:
    from mnemosyne.git.repo import GitRepo
    from mnemosyne.timeline.read import commit_seq, ingested_head, pycg_at

    g = db.graph(info.name)
    head_seq, head_hash = ingested_head(g)
    if head_seq is None:
        return None  # not ingested: parse instead
    if at is None:
        seq, commit = head_seq, cast(str, head_hash)  # Meta's last_seq and last_commit are written together
    else:
        with GitRepo(info.path) as repo:
            commit = repo.rev_parse(at)
        seq_at = commit_seq(g, commit)
        if seq_at is None or seq_at > head_seq:
            return None  # off the timeline / not ingested yet: exact answer from source
        seq = seq_at
    if fmt == "pycg":
        return _pycg_names(g, seq, str(info.path), commit, pycg_at(g, seq))
    return {"commit": commit, "seq": seq, "source": "graph", "workspace": info.name,
            "calls": json_from_graph(g, seq, str(info.path), commit, seq == head_seq)}


def _pycg_names(g: GraphHandle, seq: int, repo: str, commit: str, graph: dict[str, list[str]]) -> dict[str, list[str]]:
    """The graph's call graph with its anonymous functions numbered as PyCG does (``<lambda1>``):
    their source order at ``commit`` comes from the files defining them there."""
    from mnemosyne.callgraph import pycg_names
    from mnemosyne.parse.anon import anonymous_kind
    from mnemosyne.query.positions import anonymous_ordinals
    from mnemosyne.timeline.read import files_at

    anon: set[str] = set()
    for name in {*graph, *(c for cs in graph.values() for c in cs)}:
        if "<" in name:
            parts = name.split(".")
            anon.update(".".join(parts[: i + 1]) for i, p in enumerate(parts) if anonymous_kind(p))
    if not anon:
        return graph
    return pycg_names(graph, anonymous_ordinals(repo, commit, files_at(g, seq, sorted(anon))))


def run(args: argparse.Namespace) -> int:
    out = compute(args)
    text = json.dumps(out, indent=2, sort_keys=False)
    if args.output:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
    else:
        sys.stdout.write(text + "\n")
    return 0
