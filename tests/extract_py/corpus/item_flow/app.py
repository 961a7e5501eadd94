"""Items flow through comprehensions, generator expressions and the builtins that pass them on
(sorted, reversed, list, iter/next, enumerate, zip)."""


class Task:
    def __init__(self, name):
        self.name = name

    def execute(self):
        return self.name


class Report:
    def render(self):
        return "r"


def build(names):
    return [Task(n) for n in names]


def run_all():
    for t in build(["a", "b"]):
        t.execute()


def by_name():
    table = {n: Task(n) for n in "xy"}
    table["x"].execute()
    for r in table.values():
        r.execute()


def pipeline():
    reports = [Report(), Report()]
    for rep in sorted(reports, key=id):
        rep.render()
    for i, rep in enumerate(reversed(reports)):
        rep.render()
    for t, rep in zip(build(["c"]), reports):
        t.execute()
        rep.render()
    first = next(iter(reports))
    first.render()
    copied = list(reports)
    copied[0].render()
    lazy = (Task(n) for n in "z")
    for t in lazy:
        t.execute()
    return sum(len(n) for n in "abc")
