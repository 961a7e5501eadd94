"""A program metaclass runs when a class using it is created (``__new__`` then ``__init__``, from
the code running the ``class`` statement), and its ``__call__`` when such a class is called;
subclasses inherit the metaclass. ``type`` itself and an external metaclass are not calls into
the program. ``super()`` in a metaclass reaches ``type``'s members."""

import abc

FIELDS = {}


class ModelMeta(type):
    def __new__(mcs, name, bases, ns):
        cls = super().__new__(mcs, name, bases, ns)
        collect(cls, ns)
        return cls

    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)

    def __call__(cls, *args, **kwargs):
        obj = super().__call__(*args, **kwargs)  # type.__call__: a builtin member
        track(obj)
        return obj


def collect(cls, ns):
    FIELDS[cls] = [k for k in ns if not k.startswith("_")]


def track(obj):
    return obj


class Model(metaclass=ModelMeta):  # ModelMeta.__new__ and __init__, at module level
    def __init__(self, **values):
        self.values = values

    def validate(self):
        return bool(self.values)


class User(Model):  # inherits the metaclass: created by ModelMeta too
    name = "x"


class Registry(type):  # a metaclass with no methods of its own: nothing to call
    pass


class Plain(metaclass=Registry):
    pass


class Shape(abc.ABC, metaclass=abc.ABCMeta):  # external metaclass: no edge
    @abc.abstractmethod
    def area(self):
        raise NotImplementedError


def make():
    u = User(name="ada")  # User.__init__ (Model's) and ModelMeta.__call__
    p = Plain()  # nothing: object's __init__, type's __call__
    return u, p


class RegistryMeta(type):
    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)
        cls.handlers = []  # an attribute of every class it creates

    @property
    def default(cls):  # a property of the classes it creates (Django's Model._default_manager)
        return cls.handlers

    def register(cls, fn):  # a method of the classes it creates
        cls.handlers.append(fn)
        return fn


class Events(metaclass=RegistryMeta):
    def fire(self):
        return len(Events.default)


@Events.register  # RegistryMeta.register, bound to Events
def on_start():
    return "started"


def use_events():
    Events.register(on_start)  # RegistryMeta.register
    return Events.default  # the property's getter


def construct():
    return Events.__new__(Events)  # object.__new__, not the metaclass's: no edge
