"""Type aliases stand for the annotation they name: `X: TypeAlias = ...`, `X = Dict[str, C]` with a
typing generic's head, and Python 3.12's `type X = ...`; also through another alias and as
string forward references."""

from typing import Dict, List, Optional, TypeAlias, Union


class State:
    def is_fresh(self):
        return True


class Node:
    def visit(self):
        return self


class Leaf(Node):
    def visit(self):
        return None


class Other:
    def visit(self):
        return 0

    def is_fresh(self):
        return False


Graph: TypeAlias = Dict[str, "State"]
Nodes = List[Node]
MaybeNode = Optional[Union[Leaf, "Other"]]
Forest = Dict[str, Nodes]
type Pair = tuple[State, Node]


def stale(graph: Graph, ids: List[str]):
    return [i for i in ids if not graph[i].is_fresh()]


def walk(nodes: Nodes):
    for n in nodes:
        n.visit()


def maybe(n: MaybeNode):
    if n is not None:
        n.visit()


def forest(f: Forest):
    for nodes in f.values():
        nodes[0].visit()


def pair(p: Pair):
    p[0].is_fresh()
    p[1].visit()


def guard(x):
    if isinstance(x, MaybeNode):  # a Union alias as isinstance's class (3.10+)
        x.visit()


def make_label():
    return "label"


def patch_label(obj):
    type(obj).label = make_label()  # tree-sitter reads this as a `type` statement: the call counts
