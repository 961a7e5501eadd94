from enum import Enum, IntEnum
from typing import Self


class Color(Enum):
    RED = "red"
    BLUE = "blue"

    def describe(self):
        return self.value

    @classmethod
    def parse(cls, text):
        return cls(text)


class Level(IntEnum):
    LOW = 1
    HIGH = 2

    def bump(self):
        return Level.HIGH


class Query:
    def where(self, cond) -> Self:
        return self

    def limit(self, n: int) -> "Query":
        return self

    def all(self):
        return []


def main():
    Color.RED.describe()
    Color["BLUE"].describe()
    Color.parse("red").describe()
    for level in Level:
        level.bump().bump()
    Query().where(1).limit(2).all()
