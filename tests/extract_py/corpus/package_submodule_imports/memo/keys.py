def hashkey(*args):
    return tuple(args)


def typedkey(*args):
    return hashkey(*args) + tuple(type(a) for a in args)
