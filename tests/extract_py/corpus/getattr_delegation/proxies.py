"""``__getattr__`` forwarding a name it is asked for to another object: ``getattr(self._inner, name)``
reads that name on the delegate (whose class is known from what the proxy is given)."""


class Real:
    def run(self):
        return 1

    def stop(self):
        return 0


class Proxy:
    def __init__(self, inner: Real):
        self._inner = inner

    def __getattr__(self, name):
        return getattr(self._inner, name)


class Lazy:
    def __init__(self, factory):
        self._factory = factory
        self._obj = None

    def __getattr__(self, attr):
        if self._obj is None:
            self._obj = self._factory()
        return getattr(self._obj, attr)


class Tracker:
    def add_name(self, name):
        return name


class Defaults:
    DEBUG = False

    def describe(self):
        return "defaults"


class Settings:
    def __init__(self, defaults: Defaults):
        self.__dict__["_seen"] = Tracker()  # an instance attribute: __getattr__ is not asked for it
        self.defaults = defaults

    def __getattr__(self, name):
        return getattr(self.defaults, name, None)

    def mark(self):
        self._seen.add_name("DEBUG")
        return self.describe()


class Other:
    def run(self):
        return 2


def main():
    p = Proxy(Real())
    p.run()
    p.stop()
    lazy = Lazy(Real)
    lazy.stop()
    Other().run()
    Settings(Defaults()).mark()


main()
