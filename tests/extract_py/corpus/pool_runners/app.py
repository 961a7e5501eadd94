"""Functions handed to process and thread pools, which call them: a pool's map / imap /
imap_unordered / map_async on each item of the iterable, starmap on each tuple's items,
apply / apply_async with a tuple of arguments and a dict of keywords (the async ones
also call their callback and error_callback), an executor's map on the
items of each iterable (one per parameter), an event loop's run_in_executor; a map method of the
program's own class is not a pool."""

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing.pool import ThreadPool


class Page:
    def fetch(self):
        return self

    def parse(self):
        return self


class Link:
    def follow(self):
        return self


def download(page):
    return page.fetch()


def parse(page):
    return page.parse()


def resize(page):
    page.parse()


def merge(page, link):
    page.fetch()
    link.follow()


def report(page, *, verbose=False):
    page.fetch()
    verbose.follow()


def archive(page):
    page.parse()


def checksum(page):
    return page


def collected(results):
    return results


def failed(error):
    return error


def crawl(pages: list[Page]):
    with multiprocessing.Pool(4) as pool:
        pool.map(download, pages)
        for _ in pool.imap(parse, pages, 8):
            pass
        list(pool.imap_unordered(resize, pages))
        pool.starmap(merge, [(Page(), Link())])
        pool.apply_async(report, (Page(),), {"verbose": Link()}).get()
        pool.map_async(archive, pages, callback=collected, error_callback=failed).wait()
    tp = ThreadPool(2)
    tp.apply(checksum, args=(Page(),))
    tp.close()


def gather(pages: list[Page], links: list[Link]):
    with ThreadPoolExecutor() as ex:
        list(ex.map(merge, pages, links))
    with ProcessPoolExecutor() as px:
        px.map(download, pages)


class Batch:
    def map(self, fn, items):
        return [fn(i) for i in items]


def tidy(page):
    page.parse()


def local_batch(pages: list[Page]):
    Batch().map(tidy, pages)


async def offload(page: Page):
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, download, page)
