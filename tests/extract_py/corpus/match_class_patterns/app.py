"""A ``case`` class pattern with ``as`` binds an instance of the class it matches (of one of
them for an or-pattern), whatever the subject was: events read from outside, here a parameter
nobody in the module passes."""

import shapes
from shapes import Circle, Square


def describe(event):
    match event:
        case Circle() as c if c.radius() > 0:
            return c.radius()
        case shapes.Triangle(side=s) as t:
            return t.height() + s
        case Square() | shapes.Circle() as either:
            return either
        case [Square() as first, *_]:
            return first.edge()
        case _:
            return None
