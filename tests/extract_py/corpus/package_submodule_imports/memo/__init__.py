"""A package whose __init__ imports its own submodules by name (``from . import keys``): the
name is the submodule, for the package's code and for every module importing it from the package."""
from . import keys
from . import backends as backends
from .backends import memory

__all__ = ["keys", "backends", "cached", "default_store"]


def default_store():
    return memory.MemoryStore()


def cached(store=None, key=keys.hashkey):
    def decorator(func):
        def wrapper(*args):
            k = key(*args)
            s = store if store is not None else default_store()
            if s.has(k):
                return s.get(k)
            value = func(*args)
            s.put(k, value)
            return value

        return wrapper

    return decorator


def typed_cached(store=None):
    return cached(store, key=keys.typedkey)
