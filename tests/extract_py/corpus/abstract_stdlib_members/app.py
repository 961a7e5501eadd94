"""A parameter annotated with an abstract class of the standard library names that class's
members (``Mapping.get``, ``Iterable.__iter__``), never one the class does not have: a value of
the program's passed for it (``as_string``) is reached through the call sites, not invented on
Mapping. Likewise for a class of the program deriving from one, or from a builtin class (a
metaclass's ``cls.lookup``: no ``type.lookup``)."""

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


class Settings(Mapping):
    def __init__(self, data):
        self.data = data

    def __getitem__(self, key):
        return self.data[key]

    def __iter__(self):
        return iter(self.data)

    def __len__(self):
        return len(self.data)

    def dump(self):
        self.items()
        return self.as_string()


class Registry(type):
    def find(cls, key):
        return cls.lookup(key)


render(Envelope())
