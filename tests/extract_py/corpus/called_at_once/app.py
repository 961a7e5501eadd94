"""A function returned by a call and called at once: the factory passed to another module's
function that calls it and returns what it returns (``call(make)()``), and the same in one module."""

import runner
from runner import call, call_with


def work():
    pass


def other(x=None):
    pass


def make():
    return work


def make_other(arg):
    return other


def local_call(h):
    return h()


def main():
    call(make)()
    runner.call(make)()
    call_with(make_other, 1)(2)


def same_module():
    local_call(make)()
    make()()
