"""CLI: historical questions (`calls`, `callers`, `history`, `diff`, `deps`, `lag`).

Thin over ``mnemosyne.query``: each command resolves the workspace (``--workspace`` or the
current directory), calls one query function and prints its result as text or ``--json``.
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from mnemosyne import query as Q
from mnemosyne.cli._args import add_json_arg, add_workspace_arg
from mnemosyne.cli._fresh import print_freshness
from mnemosyne.errors import ConfigError
from mnemosyne.query.core import iso
from mnemosyne.store.connection import connect
from mnemosyne.workspaces import resolve_workspace

if TYPE_CHECKING:
    from mnemosyne.store.registry import WorkspaceInfo


def _common(p: argparse.ArgumentParser, at: bool = False) -> None:
    add_workspace_arg(p)
    add_json_arg(p)
    if at:
        g = p.add_mutually_exclusive_group()
        g.add_argument("--at", metavar="REV", help="commit-ish: hash, short hash, branch, tag, HEAD~N (default: "
                       "the last ingested commit)")  # fmt: skip
        g.add_argument("--as-of", metavar="TIME", help="the last timeline commit at or before TIME "
                       "(epoch seconds or ISO 8601, e.g. 2024-01-05 or 2024-01-05T12:00:00Z)")  # fmt: skip
        p.add_argument("--as-of-ingest", metavar="TIME", help="transaction time: answer as Mnemosyne believed it at "
                       "wall-clock TIME (epoch seconds or ISO 8601): versions ingested by then and not superseded by "
                       "then; a commit superseded since (history rewritten) is still on that timeline")  # fmt: skip


_NAME_HELP = "fully qualified name (shop.checkout.checkout), or a short name (checkout, Cart.total) naming one symbol"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("calls", help="what a function calls at a commit",
                       description="What FQN calls at a commit (default: the last ingested one). A commit "
                       "that is not on the timeline (a feature branch) is answered by parsing its tree.")  # fmt: skip
    p.add_argument("fqn", metavar="FQN", help=_NAME_HELP)
    p.add_argument("--depth", type=int, default=1, help="expand callees this many levels (1-5, default 1)")
    _common(p, at=True)
    p.set_defaults(func=_calls, direction="callees")

    p = sub.add_parser("callers", help="who calls a function at a commit",
                       description="Who calls FQN at a commit (default: the last ingested one).")  # fmt: skip
    p.add_argument("fqn", metavar="FQN", help=_NAME_HELP)
    p.add_argument("--depth", type=int, default=1, help="expand callers this many levels (1-5, default 1)")
    _common(p, at=True)
    p.set_defaults(func=_calls, direction="callers")

    p = sub.add_parser("history", help="a symbol's history",
                       description="When FQN appeared, changed signature, moved, was removed and re-added, and "
                       "which calls it gained and lost, with the commits.")  # fmt: skip
    p.add_argument("fqn", metavar="FQN", help=_NAME_HELP)
    _common(p)
    p.add_argument("--as-of-ingest", metavar="TIME", help="transaction time: the history as Mnemosyne believed it "
                   "at wall-clock TIME (epoch seconds or ISO 8601): versions ingested by then and not superseded by "
                   "then, on the timeline of then")  # fmt: skip
    p.set_defaults(func=_history)

    p = sub.add_parser("diff", help="what changed between two commits",
                       description="Calls, imports, symbols and dependencies added and removed between REV_A "
                       "and REV_B (and symbols changed).")  # fmt: skip
    p.add_argument("rev_a", metavar="REV_A")
    p.add_argument("rev_b", metavar="REV_B")
    p.add_argument("--path-prefix", metavar="P", help="only files under this path (e.g. shop/)")
    p.add_argument("--as-of-ingest", metavar="TIME", help="transaction time: the diff as Mnemosyne believed it at "
                   "wall-clock TIME (epoch seconds or ISO 8601), on the timeline of then")  # fmt: skip
    _common(p)
    p.set_defaults(func=_diff)

    p = sub.add_parser("deps", help="dependency history",
                       description="When third-party packages were declared, their specs changed, versions "
                       "were locked and changed, and when they were removed.")  # fmt: skip
    p.add_argument("package", metavar="PACKAGE", nargs="?", help="one package (default: all)")
    _common(p)
    p.set_defaults(func=_deps)

    p = sub.add_parser("lag", help="ingestion lag",
                       description="Timeline commits ingested more than N minutes after they were committed.")  # fmt: skip
    p.add_argument("--minutes", type=float, default=5.0, help="threshold in minutes (default 5; 0 lists all)")
    p.add_argument("--limit", type=int, default=20, metavar="N", help="list the latest N late commits (default 20; "
                   "0: all)")
    p.add_argument("--include-backfill", action="store_true", help="also list history that was committed before the "
                   "first ingest (back-filled history, not lag; left out by default)")
    _common(p)
    p.set_defaults(func=_lag)


def _emit(args: argparse.Namespace, result: Any, text: list[str], ws: WorkspaceInfo | None = None) -> int:
    """The answer on stdout (text or ``--json``), the workspace's freshness line on stderr."""
    if ws is not None:
        print_freshness(ws)
    if args.json:
        print(result.model_dump_json(indent=2))
    else:
        print("\n".join(text))
    return 0


