"""``globals()`` is the module's namespace: a dict of its names, read by a literal (or a name
always bound to one) to find a function or class."""

DEFAULT = "cmd_help"


def cmd_help():
    return "usage"


def cmd_run():
    return 0


class Runner:
    def start(self):
        return 1


def dispatch():
    globals()["cmd_run"]()
    globals()[DEFAULT]()
    handler = globals().get("cmd_help")
    handler()
    globals()["Runner"]().start()


def by_key(name):
    return globals()[name]()  # any name of the module: not followed


dispatch()
