"""Calling a class of the program whose __init__ comes from its one external base calls that
base's __init__, named through the package (`argparse.ArgumentParser.__init__`)."""

import abc
import argparse
import threading
from typing import Generic, TypeVar

T = TypeVar("T")


class Parser(argparse.ArgumentParser):
    def add_flags(self):
        self.add_argument("--verbose")


class Worker(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)


class Box(Generic[T]):  # a typing base declares, it has no __init__ to call
    pass


class Shape(abc.ABC):
    pass


class Failure(Exception):  # builtin bases: no edge
    pass


def main():
    p = Parser()
    p.add_flags()
    Worker()
    Box()
    Shape()
    raise Failure()
