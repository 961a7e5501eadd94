"""A literal key passed after the first argument, by keyword or as a default selects its item
too; the parser keeps a string literal's value only in a call's first argument (and a negative
index is an operator), so these still select every item."""


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
