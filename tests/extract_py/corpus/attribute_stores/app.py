"""Attributes stored on a variable's object from outside its class: `app.handler = on_event`."""

from plugins import registry


class App:
    def __init__(self):
        self.name = "app"


class Db:
    def query(self):
        return []


def on_event():
    return 1


def late_handler():
    return 2


app = App()
app.handler = on_event
app.db = Db()


def setup():
    app.late = late_handler


def run():
    app.handler()
    app.db.query()
    app.late()
    registry.hook()


def local():
    k = App()
    k.f = on_event
    k.f()
    other = App()
    return other.f()  # another variable holding an App: what any App's f holds (flow-insensitive)


def patch(cls):
    original = cls.run
    cls.run = lambda self: original(self)  # an object passed in: not followed
    return cls
