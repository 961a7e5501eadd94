"""Attributes stored through an attribute chain: `self.state.on_done = f` and
`self.state.actions.append(fn)` (tenacity's `BaseRetrying._add_action_func`) store on the instances
`self.state` holds, read back by any `x.on_done` / `for a in x.actions` on a State; a class with
attributes of the same names (Log) holds none of it."""

from state import Log, Slot, State


def finished():
    return 0


def audit(n):
    return n


def on_load():
    return 1


class Runner:
    def __init__(self):
        self.state = State()
        self.log = Log()

    def _add_action(self, fn):
        self.state.actions.append(fn)

    def prepare(self):
        self.state.on_done = finished
        self._add_action(self.check)
        self._add_action(audit)

    def check(self, n):
        return n > 0

    def run(self):
        for action in self.state.actions:
            action(1)
        for other in self.log.actions:
            other(2)
        self.log.on_done()
        return self.state.on_done()


class Box:
    pass


box = Box()
box.inner = Slot()
box.inner.handler = on_load


def fire():
    return box.inner.handler()
