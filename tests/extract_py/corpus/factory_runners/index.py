"""Functions the standard library calls later for the code that hands them over:
``collections.defaultdict(factory)`` calls the factory for each missing key, and the keys
``functools.cmp_to_key(cmp)`` makes call ``cmp`` when ``sorted`` / ``list.sort`` compare them.
A builtin factory (``defaultdict(list)``) is no edge."""

from collections import defaultdict
import functools


class Bucket:
    def __init__(self):
        self.items = []

    def add(self, item):
        self.items.append(item)


def new_node():
    return {"children": []}


def by_priority(a, b):
    return a[0] - b[0]


def by_name(a, b):
    return (a > b) - (a < b)


def build(words):
    buckets = defaultdict(Bucket)
    for w in words:
        buckets[w[0]].add(w)
    tree = defaultdict(new_node)
    tree["root"]["children"].append("leaf")
    counts = defaultdict(lambda: defaultdict(int))
    counts["a"]["b"] += 1
    seen = defaultdict(list)
    seen["x"].append(1)
    return buckets, tree, counts, seen


def ordered(tasks, names):
    names.sort(key=functools.cmp_to_key(by_name))
    return sorted(tasks, key=functools.cmp_to_key(by_priority))
