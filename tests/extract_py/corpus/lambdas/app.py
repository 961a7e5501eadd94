def square(x):
    return x * x


double = lambda x: x * 2
inc = lambda x: square(x) + 1


def run(items):
    key = lambda v: -v
    out = sorted(items, key=key)
    double(3)
    return inc(key(out[0]))


class Table:
    fmt = lambda self, v: str(v)
