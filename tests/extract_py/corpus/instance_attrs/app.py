class Repo:
    def save(self):
        return True


class Cache:
    def clear(self):
        return None


class Service:
    def __init__(self, cache: Cache):
        self.repo = Repo()
        self.cache = cache

    def run(self):
        self.repo.save()
        self.cache.clear()


def main():
    s = Service(Cache())
    s.repo.save()
