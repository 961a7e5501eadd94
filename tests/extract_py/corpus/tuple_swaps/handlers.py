"""Tuple assignments whose right side names their own targets: the right side is read first, so
`a, b = b, a` swaps (a is b's function from then on); in a loop the order is not known."""


def on_open():
    return "open"


def on_close():
    return "close"


def on_error():
    return "error"


def swap_once():
    first, second = on_open, on_close
    first, second = second, first
    return first()


def rotate():
    a, b, c = on_open, on_close, on_error
    a, b, c = b, c, a
    return a()


def swap_in_a_loop(n):
    left, right = on_open, on_close
    for _ in range(n):
        left, right = right, left
    return left()


def unrelated_names():
    x, y = on_open, on_close
    x, y = y, on_error
    return x(), y()
