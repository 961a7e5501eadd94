"""Reports written to streams and callbacks that the modules using them pass in."""


class Report:
    def __init__(self, title):
        self.title = title

    def render(self, out):
        out.write(self.title)
        out.flush()

    def each(self, rows, sink, on_row=None):
        for row in rows:
            sink.write(row)
            if on_row is not None:
                on_row(row)

    @classmethod
    def header(cls, out):
        out.write(cls.__name__)

    @staticmethod
    def rule(out):
        out.write("----")


def export(report, out):
    report.render(out)
