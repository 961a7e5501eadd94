"""Records copied with a field changed keep their class: NamedTuple's _replace and _make."""

from typing import NamedTuple


class Point(NamedTuple):
    x: float
    y: float

    def norm(self):
        return abs(self.x) + abs(self.y)


class Size(NamedTuple):
    w: float
    h: float

    def area(self):
        return self.w * self.h


def shifted(p: Point, dx: float) -> float:
    moved = p._replace(x=p.x + dx)
    return moved.norm()


def parse(fields: list[str]) -> float:
    size = Size._make(float(f) for f in fields)
    return size.area()


def grow(s: Size) -> float:
    return s._replace(w=s.w * 2)._replace(h=s.h * 2).area()
