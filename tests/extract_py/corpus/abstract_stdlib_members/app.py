"""A parameter annotated with an abstract class of the standard library names that class's
members (``Mapping.get``, ``Iterable.__iter__``), never one the class does not have: a value of
the program's passed for it (``as_string``) is reached through the call sites, not invented on
Mapping."""

import collections.abc
import typing
from collections.abc import Iterable, Mapping


class Envelope:
    def as_string(self):
        return ""


def render(data: Mapping):
    data.get("subject")
    return data.as_string()


def render_all(items: typing.Sequence, headers: collections.abc.Mapping):
    headers.keys()
    headers.flatten()
    for item in items:
        item.as_string()
    return items.index(0)


def count(values: Iterable):
    values.frobnicate()
    return values


render(Envelope())
