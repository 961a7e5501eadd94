"""Tables and step lists copied before use (dict.copy(), list.copy()): the copy holds the same items."""


def load():
    return "load"


def save():
    return "save"


DEFAULTS = {"load": load, "save": save}


def run_table():
    table = DEFAULTS.copy()
    return table["load"]()


def run_steps():
    steps = [load, save]
    again = steps.copy()
    return again[1]()
