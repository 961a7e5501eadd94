"""A loop variable over a tuple or list display of string literals holds those strings:
``getattr(obj, name)()`` calls the attributes they name, and so does a name built from one
(``"do_" + step``, ``f"on_{event}"``), also when the display is bound to a name first
(``PHASES``). Methods the strings do not name are not called, nor those another loop over the
same variable names (``discover``: only the second loop's names are called); a variable the body
binds again names what it may hold there (``release``: its strings and the loop's)."""

PHASES = ("build", "check")


class Fixture:
    def setup(self):
        pass

    def teardown(self):
        pass

    def reset(self):
        pass


class Pipeline:
    def do_fetch(self):
        pass

    def do_parse(self):
        pass

    def do_publish(self):
        pass

    def on_start(self):
        pass

    def on_stop(self):
        pass

    def on_error(self):
        pass

    def build(self):
        pass

    def check(self):
        pass

    def deploy(self):
        pass

    def run(self):
        for step in ["fetch", "parse"]:
            getattr(self, "do_" + step)()

    def notify(self):
        for event in ("start", "stop"):
            handler = getattr(self, f"on_{event}", None)
            if handler is not None:
                handler()

    def phases(self):
        for phase in PHASES:
            getattr(self, phase)()

    def release(self, dry_run):
        for phase in ("build", "check"):
            if not dry_run:
                phase = "deploy"
            getattr(self, phase)()


def around(fixture: Fixture):
    for hook in ("setup", "teardown"):
        getattr(fixture, hook)()


class Module:
    def app(self):
        pass

    def application(self):
        pass

    def create_app(self):
        pass

    def make_app(self):
        pass


def discover(module: Module):
    for attr in ("app", "application"):
        found = getattr(module, attr, None)
        if found is not None:
            return found
    for attr in ("create_app", "make_app"):
        factory = getattr(module, attr, None)
        if factory is not None:
            return factory()
    return None
