"""Arguments unpacked at the call site: f(*[a, b]), f(**{"k": v}), forwarding *args / **kwargs."""


class Paginator:
    def count(self):
        return 0


class Page:
    def __init__(self, items, paginator):
        self.paginator = paginator

    def total(self):
        return self.paginator.count()


def first():
    return 1


def second():
    return 2


def run(a, b=None):
    a()
    return b() if b else None


def make_page(*args, **kwargs):
    return Page(*args, **kwargs)  # forwarded: Page's parameters get the callers' arguments


def main():
    run(*[first, second])
    run(**{"a": second})
    make_page([], Paginator()).total()
    make_page([], paginator=Paginator()).total()
