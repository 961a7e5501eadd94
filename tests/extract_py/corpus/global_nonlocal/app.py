handler = None


def default_handler():
    return "default"


def install():
    global handler
    handler = default_handler


def fire():
    return handler()


def counter():
    step = None

    def set_step():
        nonlocal step
        step = default_handler

    def run():
        set_step()
        return step()

    return run
