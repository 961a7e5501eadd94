from memo import keys, backends
from memo import keys as k2
import memo


@memo.cached()
def square(x):
    return x * x


def main():
    store = backends.make("memory")
    cache = memo.cached(store)
    fast = cache(square)
    fast(3)
    keys.hashkey(1, 2)
    k2.typedkey(1)
    memo.keys.hashkey(3)
    memo.backends.memory.MemoryStore().has(1)
