"""Items stored into an attribute of an instance made in a function (`p = Pipeline();
p.stages.append(parse)`): read back through that variable, and through any other Pipeline
(`def drain(q: Pipeline)`)."""


class Pipeline:
    def __init__(self):
        self.stages = []
        self.sinks = {}


def parse(x):
    return x


def emit(x):
    return x


def build():
    p = Pipeline()
    p.stages.append(parse)
    p.sinks["out"] = emit
    for stage in p.stages:
        stage(1)
    p.sinks["out"](2)
    return p


def drain(q: Pipeline):
    for sink in q.sinks.values():
        sink(3)
