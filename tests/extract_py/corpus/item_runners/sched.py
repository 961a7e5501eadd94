"""Functions of the standard library that call the function they are given on each item of an
iterable: ``itertools.filterfalse`` / ``takewhile`` / ``dropwhile`` (the predicate),
``groupby`` / ``heapq.nsmallest`` / ``nlargest`` / the ``bisect`` functions (``key=``),
``accumulate`` (with the running total and an item) and ``starmap`` (with an item's items): the
caller calls the function, whose parameters get the items; a builtin given (``key=len``) is no edge."""

import bisect
import heapq
import itertools
from itertools import filterfalse, starmap


class Task:
    def ready(self):
        return True

    def priority(self):
        return 0

    def merge(self, other):
        return self


def is_ready(t):
    return t.ready()


def by_priority(t):
    return t.priority()


def combine(total, t):
    return total.merge(t)


def both_ready(a, b):
    return a.ready() and b.ready()


def pending(tasks: list[Task]):
    return list(filterfalse(is_ready, tasks))


def leading(tasks: list[Task]):
    return list(itertools.takewhile(is_ready, tasks)), list(itertools.dropwhile(len, tasks))


def grouped(tasks: list[Task]):
    return itertools.groupby(tasks, key=by_priority)


def running(tasks: list[Task]):
    return list(itertools.accumulate(tasks, combine))


def pairs():
    return list(starmap(both_ready, [(Task(), Task())]))


def top(tasks: list[Task]):
    return heapq.nsmallest(3, tasks, key=by_priority)


def place(tasks: list[Task], t: Task):
    bisect.insort(tasks, t, key=by_priority)


class Scheduler:
    def weight(self, t):
        return t.priority()

    def heaviest(self, tasks: list[Task]):
        return heapq.nlargest(1, tasks, key=self.weight)
