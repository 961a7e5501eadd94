"""isinstance narrows a name for the code its test guards: an if / elif body, the statements after
`assert isinstance(...)` or after `if not isinstance(...): return`, the right operand of `and`, the
value of `a if isinstance(...) else b`; `isinstance(self.node, C)` narrows that attribute. It
then holds its instances of the class (or of a subclass), else an instance of the class, as an
annotation would say."""

import argparse
import http.cookiejar


class Node:
    def accept(self, visitor):
        raise NotImplementedError


class Call(Node):
    def callee_name(self):
        return "f"

    def accept(self, visitor):
        return visitor


class Name(Node):
    def text(self):
        return "n"


class Attr(Name):
    def text(self):
        return "a.n"


class Other:
    def text(self):
        return "other"

    def callee_name(self):
        return "other"


def describe(node):
    if isinstance(node, Call):
        return node.callee_name()
    elif isinstance(node, Name):
        return node.text()
    return None


def first_name(nodes):
    for n in nodes:
        if not isinstance(n, Name):
            continue
        return n.text()
    return None


def checked(node):
    assert isinstance(node, Call)
    return node.callee_name()


def short(node):
    return node.callee_name() if isinstance(node, Call) else None


def both(node, visitor):
    return isinstance(node, (Call, Attr)) and node.accept(visitor)


def known(flag):
    value = Attr() if flag else Other()
    if isinstance(value, Name):
        return value.text()
    return None


def options(parser, text):
    if isinstance(parser, argparse.ArgumentParser):
        parser.parse_args()
    if isinstance(text, str):
        return text.upper()
    return None


class Jar(http.cookiejar.CookieJar):
    def merge(self, other):
        return other


def merge_into(jar, other):
    if not isinstance(jar, http.cookiejar.CookieJar):
        raise ValueError("not a cookie jar")
    return jar.merge(other)


class Holder:
    def __init__(self, node):
        self.node = node

    def visit(self):
        if isinstance(self.node, Call):  # an attribute is narrowed too
            return self.node.callee_name()
        return None


HANDLERS = {"describe": describe, "short": short}


def dispatch(key, table=HANDLERS):
    if isinstance(table, dict):  # a builtin class: the dict display is one
        return table.get(key)(None)
    return None


def main():
    describe(Other())
    first_name([Attr(), Other()])
    checked(Other())
    short(Other())
    both(Other(), None)
    known(True)
    options(None, "x")
    merge_into(Jar(), None)
    dispatch("short")
    Holder(Other()).visit()
