from dataclasses import dataclass, field


@dataclass
class Point:
    x: int = 0
    y: int = 0
    tags: list = field(default_factory=list)

    def norm(self):
        return abs(self.x) + abs(self.y)


def run():
    p = Point(1, 2)
    return p.norm()


@dataclass
class Range:
    low: int
    high: int

    def __post_init__(self):
        self.validate()

    def validate(self):
        return self.low <= self.high


class Closed(Range):  # inherits the generated __init__, which calls __post_init__
    pass


@dataclass
class Manual:
    def __init__(self):  # its own __init__: nothing generated, no __post_init__ call
        self.ready = True

    def __post_init__(self):
        return None


def build():
    return Range(1, 2), Closed(0, 1), Manual()
