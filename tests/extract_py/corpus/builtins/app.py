def stats(values):
    n = len(values)
    total = sum(values)
    biggest = max(values, default=0)
    print(n, total, biggest)
    items = sorted(set(values))
    mapping = dict(zip(items, range(len(items))))
    return isinstance(mapping, dict), str(n), list(map(abs, values))
