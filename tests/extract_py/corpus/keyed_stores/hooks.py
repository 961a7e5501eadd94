"""Items stored into a dict under a literal key (``HOOKS["sync"] = sync``, also from another
function than the one reading them) are read back by that key only: ``HOOKS["load"]()`` does not
call ``sync``. An item stored under a key not known here (``HOOKS[name] = fn``, the name read from the
environment) may be any key's,
and iterating the values gives every item."""

import os


def load():
    pass


def sync():
    pass


def purge():
    pass


def custom():
    pass


HOOKS = {"load": load}


def setup():
    HOOKS["sync"] = sync
    HOOKS.update({"purge": purge})


def add(name, fn):
    HOOKS[name] = fn


def run_load():
    HOOKS["load"]()


def run_sync():
    HOOKS.get("sync")()


def run_all():
    for hook in HOOKS.values():
        hook()


add(os.environ.get("EXTRA_HOOK", "load"), custom)
