"""Containers indexed by a name bound to a literal: the one item, not every item."""

from kinds import SAVE


def on_save():
    return 1


def on_load():
    return 2


LOAD = "load"
FIRST = 0

HANDLERS = {"save": on_save, "load": on_load}
ORDERED = [on_load, on_save]


def load():
    return HANDLERS[LOAD]()  # on_load only


def save():
    return HANDLERS[SAVE]()  # on_save only, SAVE imported


def first():
    return ORDERED[FIRST]()  # on_load only


def unknown(kind):
    return HANDLERS[kind]()  # any handler
