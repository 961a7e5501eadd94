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
