"""Former home of the fact constructors, now ``mnemosyne.parse.typescript.model`` (also re-exported
by ``mnemosyne.parse.typescript``): kept for ``mnemosyne.resolve.typescript``, which imports
``make_call`` / ``make_import`` from here until it imports them from the package."""

from __future__ import annotations

from mnemosyne.parse.typescript.model import make_call, make_import, make_symbol

__all__ = ["make_call", "make_import", "make_symbol"]
