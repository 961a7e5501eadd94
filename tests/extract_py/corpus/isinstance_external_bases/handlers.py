"""``isinstance(x, C)`` with C a class outside the program keeps x's instances of program classes
that derive from an outside class (it may derive from C: not known), as x was, and their methods
the program does not define stay named through their outside base; an instance of a program class
with no outside base cannot be a C: x is then a C (``pkg.C.m``)."""

from collections import OrderedDict

from rest_framework import serializers


class ItemSerializer(serializers.ModelSerializer):
    def summary(self):
        return "item"


class Plain:
    def summary(self):
        return "plain"


def check(s: ItemSerializer):
    if isinstance(s, serializers.Serializer):
        s.summary()
        s.is_valid()


def assert_first(s: ItemSerializer):
    assert isinstance(s, serializers.BaseSerializer)
    return s.summary()


def plain(p: Plain):
    if isinstance(p, OrderedDict):
        p.move_to_end("a")
    return p.summary()
