import typing


class Field:
    def deserialize(self, value):
        return self._deserialize(value)

    def _deserialize(self, value):
        return value


class Integer(Field):
    def _deserialize(self, value):
        return int(value)


class Registry:
    def lookup(self, name):
        return name
