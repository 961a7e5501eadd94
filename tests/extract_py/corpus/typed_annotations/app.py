from typing import Optional


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
