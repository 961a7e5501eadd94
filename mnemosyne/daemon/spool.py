"""The hooks' spool directory: one small note per git hook run (see ``hooks.block``).

A note is ``<hook>\\t<PWD>\\t<GIT_DIR>\\n``, named ``<hook>-<epoch>-<pid>.note``; writers create a
dot-file and rename it, so ``read_notes`` never sees half a note. Notes are removed only after the
daemon has turned them into persisted queue entries (or found nothing to do), so a crash between
reading and queueing loses nothing: the note is read again at the next start.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Note:
    file: Path
    hook: str
    worktree: str
    git_dir: str
    created: float


def read_notes(spool_dir: Path, limit: int = 10_000) -> list[Note]:
    notes: list[Note] = []
    try:
        entries = sorted(os.scandir(spool_dir), key=lambda e: e.name)
    except FileNotFoundError:
        return notes
    now = time.time()
    for entry in entries:
        if len(notes) >= limit:
            break
        if entry.name.startswith("."):
            # A writer died between printf and mv: after a minute the dot-file is garbage.
            try:
                if now - entry.stat().st_mtime > 60:
                    os.unlink(entry.path)
            except OSError:
                pass
            continue
        if not entry.name.endswith(".note"):
            continue
        try:
            text = Path(entry.path).read_text(encoding="utf-8", errors="replace")
            mtime = entry.stat().st_mtime
        except FileNotFoundError:
            continue
        fields = (text.rstrip("\n").split("\t") + ["", "", ""])[:3]
        notes.append(Note(Path(entry.path), fields[0], fields[1], fields[2], mtime))
    return notes


def remove(notes: list[Note]) -> None:
    for note in notes:
        try:
            note.file.unlink()
        except FileNotFoundError:
            pass


def write_note(spool_dir: Path, hook: str, worktree: str, git_dir: str = "") -> Path:
    """What the shell block does, in Python (for `mnemosyne hook notify` and tests)."""
    spool_dir.mkdir(parents=True, exist_ok=True)
    name = f"{hook}-{int(time.time())}-{os.getpid()}-{time.monotonic_ns()}"
    tmp = spool_dir / f".{name}"
    tmp.write_text(f"{hook}\t{worktree}\t{git_dir}\n", encoding="utf-8")
    final = spool_dir / f"{name}.note"
    os.replace(tmp, final)
    return final
