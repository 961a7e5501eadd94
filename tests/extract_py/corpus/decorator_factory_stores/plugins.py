"""Decorators called first (``@name(...)``, ``@obj.method(...)``) and bound methods used as
decorators: what they store, on a class, in a dict or on the instance, is found again."""

CODECS = {}


def codec(name):
    def deco(cls):
        CODECS[name] = cls
        return cls

    return deco


@codec("json")
class JsonCodec:
    def encode(self, x):
        return str(x)


def helper():
    return 1


def with_handler(fn):
    def deco(cls):
        cls.handler = staticmethod(fn)
        return cls

    return deco


@with_handler(helper)
class Job:
    def run(self):
        return self.handler()


class Router:
    def __init__(self):
        self.routes = {}
        self.hooks = []

    def route(self, path):
        def deco(fn):
            self.routes[path] = fn
            return fn

        return deco

    def before(self, fn):
        self.hooks.append(fn)
        return fn

    def dispatch(self, path):
        for hook in self.hooks:
            hook()
        return self.routes[path]()


router = Router()


@router.route("/")
def index():
    return "home"


@router.before
def load_user():
    return None


def use():
    CODECS["json"]().encode(1)
    Job.handler()
    Job().run()
    router.dispatch("/")
