"""``xs + [f]`` / ``(f,) + xs`` with a list or tuple display is a list of both operands' items
in order: iterating it gives all of them, and an index before the first item of a spread operand
(``[f] + xs``: ``[0]``), or from the end after the last one (``xs + [f]``: ``[-1]``), is exact."""


def load():
    return 1


def validate():
    return 2


def save():
    return 3


def audit():
    return 4


BASE_STEPS = [load, validate]
STEPS = BASE_STEPS + [save]


def run():
    for step in STEPS:
        step()


def last():
    return STEPS[-1]()


def with_audit(extra):
    hooks = (audit,) + tuple(extra)
    hooks[0]()
    return hooks


def spelled():
    return ([save] + [audit, load])[1]()
