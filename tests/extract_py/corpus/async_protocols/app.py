class Ticker:
    def __init__(self, n):
        self.n = n

    def __aiter__(self):
        return self

    async def __anext__(self):
        if self.n <= 0:
            raise StopAsyncIteration
        self.n -= 1
        return self.n


class Conn:
    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        return False

    async def send(self, x):
        return x


async def main():
    async with Conn() as conn:
        async for tick in Ticker(3):
            await conn.send(tick)
    return [t async for t in Ticker(1)]
