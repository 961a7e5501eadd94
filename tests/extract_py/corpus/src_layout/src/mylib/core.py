def engine():
    return helper()


def helper():
    return 1
