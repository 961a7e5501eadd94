"""Methods passed as callbacks (``run(self.step)``) get the arguments their caller passes."""


class Sink:
    def flush(self):
        return True


class Event:
    def ack(self):
        return True


class Pipeline:
    def __init__(self):
        self.sink = Sink()

    def emit(self, item):
        return item.flush()

    def each(self, fn, item):
        return fn(item)

    def run(self):
        return self.each(self.emit, self.sink)


def apply(cb, value):
    return cb(value)


class Handler:
    def handle(self, event):
        return event.ack()

    @staticmethod
    def log(event):
        return event.ack()

    @classmethod
    def build(cls, event):
        event.ack()
        return cls()


def main():
    h = Handler()
    apply(h.handle, Event())
    apply(Handler.log, Event())
    apply(Handler.build, Event())
    Pipeline().run()
