"""The standard library's ``io`` streams are known classes: a member one of them lacks
(``encode`` on a ``BytesIO``, a value of ours mixed up with it) is no edge, while the members it
has are named through it (``io.BytesIO.read``); so for a program class deriving from one."""

import io
from io import BytesIO


class Payload(io.BytesIO):
    def text(self):
        return self.encode()

    def size(self):
        return len(self.getvalue())


def read_all(stream: io.BytesIO, text: io.TextIOWrapper):
    stream.encode()
    text.readline()
    return stream.read()


def fresh():
    return BytesIO(b"x").getvalue()


def close(obj):
    if isinstance(obj, io.IOBase):
        obj.close()