def _short(h: str | None) -> str:
    return h[:10] if h else "?"


def _calls(args: argparse.Namespace) -> int:
    with connect() as db:
        ws = resolve_workspace(db, args.workspace)
        if args.depth and args.depth > 1:
            tree = Q.call_tree(db, ws, args.fqn, direction=args.direction, depth=args.depth, at=args.at,
                               as_of=args.as_of, as_of_ingest=args.as_of_ingest)  # fmt: skip
            lines = [f"{args.direction} of {tree.root.fqn} at {tree.at.describe()}:"]
            if tree.class_fqn:
                lines.append(f"  ({tree.class_fqn} is a class: the {args.direction} of its constructor)")

            printed: set[str] = {tree.root.fqn}

            def walk(node: Q.CallTreeNode, indent: int) -> None:
                for c in node.children:
                    tag = " [external]" if c.external else ""
                    if c.repeated and not c.external:  # expanded where it was met first, maybe further down
                        tag += " (see above)" if c.fqn in printed else " (see below)"
                    else:
                        printed.add(c.fqn)
                    lines.append(f"{'  ' * indent}{'->' if args.direction == 'callees' else '<-'} {c.fqn}"
                                 f"  [{c.resolution or '?'}]{tag}")  # fmt: skip
                    walk(c, indent + 1)

            walk(tree.root, 1)
            if tree.truncated:
                lines.append("  ... (truncated)")
            return _emit(args, tree, lines, ws)
        fn = Q.calls if args.direction == "callees" else Q.callers
        res = fn(db, ws, args.fqn, at=args.at, as_of=args.as_of, as_of_ingest=args.as_of_ingest)
    lines = [f"{res.fqn} calls at {res.at.describe()}:" if args.direction == "callees"
             else f"callers of {res.fqn} at {res.at.describe()}:"]  # fmt: skip
    if res.asked_fqn:
        lines.append(f"  ({res.asked_fqn} was called {res.fqn} at that commit: renamed or moved since)")
    if res.class_fqn:
        lines.append(f"  ({res.class_fqn} is a class: the {args.direction} of its constructor)")
    if not res.edges:
        lines.append("  (nothing)")
    if res.also_named:
        lines.append(f"  ({res.fqn} is itself a symbol; also named so: {', '.join(res.also_named)})")
    for e in res.edges:
        other = e.callee if args.direction == "callees" else e.caller
        arrow = "->" if args.direction == "callees" else "<-"
        where = f" line {', '.join(map(str, e.lines))}" if e.lines else ""
        conf = f" {e.confidence:.2f}" if e.confidence is not None else ""
        ext = " external" if e.external else ""
        lines.append(f"  {arrow} {other}  [{e.resolution or '?'}{conf}]{ext}{where}")
    return _emit(args, res, lines, ws)


