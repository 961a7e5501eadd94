def outer(n):
    def inner(x):
        return add(x, n)

    def twice(x):
        return inner(inner(x))

    return twice


def add(a, b):
    return a + b


def use():
    f = outer(3)
    return f(1)
