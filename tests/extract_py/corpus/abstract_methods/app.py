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
