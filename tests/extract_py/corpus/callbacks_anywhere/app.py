"""Functions given to a builtin (or functools.reduce) that calls them, wherever they are passed:
through a variable, a parameter, a bound method, at module level, to reduce or list.sort."""

import functools
from functools import reduce


class Item:
    def weight(self):
        return 1

    def ok(self):
        return True


def heavy(item):
    return item.weight()


def add(total, item):
    return total + item.weight()


def order(fn, items):
    return sorted(items, key=fn)  # fn is whatever the callers pass


class Ranker:
    def score(self, item):
        return item.weight()

    @staticmethod
    def keep(item):
        return item.ok()

    def rank(self, items: list[Item]):
        kept = filter(self.keep, items)
        return max(kept, key=self.score)


def main(items: list[Item]):
    functools.reduce(add, items, 0)
    reduce(add, items)
    order(heavy, items)
    f = heavy
    min(items, key=f)


def in_place(items: list[Item]):
    items.sort(key=heavy)


ranked = sorted([Item()], key=heavy)
