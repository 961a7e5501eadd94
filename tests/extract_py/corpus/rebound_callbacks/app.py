"""A callback a function receives and stores in an enclosing scope's variable (nonlocal) or in
a module variable (global): the store is evaluated where it is written, so the variable holds
what the callers pass."""

_on_error = None


def set_error_handler(handler):
    global _on_error
    _on_error = handler


def fail(msg):
    if _on_error is not None:
        _on_error(msg)


def log_error(msg):
    pass


def make_retry():
    attempt = None

    def use(fn):
        nonlocal attempt
        attempt = fn

    def run():
        return attempt()

    use(connect)
    return use, run


def connect():
    pass


def reconnect():
    pass


def main():
    set_error_handler(log_error)
    use, run = make_retry()
    use(reconnect)
    run()
    fail("x")
