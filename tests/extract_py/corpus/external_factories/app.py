"""A capitalised function of the standard library (a factory: `tempfile.NamedTemporaryFile`,
`threading.RLock`, which the module's source defines with `def`) is called by name, not as a class:
no `__init__`. What it returns keeps its members named through it (`lock.acquire()` ->
`threading.RLock.acquire`). A class of the standard library (`threading.Thread`) and a capitalised
name of a package whose source is not at hand (`requests.Session`) are instantiated: `__init__`."""

import tempfile
import threading
from tempfile import NamedTemporaryFile

import requests


def spool(data):
    f = NamedTemporaryFile()
    f.write(data)
    return f


def scratch():
    return tempfile.TemporaryFile()


def guarded():
    lock = threading.RLock()
    lock.acquire()
    worker = threading.Thread(name="w")
    worker.start()
    lock.release()


def connect():
    return requests.Session()
