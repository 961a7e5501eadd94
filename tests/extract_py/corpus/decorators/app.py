import functools


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        print("calling")
        return fn(*args, **kwargs)

    return wrapper


@logged
def work(x):
    return x


class Service:
    @logged
    def handle(self):
        return work(1)
