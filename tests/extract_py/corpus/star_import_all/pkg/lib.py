__all__ = ["public", "Tool"]


def public():
    return 1


def hidden():
    return 2


class Tool:
    def use(self):
        return 3
