"""CLI: `mnemosyne hook install|uninstall|status PATH`."""

from __future__ import annotations

import argparse
import sys

from mnemosyne.config import get_settings


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("hook", help="install git hooks that notify the daemon of commits (a fallback to watching)")
    hsub = p.add_subparsers(dest="hook_command", metavar="ACTION")
    for name, func, help_text in (
        ("install", _install, "add the notify block to post-commit/merge/checkout/rewrite hooks"),
        ("uninstall", _uninstall, "remove the block, restoring the hooks exactly as they were"),
        ("status", _status, "show which hooks carry the block"),
    ):
        sp = hsub.add_parser(name, help=help_text)
        sp.add_argument("path", nargs="?", default=".", help="repository (default: current directory)")
        sp.set_defaults(func=func)

    def _help(args: argparse.Namespace) -> int:
        p.print_help()
        return 2

    p.set_defaults(func=_help)


def _install(args: argparse.Namespace) -> int:
    from mnemosyne.daemon import hooks
    from mnemosyne.daemon.paths import DaemonPaths

    paths = DaemonPaths.from_settings(get_settings())
    paths.ensure()
    report = hooks.install(args.path, paths.spool_dir)
    for w in report.warnings:
        print(f"warning: {w}", file=sys.stderr)
    for hook, why in report.skipped.items():
        print(f"warning: {hook} left alone: {why}", file=sys.stderr)
    done = report.installed + report.created
    print(f"hooks in {report.hooks_dir}: installed {', '.join(done) or 'none'}"
          + (f" (created {', '.join(report.created)})" if report.created else ""))
    return 0


def _uninstall(args: argparse.Namespace) -> int:
    from mnemosyne.daemon import hooks

    report = hooks.uninstall(args.path)
    print(f"hooks in {report.hooks_dir}: restored {', '.join(report.restored) or 'none'}; "
          f"removed {', '.join(report.removed) or 'none'}")
    return 0


def _status(args: argparse.Namespace) -> int:
    from mnemosyne.daemon import hooks

    st = hooks.status(args.path)
    print(f"hooks dir: {hooks.hooks_dir(args.path)}")
    for hook, on in st.items():
        print(f"  {hook}: {'installed' if on else 'not installed'}")
    return 0
