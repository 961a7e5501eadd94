"""Functions called through a subscript of the container holding them (``HANDLERS[kind](cb)``,
``self.handlers[name](payload, sink=write)``, ``STEPS[0](x)``) get that call's arguments, so the
callbacks they are given that way are followed; a literal key passes them to that entry only."""


def on_start(cb):
    cb()


def on_stop(cb):
    cb()


def on_data(payload, sink):
    sink(payload)


def ping():
    return "ping"


def pong():
    return "pong"


def write(payload):
    return payload


def first(step):
    return step()


HANDLERS = {"start": on_start, "stop": on_stop}
STEPS = [first]
SHAPES = {"twice": lambda f: f() + f()}


def dispatch(kind):
    HANDLERS[kind](ping)


HANDLERS["stop"](pong)


def run_steps():
    STEPS[0](ping)
    return SHAPES["twice"](pong)


class Router:
    def __init__(self):
        self.handlers = {"data": on_data}

    def route(self, name, payload):
        self.handlers[name](payload, sink=write)
