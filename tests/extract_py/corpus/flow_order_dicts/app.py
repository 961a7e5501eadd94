"""Flow order of dict entries: a dict made by `dict(...)` holds its keyword items, and an entry
replaced by assignment or `update` before a call in straight-line code is the one that runs; a
branch keeps both."""


def load():
    pass


def dump():
    pass


def fallback():
    pass


def built():
    table = dict(go=fallback, stop=dump)
    table["go"] = load
    table["go"]()
    table["stop"]()


def merged():
    table = dict({"go": fallback}, stop=dump)
    table.update(go=load)
    table["go"]()
    table["stop"]()


def branch(flag):
    table = dict(go=fallback)
    if flag:
        table["go"] = load
    table["go"]()
