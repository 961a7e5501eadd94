"""The incremental core both language indexes use: what each file's resolution consulted, and
which files an update must re-resolve.

A language index (``PythonIndex``, ``TypeScriptIndex``) resolves a file to ``FileFacts`` from the
index alone: its own parse result, the set of files (their module names) and, through recording
accessors, other files' parse data and name-based searches over all files. Resolution uses
per-file memo tables only, so a file's facts are a deterministic function of those answers:
when none of the answers a resolution got changed, neither did its facts. That is what makes
incremental facts equal fresh ones (the randomised incremental-equals-fresh tests of
``tests/extract_py`` and ``tests/extract_ts``). What a resolution consulted is kept in three
forms, each with its invalidation rule:

1. **Dependencies** (``FileFacts.depends_on``, kept by ``FactBook``): module names looked up
   (present or not), plus entries naming a search (``PREFIX + NAME``, below) or a language's own
   inputs (TypeScript's ``<config>``). When a module appears or disappears (a file added or
   deleted; for Python also a package prefix that appears or disappears with it), the files
   depending on its name are re-resolved (``FactBook.dependents``).
2. **Recorded reads** of other files' parse data (``RecordedReads``): per reader, per file read,
   the parse result it read and the keys of its reads (the language's read vocabulary:
   ``resolve/py_reads.py``, ``resolve/typescript/reads.py``). When a file is edited (same path,
   new content), each reader of it is re-resolved only if one of its keys answers differently on
   the new version (interface pruning: a body-only edit re-resolves the edited file alone);
   otherwise its record is rebased onto the new version, so the next edit compares with that.
   Comparing answers is the language's (``RecordedReads.stale_readers``'s ``compare_for``). What a
   computation shared by many resolutions read (Python's shared answers, ``resolve/python/hierarchy.py``)
   is kept once (``SharedReads``), referenced by the records of the resolutions that used it, instead
   of copied into each: when one of its keys answers differently, all of them are re-resolved.
3. **Name searches** (``NameIndex``, answers kept by ``FactBook``): "the files with a call of
   NAME" (parameter flow; Python keeps only the files importing the function's module:
   ``PythonIndex.importers_calling``), "the files with a class whose base is named NAME"
   (subclass dispatch), Python's "the files storing onto attribute NAME of an object"
   (``PythonIndex.store_files``). A resolution that searched NAME depends on ``PREFIX + NAME`` and records
   the answer (which files, sorted). When a file with such a name changes, a dependent whose
   recorded answer differs from the current one is re-resolved (``FactBook.stale_searches``);
   what the found files contain is a recorded read of each (rule 2).

The changed files themselves are always re-resolved. What else is language-specific stays in the
language index: Python's relayout (a ``src/.../__init__.py`` added or deleted renames modules:
everything is re-resolved), TypeScript's configs (``<config>`` dependents re-resolve when what
module resolution reads from the configs changed). Re-resolving a file drops everything its
previous resolution recorded (``FactBook.drop``) and installs the new record
(``FactBook.install``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, Generic, TypeAlias, TypeVar

from mnemosyne.facts import FileFacts
from mnemosyne.indexmaps import add_to, discard_from

P = TypeVar("P")  # a language's parse result
K = TypeVar("K", bound=AbstractSet[Any])  # the keys of the reads recorded on one file
Answer: TypeAlias = tuple[str, ...]  # the files a name search found, sorted
_NO_PATHS: frozenset[str] = frozenset()


class NameIndex:
    """name -> the files that have it (a call site of the name, a class with a base of that name),
    with ``files(name)``, the sorted answer a resolution records, cached until the next change."""

    __slots__ = ("_paths", "_answers")

    def __init__(self) -> None:
        self._paths: dict[str, set[str]] = {}
        self._answers: dict[str, Answer] = {}

    def add(self, path: str, names: Iterable[str]) -> None:
        """``path`` has ``names`` (its new content)."""
        add_to(self._paths, names, path)
        if self._answers:
            self._answers = {}

    def remove(self, path: str, names: Iterable[str]) -> None:
        """``path`` no longer has ``names`` (the names its old content had)."""
        discard_from(self._paths, names, path)
        if self._answers:
            self._answers = {}

    def files(self, name: str) -> Answer:
        """The files that have ``name``, sorted."""
        r = self._answers.get(name)
        if r is None:
            r = self._answers[name] = tuple(sorted(self._paths.get(name, ())))
        return r


@dataclass(frozen=True)
class Search:
    """A family of name searches whose answers resolutions record: the ``depends_on`` entry of a
    search of NAME is ``prefix + NAME``; a recorded answer's key is the name itself, or, with
    ``name_of``, a key naming more (Python's ``(module, name)``) from which it gives the name."""

    prefix: str
    name_of: Callable[[Any], str] | None = None


class SharedReads(Generic[P, K]):
    """What one computation shared by several resolutions read (file read -> (the parse result it
    read, the keys of its reads there)), kept once, and the resolutions (``users``) whose records
    reference it (rule 2 of the module docstring). Made by the language index; ``RecordedReads``
    registers it with its first user and forgets it with its last."""

    __slots__ = ("reads", "users")

    def __init__(self, reads: dict[str, tuple[P, K]]) -> None:
        self.reads = reads  # (taken over, not copied)
        self.users: set[str] = set()


class RecordedReads(Generic[P, K]):
    """reader path -> file read -> (the parse result it read, the keys of its reads there), with
    the reverse map file read -> readers (rule 2 of the module docstring); and reader path -> the
    ``SharedReads`` its resolution used, with the reverse map file read -> those shared records."""

    __slots__ = ("_reads", "_readers", "_shared", "_shared_readers")

    def __init__(self) -> None:
        self._reads: dict[str, dict[str, tuple[P, K]]] = {}
        self._readers: dict[str, set[str]] = {}
        self._shared: dict[str, tuple[SharedReads[P, K], ...]] = {}
        self._shared_readers: dict[str, set[SharedReads[P, K]]] = {}

    def record(self, path: str, reads: dict[str, tuple[P, K]], shared: Iterable[SharedReads[P, K]] = ()) -> None:
        """Keep what ``path``'s resolution read (``reads`` is taken over, not copied), and the
        shared records whose reads count as its own too (referenced, not copied)."""
        if reads:
            self._reads[path] = reads
            add_to(self._readers, reads, path)
        used = tuple(shared)
        if used:
            self._shared[path] = used
            by_file = self._shared_readers
            for s in used:
                if not s.users:  # its first user: registered under the files it read
                    for b in s.reads:
                        rs = by_file.get(b)
                        if rs is None:
                            by_file[b] = {s}
                        else:
                            rs.add(s)
                s.users.add(path)

    def of(self, path: str) -> Mapping[str, tuple[P, AbstractSet[Any]]]:
        """What ``path``'s resolution read (empty when nothing, or not resolved), the shared
        records' reads of other files included (merged: a copy, for export and comparison)."""
        own = self._reads.get(path, {})
        used = self._shared.get(path)
        if not used:
            return own
        out: dict[str, tuple[P, set[Any]]] = {b: (pf, set(ks)) for b, (pf, ks) in own.items()}
        for s in used:
            for b, (pf, ks) in s.reads.items():
                if b == path:
                    continue  # (its own file: a change of it re-resolves it anyway)
                o = out.get(b)
                if o is None:
                    out[b] = (pf, set(ks))
                else:
                    o[1].update(ks)
        return out

    def drop(self, path: str) -> None:
        reads = self._reads.pop(path, None)
        if reads:
            discard_from(self._readers, reads, path)
        by_file = self._shared_readers
        for s in self._shared.pop(path, ()):
            s.users.discard(path)
            if not s.users:  # its last user: forgotten
                for b in s.reads:
                    rs = by_file.get(b)
                    if rs is not None:
                        rs.discard(s)
                        if not rs:
                            del by_file[b]

    def clear(self) -> None:
        for used in self._shared.values():
            for s in used:
                s.users.clear()
        self._reads.clear()
        self._readers.clear()
        self._shared.clear()
        self._shared_readers.clear()

    def stale_readers(
        self,
        edited: Mapping[str, P],
        current: Mapping[str, P],
        compare_for: Callable[[P, P], Callable[[P, K], K | None]],
        affected: set[str],
    ) -> None:
        """Add to ``affected`` the readers of the ``edited`` files (path -> parse result before the
        update; ``current``: path -> parse result now) whose reads there answer differently now.

        ``compare_for(old, new)`` gives, for one edited file, a function of (the version a reader
        read, its keys): None when some key answers differently on ``new``, else the keys as they
        are on ``new``, which the record then refers to. Readers already in ``affected`` are not
        compared (they are re-resolved anyway), nor are shared records all of whose users are; a
        shared record answering differently affects all its users."""
        for b, old in edited.items():
            new = current.get(b)
            if new is None:
                continue
            compare = compare_for(old, new)
            for a in self._readers.get(b, _NO_PATHS):
                if a in affected:
                    continue
                reads = self._reads[a]
                seen, keys = reads[b]
                rebased = compare(seen, keys)
                if rebased is None:
                    affected.add(a)
                else:
                    reads[b] = (new, rebased)
            for s in self._shared_readers.get(b, ()):
                if s.users <= affected:
                    continue
                seen, keys = s.reads[b]
                rebased = compare(seen, keys)
                if rebased is None:
                    affected |= s.users
                else:
                    s.reads[b] = (new, rebased)


class FactBook(Generic[P, K]):
    """The resolved files' facts with what their resolution consulted: the reverse dependency map
    (``depends_on`` entry -> files), the recorded reads and the recorded answers of each
    ``Search`` family (module docstring: the rules). ``facts`` is path -> FileFacts (read it,
    change it through ``install``/``drop``/``clear`` only)."""

    __slots__ = ("facts", "reads", "_rdeps", "_answers")

    def __init__(self, searches: Iterable[Search]) -> None:
        self.facts: dict[str, FileFacts] = {}
        self.reads: RecordedReads[P, K] = RecordedReads()
        self._rdeps: dict[str, set[str]] = {}  # depends_on entry -> paths whose facts name it
        # search family -> path -> the answers its resolution recorded (key -> files)
        self._answers: dict[Search, dict[str, Mapping[Any, Answer]]] = {s: {} for s in searches}

    def install(self, path: str, facts: FileFacts, reads: dict[str, tuple[P, K]],
                answers: Mapping[Search, Mapping[Any, Answer]], shared: Iterable[SharedReads[P, K]] = ()) -> None:
        """Keep a file's facts with what its resolution read (its own reads and the shared records
        it used) and the search answers it got (``reads`` and the answer mappings are taken over,
        not copied)."""
        self.facts[path] = facts
        add_to(self._rdeps, facts.depends_on, path)
        self.reads.record(path, reads, shared)
        for s, a in answers.items():
            if a:
                self._answers[s][path] = a

    def drop(self, path: str) -> None:
        """Forget a file's facts and everything its resolution recorded."""
        f = self.facts.pop(path, None)
        if f is not None:
            discard_from(self._rdeps, f.depends_on, path)
        self.reads.drop(path)
        for book in self._answers.values():
            book.pop(path, None)

    def clear(self) -> None:
        self.facts.clear()
        self._rdeps.clear()
        self.reads.clear()
        for book in self._answers.values():
            book.clear()

    def dependents(self, dep: str) -> AbstractSet[str]:
        """The resolved files whose ``depends_on`` names ``dep`` (do not mutate)."""
        return self._rdeps.get(dep, _NO_PATHS)

    def answers(self, search: Search, path: str) -> Mapping[Any, Answer]:
        """The answers of ``search`` that ``path``'s resolution recorded."""
        return self._answers[search].get(path, {})

    def state(self) -> tuple[dict[str, dict[str, set[Any]]], dict[Search, dict[str, Mapping[Any, Answer]]],
                             dict[str, set[str]]]:
        """Everything recorded besides the facts, as plain data (the parse results read left out):
        reads (path -> file read -> keys), search answers, the reverse dependency map. For tests
        comparing two books."""
        paths = self.reads._reads.keys() | self.reads._shared.keys()
        reads = {p: {b: set(keys) for b, (_pf, keys) in self.reads.of(p).items()} for p in paths}
        reads = {p: r for p, r in reads.items() if r}
        return reads, {s: dict(book) for s, book in self._answers.items()}, {d: set(ps) for d, ps in self._rdeps.items()}

    def stale_searches(self, names: Iterable[str], search: Search, answer_of: Callable[[Any], Answer],
                       affected: set[str]) -> None:
        """Add to ``affected`` the files that searched one of ``names`` (a name a changed file had
        before or has now) and recorded an answer that differs from ``answer_of(key)`` now.

        A dependent on ``prefix + NAME`` that recorded no answer for NAME counts as changed: it
        cannot happen (resolvers record the dependency and the answer together), and it is the
        safe side."""
        book = self._answers[search]
        prefix = search.prefix
        name_of = search.name_of
        for n in names:
            for d in self._rdeps.get(prefix + n, _NO_PATHS):
                if d in affected:
                    continue
                recorded = book.get(d)
                if recorded is None or _answer_changed(recorded, n, name_of, answer_of):
                    affected.add(d)


def _answer_changed(recorded: Mapping[Any, Answer], name: str, name_of: Callable[[Any], str] | None,
                    answer_of: Callable[[Any], Answer]) -> bool:
    if name_of is None:
        r = recorded.get(name)
        return r is None or r != answer_of(name)
    found = False
    for key, r in recorded.items():
        if name_of(key) == name:
            if r != answer_of(key):
                return True
            found = True
    return not found
