from . import memory


def make(kind):
    if kind == "memory":
        return memory.MemoryStore()
    raise ValueError(kind)