def _history(args: argparse.Namespace) -> int:
    with connect() as db:
        ws = resolve_workspace(db, args.workspace)
        res = Q.symbol_history(db, ws, args.fqn, as_of_ingest=args.as_of_ingest)
    state = "exists at the ingested head" if res.exists_at_head else "not defined at the ingested head"
    if res.as_of_ingest is not None:
        state += f", as believed at {datetime.fromtimestamp(res.as_of_ingest, tz=UTC):%Y-%m-%d %H:%M:%S} UTC"
    lines = [f"history of {res.fqn} ({res.kind or '?'}; {state}):"]
    for e in res.events:
        d = e.details
        if e.kind == "appeared":
            what = f"appeared in {d.get('file')} {d.get('signature') or ''}".rstrip()
        elif e.kind == "re-added":
            what = f"re-added in {d.get('file')} {d.get('signature') or ''}".rstrip()
        elif e.kind == "removed":
            what = f"removed from {d.get('file')}"
        elif e.kind == "renamed":
            what = f"renamed {d.get('from_fqn')} ({d.get('from_file')}) -> {d.get('to_fqn')} ({d.get('to_file')})"
        elif e.kind == "moved":
            if d.get("from_fqn") and d.get("from_fqn") != d.get("to_fqn"):
                what = f"moved {d.get('from_fqn')} ({d.get('from_file')}) -> {d.get('to_fqn')} ({d.get('to_file')})"
            else:
                what = f"moved {d.get('from_file')} -> {d.get('to_file')}"
        elif e.kind == "signature_changed":
            what = f"signature {signature_change(d.get('old'), d.get('new'))}"
        elif e.kind in ("calls_gained", "calls_lost"):
            what = f"{e.kind.replace('_', ' ')}: {_names(d.get('callees', []), args.json)}"
        elif e.kind in ("callers_gained", "callers_lost"):
            what = f"{e.kind.replace('_', ' ')}: {_names(d.get('callers', []), args.json)}"
        else:
            what = e.kind.replace("_", " ")
        lines.append(f"  seq {e.seq:<4} {_short(e.commit)} {iso(e.timestamp)[:16]}  {e.author or '?'}: {what}")
        if e.kind in ("appeared", "removed", "re-added", "renamed", "moved") and e.message:
            lines.append(f"{'':14}\"{e.message}\"")
    return _emit(args, res, lines, ws)


HISTORY_NAMES = 12  # names of one calls/callers event printed by `history` (--json has them all)


def _names(names: list[str], whole: bool) -> str:
    """The names of a calls/callers event: the first few, then how many more."""
    if whole or len(names) <= HISTORY_NAMES:
        return ", ".join(names)
    return ", ".join(names[:HISTORY_NAMES]) + f" and {len(names) - HISTORY_NAMES} more (--json lists them)"


def _diff(args: argparse.Namespace) -> int:
    with connect() as db:
        ws = resolve_workspace(db, args.workspace)
        res = Q.diff_commits(db, ws, args.rev_a, args.rev_b, path_prefix=args.path_prefix,
                             as_of_ingest=args.as_of_ingest)  # fmt: skip
    lines = [f"diff {res.a.describe()}  ->  {res.b.describe()}"
             + (f"  (under {res.path_prefix})" if res.path_prefix else "")]  # fmt: skip
    # symbols that moved, came or went with their whole file are shown once, as their file (--json lists them)
    moved, whole = res.moved_with_file(), res.in_whole_files()
    n_added = sum(1 for s in res.symbols_added if s.fqn in whole)
    notes = {title: f"; {n} more {how}" for title, n, how in (
        ("symbols added", n_added, "in added files"),
        ("symbols removed", len(whole) - n_added, "in removed files"),
        ("symbols changed", len(moved), "only moved with their file")) if n}  # fmt: skip
    sections = [
        ("files added", [f"+ {f.file} ({_count(f.symbols, 'symbol')})" for f in res.files_added]),
        ("files removed", [f"- {f.file} ({_count(f.symbols, 'symbol')})" for f in res.files_removed]),
        ("files moved", [f"> {m.old_file} -> {m.file} ({_count(m.symbols, 'symbol')})" for m in res.files_moved]),
        ("symbols added", [f"+ {s.fqn} ({s.kind}) {s.file}" for s in res.symbols_added if s.fqn not in whole]),
        ("symbols removed", [f"- {s.fqn} ({s.kind}) {s.file}" for s in res.symbols_removed if s.fqn not in whole]),
        ("symbols changed", [f"~ {s.fqn}: {', '.join(s.changes)}"
                             + (f" {signature_change(s.old_signature, s.signature)}" if "signature" in s.changes else "")
                             for s in res.symbols_changed if s.fqn not in moved]),  # fmt: skip
        ("symbols renamed or moved", [f"> {s.old_fqn} -> {s.fqn} ({s.change}"
                                      + (f", also {', '.join(s.changes)}" if s.changes else "") + ")"
                                      for s in res.symbols_renamed]),  # fmt: skip
        ("calls added", [f"+ {c.caller} -> {c.callee}" for c in res.calls_added]),
        ("calls removed", [f"- {c.caller} -> {c.callee}" for c in res.calls_removed]),
        ("imports added", [f"+ {i.file} -> {i.target}" for i in res.imports_added]),
        ("imports removed", [f"- {i.file} -> {i.target}" for i in res.imports_removed]),
        ("dependencies added", [f"+ {_dep(d)}" for d in res.dependencies_added]),
        ("dependencies changed", [f"~ {_dep(d)}" for d in res.dependencies_changed]),
        ("dependencies removed", [f"- {_dep(d)}" for d in res.dependencies_removed]),
    ]
    empty = True
    for title, items in sections:
        if items or title in notes:
            empty = False
            lines.append(f"{title} ({len(items)}{notes.get(title, '')}):")
            lines.extend(f"  {x}" for x in items)
    if empty:
        lines.append("(no changes)")
    return _emit(args, res, lines, ws)


