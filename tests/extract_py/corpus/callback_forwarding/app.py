"""A function handed to a higher-order function that calls its parameter with arguments receives
those arguments (here: other functions, which it then calls)."""


def to_upper(text):
    return text.upper()


def strip_all(text):
    return text.strip()


def shout(formatter):
    return formatter("hey")


def run_stage(stage, item):
    return stage(item)


def pipeline(runner):
    return runner(to_upper, "a")


def dispatch(handler):
    handler(strip_all)


def combine(first, second):
    return first(second)


pipeline(run_stage)
run_stage(strip_all, "b")
dispatch(shout)
combine(shout, to_upper)

apply_twice = lambda fn, v: fn(fn(v))
apply_twice(strip_all, " x ")
