"""A registry filled from another module with a call's result: ``add_url_rule("/items",
view_func=Items.as_view("items"))`` stores the view function ``as_view`` returns, which
``dispatch`` then calls (and which makes an instance of the class it is called through)."""


class View:
    def dispatch_request(self):
        raise NotImplementedError

    @classmethod
    def as_view(cls, name):
        def view():
            return cls().dispatch_request()

        return view


class App:
    def __init__(self):
        self.view_functions = {}

    def add_url_rule(self, rule, endpoint=None, view_func=None):
        self.view_functions[endpoint or rule] = view_func

    def dispatch(self, endpoint):
        return self.view_functions[endpoint]()
