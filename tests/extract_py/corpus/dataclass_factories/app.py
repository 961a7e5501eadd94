"""A dataclass's generated __init__ calls its fields' default factories."""

from dataclasses import dataclass, field


def new_tags():
    return ["draft"]


class Registry:
    def __init__(self):
        self.items = {}


@dataclass
class Post:
    title: str = ""
    tags: list = field(default_factory=new_tags)
    registry: Registry = field(default_factory=Registry)
    notes: list = field(default_factory=list)


@dataclass
class Article(Post):
    body: str = ""


Post()
Article()
