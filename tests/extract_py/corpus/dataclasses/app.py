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
