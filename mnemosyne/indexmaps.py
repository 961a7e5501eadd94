"""Reverse maps of the language indexes (module -> dependents, name -> callers, ...): ``dict`` of
sets kept without empty sets. A leaf module, shared by the resolvers."""

from __future__ import annotations

from collections.abc import Iterable


def add_to(index: dict[str, set[str]], keys: Iterable[str], value: str) -> None:
    """Add ``value`` to the sets ``index[k]`` for ``keys`` (``discard_from``'s inverse)."""
    for k in keys:
        s = index.get(k)
        if s is None:
            index[k] = {value}
        else:
            s.add(value)


def discard_from(index: dict[str, set[str]], keys: Iterable[str], value: str) -> None:
    """Remove ``value`` from the sets ``index[k]`` for ``keys``, dropping sets left empty."""
    for k in keys:
        s = index.get(k)
        if s is not None:
            s.discard(value)
            if not s:
                del index[k]
