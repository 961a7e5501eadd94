from dispatch import run, run_any, run_step


def load():
    return "load"


def save():
    return "save"


def prepare():
    return 1


def finish():
    return 2


ACTIONS = {"load": load, "save": save}


def main(command):
    run(ACTIONS, "load")
    run_step([prepare, finish], 1)
    return run_any(ACTIONS, command)
