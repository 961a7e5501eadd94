def first():
    pass


def second():
    pass


HANDLERS = {"a": first, "b": second}


def lookup_and_run(key):
    HANDLERS[key]()  # called from another module with "b" only


def shared(key):
    HANDLERS[key]()  # called here with "a" and from another module with "b"


shared("a")
