class Session:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def query(self):
        return 1


class Pool:
    def acquire(self) -> Session:
        return Session()


def run(pool: Pool):
    with Session() as s:
        s.query()
    with pool.acquire() as s2, open("f") as fh:
        fh.read()
        s2.query()
