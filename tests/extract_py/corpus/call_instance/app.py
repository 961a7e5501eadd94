class Multiplier:
    def __init__(self, k):
        self.k = k

    def __call__(self, x):
        return self.scale(x)

    def scale(self, x):
        return x * self.k


triple = Multiplier(3)


def run():
    triple(2)
    Multiplier(2)(5)
