"""Members of external classes: named one level deep, never guessed beyond."""

import io
import os.path
import threading

import requests


class Worker(threading.Thread):
    def run(self):
        self.helper.wait()  # set by someone else: not a known member of Thread's
        return os.path.join("a", "b")

    def go(self):
        self.start()  # inherited from the external base


class Stream(io.IOBase):
    def __init__(self, inner):
        self._read = inner.read

    def read(self):
        return self._read()  # assigned on self: not io.IOBase._read


def fetch():
    s = requests.Session()
    s.get("u")
    s.headers.update({})  # an attribute of an external member: nothing
    return requests.get("v")
