"""Lambdas bound by a class body are methods: their first parameter is the instance."""


def describe(value):
    return str(value)


class Counter:
    def current(self):
        return 0

    label = lambda self: describe(self.current())
    fmt = staticmethod(lambda value: describe(value))

    def show(self):
        return self.label()


Counter().show()
