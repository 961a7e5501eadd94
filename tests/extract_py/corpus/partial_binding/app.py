"""functools.partial binds arguments for a later call: the bound ones reach the function's
parameters (by position after the function, or by keyword), also for a bound method; a
partialmethod in a class body is a method; iter(f, sentinel) calls f until it returns the sentinel."""

import functools
from functools import partial, partialmethod


class Store:
    def put(self, key):
        return key

    def read_block(self):
        return b""

    def blocks(self):
        return list(iter(self.read_block, b""))


class Cache:
    def __init__(self, store: Store):
        self.store = store

    def _write(self, key, flush):
        self.store.put(key)

    write_now = partialmethod(_write, flush=True)

    def load(self, key, loader):
        return loader(key)


def fetch(store, key):
    return store.put(key)


def render(key, *, fmt):
    return fmt.put(key)


def build(store: Store):
    getter = partial(fetch, store)
    cache = Cache(store)
    cache.load("a", getter)
    show = functools.partial(render, fmt=Store())
    show("b")
    cache.write_now("c")
    actions = {"blocks": partial(Store.blocks, store)}
    return actions["blocks"]()
