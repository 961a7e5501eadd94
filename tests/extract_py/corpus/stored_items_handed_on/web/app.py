"""A registry filled from another module and read back without calling the item where it is
read: handed to a method that returns it (``self.ensure_sync(self.view_functions[endpoint])()``),
bound to a name called later (``handler = self.error_handlers.get(code)``), by keyword at the
registering call (``add_url_rule("/", view_func=index)``)."""


class App:
    def __init__(self):
        self.view_functions = {}
        self.error_handlers = {}

    def add_url_rule(self, rule, endpoint=None, view_func=None, **options):
        if endpoint is None:
            endpoint = view_func.__name__
        self.view_functions[endpoint] = view_func

    def errorhandler(self, code):
        def decorator(f):
            self.error_handlers[code] = f
            return f

        return decorator

    def ensure_sync(self, func):
        return func

    def dispatch_request(self, endpoint, **view_args):
        return self.ensure_sync(self.view_functions[endpoint])(**view_args)

    def handle_error(self, code):
        handler = self.error_handlers.get(code)
        if handler is None:
            return None
        return handler(code)
