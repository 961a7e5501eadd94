def on_a():
    return "a"


def on_b():
    return "b"


def on_c():
    return "c"


HANDLERS = {"a": on_a, "b": on_b}
PIPELINE = [on_a, on_c]
PAIR = (on_b, on_c)


def dispatch(key):
    HANDLERS["a"]()
    HANDLERS[key]()
    for step in PIPELINE:
        step()
    PAIR[0]()
    first, second = PAIR
    second()
