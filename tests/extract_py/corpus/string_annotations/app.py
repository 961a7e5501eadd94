"""String (forward-reference) annotations with subscripts and unions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Union

if TYPE_CHECKING:
    from models import Bar, Foo


def optional(x: "Optional[Foo]"):
    return x.go()


def union(y: "Union[Foo, Bar]"):
    return y.run()


def items(xs: "list[Bar]"):
    for x in xs:
        x.run()


def mapping(m: "dict[str, Foo]"):
    return m["k"].go()
