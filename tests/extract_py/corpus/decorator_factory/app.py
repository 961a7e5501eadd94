REGISTRY = {}


def register(name):
    def decorator(fn):
        REGISTRY[name] = fn
        return fn

    return decorator


@register("a")
def handler_a():
    return 1


def call_all():
    handler_a()
