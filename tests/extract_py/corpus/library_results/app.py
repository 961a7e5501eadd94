"""What standard library functions give for the program's values: a copy (copy.copy,
copy.deepcopy, dataclasses.replace) is what was copied; typing.cast(C, x) is an instance of C
(the class named or spelled in a string); a defaultdict(C)'s items are what calling C gives. A
method returning copy.copy(self) returns an instance of the receiver's class, like return self."""

import copy
import dataclasses
import typing
from collections import defaultdict
from dataclasses import dataclass, replace
from typing import cast


@dataclass
class Config:
    debug: bool = False

    def validate(self):
        return self.debug


class Tree:
    def __init__(self):
        self.children = []

    def walk(self):
        return self.children

    def clone(self):
        twin = copy.deepcopy(self)
        twin.walk()
        return copy.copy(self)


class Forest(Tree):
    def walk(self):
        return []


def replant(forest: Forest):
    return forest.clone().walk()


class Counter:
    def bump(self):
        pass


def configure(base: Config):
    replace(base, debug=True).validate()
    dataclasses.replace(base).validate()


def load(raw, cached):
    tree = cast(Tree, raw)
    tree.walk()
    typing.cast("Tree", cached).clone().walk()


def tally(words):
    counts = defaultdict(Counter)
    for w in words:
        counts[w].bump()
    return counts
