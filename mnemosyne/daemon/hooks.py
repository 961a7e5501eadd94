"""Git hooks that tell the daemon about commits, merges, checkouts and rewrites.

``install(worktree, spool_dir)`` writes a marked block right after the shebang of
post-commit, post-merge, post-checkout and post-rewrite, in the directory where git really runs
hooks (``git rev-parse --path-format=absolute --git-path hooks``: honours ``core.hooksPath``,
husky's ``.husky/_``, and linked worktrees, which share the common hooks dir).

The block is pure shell (no interpreter start-up): it drops one small note file into the spool
directory (written under a dot-name, then renamed: atomic, safe with concurrent writers) and
returns. The daemon sees the note through watchdog at once (or its 1 s poll); if the daemon is
down the note stays and is drained at the next start, so no commit is missed. The block never
fails the hook (errors are swallowed, stdin is not read: post-rewrite's stdin is the user's).

``uninstall(worktree)`` removes exactly the block: a pre-existing hook is restored byte for
byte, and a hook file we created is deleted. Hooks not written in a POSIX shell are left alone
with a warning, as are disabled (non-executable) ones.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from mnemosyne.daemon.gitstate import git

HOOKS = ("post-commit", "post-merge", "post-checkout", "post-rewrite")
BEGIN = "# >>> mnemosyne >>>"
END = "# <<< mnemosyne <<<"
CREATED_TAG = "(created by mnemosyne)"
NOEOL_TAG = "(shebang had no newline)"
DEFAULT_SHEBANG = "#!/bin/sh\n"
_SHELLS = {"sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "busybox"}


@dataclass
class HookReport:
    hooks_dir: Path
    installed: list[str] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    restored: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def hooks_dir(worktree: str | Path) -> Path:
    return Path(git(worktree, "rev-parse", "--path-format=absolute", "--git-path", "hooks").strip())


def _sh_quote(s: str) -> str:
    return "'" + s.replace("'", "'\"'\"'") + "'"


def block(hook: str, spool_dir: Path, created: bool = False, noeol: bool = False) -> str:
    """The marked block for one hook (ends with a newline)."""
    tags = " ".join(t for t, on in ((CREATED_TAG, created), (NOEOL_TAG, noeol)) if on)
    head = f"{BEGIN} {tags}".rstrip()
    d = _sh_quote(str(spool_dir))
    # $$ + seconds name the note; the dot-file is renamed into place so readers never see half a note.
    body = (
        f"( d={d}; n=\"{hook}-$(date +%s)-$$\"; [ -d \"$d\" ] || mkdir -p \"$d\"; "
        f"printf '%s\\t%s\\t%s\\n' {hook} \"$PWD\" \"${{GIT_DIR:-}}\" > \"$d/.$n\" "
        f"&& mv -f \"$d/.$n\" \"$d/$n.note\" ) </dev/null >/dev/null 2>&1 || :"
    )
    return f"{head}\n# notifies the mnemosyne daemon; remove with `mnemosyne hook uninstall`\n{body}\n{END}\n"


def _is_shell(first_line: str) -> bool:
    if not first_line.startswith("#!"):
        return False
    parts = first_line[2:].strip().split()
    if not parts:
        return False
    prog = os.path.basename(parts[0])
    if prog == "env":
        args = [p for p in parts[1:] if not p.startswith("-")]
        prog = os.path.basename(args[0]) if args else ""
    return prog in _SHELLS


def _split_block(text: str) -> tuple[str, str, str] | None:
    """(before, block, after) when our block is present."""
    start = text.find(BEGIN)
    if start < 0:
        return None
    end = text.find(END, start)
    if end < 0:
        return None
    end += len(END)
    if text[end : end + 1] == "\n":
        end += 1
    return text[:start], text[start:end], text[end:]


def _strip(text: str) -> tuple[str, bool]:
    """The hook text without our block, and whether we had created the file."""
    parts = _split_block(text)
    if parts is None:
        return text, False
    before, blk, after = parts
    header = blk.split("\n", 1)[0]
    if NOEOL_TAG in header and before.endswith("\n"):
        before = before[:-1]
    return before + after, CREATED_TAG in header


def install(worktree: str | Path, spool_dir: Path) -> HookReport:
    d = hooks_dir(worktree)
    report = HookReport(d)
    if "/.husky/" in f"{d}/":
        report.warnings.append(
            f"hooks dir {d} belongs to husky, which regenerates it on install: "
            "run `mnemosyne hook install` again after `npm install` / `husky`"
        )
    d.mkdir(parents=True, exist_ok=True)
    for hook in HOOKS:
        p = d / hook
        if p.is_symlink():
            report.skipped[hook] = f"is a symlink to {os.readlink(p)} (shared script); add a call yourself"
            continue
        if not p.exists():
            p.write_bytes((DEFAULT_SHEBANG + block(hook, spool_dir, created=True)).encode())
            p.chmod(0o755)
            report.created.append(hook)
            continue
        raw = p.read_bytes()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            report.skipped[hook] = "not a text file"
            continue
        text, created = _strip(text)  # idempotent: a re-install replaces our block
        first, nl, rest = text.partition("\n")
        if not _is_shell(first):
            report.skipped[hook] = f"not a shell script ({first[:40]!r}); add a call yourself"
            continue
        mode = p.stat().st_mode
        if not mode & stat.S_IXUSR:
            report.skipped[hook] = "hook exists but is disabled (not executable)"
            continue
        new = first + "\n" + block(hook, spool_dir, created=created, noeol=not nl) + rest
        _write_same_mode(p, new.encode(), mode)
        report.installed.append(hook)
    return report


def uninstall(worktree: str | Path) -> HookReport:
    d = hooks_dir(worktree)
    report = HookReport(d)
    for hook in HOOKS:
        p = d / hook
        if not p.is_file():
            continue
        try:
            text = p.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            continue
        if _split_block(text) is None:
            continue
        rest, created = _strip(text)
        if created and rest == DEFAULT_SHEBANG:
            p.unlink()
            report.removed.append(hook)
        else:
            _write_same_mode(p, rest.encode(), p.stat().st_mode)
            report.restored.append(hook)
    return report


def status(worktree: str | Path) -> dict[str, bool]:
    d = hooks_dir(worktree)
    out = {}
    for hook in HOOKS:
        p = d / hook
        try:
            out[hook] = BEGIN in p.read_text(errors="replace")
        except OSError:
            out[hook] = False
    return out


def _write_same_mode(path: Path, data: bytes, mode: int) -> None:
    """Atomic replace keeping the permission bits (a half-written hook must never run)."""
    tmp = path.with_name(f".{path.name}.mnemosyne-tmp")
    tmp.write_bytes(data)
    os.chmod(tmp, stat.S_IMODE(mode))
    os.replace(tmp, path)
