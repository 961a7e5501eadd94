import asyncio


class Client:
    async def fetch(self, url):
        await asyncio.sleep(0)
        return url


async def get_client() -> Client:
    return Client()


async def main():
    client = await get_client()
    await client.fetch("u")
    results = await asyncio.gather(client.fetch("a"), client.fetch("b"))
    return results


if __name__ == "__main__":
    asyncio.run(main())
