"""Enum members whose values are functions: ``partial(f)`` and ``enum.member(f)`` (3.11) keep f
as the member's value (a plain ``def`` in the body would be a method), so ``Op.ADD.value(1, 2)``,
``Op[name].value``, and a member's ``__call__`` forwarding to its value call them."""

import enum
from enum import Enum, member
from functools import partial


def add(a, b):
    return a + b


def mul(a, b):
    return a * b


def neg(a):
    return -a


class Op(Enum):
    ADD = partial(add)
    MUL = member(mul)
    NEG = enum.member(neg)

    def __call__(self, *args):
        return self.value(*args)


def evaluate(name, a, b):
    Op.ADD.value(a, b)
    Op[name].value(a, b)
    return Op.NEG(a)
