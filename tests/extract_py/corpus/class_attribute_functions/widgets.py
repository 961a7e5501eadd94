"""Module-level functions bound as class attributes: a method through an instance, unless staticmethod (classmethod: the class first)."""


class Event:
    def handle(self):
        return "event"


class Signal:
    def handle(self):
        return "signal"


def log_event(widget, event):
    widget.redraw()
    return event.handle()


def check(signal):
    return signal.handle()


def build(cls, name):
    return cls()


class Widget:
    on_event = log_event
    validate = staticmethod(check)
    create = classmethod(build)

    def redraw(self):
        return "redraw"

    def fire(self):
        self.on_event(Event())
        return self.validate(Signal())


def fresh():
    return Widget.create("main").redraw()
