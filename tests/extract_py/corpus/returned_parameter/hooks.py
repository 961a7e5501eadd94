"""A function or method that returns one of its parameters as it is (``return func``, perhaps
after another return) gives, at each call, what that call passes for it (and what its other
returns give), not every caller's argument: ``ensure(on_request)()`` calls on_request only."""


def wrap_async(func):
    def runner(*args):
        return func(*args)

    return runner


class App:
    def __init__(self):
        self.before = []
        self.after = []

    def ensure(self, func, asynchronous=False):
        if asynchronous:
            return wrap_async(func)
        return func

    def add(self, before, after):
        self.before.append(before)
        self.after.append(after)

    def run_before(self):
        for hook in self.before:
            self.ensure(hook)()

    def run_after(self):
        for hook in self.after:
            self.ensure(hook)()


def identity(x):
    return x


def on_request():
    return 1


def on_response():
    return 2


def main():
    app = App()
    app.add(on_request, on_response)
    app.run_before()
    app.run_after()
    identity(on_request)()
    App.ensure(app, on_response)()
