"""Creating a class calls its bases' __init_subclass__ and the __set_name__ of the descriptors
its body assigns, from the code that runs the class statement."""

REGISTRY = {}


class Plugin:
    def __init_subclass__(cls, name="", **kwargs):
        super().__init_subclass__(**kwargs)
        register(cls, name)


def register(cls, name):
    REGISTRY[name] = cls


class Named:
    def __set_name__(self, owner, name):
        self.name = name


class Csv(Plugin, name="csv"):  # Plugin.__init_subclass__, at module level
    column = Named()  # Named.__set_name__
    size = 3


class Plain:  # no hook
    pass


def make_plugin():
    class Local(Plugin):  # Plugin.__init_subclass__, from make_plugin
        pass

    return Local


class Json(Csv):  # Plugin.__init_subclass__ again (inherited); Csv's own hook is Plugin's
    pass
