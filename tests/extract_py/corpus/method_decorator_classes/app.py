"""Method decorators that are subclasses of classmethod / staticmethod (Django's classonlymethod)."""


class classonlymethod(classmethod):
    def __get__(self, instance, cls=None):
        if instance is not None:
            raise AttributeError("only on the class")
        return super().__get__(instance, cls)


class plainstatic(staticmethod):
    pass


class classproperty:
    def __init__(self, method):
        self.fget = method

    def __get__(self, instance, cls=None):
        return self.fget(cls)


class View:
    def __init__(self, **kwargs):
        self.kwargs = kwargs

    def setup(self, request):
        self.request = request

    def dispatch(self, request):
        return self.get(request)

    def get(self, request):
        return request

    @classonlymethod
    def as_view(cls, **initkwargs):
        def view(request):
            self = cls(**initkwargs)
            self.setup(request)
            return self.dispatch(request)

        return view

    @plainstatic
    def helper(value):
        return value.strip()

    @classonlymethod
    def build(cls):
        return cls()


class DetailView(View):
    def get(self, request):
        return self.helper(request)


class Config:
    @classproperty
    def label(cls):
        return cls.__name__.lower()


def show():
    return Config.label.upper()


def main():
    handler = DetailView.as_view(x=1)
    handler("req")
    View.build().setup("r")
    View.helper(" a ")
