"""Testing a value's truth calls its class's ``__bool__``, else its ``__len__``: conditions of
``if``/``elif``/``while``/``assert``, of a conditional expression and of a comprehension,
operands of ``not``, and of ``and``/``or`` (in a condition, both; as a value, the left one, whose
truth picks the result). Only names and attributes are followed, not a call's result. A class
with neither, or a value not of the program's classes, calls nothing."""


class Bag:
    def __init__(self):
        self.items = []

    def __len__(self):
        return len(self.items)


class Switch:
    def __bool__(self):
        return True

    def __len__(self):  # __bool__ comes first: never used for truth
        return 0


class Plain:
    pass


def check(bag: Bag, sw: Switch, p: Plain, n: int):
    if bag:  # Bag.__len__
        pass
    elif not sw:  # Switch.__bool__
        pass
    while sw and p:  # Switch.__bool__ (Plain: nothing)
        break
    assert bag or n  # Bag.__len__
    label = "on" if sw else "off"  # Switch.__bool__
    picked = bag or sw  # Bag.__len__ only: a value
    kept = [b for b in [bag] if b]  # the comprehension's condition: b is a Bag
    if n:  # an int: nothing
        return label, picked, kept
    if fresh():  # a call's result is not followed for its truth (its evaluation costs more)
        return None
    return None


def fresh() -> Bag:
    return Bag()
