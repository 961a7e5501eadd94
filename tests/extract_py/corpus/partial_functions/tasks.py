"""functools.partial(f, ...) calls f when called; partialmethod(m, ...) in a class body is a method
that calls m on the instance it is read through."""

import functools
from functools import partial, partialmethod


def send(channel, message):
    return channel, message


class Job:
    def __init__(self, name):
        self.name = name

    def run(self):
        return self.name


class Light:
    def _set(self, on):
        self.on = on
        return self

    turn_on = partialmethod(_set, True)
    turn_off = functools.partialmethod(_set, False)

    def blink(self):
        return self.turn_on().turn_off()


def main():
    alert = partial(send, "alerts")
    alert("down")
    make = functools.partial(Job, name="nightly")
    make().run()
    Light().blink()


main()
