"""Hooks kept in lists grouped by a key (``self.funcs.setdefault(key, []).append(f)``), filled
from another module by a bound method used as the decorator (``@app.before_request``) or called
(``app.register_error_handler(404, not_found)``), and run where the lists are read back: by
``get``, by subscript, through ``reversed``. The hooks are not called where they are received."""


class App:
    def __init__(self):
        self.before_request_funcs = {}
        self.teardown_funcs = {}
        self.error_handlers = {}

    def before_request(self, f):
        self.before_request_funcs.setdefault(None, []).append(f)
        return f

    def teardown_request(self, f):
        self.teardown_funcs.setdefault(None, []).append(f)
        return f

    def register_error_handler(self, code, handler):
        self.error_handlers.setdefault(code, []).append(handler)

    def preprocess(self, names):
        for name in names:
            for func in self.before_request_funcs.get(name, ()):
                func()

    def teardown(self, exc):
        for func in reversed(self.teardown_funcs[None]):
            func(exc)

    def handle(self, code):
        for h in self.error_handlers[code]:
            return h(code)
        return None
