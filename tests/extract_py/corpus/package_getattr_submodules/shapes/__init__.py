"""A package re-exporting its submodule and answering deprecated names from __getattr__ (PEP 562)."""

import warnings

from . import fields
from .fields import Point


def __getattr__(name):
    if name == "OldPoint":
        warnings.warn("use shapes.Point", DeprecationWarning)
        return Point
    raise AttributeError(name)
