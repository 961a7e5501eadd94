"""types.MethodType(f, obj) binds a plain function to an object: stored on the object and called
later, it calls f with the object first and the call's arguments after it."""

import types
from types import MethodType


class Report:
    def total(self):
        return 0


class Printer:
    def emit(self, text):
        return text


def render(self, printer):
    printer.emit(self.total())


def summary(self):
    return self.total()


class Widget:
    def __init__(self):
        self.describe = types.MethodType(summary, Report())

    def show(self):
        return self.describe()


def main():
    report = Report()
    report.render = MethodType(render, report)
    report.render(Printer())
    Widget().show()
