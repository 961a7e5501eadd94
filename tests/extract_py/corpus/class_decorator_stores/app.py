"""A class decorator that stores an attribute on the class it is given: the class has it."""


def helper():
    return 1


def other():
    return 2


def add_hook(cls):
    cls.hook = staticmethod(helper)
    return cls


def unused(cls):
    cls.spare = other  # never applied: no class has spare
    return cls


@add_hook
class A:
    def run(self):
        return self.hook()


class B:
    def run(self):
        return self.spare()  # B is not decorated: nothing


def main():
    A().hook()
    A.hook()
    A().run()
    B().run()


main()
