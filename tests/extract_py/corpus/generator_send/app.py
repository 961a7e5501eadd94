"""Values sent into a generator: a yield expression gives what gen.send(v) passes."""


def greet():
    return "hi"


def part():
    return "bye"


def worker():
    while True:
        task = yield
        task()


def echo():
    received = yield "ready"
    yield received


def relay():
    result = yield from worker()
    return result


w = worker()
next(w)
w.send(greet)

e = echo()
next(e)
back = e.send(part)
back()
