"""contextlib's helpers around context managers of the program: closing(x) binds x and calls its
close() on the way out; nullcontext(x) binds x; ExitStack.enter_context(cm) calls cm's __enter__
(its __exit__ when the stack closes) and returns what __enter__ returns."""

import contextlib
from contextlib import AsyncExitStack, ExitStack, closing, nullcontext


class Page:
    def close(self):
        pass

    def read(self):
        return ""


class Lock:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def owner(self):
        return None


class Session:
    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        return False

    async def fetch(self):
        return None


def scrape():
    with closing(Page()) as page:
        return page.read()


def maybe_locked(lock=None):
    with contextlib.nullcontext(lock or Lock()) as held:
        held.owner()


def many():
    with ExitStack() as stack:
        lock = stack.enter_context(Lock())
        lock.owner()


async def many_async():
    async with AsyncExitStack() as stack:
        session = await stack.enter_async_context(Session())
        await session.fetch()
