from eventlog.pipeline import Pipeline
from eventlog.processors import add_timestamp, not_empty, render_json


def write_stdout(line):
    print(line)


def configure():
    pipe = Pipeline([add_timestamp, render_json], validators=[not_empty])
    pipe.add_sinks([write_stdout])
    return pipe


def main():
    configure().run({"msg": "hello"})
