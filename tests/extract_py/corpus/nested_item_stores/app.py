"""Items stored two subscripts deep: `registry["a"]["b"] = handler`."""


def on_save():
    return 1


def on_load():
    return 2


registry = {}
registry["model"] = {}
registry["model"]["save"] = on_save


def dispatch():
    return registry["model"]["save"]()


def local():
    table = [[None]]
    table[0][0] = on_load
    return table[0][0]()
