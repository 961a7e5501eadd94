"""Dispatch helpers whose tables and keys come from the modules calling them."""


def run(table, key):
    return table[key]()


def run_step(steps, i):
    return steps[i]()


def run_any(table, name):
    return table[name]()
