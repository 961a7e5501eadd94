class Countdown:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return self

    def __next__(self):
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n


class Bag:
    def __iter__(self):
        yield 1


def run():
    for x in Countdown(3):
        print(x)
    for y in Bag():
        pass