#: a signature change longer than this shows only the parameters that differ (``…`` for the same ones)
SIG_CHANGE_CHARS = 120


def signature_change(old: str | None, new: str | None) -> str:
    """``old -> new``; when long, only the parameters (and return annotation) that differ:
    ``(url: URLTypes, …) -> (url: URL | str, …)`` for httpx's thirteen-parameter ``get``."""
    a, b = old or "(none)", new or "(none)"
    if len(a) + len(b) <= SIG_CHANGE_CHARS or old is None or new is None:
        return f"{a} -> {b}"
    pa, pb = _sig_parts(a), _sig_parts(b)
    if pa is None or pb is None:
        return f"{a} -> {b}"
    (xa, ra), (xb, rb) = pa, pb
    head = 0
    while head < min(len(xa), len(xb)) and xa[head] == xb[head]:
        head += 1
    tail = 0
    while tail < min(len(xa), len(xb)) - head and xa[-1 - tail] == xb[-1 - tail]:
        tail += 1

    if head == len(xa) == len(xb):  # the parameters are the same: the return annotation changed
        return f"return {ra.removeprefix(' -> ') or '(none)'} -> {rb.removeprefix(' -> ') or '(none)'}"

    def show(xs: list[str], r: str) -> str:
        mid = xs[head : len(xs) - tail]
        parts = ((["…"] if head else []) + mid + (["…"] if tail else [])) if mid else ["…"]
        return "(" + ", ".join(parts) + ")" + ("" if ra == rb else r)

    return f"{show(xa, ra)} -> {show(xb, rb)}"


def _sig_parts(sig: str) -> tuple[list[str], str] | None:
    """``(a, b: dict[str, int] = {}) -> R`` as (["a", "b: dict[str, int] = {}"], " -> R"): the
    parameters split at top-level commas; None when it is not one bracketed list."""
    if not sig.startswith("("):
        return None
    depth, quote, start, parts = 0, "", 1, []
    for i, ch in enumerate(sig):
        if quote:
            quote = "" if ch == quote and sig[i - 1] != "\\" else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>" and not (ch == ">" and sig[i - 1] == "-"):
            depth -= 1
            if depth == 0:
                if sig[start:i].strip():
                    parts.append(sig[start:i].strip())
                return parts, sig[i + 1 :]
        elif ch == "," and depth == 1:
            parts.append(sig[start:i].strip())
            start = i + 1
    return None


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _dep(d: Q.DependencyChange) -> str:
    """``pytest>=7 (dev)``; a changed one ``pytest<=6.2.5 -> >=7 (dev)``, ``flask==2.3.0 -> 3.1.0 (locked)``."""
    where = f" in {d.package}" if d.package not in ("", ".") else ""
    if d.relation == "locks":
        old = f"{d.old_version} -> " if d.old_version else ""
        return f"{d.name}=={old}{d.version} (locked{where})"
    spec = with_spec(d.name, d.spec) if d.old_spec is None else f"{with_spec(d.name, d.old_spec)} -> {d.spec or '(none)'}"
    scope = f"{d.old_scope or 'runtime'} -> {d.scope or 'runtime'}" if d.old_scope is not None else d.scope or "runtime"
    return f"{spec} ({scope}{where})"


