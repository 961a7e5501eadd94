"""The standard library's ``io`` streams are known classes: a member one of them lacks
(``encode`` on a ``BytesIO``, a value of ours mixed up with it) is no edge, while the members it
has are named through it (``io.BytesIO.read``); so for a program class deriving from one, whose
``__getattr__`` then answers a name the stream lacks (``OutputWrapper(StringIO()).getvalue()``)."""

import io
from io import BytesIO, StringIO, TextIOBase


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


class OutputWrapper(TextIOBase):
    def __init__(self, out):
        self._out = out

    def __getattr__(self, name):
        return getattr(self._out, name)


def captured():
    prompt = OutputWrapper(StringIO())
    prompt.flush()
    return prompt.getvalue()
