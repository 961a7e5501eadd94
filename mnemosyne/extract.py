"""Source tree -> facts: the orchestrator over the language indexes and the manifest readers.

Pure: bytes in, facts out, no database and no git. The timeline feeds it the files that changed
between two commits; ``callgraph --from-source`` feeds it a whole tree once.

The contract every language index keeps (and its tests check): after any sequence of
``update`` calls, ``facts(p)`` for every path equals what a fresh index given the same final
files returns. ``update`` returns every source path whose facts may differ, which includes the
changed paths, deleted ones, and files whose resolution depended on a changed module.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Protocol, runtime_checkable

from mnemosyne.facts import FileFacts, PackageFacts, Snapshot

LFS_POINTER_PREFIX = b"version https://git-lfs.github.com/spec/"


@runtime_checkable
class LanguageIndex(Protocol):
    """Parsed files of one language family plus what is needed to resolve them."""

    def owns(self, path: str) -> bool:
        """True for the source files and the config files (tsconfig.json, ...) it reads."""

    def update(self, changed: Mapping[str, bytes | None]) -> set[str]:
        """Apply changed files (None = deleted); return the source paths whose facts may differ."""

    def facts(self, path: str) -> FileFacts | None:
        """Resolved facts of a source file present in the tree, else None."""

    def paths(self) -> set[str]:
        """The source paths currently present."""


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def skip_reason(path: str, data: bytes, max_bytes: int) -> str | None:
    """Why a file with a source extension is not parsed, or None to parse it."""
    if len(data) > max_bytes:
        return f"{path}: skipped, {len(data)} bytes is over the {max_bytes}-byte limit (MNEMOSYNE_MAX_FILE_BYTES)"
    if data.startswith(LFS_POINTER_PREFIX):
        return f"{path}: skipped, Git LFS pointer file (content not in the repository)"
    if b"\x00" in data[:8192]:
        return f"{path}: skipped, binary content (NUL bytes) under a source extension"
    return None


def default_indexes() -> list[LanguageIndex]:
    from mnemosyne.resolve.python import PythonIndex
    from mnemosyne.resolve.typescript import TypeScriptIndex

    return [PythonIndex(), TypeScriptIndex()]


class Extractor:
    """Holds one tree's files (incrementally updated) and answers its facts."""

    def __init__(self, indexes: list[LanguageIndex] | None = None, max_file_bytes: int = 2_000_000) -> None:
        self.indexes = indexes if indexes is not None else default_indexes()
        self.max_file_bytes = max_file_bytes
        self.warnings: dict[str, str] = {}  # path -> why it was skipped
        self._manifests: dict[str, bytes] = {}
        self._packages: PackageFacts | None = PackageFacts()

    def owns(self, path: str) -> bool:
        from mnemosyne.deps import is_manifest

        return is_manifest(path) or any(ix.owns(path) for ix in self.indexes)

    def update(self, changed: Mapping[str, bytes | None]) -> set[str]:
        """Apply a batch of changed files; returns source paths whose facts may have changed."""
        from mnemosyne.deps import is_manifest

        per_index: list[dict[str, bytes | None]] = [{} for _ in self.indexes]
        for path, data in changed.items():
            if is_manifest(path):
                if data is None:
                    self._manifests.pop(path, None)
                else:
                    self._manifests[path] = data
                self._packages = None
            if data is not None:
                reason = skip_reason(path, data, self.max_file_bytes)
                if reason is not None:
                    self.warnings[path] = reason
                    data = None  # treat as absent: it yields no facts
                else:
                    self.warnings.pop(path, None)
            else:
                self.warnings.pop(path, None)
            for i, ix in enumerate(self.indexes):
                if ix.owns(path):
                    per_index[i][path] = data
        affected: set[str] = set()
        for ix, batch in zip(self.indexes, per_index):
            if batch:
                affected |= ix.update(batch)
        return affected

    def facts(self, path: str) -> FileFacts | None:
        for ix in self.indexes:
            if ix.owns(path):
                f = ix.facts(path)
                if f is not None:
                    return f
        return None

    def paths(self) -> set[str]:
        out: set[str] = set()
        for ix in self.indexes:
            out |= ix.paths()
        return out

    def package_facts(self) -> PackageFacts:
        if self._packages is None:
            from mnemosyne.deps import extract_packages

            self._packages = extract_packages(self._manifests)
        return self._packages

    def snapshot(self) -> Snapshot:
        files = {p: f for p in sorted(self.paths()) if (f := self.facts(p)) is not None}
        warnings = sorted(self.warnings.values())
        for f in files.values():
            warnings.extend(f.warnings)
        pk = self.package_facts()
        return Snapshot(files=files, packages=pk, warnings=warnings + pk.warnings)


def extract_tree(files: Iterable[tuple[str, bytes]], max_file_bytes: int = 2_000_000) -> Snapshot:
    """Facts of a whole tree in one go (``callgraph --from-source``, the invariant checker)."""
    ex = Extractor(max_file_bytes=max_file_bytes)
    ex.update({p: d for p, d in files if ex.owns(p)})
    return ex.snapshot()
