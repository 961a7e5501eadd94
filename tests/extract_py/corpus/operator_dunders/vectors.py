"""Operators and some builtins call a dunder method of their operand's class (implicit)."""


class Vector:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, other):
        return Vector(self.x + other.x, self.y + other.y)

    def __rmul__(self, k):
        return Vector(k * self.x, k * self.y)

    def __mul__(self, k):
        return Vector(self.x * k, self.y * k)

    def __neg__(self):
        return Vector(-self.x, -self.y)

    def __eq__(self, other):
        return self.x == other.x and self.y == other.y

    def __lt__(self, other):
        return abs(self) < abs(other)

    def __abs__(self):
        return (self.x**2 + self.y**2) ** 0.5

    def __len__(self):
        return 2

    def __str__(self):
        return f"({self.x}, {self.y})"


class Grid:
    def __init__(self):
        self.cells = {}

    def __getitem__(self, key):
        return self.cells[key]

    def __setitem__(self, key, value):
        self.cells[key] = value

    def __delitem__(self, key):
        del self.cells[key]

    def __contains__(self, key):
        return key in self.cells

    def __iadd__(self, other):
        self.cells.update(other.cells)
        return self


def arithmetic():
    a = Vector(1, 2)
    b = Vector(3, 4)
    c = a + b
    d = 2 * a
    e = a * 3
    f = -a
    a += b  # no __iadd__: __add__
    return c, d, e, f


def comparisons(a: Vector, b: Vector):
    if a == b or a < b:
        return a != b  # no __ne__: object's calls __eq__
    return len(a), str(b)


def containers(g: Grid):
    g["a"] = 1
    first = g["a"]
    del g["a"]
    if "a" not in g:
        g += Grid()
    g["b"], n = 2, 3
    return first, n


def not_ours(n: int, items: list, v: Vector):
    m = n + 1
    first = items[0]
    table = {"k": v}
    w = table["k"]
    return m, first, w, v is None


def describe(v: Vector, g: Grid):
    # f-strings format their values: __format__ (object's calls __str__); !r calls __repr__
    return f"{v} / {g!r} / {len(g):>4}"
