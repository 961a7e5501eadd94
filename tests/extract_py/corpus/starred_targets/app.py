"""Starred targets and splats: `a, *rest, z = ...`, `[*xs, f]`."""


def f1():
    return 1


def f2():
    return 2


def f3():
    return 3


def f4():
    return 4


def literal():
    a, *middle, z = f1, f2, f3, f4
    a()
    middle[0]()  # f2: middle is [f2, f3]
    return z()  # f4, counted from the end


def from_list(fs: list):
    first, *others = [f1, f2]
    first()
    for g in others:
        g()


def splat_display():
    base = [f1]
    for h in [*base, f4]:
        h()
