class Field:
    def load(self, raw):
        return raw


class Point(Field):
    def load(self, raw):
        return tuple(raw)
