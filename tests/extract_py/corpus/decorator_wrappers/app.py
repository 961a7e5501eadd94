"""Calls by a decorated name also reach the wrapper the decorator made, and nothing else."""

import functools

HANDLERS = []


def register(fn):
    HANDLERS.append(fn)
    return fn


def retried(fn):
    @functools.wraps(fn)
    def retry(*args):
        try:
            return fn(*args)
        except OSError:
            return fn(*args)

    return retry


def tagged(label):
    def apply(fn):
        def labelled(*args):
            return (label, fn(*args))

        return labelled

    return apply


def guarded(arg=None):
    """Usable bare (``@guarded``) or with an argument (``@guarded("x")``; not used here: the
    flow-insensitive result of ``guarded("x")`` holds ``checked`` too, so applying it would also
    be an edge to ``checked``, a known imprecision)."""

    def decorator(fn):
        def checked(*args):
            return fn(*args)

        return checked

    if callable(arg):
        return decorator(arg)
    return decorator


class Memo:
    def __init__(self, fn):
        self.fn = fn

    def __call__(self, *args):
        return self.fn(*args)


@register
def on_start():
    return 1


@register
def on_stop():
    return 2


@retried
def download(url):
    return url


@tagged("io")
def upload(url):
    return download(url)


@guarded
def reset():
    return 0


@Memo
def square(n):
    return n * n


@functools.cache
def cube(n):
    return n**3


class Client:
    @retried
    def connect(self):
        return download("c")

    def session(self):
        return self.connect()


def alias_call():
    fetch = download
    return fetch("x")


def main():
    on_start()
    on_stop()
    upload("u")
    square(3)
    reset()
    cube(2)
    Client().session()
