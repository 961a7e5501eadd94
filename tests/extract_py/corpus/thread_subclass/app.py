"""Subclasses of threading.Thread and multiprocessing.Process: start() (inherited from the
external base) runs the subclass's run(), in another thread or process."""

import multiprocessing
import threading


class Poller(threading.Thread):
    def __init__(self, queue):
        super().__init__(daemon=True)
        self.queue = queue

    def run(self):
        self.poll()

    def poll(self):
        pass


class Crawler(multiprocessing.Process):
    def run(self):
        self.crawl()

    def crawl(self):
        pass

    def launch(self):
        self.start()
        self.join()


def main():
    poller = Poller([])
    poller.start()
    Crawler().launch()
