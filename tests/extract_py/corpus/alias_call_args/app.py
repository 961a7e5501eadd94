"""Arguments passed through a local alias of a function (or of a lambda, or of a class) reach
its parameters like arguments of a direct call."""


def log_line(msg):
    print(msg)


def print_banner(text):
    return text.upper()


def notify(channel, text):
    channel(text)


def with_retry(action, attempts=3):
    for _ in range(attempts):
        action()


def flush_cache():
    return None


send = notify
send(log_line, "ready")

retry = with_retry
again = retry
again(flush_cache, attempts=2)

transform = lambda fn, v: fn(v)
transform(log_line, "x")


class Sink:
    def __init__(self, writer):
        self.writer = writer

    def emit(self, text):
        self.writer(text)


Target = Sink
sink = Target(log_line)
sink.emit("hello")


class Router:
    # bound through the instance: self is passed as `channel`, so this site feeds no callback
    dispatch = notify

    def route(self):
        self.dispatch(flush_cache)


def configure():
    hook = notify
    hook(print_banner, "start")


Router().route()
