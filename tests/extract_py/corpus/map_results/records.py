"""``map(f, xs, ...)`` is an iterator of what ``f`` returns for the items: iterating it,
``list(...)`` / ``next(...)`` of it give instances ``f`` makes (a class given: its instances)."""


class Record:
    def __init__(self, raw):
        self.raw = raw

    def key(self):
        return self.raw

    def save(self):
        return None


def parse(raw):
    return Record(raw)


def load(rows):
    for rec in map(parse, rows):
        rec.save()


def build(rows):
    records = list(map(Record, rows))
    records[0].key()
    return sorted(records, key=lambda r: r.key())


def pairs(left, right):
    for rec in map(lambda a, b: parse(a), left, right):
        rec.key()


def first(rows):
    return next(map(parse, rows)).save()
