"""``cls`` in a classmethod is the class it is called through: ``Order.from_row(row)`` runs the
inherited ``Record.from_row`` with ``cls`` Order, so ``cls(...)`` there calls ``Order.__init__``
too, and so does ``super().from_row(row)`` in an override. A subclass the method is never called
through (``Refund``) adds nothing, and what a call through ``Record`` returns is a Record."""


class Record:
    def __init__(self, row):
        self.row = row

    @classmethod
    def from_row(cls, row):
        record = cls(row)
        record.validate()
        return record

    def validate(self):
        pass

    def save(self):
        pass


class Order(Record):
    def __init__(self, row):
        super().__init__(row)
        self.lines = []

    def save(self):
        pass


class Invoice(Record):
    def __init__(self, row):
        super().__init__(row)

    @classmethod
    def from_row(cls, row):
        invoice = super().from_row(row)
        return invoice


class Refund(Record):
    def __init__(self, row):
        super().__init__(row)

    def save(self):
        pass
