"""CLI: `mnemosyne ingest WORKSPACE_OR_PATH [--head-only] [--rebuild] [--branch B] [--name N]`.

Ingests the first-parent history of the workspace's tracked branch (resumable, idempotent).
Progress goes to stderr (commits done/total, rate, ETA). The first Ctrl-C stops cleanly after the
commit being written; a second one aborts at once, which is safe too: the next run rolls the
half-written commit back and continues.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time
from pathlib import Path

from mnemosyne.cli._args import add_json_arg, add_workspace_arg
from mnemosyne.cli._embed import embed_after_ingest, fmt_eta
from mnemosyne.config import get_settings
from mnemosyne.errors import ConfigError, WorkspaceNotFound


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "ingest",
        help="ingest a repository's history into its graph",
        description="Ingest the first-parent history of a workspace's tracked branch (resumable, idempotent). "
        "A path that is not registered yet is registered first.",
    )
    p.add_argument("target", nargs="?", metavar="WORKSPACE_OR_PATH",
                   help="a workspace name or a path inside a git repository (default: the workspace of the current directory)")
    add_workspace_arg(p, "workspace name (same as giving it as WORKSPACE_OR_PATH)")
    p.add_argument("--head-only", action="store_true", help="ingest only the branch head (its whole tree) as one commit")
    p.add_argument("--branch", help="branch to track when registering a new path (default: the current branch)")
    p.add_argument("--name", help="workspace name when registering a new path (default: the folder's name)")
    p.add_argument("--since", metavar="DATE|REV",
                   help="start the timeline at this date (YYYY-MM-DD) or first-parent commit instead of the root "
                        "('all': the whole history); an earlier --since later extends the window back")
    p.add_argument("--verify", action="store_true", help="on resume, cross-check the graph against the tree (slower)")
    p.add_argument("--rebuild", action="store_true",
                   help="supersede every version (kept, no longer believed) and ingest the whole history again")
    p.add_argument("--workers", type=int, metavar="N",
                   help="cores this run may use (default: the parse_workers setting, 1, and resolve_workers, 2 on "
                        "a multi-core machine); 2 parses ahead on a second process while this one resolves and "
                        "writes, and resolves big batches on two cores; 1 keeps the run on one core")
    add_json_arg(p)
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    p.add_argument("--no-embed", action="store_true",
                   help="skip the embedding step after ingesting (semantic search then falls back to keywords "
                        "until `mnemosyne embed`); setting embed_on_ingest=false does it for every run")
    p.set_defaults(func=run)


_fmt_eta = fmt_eta


class _Printer:
    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.last = 0.0
        self.dirty = False

    def __call__(self, p) -> None:  # IngestProgress
        if self.quiet:
            return
        now = time.monotonic()
        if p.phase == "ingesting":
            if p.done != p.total and now - self.last < (0.2 if self.tty else 2.0):
                return
            self.last = now
            what = "history " if p.stage == "history" else ""
            line = (f"[{p.workspace}] {what}{p.done}/{p.total} commits  {p.rate:.1f} commits/s  "
                    f"ETA {_fmt_eta(p.eta_s)}  seq {p.seq}  {(p.commit or '')[:10]}")
            if self.tty:
                sys.stderr.write("\r\x1b[2K" + line)
                self.dirty = True
            else:
                sys.stderr.write(line + "\n")
            sys.stderr.flush()
        elif p.phase in ("rollback", "superseding", "loading"):
            self.end_line()
            label = {"rollback": "rolling back an interrupted commit", "superseding": "history rewritten: superseding",
                     "loading": f"loading the tree at seq {p.seq} to resume"}[p.phase]
            sys.stderr.write(f"[{p.workspace}] {label}\n")
        elif p.phase == "head_ready":
            self.end_line()
            sys.stderr.write(f"[{p.workspace}] the head {(p.commit or '')[:10]} answers now ({p.elapsed_s:.1f}s); "
                             "building the history behind it\n")
        elif p.phase == "done":
            self.end_line()

    def end_line(self) -> None:
        if self.dirty:
            sys.stderr.write("\n")
            self.dirty = False


def run(args: argparse.Namespace) -> int:
    from mnemosyne.ingest import ingest_path, ingest_workspace
    from mnemosyne.store.connection import connect
    from mnemosyne.workspaces import resolve_workspace

    stop = threading.Event()
    printer = _Printer(args.quiet)

    def on_sigint(signum, frame):  # first Ctrl-C: finish the current commit, then stop
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()
        printer.end_line()
        sys.stderr.write("mnemosyne: stopping after the current commit (Ctrl-C again to abort now; safe either way)\n")

    old = None
    if threading.current_thread() is threading.main_thread():
        old = signal.signal(signal.SIGINT, on_sigint)
    try:
        settings = get_settings()
        if args.workers is not None:
            if args.workers < 1:
                raise ConfigError("--workers must be 1 or more")
            settings = settings.model_copy(update={"parse_workers": args.workers, "resolve_workers": args.workers})
        with connect(settings) as db:
            kw = dict(head_only=args.head_only, progress=printer, stop=stop, verify=args.verify, rebuild=args.rebuild,
                      since=args.since)
            if args.workspace:
                res = ingest_workspace(db, db.registry.get(args.workspace), **kw)
            elif args.target is None:
                res = ingest_workspace(db, resolve_workspace(db, None, Path.cwd()), **kw)
            else:
                target = args.target
                looks_like_path = "/" in target or target in (".", "..") or target.startswith("~")
                info = None if looks_like_path else db.registry.find(target)
                if info is not None:
                    res = ingest_workspace(db, info, **kw)
                elif Path(target).expanduser().exists():
                    res = ingest_path(db, Path(target).expanduser(), name=args.name, branch=args.branch, **kw)
                else:
                    raise WorkspaceNotFound(
                        f"{target!r} is neither a registered workspace nor an existing path; "
                        "see `mnemosyne workspace list`"
                    )
            emb: dict = {}
            if not args.no_embed and settings.embed_on_ingest and not res.stopped and not stop.is_set():
                printer.end_line()
                emb = embed_after_ingest(db, res.workspace, quiet=args.quiet)
    finally:
        if old is not None:
            signal.signal(signal.SIGINT, old)
        printer.end_line()
    if args.json:
        print(json.dumps({**res.model_dump(), **emb}, indent=2))
    else:
        print(f"{res.workspace}: {res.message} [{res.files_parsed} files parsed, {res.seconds:.1f}s]")
        e = emb.get("embeddings")
        if isinstance(e, dict):
            print(f"  embedded {e['embedded']} texts ({e['reused']} from cache, {e['unchanged']} unchanged) "
                  f"in {e['seconds']:.1f}s")
        elif emb.get("embeddings_error"):
            print(f"  warning: embeddings not updated ({emb['embeddings_error']}); keyword search works, "
                  "`mnemosyne embed` retries")
        if res.superseded:
            print(f"  superseded {res.superseded} commits/versions of a rewritten history")
        for w in res.warnings[:20]:
            print(f"  warning: {w}")
        if len(res.warnings) > 20:
            print(f"  ... and {len(res.warnings) - 20} more warnings (--json lists them)")
    return 130 if res.stopped else 0
