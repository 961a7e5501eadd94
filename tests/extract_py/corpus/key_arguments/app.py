"""A literal index or key passed as an argument selects the item it indexes in the callee; any
other argument (a variable, a splat) keeps every item."""

from registry import lookup_and_run


def load():
    pass


def dump():
    pass


def check():
    pass


TABLE = {"load": load, "dump": dump}
STEPS = [load, dump, check]


def run(key, table):
    return table[key]()


def nth(i, items):
    items[i]()


def mixed(key, table):
    table[key]()  # one site passes a variable: any item


def splat(key):
    TABLE[key]()


def nested():
    def pick(k):
        return STEPS[k]

    pick(2)()


def main(name, args):
    run("load", TABLE)
    nth(2, STEPS)
    nth(2, items=STEPS)
    mixed("load", TABLE)
    mixed(name, TABLE)
    splat(*args)
    lookup_and_run("b")
