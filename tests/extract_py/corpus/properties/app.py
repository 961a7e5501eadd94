class Engine:
    def start(self):
        return True


class Car:
    def __init__(self):
        self._engine = Engine()

    @property
    def engine(self) -> Engine:
        return self._engine

    @engine.setter
    def engine(self, value):
        self._engine = value

    @property
    def name(self):
        return "car"

    def drive(self):
        self.engine.start()
        return self.name


def main():
    car = Car()
    car.engine.start()
    label = car.name
    return label


class Cache:
    def __init__(self):
        self._data = {}

    @property
    def data(self):
        return self._data

    @data.deleter
    def data(self):
        self._data = {}


def tune(car: Car, cache: Cache):
    car.engine = Engine()  # the setter
    car.engine, spare = Engine(), Engine()  # the setter again (a tuple target)
    car.color = "red"  # a plain attribute: no edge
    del cache.data  # the deleter
    cache.size = 3
