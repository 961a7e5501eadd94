import typing

from serial.fields import Field, Registry

if typing.TYPE_CHECKING:
    from serial.fields import Integer


class Schema:
    def __init__(self, declared):
        self.fields = {}  # type: dict[str, Field]
        self.order = []  # type: typing.List[Field]
        self.registry = None  # type: typing.Optional[Registry]
        self.counter = None  # type: Integer # the one that counts
        self.extra = None  # type: ignore
        for name, field in declared:
            self.fields[name] = field
            self.order.append(field)

    def load(self, data):
        out = {}
        for name, field in self.fields.items():
            out[name] = field.deserialize(data[name])
        for field in self.order:
            field.deserialize(None)
        if self.registry is not None:
            self.registry.lookup("x")
        self.counter.deserialize(0)
        self.extra.deserialize(1)
        return out


def build(rows):
    found = None  # type: Registry
    for row in rows:
        found = row
    return found.lookup("y")
