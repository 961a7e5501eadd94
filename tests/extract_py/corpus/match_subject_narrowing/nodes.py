"""``case C():`` without ``as`` narrows the ``match`` subject in the clause's body as
``isinstance`` does: a subject that may be several classes is, there, the instances of C (or of
the or-pattern's classes); a subject known nowhere (a parameter nobody passes) an instance of C."""


class Num:
    def eval(self):
        return 1

    def show(self):
        return "n"


class Add:
    def eval(self):
        return 2

    def show(self):
        return "+"


class Neg:
    def eval(self):
        return -1

    def show(self):
        return "-"


def parse(text):
    if text == "+":
        return Add()
    if text == "-":
        return Neg()
    return Num()


def evaluate(text):
    node = parse(text)
    match node:
        case Num():
            return node.eval()
        case Add() | Neg():
            return node.show()


def render(node):
    match node:
        case Add():
            return node.show()
        case _:
            return None
