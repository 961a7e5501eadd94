"""A method returning ``self.__class__(...)`` or ``type(self)(...)`` gives an instance of the class
of the receiver it is called through: an inherited ``copy()`` of a subclass is the subclass's."""


class Shape:
    def __init__(self, size=1):
        self.size = size

    def scaled(self, k):
        return self.__class__(self.size * k)

    def copy(self):
        return type(self)(self.size)

    def area(self):
        return self.size


class Square(Shape):
    def area(self):
        return self.size * self.size

    def corners(self):
        return 4


def main():
    sq = Square(2)
    sq.scaled(3).corners()
    sq.copy().corners()
    Shape().copy().area()


main()
