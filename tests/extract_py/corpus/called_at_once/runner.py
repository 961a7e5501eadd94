def call(h):
    return h()  # what h returns: the function a caller's factory makes


def call_with(h, arg):
    return h(arg)
