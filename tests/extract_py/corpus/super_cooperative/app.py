"""Cooperative super() in a diamond: the next class after B in the receiver's MRO."""


class Base:
    def setup(self):
        return "base"

    @classmethod
    def configure(cls):
        return cls


class Logging(Base):
    def setup(self):
        return super().setup()

    @classmethod
    def configure(cls):
        return super().configure()


class Caching(Base):
    def setup(self):
        return super().setup()

    @classmethod
    def configure(cls):
        return super().configure()


class Service(Logging, Caching):
    def setup(self):
        return super().setup()


class Plain(Logging):
    pass


Service().setup()
Service.configure()
Plain().setup()
