import sys

from cli.output import Console


class Prompt:
    def __init__(self, out=None):
        self.out = out or Console(sys.stderr)
