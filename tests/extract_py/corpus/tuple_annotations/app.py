"""A fixed tuple annotation (`tuple[A, B]`, `Tuple[A, B]`) types its items by position: unpacking and
literal indexes pick theirs; `tuple[A, ...]` holds A's at every position."""

from typing import Optional, Tuple


class State:
    def is_fresh(self):
        return True


class Node:
    def visit(self):
        return self

    def is_fresh(self):
        return False


def split(text) -> tuple[State, Node]:
    return load(text)


def load(text):
    return text


def many() -> Tuple[Node, ...]:
    return load(())


def maybe() -> Optional[Tuple[State, Optional[Node]]]:
    return None


def use(p: tuple[State, Node]):
    p[0].is_fresh()
    p[1].visit()


def unpack():
    state, node = split("x")
    state.is_fresh()
    node.visit()


def second():
    return split("y")[1].is_fresh()


def each():
    for n in many():
        n.visit()


def optional_pair():
    pair = maybe()
    if pair is not None:
        s, n = pair
        s.is_fresh()
        n.visit()