def with_spec(name: str, spec: str | None) -> str:
    """``requests>=2.31`` (a PEP 508 spec starts with an operator, an extra or a marker), else
    ``ava 1.0.0-beta.8`` / ``ava ^5.0.0`` (npm ranges and versions start with a digit or ``^~*``)."""
    if not spec:
        return name
    return f"{name}{spec}" if spec[0] in "<>=!;[(@" or spec.startswith("~=") else f"{name} {spec}"


def _deps(args: argparse.Namespace) -> int:
    with connect() as db:
        ws = resolve_workspace(db, args.workspace)
        res = Q.dependency_history(db, ws, args.package)
    lines = [f"dependency history{' of ' + args.package if args.package else ''} in {res.workspace}:"]
    if not res.events:
        lines.append("  (no dependency changes recorded)")
    for e in res.events:
        if e.relation == "locks":
            what = {"added": f"locked {e.name}=={e.version}",
                    "removed": f"unlocked {e.name}=={e.version}",
                    "version_changed": f"lock {e.name} {e.old_version} -> {e.version}"}.get(e.kind, e.kind)  # fmt: skip
        else:
            what = {"added": f"added {with_spec(e.name, e.spec)} ({e.scope or 'runtime'})",
                    "removed": f"removed {with_spec(e.name, e.spec)}",
                    "spec_changed": f"spec {e.name} {e.old_spec or '(none)'} -> {e.spec or '(none)'}"}.get(e.kind, e.kind)  # fmt: skip
        src = f" [{e.source}]" if e.source else ""
        lines.append(f"  seq {e.seq:<4} {_short(e.commit)} {iso(e.timestamp)[:16]}  {what}{src}  \"{e.message or ''}\"")
    if res.current:
        lines.append("at the ingested head:")
        for s in res.current:
            lines.append(f"  {s.name + '==' + s.version if s.version else with_spec(s.name, s.spec)}"
                         + (f" ({s.scope})" if s.scope else ""))  # fmt: skip
    return _emit(args, res, lines, ws)


def _lag(args: argparse.Namespace) -> int:
    with connect() as db:
        ws = resolve_workspace(db, args.workspace)
        res = Q.ingestion_lag(db, ws, args.minutes, include_backfill=args.include_backfill)
    if args.limit < 0:
        raise ConfigError("--limit must be 0 or more")
    shown = res.commits[-args.limit:] if args.limit else res.commits
    lines = [f"{res.count} commit(s) of {res.workspace} ingested more than {args.minutes:g} min after commit"
             + (f" (max {_dur(res.max_lag_s)}, mean {_dur(res.mean_lag_s)})" if res.count else "")]  # fmt: skip
    if res.backfilled:
        lines.append(f"  ({res.backfilled} older commit(s) were back-filled by the first ingest, not late: "
                     "--include-backfill lists them)")  # fmt: skip
    if len(shown) < len(res.commits):
        lines.append(f"  the latest {len(shown)} (--limit 0 lists all {len(res.commits)}):")
        res = res.model_copy(update={"commits": shown})
    for c in res.commits:
        lines.append(f"  seq {c.seq:<4} {_short(c.hash)} committed {iso(c.timestamp)[:16]}, ingested "
                     f"{iso(c.ingested_at)[:16]} ({_dur(c.lag_s)} later)  \"{c.message or ''}\"")  # fmt: skip
    return _emit(args, res, lines, ws)


def _dur(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    s = int(seconds)
    if s < 120:
        return f"{s}s"
    if s < 7200:
        return f"{s // 60}m"
    if s < 172800:
        return f"{s // 3600}h{(s % 3600) // 60:02d}m"
    return f"{s // 86400}d{(s % 86400) // 3600:02d}h"

