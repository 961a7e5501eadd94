"""Functions held by containers and called through a loop variable get the arguments of that
call: a list iterated where it is written (``for op in [total, show]``), a list given to a
constructor and stored (``Pipeline([strip, parse])``), a registry a decorator fills
(``REGISTRY[name] = fn``, read back through ``items()``). A function never held so gets nothing
from those calls (``unused``)."""


class Item:
    def weight(self):
        return 1

    def label(self):
        return "item"


def total(acc, item):
    return acc + item.weight()


def show(acc, item):
    return item.label()


def unused(item):
    return item.label()


REGISTRY = {}


def register(name):
    def deco(fn):
        REGISTRY[name] = fn
        return fn

    return deco


@register("weight")
def weigh(item):
    return item.weight()


def run_ops():
    for op in [total, show]:
        op(0, Item())


def run_registry():
    for _name, fn in REGISTRY.items():
        fn(Item())


class Pipeline:
    def __init__(self, steps):
        self.steps = steps

    def run(self, x):
        for step in self.steps:
            step(x)
        return x


def strip(item):
    return item.label()


def parse(item):
    return item.weight()


Pipeline([strip, parse]).run(Item())
