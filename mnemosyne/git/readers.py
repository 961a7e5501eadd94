"""A shared cache of ``GitRepo`` readers, one long-lived ``git cat-file --batch`` per repository.

``GitRepo.read_blob`` holds the repository's lock, so one reader serves every thread. A reader
that fails in an unexpected way (a dead process) is dropped and closed; the next read starts a
new one.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from mnemosyne.errors import MnemosyneError

_READERS: dict[str, Any] = {}  # repository path -> GitRepo
_LOCK = threading.Lock()


def read_object(path: str | Path, spec: str) -> bytes | None:
    """The blob ``spec`` names (``<commit>:<file>`` or a blob id) in the repository at ``path``;
    None when it is not readable that way (the caller may fall back to ``git show``)."""
    from mnemosyne.git.repo import GitRepo

    key = str(path)
    try:
        spec.encode("utf-8")
    except UnicodeEncodeError:  # a non-UTF-8 file name: the reader's pipe takes text (git show can)
        return None
    try:
        with _LOCK:
            repo = _READERS.get(key)
            if repo is None:
                repo = _READERS[key] = GitRepo(key)
        return repo.read_blob(spec)
    except MnemosyneError:  # not in the repository (or not a blob): the process is fine, keep it
        return None
    except Exception:  # noqa: BLE001 - missing object, a path git cannot name this way, a dead process
        with _LOCK:
            bad = _READERS.pop(key, None)
        if bad is not None:
            try:
                bad.close()
            except Exception:  # noqa: BLE001
                pass
        return None
