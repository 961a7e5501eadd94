from typing import Any, Optional


class Repo:
    def save(self):
        return True


def make():
    return None


def run(repo: Optional[Repo], other: "Repo | None" = None):
    x: Repo = make()
    x.save()
    repo.save()
    other.save()


def loose(anything: Any):
    anything.save()  # Any says nothing: no edge (not "typing.Any.save")
    kind = str
    kind.upper("x")  # a method of the builtin class
    kind.save()  # str has no save: no edge (not "<builtin>.str.save")
