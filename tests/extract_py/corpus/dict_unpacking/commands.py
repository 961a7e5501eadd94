"""A dict display unpacking another mapping (``{**BASE, "extra": f}``) holds that mapping's items
under their keys: a literal key selects the base's item of that key, unless a later pair of the
display replaces it (``{**BASE, "load": fast_load}["load"]`` is ``fast_load`` alone), and a later
unpacking replaces an earlier pair (``{"save": extra, **BASE}["save"]`` is BASE's); its values are
all of them. A display unpacking the name it is bound to (``table = {**table, ...}`` in a loop)
holds its earlier items too."""


def load():
    pass


def save():
    pass


def fast_load():
    pass


def extra():
    pass


BASE = {"load": load, "save": save}


def run_save():
    table = {**BASE, "extra": extra}
    table["save"]()
    table.get("extra")()


def run_fast():
    table = {**BASE, "load": fast_load}
    table["load"]()


def run_all():
    for handler in {**BASE, "extra": extra}.values():
        handler()


def run_shadowed():
    merged = {"save": extra, **BASE}
    merged["save"]()


def layered(layers):
    table = {"load": load}
    for _layer in layers:
        table = {**table, "save": save}
    table["save"]()
    table["load"]()
