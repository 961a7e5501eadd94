"""Builtins that call the function they are given: map, filter, sorted/min/max(key=...)."""


class Item:
    def weight(self):
        return 1

    def ok(self):
        return True


class Point:
    def __init__(self, v):
        self.v = v


def heavy(item):
    return item.weight()


def keep(item):
    return item.ok()


def pair(a, b):
    return a.weight() + b.weight()


def main(items: list[Item]):
    list(map(heavy, items))
    list(filter(keep, items))
    sorted(items, key=heavy)
    max(items, key=lambda it: it.weight())
    list(map(Point, [1, 2]))
    list(map(str, items))  # a builtin passed: no edge to it
    min(items, key=len)
    return list(map(pair, items, items))


def not_a_builtin(map):
    return map(heavy, [])  # a parameter named map: nothing known is called


class Shelf:
    def sort(self, key=None):  # not a list's sort: its key is not called for the caller
        return key


def in_place(items: list[Item]):
    pairs = [Item(), Item()]
    pairs.sort(key=heavy)  # list.sort calls its key, like sorted(key=)
    Shelf().sort(key=keep)
