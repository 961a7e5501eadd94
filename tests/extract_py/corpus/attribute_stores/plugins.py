class Registry:
    def __init__(self):
        self.items = []


def default_hook():
    return None


registry = Registry()
registry.hook = default_hook
