"""Iterating a generator (or taking next() of it) gives what it yields; yield from passes on the
items of another iterable."""


class Row:
    def __init__(self, values):
        self.values = values

    def as_dict(self):
        return dict(self.values)


class Cursor:
    def __init__(self, data):
        self.data = data

    def __iter__(self):
        for values in self.data:
            yield Row(values)

    def batches(self):
        yield [Row(v) for v in self.data]


def fetch(cursor):
    yield from cursor.batches()


def export(cursor):
    for row in cursor:
        row.as_dict()
    for batch in cursor.batches():
        for row in batch:
            row.as_dict()
    first = next(fetch(cursor))
    first[0].as_dict()


def constant():
    yield "x"


def strings():
    for s in constant():
        s.upper()


export(Cursor([[("a", 1)]]))
