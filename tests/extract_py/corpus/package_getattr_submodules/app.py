import shapes
from shapes import fields as shape_fields
from shapes import geometry


def main():
    shape_fields.Field().load([1])
    shapes.fields.Point().load([1, 2])
    geometry.area(2, 3)
    shapes.OldPoint().load([3, 4])
