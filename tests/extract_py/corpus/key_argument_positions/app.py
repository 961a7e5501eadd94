"""A literal key passed after the first argument, by keyword, as a literal default, or as a
negative index selects its item too."""


def load():
    pass


def dump():
    pass


TABLE = {"load": load, "dump": dump}
STEPS = [load, dump]


def run(table, key):
    return table[key]()


def by_keyword(key, table=TABLE):
    table[key]()


def defaulted(key="dump"):
    TABLE[key]()


def last(items, i):
    items[i]()


def main():
    run(TABLE, "load")
    by_keyword(key="dump")
    defaulted()
    last(STEPS, -1)
