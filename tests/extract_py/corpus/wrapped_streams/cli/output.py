"""A wrapper forwarding unknown attributes to the stream it is given (``__getattr__`` returning
``getattr(self._out, name)``) wraps ``sys.stdout`` in its own module and a ``StringIO`` in a test
module: ``out.getvalue()`` there reads the StringIO's ``getvalue`` (what the importing module's
``Console(StringIO())`` passes), never ``sys.stdout.getvalue`` nor the ``sys.stderr`` another
module wraps, which a real stream lacks."""

import sys


class Console:
    def __init__(self, out):
        self._out = out

    def __getattr__(self, name):
        return getattr(self._out, name)

    def write(self, msg):
        self._out.write(msg)


def default_console():
    console = Console(sys.stdout)
    console.write("ready")
    console.flush()
    return console
