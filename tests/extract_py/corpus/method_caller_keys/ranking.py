"""Items ordered and picked by one of their methods, named as a string (operator.methodcaller)."""

from operator import methodcaller


class Job:
    def priority(self):
        return 1

    def label(self):
        return "job"


class Task:
    def priority(self):
        return 2

    def label(self):
        return "task"


def plan(jobs: list[Job], task: Task):
    by_priority = methodcaller("priority")
    ordered = sorted(jobs, key=by_priority)
    first = min(jobs, key=methodcaller("priority"))
    either = max(jobs[0], task, key=by_priority)
    jobs.sort(key=by_priority)
    names = list(map(methodcaller("label"), jobs))
    return ordered, first, either, names
