import abc
from abc import ABC, abstractmethod
from typing import Protocol


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


class Remote(Storage):
    """Does not implement save: its subclasses do."""


class S3(Remote):
    def save(self, data):
        return 3


def upload(remote: Remote):
    return remote.save(b"z")  # the overrides below Remote only, not Disk's or Cloud's


class Codec:
    def encode(self, value):
        raise NotImplementedError("subclasses encode")

    def name(self):
        return "codec"


class Json(Codec):
    def encode(self, value):
        return str(value)


def dump(codec: Codec):
    return codec.encode(1)  # a method that only raises NotImplementedError: the overrides run


def dump_exact():
    Codec().encode(2)  # an instance of Codec itself: only Codec.encode (it raises)
    made = Codec()
    return made.encode(3)


class Renderer(Protocol):
    def render(self, text: str) -> str: ...


class Html(Renderer):
    def render(self, text):
        return text


def show(r: Renderer):
    return r.render("x")
