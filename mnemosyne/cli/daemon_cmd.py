"""CLI: `mnemosyne daemon run|start|stop|status|logs|reconcile|install-service`."""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import sys
from typing import Any

from mnemosyne.cli._args import add_json_arg
from mnemosyne.config import get_settings


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("daemon", help="run the background service that keeps every workspace's graph current")
    dsub = p.add_subparsers(dest="daemon_command", metavar="ACTION")

    run = dsub.add_parser("run", help="run in the foreground (for systemd, launchd, containers)")
    run.add_argument("--mcp-port", type=int, default=None, help="also serve MCP over streamable HTTP on this port")
    run.add_argument("--mcp-host", default="127.0.0.1", help="address for --mcp-port (default 127.0.0.1)")
    run.add_argument("--quiet", action="store_true", help="log to the log file only, not to stderr")
    run.add_argument("--workspace", dest="only", action="append", metavar="PATTERN",
                     help="serve only workspaces whose name matches (glob; repeatable); default: all")
    run.set_defaults(func=_run)

    start = dsub.add_parser("start", help="start in the background")
    start.add_argument("--mcp-port", type=int, default=None, help="also serve MCP over streamable HTTP on this port")
    start.add_argument("--wait", type=float, default=60.0, help="seconds to wait for it to answer (default 60)")
    start.add_argument("--workspace", dest="only", action="append", metavar="PATTERN",
                       help="serve only workspaces whose name matches (glob; repeatable); default: all")
    start.set_defaults(func=_start)

    stop = dsub.add_parser("stop", help="stop the background daemon (SIGTERM; queued work is kept)")
    stop.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for it to exit")
    stop.set_defaults(func=_stop)

    status = dsub.add_parser("status", help="queue, running job and progress, last results, per-workspace lag")
    add_json_arg(status, "print the raw status as JSON")
    status.set_defaults(func=_status)

    logs = dsub.add_parser("logs", help="print the daemon log")
    logs.add_argument("-n", "--lines", type=int, default=50, help="last N lines (default 50)")
    logs.add_argument("-f", "--follow", action="store_true", help="keep printing new lines")
    logs.set_defaults(func=_logs)

    rec = dsub.add_parser("reconcile", help="ask the running daemon to compare every workspace with its branch now")
    rec.set_defaults(func=_reconcile)

    svc = dsub.add_parser("install-service", help="write a systemd user unit (Linux) or launchd agent (macOS)")
    svc.add_argument("--print", dest="print_only", action="store_true", help="print the file instead of writing it")
    svc.add_argument("--platform", choices=["linux", "darwin"], default=None, help=argparse.SUPPRESS)
    svc.set_defaults(func=_install_service)

    def _help(args: argparse.Namespace) -> int:
        p.print_help()
        return 2

    p.set_defaults(func=_help)


def _paths() -> Any:
    from mnemosyne.daemon.paths import DaemonPaths

    return DaemonPaths.from_settings(get_settings())


def _run(args: argparse.Namespace) -> int:
    from mnemosyne.daemon import logsetup
    from mnemosyne.daemon.core import Daemon

    settings = get_settings()
    paths = _paths()
    paths.ensure()
    logsetup.setup(paths.log_file, settings.log_level, stderr=not args.quiet)
    return Daemon(settings, mcp_port=args.mcp_port, mcp_host=args.mcp_host, only=args.only).run()


def _start(args: argparse.Namespace) -> int:
    from mnemosyne.daemon import process

    settings = get_settings()
    already = process.running_pid(_paths())
    pid = process.start(settings, mcp_port=args.mcp_port, wait_s=args.wait, only=args.only)
    print(f"daemon {'already running' if already == pid else 'started'}, pid {pid} (log: {_paths().log_file})")
    return 0


def _stop(args: argparse.Namespace) -> int:
    from mnemosyne.daemon import process

    pid = process.stop(get_settings(), timeout_s=args.timeout)
    print("daemon not running" if pid is None else f"daemon stopped (pid {pid})")
    return 0


def _status(args: argparse.Namespace) -> int:
    from mnemosyne.daemon import control, process
    from mnemosyne.daemon.queue import WorkQueue

    paths = _paths()
    try:
        st = control.request(paths.control_socket, "status", timeout=10.0)
    except control.ControlUnavailable:
        st = None
    if st is None:
        pid = process.running_pid(paths)
        info: dict[str, Any] = {"running": False, "pid": pid}
        if paths.queue_db.exists():
            q = WorkQueue(paths.queue_db)
            info["queue"] = q.counts()
            info["queued"] = [j.to_dict() for j in q.jobs(state="queued")]
            q.close()
        if args.json:
            print(json.dumps(info, indent=2, default=str))
        else:
            state = f"pid {pid} is alive but does not answer" if pid else "not running"
            print(f"daemon: {state}")
            if info.get("queue"):
                print(f"queue (persisted): {info['queue'].get('queued', 0)} queued; they run at the next start")
        return 3
    if args.json:
        print(json.dumps(st, indent=2, default=str))
        return 0
    _print_status(st)
    return 0


