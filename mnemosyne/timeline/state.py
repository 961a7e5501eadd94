"""The in-memory fact state of a run: which versioned edges hold at the last applied commit, and
which owners (source files, or the package manifests) contribute each one.

Diffing commit N-1 vs N: for every owner whose facts may differ (the paths ``Extractor.update``
returned, plus the packages when a manifest changed), ``set_owner`` replaces its contribution;
``take_delta`` then says which versions to open, close, or update in place. A key contributed by
several owners (the same call fact produced by two files that define the same module, say) is
open while at least one owner contributes it, so duplicates never open twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mnemosyne.timeline.edges import EdgeKey

Props = dict[str, Any]


@dataclass(slots=True)
class Delta:
    opened: list[tuple[EdgeKey, Props]] = field(default_factory=list)
    closed: list[EdgeKey] = field(default_factory=list)
    updated: list[tuple[EdgeKey, Props]] = field(default_factory=list)  # open version, new props

    def __len__(self) -> int:
        return len(self.opened) + len(self.closed) + len(self.updated)


class FactState:
    def __init__(self) -> None:
        self.by_owner: dict[str, dict[EdgeKey, Props]] = {}
        self.holders: dict[EdgeKey, dict[str, Props]] = {}
        self._before: dict[EdgeKey, Props | None] = {}  # first-touch state of keys this step

    def props_of(self, key: EdgeKey) -> Props | None:
        h = self.holders.get(key)
        if not h:
            return None
        return h[min(h)]

    def _touch(self, key: EdgeKey) -> None:
        if key not in self._before:
            self._before[key] = self.props_of(key)

    def set_owner(self, owner: str, facts: dict[EdgeKey, Props] | None) -> None:
        """Replace everything ``owner`` contributes (None/empty = it contributes nothing now)."""
        old = self.by_owner.get(owner, {})
        new = facts or {}
        for k, p in old.items():
            if k not in new or new[k] != p:
                self._touch(k)
        for k, p in new.items():
            if k not in old or old[k] != p:
                self._touch(k)
        for k in old:
            if k not in new:
                h = self.holders[k]
                del h[owner]
                if not h:
                    del self.holders[k]
        for k, p in new.items():
            self.holders.setdefault(k, {})[owner] = p
        if new:
            self.by_owner[owner] = dict(new)
        else:
            self.by_owner.pop(owner, None)

    def take_delta(self) -> Delta:
        d = Delta()
        for k, before in self._before.items():
            after = self.props_of(k)
            if before is None and after is not None:
                d.opened.append((k, after))
            elif before is not None and after is None:
                d.closed.append(k)
            elif before is not None and after is not None and before != after:
                d.updated.append((k, after))
        self._before = {}
        return d

    def discard_pending(self) -> None:
        self._before = {}

    def all_keys(self) -> set[EdgeKey]:
        return set(self.holders)
