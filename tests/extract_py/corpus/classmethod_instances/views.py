"""An instance made by ``cls()`` in a classmethod, or in a function nested in one (the view
``as_view`` returns), may be of any subclass the method is called through: a method there that
only raises ``NotImplementedError`` also runs the subclasses' overrides. An instance made from a
class named as such (``Codec()``) is of that class alone."""


class View:
    def dispatch_request(self):
        raise NotImplementedError

    @classmethod
    def as_view(cls, name):
        def view(**kwargs):
            self = cls()
            return self.dispatch_request(**kwargs)

        view.__name__ = name
        return view

    @classmethod
    def render(cls):
        return cls().dispatch_request()


class Items(View):
    def dispatch_request(self):
        return []


class Codec:
    def encode(self):
        raise NotImplementedError


class Json(Codec):
    def encode(self):
        return "{}"


def exact():
    return Codec().encode()


items_view = Items.as_view("items")
items_view()
