"""A slice of a list is a list of some of its elements, not an element."""


def parse_a():
    return "a"


def parse_b():
    return "b"


def parse_c():
    return "c"


def fallback():
    return None


PARSERS = [parse_a, parse_b, parse_c]


def first_two():
    head = PARSERS[:2]
    return head[1]()


def tail_each():
    for p in PARSERS[1:]:
        p()


def last_pair():
    x, y = PARSERS[-2:]
    x()
    y()


def from_offset(n):
    chunk = PARSERS[n:]
    return chunk[0]()


class Chain:
    def __init__(self):
        self.steps = []

    def add(self, fn):
        self.steps.append(fn)

    def run_rest(self):
        for step in self.steps[1:]:
            step()


chain = Chain()
chain.add(parse_a)
chain.add(fallback)
chain.run_rest()
