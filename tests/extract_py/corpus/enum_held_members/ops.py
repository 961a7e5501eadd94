"""A name every binding of which names one member on its class (``op = Op.ADD``, ``Op["SUB"]``)
holds those members: ``op.value`` is their values alone, not every member's; a name also bound to
a member not known (``Op[name]``, a parameter, a loop variable) holds any member. Methods of the
enum run on members held by names too (``op.apply``: ``self.value`` may be any member's)."""

from enum import Enum
from functools import partial


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


class Op(Enum):
    ADD = partial(add)
    SUB = partial(sub)
    MUL = partial(mul)

    def apply(self, a, b):
        return self.value(a, b)


DEFAULT = Op.MUL


def held(a, b):
    op = Op.ADD
    return op.value(a, b)


def held_by_key(a, b):
    op = Op["SUB"]
    return op._value_(a, b)


def branches(flag, a, b):
    if flag:
        op = Op.ADD
    else:
        op = Op.SUB
    return op.value(a, b)


def module_level(a, b):
    return DEFAULT.value(a, b)


def unknown_key(name, a, b):
    op = Op.ADD
    if name:
        op = Op[name]
    return op.value(a, b)


def through_method(a, b):
    op = Op.SUB
    return op.apply(a, b)
