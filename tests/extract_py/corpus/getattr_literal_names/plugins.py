"""``getattr(obj, name)`` with ``name`` a name rather than a literal: bound only to string
literals (``name = "reload"``), or a parameter every call site passes a literal for (``run(p,
"setup")``), it names those attributes; a name from anywhere else (a parameter some site passes
a computed value, a loop variable) names nothing."""


class Plugin:
    def setup(self):
        return "setup"

    def teardown(self):
        return "teardown"

    def reload(self):
        return "reload"


def run(plugin: Plugin, hook):
    return getattr(plugin, hook)()


def reload_it(plugin: Plugin):
    name = "reload"
    return getattr(plugin, name)()


def unknown(plugin: Plugin, names):
    for name in names:
        getattr(plugin, name)()


def lifecycle():
    p = Plugin()
    run(p, "setup")
    run(p, "teardown")
    unknown(p, ["reload"])
