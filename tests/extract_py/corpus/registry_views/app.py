PLUGINS = {}
ROUTES = {}


def register(name, fn):
    PLUGINS[name] = fn


def alpha():
    return "a"


def beta():
    return "b"


register("a", alpha)
register("b", beta)
ROUTES = {"/": alpha, "/b": beta}


def run_all():
    for name, plugin in PLUGINS.items():
        plugin()


def serve():
    for handler in ROUTES.values():
        handler()
    for path, view in ROUTES.items():
        view()
