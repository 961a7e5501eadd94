import threading
from collections import UserDict


class Worker(threading.Thread):
    def run(self):
        self.work()

    def work(self):
        return 1


class Store(UserDict):
    def load(self):
        self.update({"a": 1})


def main():
    w = Worker()
    w.start()
    w.run()
