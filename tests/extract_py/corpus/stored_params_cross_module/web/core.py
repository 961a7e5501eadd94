"""A registry defined in one module, filled from another: ``route`` keeps the view it decorates
in a dict and ``dispatch`` calls it later; ``Bus.subscribe`` keeps its listener on the instance
and ``Timer.__init__`` its callback. The call sites and decorator sites are in ``app.py``, and
these parameters are not called where they are received."""


class App:
    def __init__(self):
        self.views = {}

    def route(self, rule):
        def register(view):
            self.views[rule] = view
            return view

        return register

    def dispatch(self, rule):
        return self.views[rule]()


class Bus:
    def __init__(self):
        self.listeners = []

    def subscribe(self, listener):
        self.listeners.append(listener)

    def publish(self, event):
        for listener in self.listeners:
            listener(event)


class Timer:
    def __init__(self, callback):
        self.callback = callback

    def fire(self):
        self.callback()
