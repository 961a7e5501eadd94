"""Flow order of dict entries: a dict made by `dict(...)` holds its keyword items, and an entry
replaced by assignment, `update` or `|=` before a call in straight-line code is the one that runs;
a branch keeps both; so is the entry read into a variable (`f = d["k"]`) or by `d.get("k")`.
`d.update(other)` and `d |= other` store other's values, `xs += [f]` f."""


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


OVERRIDES = {"stop": dump}


def merged_operator():
    table = {"go": fallback}
    table |= {"go": load}
    table["go"]()


def from_other():
    table = {"go": load}
    table.update(OVERRIDES)  # keys not known here: every stored value may be any key
    table["stop"]()


def from_other_operator():
    table = {"go": load}
    table |= OVERRIDES
    table["stop"]()


def extended():
    steps = [load]
    steps += [dump]
    for step in steps:
        step()


def read_into_variable():
    table = {"go": fallback}
    table["go"] = load
    handler = table["go"]
    handler()


def read_by_get():
    table = {"go": fallback}
    table.update(go=load)
    table.get("go")()


def read_in_loop(items):
    table = {"go": fallback}
    for _ in items:
        handler = table["go"]
        handler()  # may run after the store below
        table["go"] = load


def branch(flag):
    table = dict(go=fallback)
    if flag:
        table["go"] = load
    table["go"]()
