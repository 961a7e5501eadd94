"""`with` over a @contextmanager generator binds what it yields; dict.get's default is one of
the values it may return."""

import contextlib
from contextlib import asynccontextmanager


class Ledger:
    def record(self, entry):
        return entry

    def flush(self):
        return None


@contextlib.contextmanager
def opened_ledger():
    ledger = Ledger()
    try:
        yield ledger
    finally:
        ledger.flush()


@asynccontextmanager
async def remote_ledger():
    yield Ledger()


def plain_generator():
    yield Ledger()


def book(entry):
    with opened_ledger() as led:
        led.record(entry)


async def book_remote(entry):
    async with remote_ledger() as led:
        led.record(entry)


def skip():
    return "skipped"


def charge():
    return "charged"


ACTIONS = {"charge": charge}


def act(name):
    return ACTIONS.get(name, skip)()
