from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Mapping, Optional, Sequence


class Job:
    def run(self):
        return 1


class Queue:
    def __init__(self) -> None:
        self.pending: List[Job] = []
        self.by_name: Dict[str, Job] = {}

    def drain(self):
        for job in self.pending:
            job.run()
        self.pending[0].run()
        return [j.run() for j in self.by_name.values()]

    def named(self, name: str):
        return self.by_name[name].run()


@dataclass
class Batch:
    jobs: list[Job] = field(default_factory=list)
    extra: Optional[Sequence[Job]] = None

    def run_all(self):
        for job in self.jobs:
            job.run()
        for job in self.extra or []:
            job.run()


def each(jobs: Mapping[str, Job]) -> Iterator[Job]:
    for name, job in jobs.items():
        job.run()
    yield from jobs.values()


def first(jobs: tuple[Job, ...]):
    return next(iter(jobs)).run()


def numbers(xs: list[int]):
    return [x.bit_length() for x in xs]


def main():
    for job in each({}):
        job.run()
