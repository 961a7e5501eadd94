"""Source text as the graph shows it on one line (signatures, return types, parameter parts).

Formatters break long signatures after an opening bracket and before the closing one; the same
signature written on one line and broken over several must read the same, or every reformatting
shows as a signature change in `diff` and `history` (tenacity 8.5.0's black run did).
"""

from __future__ import annotations

import re

_INNER_SPACE = re.compile(r"(?<=[(\[{]) | (?=[)\]}])")
# a formatter's trailing comma after the last item of a bracket broken over lines ("magic
# trailing comma"): written on one line there is none
_BROKEN_TRAILING_COMMA = re.compile(r",[ \t]*(?:#[^\n]*)?\n\s*(?=[)\]}])")


def one_line(s: str) -> str:
    """``s`` with each run of whitespace one space, none just inside brackets, and no trailing
    comma before a bracket closed on its own line."""
    if "\n" in s:
        s = _BROKEN_TRAILING_COMMA.sub("", s)
    t = " ".join(s.split())
    if "( " in t or "[ " in t or "{ " in t or " )" in t or " ]" in t or " }" in t:
        t = _INNER_SPACE.sub("", t)
    return t
