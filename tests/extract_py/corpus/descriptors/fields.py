"""A class attribute holding an instance of a class with __get__ / __set__ / __delete__ (a
descriptor): reading it through an instance or the class calls __get__, assigning it through an
instance __set__, deleting it __delete__."""


class Validated:
    def __set_name__(self, owner, name):
        self.name = "_" + name

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return getattr(obj, self.name)

    def __set__(self, obj, value):
        self.check(value)
        setattr(obj, self.name, value)

    def __delete__(self, obj):
        delattr(obj, self.name)

    def check(self, value):
        return value


class Lazy:
    def __get__(self, obj, objtype=None):
        return Report()


class Report:
    def render(self):
        return "report"


class Order:
    quantity = Validated()
    report = Lazy()
    plain = 3

    def __init__(self, quantity):
        self.quantity = quantity


def use(order: Order):
    n = order.quantity
    order.quantity = n + 1
    del order.quantity
    order.plain = 4
    descriptor = Order.quantity
    return order.report.render(), descriptor
