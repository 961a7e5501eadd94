class Counter:
    def __init__(self):
        self.n = 0
        self.reset()

    def reset(self):
        self.n = 0

    def bump(self):
        self.n += 1
        return self.value()

    def value(self):
        return self.n

    @classmethod
    def create(cls):
        obj = cls()
        obj.bump()
        return obj
