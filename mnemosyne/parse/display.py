"""Source text as the graph shows it on one line (signatures, return types, parameter parts).

Formatters break long signatures after an opening bracket and before the closing one; the same
signature written on one line and broken over several must read the same, or every reformatting
shows as a signature change in `diff` and `history` (tenacity 8.5.0's black run did).
"""

from __future__ import annotations

import re

_INNER_SPACE = re.compile(r"(?<=[(\[{]) | (?=[)\]}])")


def one_line(s: str) -> str:
    """``s`` with each run of whitespace one space, and none just inside brackets."""
    t = " ".join(s.split())
    if "( " in t or "[ " in t or "{ " in t or " )" in t or " ]" in t or " }" in t:
        t = _INNER_SPACE.sub("", t)
    return t
