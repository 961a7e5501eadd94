"""An enum whose members' values are tuples passes their items to its ``__init__`` when the
class is made (``ADD = ("+", add)``: ``__init__(self, symbol, fn)``), so what ``__init__`` stores
holds them (``self.fn``). Calling the class with a value (``Op("+")``, ``Level(2)``) looks a
member up: no ``__init__`` runs then (no edge), and the result is a member."""

from enum import Enum


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


class Op(Enum):
    ADD = ("+", add)
    SUB = ("-", sub)

    def __init__(self, symbol, fn):
        self.symbol = symbol
        self.fn = fn

    def apply(self, a, b):
        return self.fn(a, b)


class Level(Enum):
    LOW = 1
    HIGH = 2

    def __init__(self, rank):
        self.rank = rank

    def describe(self):
        return self.name


def parse(symbol, a, b):
    op = Op(symbol)
    return op.apply(a, b)


def direct(a, b):
    return Op.ADD.fn(a, b)


def level(n):
    return Level(n).describe()
