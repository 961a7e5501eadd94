HANDLERS = {}
HOOKS = []


def register(name):
    def deco(fn):
        HANDLERS[name] = fn
        return fn

    return deco


def hook(fn):
    HOOKS.append(fn)
    return fn


@register("greet")
def greet():
    return "hi"


@hook
def on_start():
    return 1


def run_hooks():
    for h in HOOKS:
        h()


def dispatch(name):
    handler = HANDLERS.get(name)
    if handler:
        handler()


class Bus:
    def __init__(self):
        self.subs = []

    def subscribe(self, fn):
        self.subs.append(fn)

    def publish(self):
        for fn in self.subs:
            fn()


def setup():
    bus = Bus()
    bus.subscribe(greet)
    bus.publish()
