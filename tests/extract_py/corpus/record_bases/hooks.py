"""Options typed as TypedDicts and records as NamedTuples: their values are a dict and a tuple."""

from typing import NamedTuple, TypedDict


class SpecOpts(TypedDict, total=False):
    firstresult: bool
    historic: bool


class Impl(NamedTuple):
    name: str
    priority: int

    def describe(self):
        return f"{self.name}:{self.priority}"


def first_only(opts: SpecOpts) -> bool:
    return bool(opts.get("firstresult")) and "historic" not in opts.keys()


def reprioritize(impl: Impl, impls: list[Impl]) -> Impl:
    moved = impl._replace(priority=impl.priority + 1)
    impls.count(moved)
    impl.describe()
    return moved if impl.count(impl.name) else impl
