"""A module-level __getattr__ (PEP 562) answers for the names the module does not define."""


def real():
    return 1


def defined():
    return 2


def __getattr__(name):
    return real
