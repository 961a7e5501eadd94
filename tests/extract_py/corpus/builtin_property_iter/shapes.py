"""Builtins given functions: ``x = property(fget, fset, fdel)`` in a class body runs them on
reads, assignments and deletes of ``obj.x``; ``iter(f, sentinel)`` calls f until it returns the
sentinel, and iterating it gives what f returns."""


def get_width(self):
    return self._width


def set_width(self, value):
    self._width = value


def del_width(self):
    del self._width


class Box:
    width = property(get_width, set_width, del_width)
    label = property(fget=lambda self: "box")

    def __init__(self):
        self._width = 0


class Token:
    def kind(self):
        return "word"


class Lexer:
    def next_token(self):
        return Token()

    def tokens(self):
        for tok in iter(self.next_token, None):
            tok.kind()


def use():
    b = Box()
    w = b.width
    b.width = w
    del b.width
    b.label
    Lexer().tokens()
