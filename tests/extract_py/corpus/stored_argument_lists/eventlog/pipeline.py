"""A processor pipeline in the style of structlog: the processors are the caller's."""


class Pipeline:
    def __init__(self, processors, validators=()):
        self._processors = list(processors)
        self._validators = tuple(validators)
        self.sinks = []

    def add_sinks(self, sinks):
        self.sinks = sinks

    def run(self, event):
        for check in self._validators:
            check(event)
        for proc in self._processors:
            event = proc(event)
        for sink in self.sinks:
            sink(event)
        return event
