def a(x=0):
    return x


def b(x=0):
    return x + 1


def pick(flag):
    if flag:
        return a
    return b


def apply(f, value):
    return f(value)


def run():
    fn = a
    fn()
    chosen = pick(True)
    chosen()
    alias = fn
    alias()
    apply(b, 1)
