"""`with` over an instance of an external class binds the instance itself (the usual __enter__
returns self: sessions, archives, executors, exit stacks), so its methods are named through the
class; an external function's result stays unknown."""

import zipfile
from contextlib import ExitStack, suppress

import aiohttp
import requests


def pack(paths):
    with zipfile.ZipFile("out.zip", "w") as archive:
        for p in paths:
            archive.write(p)
    with suppress(OSError) as nothing:
        nothing.close()


def download(url):
    with requests.Session() as session:
        return session.get(url).json()


async def download_async(url):
    async with aiohttp.ClientSession() as session:
        async with session.get(url) as response:
            return await response.text()


def cleanup_all(paths):
    with ExitStack() as stack:
        for p in paths:
            stack.push(p)
