"""*args is a tuple of the extra positional arguments, **kwargs a dict of the extra keyword
arguments; a parameter after *args only takes a keyword argument."""


def beep():
    return 1


def flash():
    return 2


def warn():
    return 3


def run_all(*actions):
    for act in actions:
        act()


def first_of(*actions):
    return actions[0]()


def configure(**hooks):
    hooks["on_start"]()
    for h in hooks.values():
        h()


def tagged(label, *rest, after=None):
    after()


class Bus:
    def emit(self, *listeners, **options):
        for fn in listeners:
            fn()
        options.get("done")()


EXTRA = [warn]

run_all(beep, flash)
run_all(*EXTRA)
first_of(flash, beep)
configure(on_start=beep, on_stop=flash)
tagged("x", beep, flash, after=warn)
Bus().emit(beep, done=warn)
