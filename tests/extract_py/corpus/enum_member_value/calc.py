"""A member's ``.value`` is the value assigned to that member, not any member's: ``Op.ADD.value``
is add alone, ``Op["SUB"].value`` sub alone; a member reached through a name that may hold any
member (``Op[name]`` with a key not known, iterating the class) may hold any member's value."""

from enum import Enum
from functools import partial


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def scale(k, a):
    return k * a


class Op(Enum):
    ADD = partial(add)
    SUB = partial(sub)
    DOUBLE = partial(scale, 2)

    def describe(self):
        return self.name


def plus(a, b):
    return Op.ADD.value(a, b)


def minus(a, b):
    return Op["SUB"]._value_(a, b)


def double(a):
    return Op.DOUBLE.value(a)


def apply_all(a, b):
    return [op.value(a, b) for op in Op]


def by_name(name, a, b):
    return Op[name].value(a, b)
