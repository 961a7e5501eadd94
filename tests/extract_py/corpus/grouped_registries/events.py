"""Registries that group their functions by key: ``d.setdefault(k, []).append(f)`` and
``d[k].append(f)`` (a defaultdict) store a list holding f into d; reading ``d[k]`` / ``d.get(k, [])``
back and iterating it gives f."""

from collections import defaultdict

HOOKS = {}


def on(event):
    def deco(fn):
        HOOKS.setdefault(event, []).append(fn)
        return fn

    return deco


@on("start")
def boot():
    return 1


def fire(event):
    for hook in HOOKS.get(event, []):
        hook()


class Emitter:
    def __init__(self):
        self.handlers = defaultdict(list)
        self.once = {}

    def subscribe(self, event, fn):
        self.handlers[event].append(fn)

    def subscribe_once(self, event, fns):
        self.once.setdefault(event, []).extend(fns)

    def emit(self, event):
        for fn in self.handlers[event]:
            fn()
        for fn in self.once.pop(event, []):
            fn()


def ping():
    return 2


def pong():
    return 3


def setup():
    em = Emitter()
    em.subscribe("x", ping)
    em.subscribe_once("x", [pong])
    em.emit("x")
    fire("start")
