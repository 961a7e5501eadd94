import abc
from abc import ABC, abstractmethod


class Storage(ABC):
    @abstractmethod
    def save(self, data): ...

    def describe(self):
        return "storage"


class Disk(Storage):
    def save(self, data):
        return len(data)


class Cloud(Storage):
    def save(self, data):
        return 0


class Cache(abc.ABC):
    @abc.abstractmethod
    def get(self, k): ...


def process(store: Storage, cache: Cache):
    store.save(b"x")
    store.describe()
    cache.get(1)
    Disk().save(b"y")


class Logged(Disk):
    def save(self, data):
        return super().save(data)


class WithDefault(ABC):
    @abstractmethod
    def flush(self):
        return None


class Buffered(WithDefault):
    def flush(self):
        return super().flush()
