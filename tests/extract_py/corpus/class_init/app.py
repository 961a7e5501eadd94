class Base:
    def __init__(self, x):
        self.x = x


class Child(Base):
    def extra(self):
        return self.x


class Plain:
    def run(self):
        return 1


class Own(Base):
    def __init__(self):
        super().__init__(1)


def make():
    a = Base(1)
    b = Child(2)
    c = Plain()
    d = Own()
    return a, b, c, d


class Pooled:
    def __new__(cls, *args):  # instantiation calls __new__, then __init__
        return super().__new__(cls)

    def __init__(self, size):
        self.size = size


def pool():
    return Pooled(4)
