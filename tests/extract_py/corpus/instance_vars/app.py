class Repo:
    def save(self):
        return True

    def load(self):
        return None


def main():
    r = Repo()
    r.save()
    other = r
    other.load()


repo = Repo()
repo.save()
