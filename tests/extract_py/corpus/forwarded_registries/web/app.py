"""A registry of views filled through a decorator from another module: the function ``route``
returns receives the view and hands it on to ``add_url_rule``, which stores it in a dict that
``dispatch`` calls by an endpoint read from a rule. ``get`` / ``post`` return ``route``'s
decorator, so ``@app.get("/items")`` reaches it too. ``commands`` maps names to bound methods."""


class Rule:
    def __init__(self, path, endpoint):
        self.path = path
        self.endpoint = endpoint


class App:
    def __init__(self):
        self.view_functions = {}
        self.rules = []
        self.commands = {"routes": self.show_routes, "run": self.serve}

    def add_url_rule(self, path, endpoint, view_func):
        self.rules.append(Rule(path, endpoint))
        self.view_functions[endpoint] = view_func

    def route(self, path, **options):
        def decorator(f):
            endpoint = options.pop("endpoint", None) or f.__name__
            self.add_url_rule(path, endpoint, f)
            return f

        return decorator

    def get(self, path):
        return self.route(path)

    def post(self, path):
        return self.route(path)

    def dispatch(self, path, **args):
        for rule in self.rules:
            if rule.path == path:
                return self.view_functions[rule.endpoint](**args)
        return None

    def show_routes(self):
        return [rule.path for rule in self.rules]

    def serve(self):
        return self.dispatch("/")

    def command(self, name):
        return self.commands.get(name, self.show_routes)()