def _ago(ts: float | None) -> str:
    if not ts:
        return "-"
    return _dt.datetime.fromtimestamp(ts, tz=_dt.UTC).strftime("%H:%M:%SZ")


def _print_status(st: dict[str, Any]) -> None:
    out = sys.stdout.write
    db = st["db"]
    out(f"daemon: running, pid {st['pid']}, up {st['uptime_s']:.0f} s, home {st['home']}"
        + (f", serving {', '.join(st['only'])}" if st.get("only") else "") + "\n")
    out(f"database: {db['state']}" + (f" ({db['error']})" if db.get("error") else "") + "\n")
    if st.get("mcp", {}).get("url"):
        out(f"mcp: {st['mcp']['url']}\n")
    elif st.get("mcp", {}).get("error"):
        out(f"mcp: not serving ({st['mcp']['error']})\n")
    q = st["queue"]
    out(f"queue: {q.get('queued', 0)} queued, {q.get('running', 0)} running, "
        f"{q.get('done', 0)} done, {q.get('failed', 0)} failed (max parallel {st['max_parallel']})\n")
    for r in st["running"]:
        prog = r.get("progress") or {}
        detail = " ".join(f"{k}={v}" for k, v in prog.items() if isinstance(v, (int, float, str)) and v != "")
        out(f"  running  #{r['job']} {r['kind']} {r['workspace']} since {_ago(r['started_at'])} {detail}\n")
    for j in st["queued"]:
        out(f"  queued   #{j['id']} {j['kind']} {j['workspace']} ({j['reason']})\n")
    for j in st.get("recent", [])[:5]:
        res = j.get("result") or {}
        extra = j.get("error") or " ".join(
            f"{k}={str(res[k])[:12]}" for k in ("commits_ingested", "to", "duration_s") if res.get(k) is not None
        )
        out(f"  {j['state']:<8} #{j.get('job', j.get('id'))} {j['kind']} {j['workspace']} "
            f"at {_ago(j.get('finished_at'))} {extra}\n")
    out("workspaces:\n")
    for w in st["workspaces"]:
        lag = ""
        if w.get("commits_behind"):
            lag = f", {w['commits_behind']} commits behind (lag {w.get('lag_s', 0):.0f} s)"
        elif w.get("head"):
            lag = ", up to date"
        watch = "watched" if w.get("watched") else f"NOT watched ({w.get('watch_error') or 'paused'})"
        indexed = (w.get("last_ingested_commit") or "none")[:12]
        out(f"  {w['name']}: {w['path']} [{w.get('branch') or 'HEAD'}] indexed {indexed}{lag}; {watch}\n")
    if st.get("spool_pending"):
        out(f"hook notes pending: {st['spool_pending']}\n")


def _logs(args: argparse.Namespace) -> int:
    from mnemosyne.daemon import process

    paths = _paths()
    for line in process.tail_lines(paths.log_file, args.lines):
        print(line)
    sys.stdout.flush()
    if args.follow:
        try:
            process.follow(paths.log_file, sys.stdout)
        except KeyboardInterrupt:
            return 0
    return 0


def _reconcile(args: argparse.Namespace) -> int:
    from mnemosyne.daemon import control

    try:
        reply = control.request(_paths().control_socket, "reconcile", timeout=120.0)
    except control.ControlUnavailable as err:
        print(f"mnemosyne: {err}; start it with `mnemosyne daemon start`", file=sys.stderr)
        return 3
    if not reply.get("ok"):
        print(f"mnemosyne: the daemon could not reconcile: {reply.get('error')}", file=sys.stderr)
        return 1
    if reply.get("skipped"):
        print("the daemon is reconciling already")
        return 0
    queued = reply.get("queued") or []
    print(f"compared {reply.get('workspaces', 0)} workspace(s) with their branches; "
          + (f"queued for ingestion: {', '.join(queued)}" if queued else "all up to date"))  # fmt: skip
    return 0


def _install_service(args: argparse.Namespace) -> int:
    from mnemosyne.daemon import service

    kind, path, text = service.render(get_settings(), args.platform)
    if args.print_only:
        sys.stdout.write(text)
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    print(f"wrote {kind} service: {path}")
    if kind == "systemd":
        print("enable it with: systemctl --user daemon-reload && systemctl --user enable --now mnemosyne")
    else:
        print(f"load it with: launchctl load -w {path}")
    return 0
