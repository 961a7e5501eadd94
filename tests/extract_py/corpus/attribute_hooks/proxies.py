"""Reading an attribute may run code first: a property getter, a descriptor's __get__, or
__getattr__ when the attribute is found neither on the instance nor on its classes. Calling
the attribute (``obj.prop()``) runs that code too, then calls what it gave."""


class Target:
    def run(self):
        return 1


class Proxy:
    def __init__(self, target):
        self._target = target

    def __getattr__(self, name):
        return getattr(self._target, name)


class Strict(Proxy):
    def known(self):
        return 2


class Loose(dict):
    def __getattr__(self, name):
        return self[name]


def on_event():
    return 3


class Settings:
    @property
    def handler(self):
        return on_event


def use(p: Proxy, s: Strict, d: Loose):
    p.run()  # not found on Proxy: __getattr__
    s.known()  # found: no __getattr__
    value = s.missing  # __getattr__
    target = p._target  # an instance attribute: no __getattr__
    d.keys()  # may come from dict, an external base: no __getattr__
    return value, target


def fire(st: Settings):
    return st.handler()  # the getter, then what it returns
