"""Stacked decorators: each decorator is applied to what the one below it returns."""

import functools

REGISTRY = []


def timed(fn):
    def timed_wrapper(*args):
        return fn(*args)

    return timed_wrapper


def traced(fn):
    def traced_wrapper(*args):
        return fn(*args)

    return traced_wrapper


def register(fn):
    REGISTRY.append(fn)
    return fn


class Counter:
    def __init__(self, fn):
        self.fn = fn
        self.calls = 0

    def __call__(self, *args):
        self.calls += 1
        return self.fn(*args)


class Retry:
    def __init__(self, times):
        self.times = times

    def __call__(self, fn):
        def retry_wrapper(*args):
            for _ in range(self.times):
                fn(*args)

        return retry_wrapper


@timed
@traced
def load(path):
    return open(path)


@timed
@register
def save(data):
    return len(data)


@traced
@functools.lru_cache(maxsize=None)
def lookup(key):
    return hash(key)


@timed
@Counter
def ping():
    return True


@traced
@Retry(times=3)
def fetch(url):
    return url


def main():
    load("a.txt")
    save(b"x")
    lookup("k")
    ping()
    fetch("u")
