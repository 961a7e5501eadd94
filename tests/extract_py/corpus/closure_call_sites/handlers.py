"""Closures made by a factory, bound to a name or an attribute, and called through it with arguments."""


class Event:
    def handle(self):
        return "event"


class Tick:
    def handle(self):
        return "tick"


def make_handler(prefix):
    def handler(event):
        event.handle()
        return prefix

    return handler


def make_counter():
    def count(item):
        return item.handle()

    return count


on_event = make_handler("event")


class Clock:
    def __init__(self):
        self.on_tick = make_counter()

    def tick(self):
        return self.on_tick(Tick())


def main():
    on_event(Event())
    return Clock().tick()
