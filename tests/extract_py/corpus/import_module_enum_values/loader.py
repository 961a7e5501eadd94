"""importlib.import_module with a literal name (absolute, or relative to a literal package) is that
module of the program; an enum member's ``.value`` is what the class body assigned to a member."""

import importlib
from enum import Enum
from functools import partial


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


class Op(Enum):
    ADD = partial(add)
    SUB = partial(sub)

    def apply(self, a, b):
        return self.value(a, b)


def load(name):
    return importlib.import_module("plugins." + name)  # computed: not followed


def main():
    mod = importlib.import_module("plugins.csv_out")
    mod.run()
    importlib.import_module(".json_out", package="plugins").run()
    load("csv_out")
    Op.ADD.apply(1, 2)


main()
