"""Registries of lists of handlers: d.setdefault(key, []).append(f) and, on a defaultdict(list),
d[key].append(f): the dict holds lists holding f, read back by subscript, get and iteration."""

from collections import defaultdict

HANDLERS = {}
LISTENERS = defaultdict(list)


def on(event):
    def register(fn):
        HANDLERS.setdefault(event, []).append(fn)
        return fn

    return register


@on("start")
def open_db():
    pass


@on("stop")
def close_db():
    pass


def flush_logs():
    pass


LISTENERS["stop"].append(flush_logs)


def emit(event):
    for handler in HANDLERS.get(event, []):
        handler()
    for listener in LISTENERS[event]:
        listener()


class Bus:
    def __init__(self):
        self.subscribers = {}

    def subscribe(self, topic, fn):
        self.subscribers.setdefault(topic, []).append(fn)

    def publish(self, topic):
        for fn in self.subscribers[topic]:
            fn()


def audit():
    pass


def wire():
    bus = Bus()
    bus.subscribe("save", audit)
    bus.publish("save")
