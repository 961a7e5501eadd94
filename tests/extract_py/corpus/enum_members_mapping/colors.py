"""``Color.__members__`` maps the members' names to the members: its values, items and
subscripts are members, whose methods run (``m.label()``)."""

from enum import Enum


class Color(Enum):
    RED = 1
    GREEN = 2

    def label(self):
        return self.name.lower()


def labels():
    return [m.label() for m in Color.__members__.values()]


def by_name(name):
    return Color.__members__[name].label()


def pairs():
    for _name, member in Color.__members__.items():
        member.label()
