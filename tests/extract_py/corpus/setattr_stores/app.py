"""setattr(obj, "name", value) with a literal name stores obj.name like an assignment."""


def ping():
    return "pong"


def log():
    return "logged"


class Client:
    def __init__(self, hook):
        setattr(self, "hook", hook)

    def call(self):
        return self.hook()


class Plugin:
    pass


Client(ping).call()
plugin = Plugin()
setattr(plugin, "run", log)
plugin.run()
