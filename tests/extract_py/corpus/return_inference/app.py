class Repo:
    def save(self):
        return True


class Store:
    def put(self):
        return 1


def make():
    return Repo()


def make_annotated() -> "Store":
    return build()


def build():
    return object()


def main():
    make().save()
    make_annotated().put()
    r = make()
    r.save()
