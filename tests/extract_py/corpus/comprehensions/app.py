def transform(x):
    return x * 2


def keep(x):
    return x > 0


def run(values):
    doubled = [transform(v) for v in values if keep(v)]
    mapping = {v: transform(v) for v in values}
    gen = sum(transform(v) for v in values)
    fns = [transform, keep]
    results = [f(1) for f in fns]
    return doubled, mapping, gen, results
