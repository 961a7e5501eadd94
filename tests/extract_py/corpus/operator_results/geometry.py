"""An operator's result is what the dunder it calls returns: a method of that value is called next."""


class Vec:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, other):
        return Vec(self.x + other.x, self.y + other.y)

    def __mul__(self, k) -> "Vec":
        return Vec(self.x * k, self.y * k)

    def __rmul__(self, k):
        return self * k

    def __neg__(self):
        return Vec(-self.x, -self.y)

    def __matmul__(self, other) -> "Dot":
        return Dot(self.x * other.x + self.y * other.y)

    def __lt__(self, other):
        return Dot(0)

    def norm(self):
        return (self.x**2 + self.y**2) ** 0.5


class Dot:
    def __init__(self, value):
        self.value = value

    def scaled(self, k):
        return self.value * k


class Acc:
    def __init__(self):
        self.items = []

    def __iadd__(self, other):
        self.items.append(other)
        return self

    def total(self):
        return len(self.items)


class Plain:
    def __init__(self):
        self.n = 0

    def __add__(self, other):
        return Vec(other, other)


def sums():
    (Vec(1, 2) + Vec(3, 4)).norm()
    s = Vec(1, 2) + Vec(3, 4)
    s.norm()


def scaling(v: Vec):
    (v * 2).norm()
    (2 * v).norm()
    (-v).norm()
    (v @ v).scaled(3)
    (v < v).scaled(1)


def augmented():
    acc = Acc()
    acc += 1
    acc.total()
    p = Plain()
    p += 2  # no __iadd__: __add__, and p is now what it returns
    p.norm()


def numbers(n: int):
    m = n + 1
    m += 1
    return m.bit_length()
