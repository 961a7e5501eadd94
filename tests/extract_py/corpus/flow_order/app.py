"""Flow order: in straight-line code, only the binding that reaches a use is called; a loop,
a branch or another function keeps every binding."""


def plain(fn):
    return fn


def traced(fn):
    return fn


def load():
    pass


def dump():
    pass


def fallback():
    pass


# a decorator chosen by re-assigning a name: the last binding before the `@` decorates
register = plain
register = traced


@register
def job():
    pass


# dict entries replaced before the lookup
ACTIONS = {"load": load, "dump": fallback}
ACTIONS["dump"] = dump
ACTIONS["dump"]()
ACTIONS["load"]()

ROUTES = {"go": fallback}
ROUTES.update({"go": load})
ROUTES["go"]()

OPTIONS = {"a": fallback}
OPTIONS.update(a=dump)
OPTIONS["a"]()


def straight():
    step = load
    step = dump
    step()
    table = {"x": load, "y": fallback}
    table["x"] = dump
    table["x"]()


def annotated():
    step = load
    step: object = dump
    step()


def in_a_loop(items):
    step = load
    for _ in items:
        step()  # may run after the re-assignment below
        step = dump


def in_a_branch(flag):
    step = load
    if flag:
        step = dump
    step()  # either


def unknown_key(k):
    table = {"x": load}
    table[k] = dump
    table["x"]()  # k may be "x"


def other_function():
    handler()  # runs after the module bound `handler` twice: either


handler = load
handler = dump


def rebinding_global():
    global current
    current = dump


current = load
current()  # rebinding_global() may have run
