"""A module whose names come from its ``__getattr__`` (PEP 562): deprecated aliases, lazy loading."""

import importlib


def new_parse(text):
    return text.split()


class Loader:
    def load(self):
        return 1


_DEPRECATED = {"old_parse": new_parse}


def __getattr__(name):
    if name in _DEPRECATED:
        return _DEPRECATED[name]
    if name == "DefaultLoader":
        return Loader
    return importlib.import_module("." + name, __name__)


def defined():
    return 0
