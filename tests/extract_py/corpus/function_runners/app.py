"""Functions handed to the standard library's runners, which call them with the arguments handed
along: threads, timers, executors, event loops, exit hooks, finalizers, cleanups; and
functools.partial, which binds arguments for a later call."""

import asyncio
import atexit
import contextlib
import signal
import threading
import unittest
import weakref
from concurrent.futures import ThreadPoolExecutor
from functools import partial


class Conn:
    def ping(self):
        pass

    def close(self):
        pass


class Job:
    def __init__(self, conn):
        self.conn = conn

    def step(self, conn):
        conn.ping()

    def start(self):
        threading.Thread(target=self.step, args=(self.conn,), daemon=True).start()


def worker(conn, *, timeout=None):
    conn.ping()


def shutdown(conn):
    conn.close()


def compute(conn, n):
    conn.ping()
    return n


def on_signal(signum, frame):
    pass


def serve():
    conn = Conn()
    t = threading.Thread(target=worker, args=(conn,), kwargs={"timeout": 3})
    t.start()
    threading.Timer(5.0, shutdown, args=[conn]).start()
    atexit.register(shutdown, conn)
    weakref.finalize(conn, shutdown, conn)
    with ThreadPoolExecutor() as pool:
        pool.submit(compute, conn, 1)
    with contextlib.ExitStack() as stack:
        stack.callback(conn.close)
    signal.signal(signal.SIGTERM, on_signal)
    Job(conn).start()


async def serve_async(loop):
    conn = Conn()
    await loop.run_in_executor(None, compute, conn, 2)
    await asyncio.to_thread(worker, conn)


def deliver(conn, message):
    conn.ping()
    return message


def notify():
    send = partial(deliver, Conn())
    return send("hello")


def conn_fixture(request):
    conn = Conn()
    request.addfinalizer(conn.close)
    return conn


class ConnTest(unittest.TestCase):
    def setUp(self):
        self.conn = Conn()
        self.addCleanup(shutdown, self.conn)
