"""Subscripting a class of the program calls its ``__class_getitem__`` (PEP 560: ``Box[int]``,
inherited too), or its metaclass's ``__getitem__`` when the metaclass defines one."""


class Alias:
    def __init__(self, origin, args):
        self.origin = origin
        self.args = args


class Box:
    def __class_getitem__(cls, item):
        return Alias(cls, item)


class Crate(Box):
    pass


class Indexed(type):
    def __getitem__(cls, key):
        return key


class Color(metaclass=Indexed):
    @classmethod
    def lookup(cls, key):
        return key


def annotate():
    IntBox = Box[int]
    nested = Crate[str]
    return IntBox, nested, Color["red"]
