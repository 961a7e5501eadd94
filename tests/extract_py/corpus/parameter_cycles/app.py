"""Values that flow around a cycle: a function that calls its parameter, given itself."""


def leaf(x):
    return x


def apply(fn):
    return fn(leaf)  # fn is apply (below) or leaf (passed by apply itself)


def chain(step):
    return step(chain_end)


def chain_end(v):
    return v


def main():
    apply(apply)
    return chain(chain)
