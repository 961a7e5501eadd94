"""Attributes stored through a local alias of an attribute (`reg = self.registry;
reg.hooks.append(f)`), in one method, read through the attribute in another."""


class Registry:
    def __init__(self):
        self.hooks = []
        self.main = None


def first():
    return 1


def second():
    return 2


class App:
    def __init__(self):
        self.registry = Registry()

    def setup(self):
        reg = self.registry
        reg.hooks.append(first)
        reg.main = second

    def run(self):
        for hook in self.registry.hooks:
            hook()
        return self.registry.main()
