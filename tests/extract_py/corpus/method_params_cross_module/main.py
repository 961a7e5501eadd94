import io

from reports.render import Report, export


class Buffer:
    def __init__(self):
        self.parts = []

    def write(self, text):
        self.parts.append(text)

    def flush(self):
        pass


class Console:
    def write(self, text):
        print(text)

    def flush(self):
        pass


class Page:
    def render(self, out):
        out.write("<p>")


def log_row(row):
    print(row)


def main():
    buf = Buffer()
    Report("sales").render(buf)
    report = Report("stock")
    report.each(["a", "b"], Console(), on_row=log_row)
    Report.header(Buffer())
    Report.rule(Console())
    Page().render(Console())
    export(report, io.StringIO())
