def target(a, b=2, *rest, **opts):
    return len(rest) + len(opts)


def forward(*args, **kwargs):
    return target(*args, **kwargs)


def main():
    forward(1, 2, 3, x=4)
    options = {"b": 5}
    target(1, **options)
