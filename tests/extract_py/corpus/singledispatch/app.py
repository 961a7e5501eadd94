"""functools.singledispatch: a call of the generic function runs the implementation registered
for its argument's type (@f.register with an annotation, @f.register(T), f.register(T, impl));
which one is known at run time only, so the call reaches each of them; likewise for a
singledispatchmethod called through self."""

import functools
from functools import singledispatch, singledispatchmethod


class Node:
    def children(self):
        return []


@singledispatch
def to_json(obj):
    raise TypeError(obj)


@to_json.register
def _(obj: int):
    return str(obj)


@to_json.register(list)
def _list(obj):
    return [to_json(x) for x in obj]


def _node(obj):
    return _list(obj.children())


to_json.register(Node, _node)


class Printer:
    @functools.singledispatchmethod
    def show(self, arg):
        return repr(arg)

    @show.register
    def _(self, arg: Node):
        return self.show(arg.children())

    def run(self, arg):
        return self.show(arg)


class Renderer:
    @singledispatchmethod
    def paint(self, arg):
        return arg


def dump(node: Node):
    return to_json(node)
