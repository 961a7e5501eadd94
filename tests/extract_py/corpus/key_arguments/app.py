"""A literal index or key passed as an argument selects the item it indexes in the callee; any
other argument (a variable, a default that is not a literal, a call through an unknown path)
keeps every item."""

from registry import lookup_and_run


def load():
    pass


def dump():
    pass


def check():
    pass


TABLE = {"load": load, "dump": dump}
STEPS = [load, dump, check]


def run(table, key):
    return table[key]()


def nth(items, i):
    items[i]()


def by_keyword(key, table=TABLE):
    table[key]()


def defaulted(key="dump"):
    TABLE[key]()


def mixed(table, key):
    table[key]()  # one site passes a variable: any item


def nested():
    def pick(k):
        return STEPS[k]

    pick(2)()


def main(name):
    run(TABLE, "load")
    nth(STEPS, 2)
    by_keyword(key="dump")
    defaulted()
    mixed(TABLE, "load")
    mixed(TABLE, name)
    lookup_and_run("b")
