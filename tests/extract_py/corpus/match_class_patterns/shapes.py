class Circle:
    def __init__(self, r):
        self.r = r

    def radius(self):
        return self.r


class Square:
    def __init__(self, side):
        self.side = side

    def edge(self):
        return self.side


class Triangle(Square):
    def height(self):
        return self.side
