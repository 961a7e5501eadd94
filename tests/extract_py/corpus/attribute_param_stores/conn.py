"""Attributes stored through a parameter (`def install(conn): conn.on_close = log_close`) on what
the module passes it (`install(Conn())`), read through another variable holding such an instance."""


class Conn:
    def __init__(self):
        self.on_close = None
        self.filters = []


class Pool:
    def __init__(self):
        self.on_close = None


def log_close():
    return 1


def strip(x):
    return x


def install(conn):
    conn.on_close = log_close
    conn.filters.append(strip)


def main():
    c = Conn()
    install(c)
    c.on_close()
    for f in c.filters:
        f("x")
    Pool().on_close()
